"""`python -m host executor`: the web executor service's command line."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from host.executor.settings import (
    BIND_ENV,
    DEFAULT_BIND,
    ENGINES_ENV,
    KNOWN_ENGINES,
    TOKEN_ENV,
    ExecutorSettings,
)
from host.settings.browser_options import OptionError, add_browser_options, options_from
from host.settings.config_file import add_config_option, where_set
from host.settings.options import add_http_limits, parse_address, within

URL_ORIGINS_ENV = "WEB_EXECUTOR_URL_ORIGINS"


def add_executor_command(commands: Any) -> None:
    """Add the `executor` subcommand to `python -m host`'s subparsers."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "executor",
        help="serve the web executor: POST /execute runs one planner action (navigate, fill, submit, snapshot)",
    )
    parser.add_argument(
        "--bind",
        metavar="HOST:PORT",
        help=f"address to listen on (default ${BIND_ENV}, else {DEFAULT_BIND}; port 0 picks one)",
    )
    parser.add_argument(
        "--user",
        metavar="NAME",
        help="started as root: become this user (real, effective and saved ids, no extra "
        "groups) before the browser starts (e.g. nobody)",
    )
    parser.add_argument(
        "--user-data-dir",
        type=Path,
        metavar="DIR",
        help="with --user: the browser's home (profile, caches, temp files), made the user's "
        "with mode 0700 (default: a new temp dir)",
    )
    parser.add_argument(
        "--engine",
        action="append",
        choices=KNOWN_ENGINES,
        help=f"engine to try, in order; repeatable (default ${ENGINES_ENV} as a comma list, else "
        f"{','.join(KNOWN_ENGINES)})",
    )
    parser.add_argument(
        "--executable-path",
        default="/usr/bin/chromium",
        help="Chromium to launch (default /usr/bin/chromium)",
    )
    parser.add_argument(
        "--browser-endpoint",
        action="append",
        default=[],
        metavar="URL",
        help="a Chromium to use instead of launching one: ws://HOST:PORT/... a Playwright browser "
        "server, selenium+http://HUB:PORT a Selenium Grid 4 hub, http://HOST:PORT CDP; ?max=N "
        "limits its live sessions; repeatable: each action goes to the healthy endpoint with the "
        "fewest; Chromium only (an --engine other than chromium is refused)",
    )
    parser.add_argument(
        "--selenium-capabilities",
        metavar="JSON",
        help='capabilities merged into what a Selenium endpoint\'s sessions ask for ({"se:name": '
        '"executor"})',
    )
    parser.add_argument(
        "--token-file",
        type=Path,
        help=f"file holding the bearer token callers must send (or set {TOKEN_ENV}); required off "
        "loopback; every route but /healthz needs it",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host header to accept",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another Origin header to accept",
    )
    parser.add_argument(
        "--allow-url-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=f"only let actions open this origin (https://shop.example); repeatable (or ${URL_ORIGINS_ENV}, comma list)",
    )
    parser.add_argument(
        "--max-concurrent",
        type=int,
        default=16,
        help="actions running at once, each in its own session (default 16)",
    )
    parser.add_argument(
        "--max-queue",
        type=int,
        default=256,
        help="actions waiting for a slot (default 256); one more is refused as busy",
    )
    parser.add_argument(
        "--max-body-bytes", type=int, default=256 * 1024, help="largest payload (default 262144)"
    )
    parser.add_argument(
        "--step-timeout-ms",
        type=int,
        default=15_000,
        help="how long one fill or click waits for its element to be actionable (default 15000)",
    )
    parser.add_argument(
        "--timeout-ms",
        type=int,
        default=30_000,
        help="an action's time limit unless it names one (default 30000)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="the least important log lines written to standard error, one JSON object each "
        "(default info)",
    )
    add_http_limits(parser)
    add_browser_options(parser, executor=True)
    add_config_option(parser)


def settings_from(args: argparse.Namespace) -> ExecutorSettings:
    token = os.environ.get(TOKEN_ENV) or None
    if args.token_file is not None:
        token = args.token_file.read_text(encoding="utf-8").strip() or None
    engines = tuple(args.engine or ())
    if not engines:
        listed = [e.strip() for e in os.environ.get(ENGINES_ENV, "").split(",") if e.strip()]
        unknown = [e for e in listed if e not in KNOWN_ENGINES]
        if unknown:
            raise ValueError(f"{ENGINES_ENV} names unknown engines: {', '.join(unknown)}")
        engines = tuple(listed) or KNOWN_ENGINES
    from host.browsers.endpoint_specs import endpoint_options

    endpoints, capabilities = endpoint_options(args)
    if endpoints:
        if "chromium" not in engines:
            source = "--engine" if args.engine else f"${ENGINES_ENV}"
            raise OptionError(
                "--browser-endpoint",
                f"endpoints serve Chromium, and {source} names {', '.join(engines)}; leave it "
                "out or include chromium",
            )
        engines = ("chromium",)
    origins = list(args.allow_url_origin) + [
        o.strip() for o in os.environ.get(URL_ORIGINS_ENV, "").split(",") if o.strip()
    ]
    return ExecutorSettings(
        engines=engines,
        executable_path=args.executable_path or None,
        token=token,
        allowed_hosts=tuple(args.allowed_host),
        allowed_origins=tuple(args.allowed_origin),
        url_origins=tuple(origins),
        max_concurrent=int(within("--max-concurrent", args.max_concurrent, 1, 16)),
        max_queue=int(within("--max-queue", args.max_queue, 0, 256)),
        max_body_bytes=int(within("--max-body-bytes", args.max_body_bytes, 1024, 256 * 1024)),
        default_timeout_ms=int(
            within("--timeout-ms", args.timeout_ms, 100, 30_000, ExecutorSettings.max_timeout_ms)
        ),
        step_timeout_ms=int(within("--step-timeout-ms", args.step_timeout_ms, 100, 15_000)),
        user=args.user,
        max_connections=int(within("--max-connections", args.max_connections, 8, 512)),
        header_timeout=within("--http-header-timeout", args.http_header_timeout, 0.5, 10),
        body_timeout=within("--http-body-timeout", args.http_body_timeout, 0.5, 30),
        browser_endpoints=endpoints,
        selenium_capabilities=capabilities,
        browser=options_from(args, executor=True),
    )


def run_executor(args: argparse.Namespace) -> int:
    """Validate, bind, drop privileges, then serve until SIGTERM/SIGINT. Exit 2 on bad settings."""
    from host.executor import logs
    from host.executor.urlpolicy import UrlPolicy

    logs.configure(args.log_level)
    try:
        settings = settings_from(args)
        UrlPolicy(settings.url_origins)
        bind_host, port = parse_address(args.bind or os.environ.get(BIND_ENV) or DEFAULT_BIND)
    except OptionError as error:
        print(f"error: {error}{where_set(error.option, args.config_origins)}", file=sys.stderr)
        return 2
    except (OSError, ValueError, argparse.ArgumentTypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if settings.browser_endpoints:
        from host.browsers.endpoints import start_check

        lines, fatal = start_check(settings.host_config("chromium"))
        for line in lines:
            print(line, file=sys.stderr)
        if fatal:
            return 2
    if settings.browser.needs_probe and "chromium" in settings.engines:
        from host.browsers.startup_probe import probe_options

        try:
            asyncio.run(probe_options(settings.host_config("chromium")))
        except OptionError as error:
            print(f"error: {error}{where_set(error.option, args.config_origins)}", file=sys.stderr)
            return 2
    from host.transports.http_server import ListenRefused, guarded_listener

    # Bound before dropping root, so that a privileged port would still work.
    try:
        sock = guarded_listener(bind_host, port, settings.token, TOKEN_ENV)
    except ListenRefused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    # The service's own port is out of reach of every page an action opens.
    settings = dataclasses.replace(
        settings, guarded_ports=(*settings.guarded_ports, sock.getsockname()[1])
    )
    # Everything is built (and every module imported) while the process may still read all it
    # needs: after dropping root, the interpreter's own library may be out of reach.
    server = _build_server(settings, sock, bind_host)
    if settings.user is not None:
        from host.executor.privileges import drop_privileges, needed_paths, preload

        preload()
        chromium = "chromium" in settings.engines and not settings.browser_endpoints
        needed = needed_paths(settings.executable_path if chromium else None)
        try:
            identity = drop_privileges(settings.user, args.user_data_dir, needed)
        except (OSError, ValueError, RuntimeError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        logs.event(
            "executor_web.privileges", user=identity.user, uid=identity.uid, home=identity.home
        )
    # uvicorn re-raises SIGTERM after its graceful shutdown; this makes that a clean exit.
    signal.signal(signal.SIGTERM, _exit_cleanly)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(server.serve(sockets=[sock]))
    return 0


def _build_server(settings: ExecutorSettings, sock: socket.socket, bind_host: str) -> Any:
    from host.executor.app import build_app
    from host.executor.service import ExecutorService
    from host.transports.http_server import uvicorn_server

    actual = sock.getsockname()[1]
    shown = f"[{bind_host}]" if ":" in bind_host else bind_host
    service = ExecutorService(settings)
    app = build_app(
        service,
        bind_host,
        port=actual,
        announce=lambda: {"url": f"http://{shown}:{actual}", "engine": service.engines.engine},
    )
    server = uvicorn_server(
        app,
        settings.host_config("chromium").http_limits(),
        log_config=None,  # the process's JSON handler (logs.configure) formats uvicorn's lines
    )
    server.config.load()  # imports the protocol, loop and lifespan classes now
    return server


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)
