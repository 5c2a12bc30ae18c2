"""`python -m host serve`: the host on stdio or streamable HTTP."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import logging
import os
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from host.calls.registry import ToolRegistry
from host.settings.browser_options import OptionError, add_browser_options, options_from
from host.settings.caps import CAPS, parse_caps
from host.settings.caps import summary as caps_summary
from host.settings.config import LOOPBACK_HOSTS, HostConfig
from host.settings.config_file import ConfigFileError, add_config_option, where_set, with_config
from host.settings.options import OneLineParser, add_http_limits, parse_address, whole_number
from host.settings.peer_options import add_peer_options, apply_peer_options
from host.settings.secrets_file import Secrets, SecretsFileError, install_log_scrubber, read_secrets
from host.shared.yaml_cache import YamlCache, default_location

if TYPE_CHECKING:
    from host.browsers.browser import BrowserPool
    from host.calls.core import Host
    from host.sessions.keys import SessionKey
    from host.transports.early_answers import EarlyResponder
    from host.transports.stdio_wire import StdioWire

log = logging.getLogger("host")

TOKEN_ENV = "PLAYWRIGHT_TOOL_HOST_TOKEN"
# The commands whose options a `--config` file may give (docs/options.md lists their keys).
CONFIG_COMMANDS = ("serve", "executor")


def build_parser() -> argparse.ArgumentParser:
    # Named as it was started: the console script, or the module.
    script = Path(sys.argv[0]).name
    parser: argparse.ArgumentParser = OneLineParser(
        prog=script if script == "playwright-tool-host" else "python -m host",
        description="Serve the Playwright tools.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve", help="serve the tools over MCP (stdio or HTTP) and the scripting callback"
    )
    mode = serve.add_mutually_exclusive_group(required=True)
    mode.add_argument("--stdio", action="store_true", help="MCP over standard input and output")
    mode.add_argument(
        "--http",
        metavar="HOST:PORT",
        type=parse_address,
        help="streamable HTTP at /mcp and POST /scripting/callback (HOST defaults to 127.0.0.1; port 0 picks one)",
    )
    serve.add_argument(
        "--toolset",
        action="append",
        metavar="NAME",
        help="tools MCP lists: default (the web_agent toolset), all, or a toolset name (web_browser, web_framework); a comma-separated list, or repeated",
    )
    serve.add_argument(
        "--executable-path",
        default="/usr/bin/chromium",
        help="Chromium to launch (default /usr/bin/chromium)",
    )
    serve.add_argument(
        "--cdp-endpoint",
        metavar="URL",
        help="connect to a running browser over CDP instead of launching one",
    )
    serve.add_argument(
        "--browser-endpoint",
        action="append",
        default=[],
        metavar="URL",
        help="a browser to use instead of launching one: ws://HOST:PORT/... a Playwright browser "
        "server (launch-server, or run-server given this host's launch options), "
        "selenium+http://HUB:PORT a Selenium Grid 4 hub (Chromium over the hub's CDP), "
        "http://HOST:PORT a browser over CDP; ?max=N limits its live sessions; repeatable: each "
        "new session goes to the healthy endpoint with the fewest",
    )
    serve.add_argument(
        "--selenium-capabilities",
        metavar="JSON",
        help='capabilities merged into what a Selenium endpoint\'s sessions ask for ({"se:name": '
        '"agents"}); a goog:chromeOptions given here replaces the launch\'s own; only beside a '
        "selenium+ endpoint",
    )
    serve.add_argument(
        "--max-sessions",
        type=whole_number(1),
        default=32,
        metavar="N",
        help="sessions held at once (default 32); one more gets too_many_sessions",
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="close a session after this long without a call (default 900, at most 86400)",
    )
    serve.add_argument(
        "--action-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="Playwright's default action timeout (default 5, at most 300)",
    )
    serve.add_argument(
        "--navigation-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="Playwright's default navigation timeout (default 60, at most 300); no call runs "
        "longer than "
        "this plus 5 seconds",
    )
    serve.add_argument(
        "--timeout-settle",
        type=float,
        default=500.0,
        metavar="MILLISECONDS",
        help="after an action that may set something off (click, key, select, drop, drag, "
        "submit, ...), the longest wait for a timer, animation frame or request it started in "
        "the page; the host answers as soon as none is pending (then waits for a navigation to "
        "load, at most 10 s, and requests to finish, at most 5 s) (default 500; 0 answers at "
        "once)",
    )
    serve.add_argument(
        "--console-level",
        choices=("error", "warning", "info", "debug"),
        default="info",
        help="the least severe console messages an action's result lists as new (default info; "
        "each level includes the more severe ones)",
    )
    serve.add_argument(
        "--dialogs",
        choices=("report", "accept", "dismiss"),
        default="report",
        help="what happens to dialogs nobody answered (default report: they stay open until "
        "browser_handle_dialog answers; accept or dismiss: answered at once, and reported)",
    )
    serve.add_argument(
        "--token-file",
        type=Path,
        help=f"file holding the bearer token HTTP callers must send (or set {TOKEN_ENV}); required off loopback",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another Host header value to accept (behind a proxy)",
    )
    serve.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another Origin header to accept (behind a proxy)",
    )
    serve.add_argument(
        "--enable-execute",
        action="store_true",
        help="offer browser_execute_python (formerly playwright_execute: runs Python code sent by "
        "the caller); off by default: absent from every listing, refused by every transport",
    )
    serve.add_argument(
        "--upload-dir",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="a directory upload_file may read files from; repeatable (default: uploads off)",
    )
    serve.add_argument(
        "--allow-file-dir",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="let pages open file: URLs under DIR (symlinks and .. resolved); repeatable (default: "
        "file: URLs are refused)",
    )
    add_http_limits(serve)
    serve.add_argument(
        "--storage-dir",
        type=Path,
        metavar="DIR",
        help="where webBrowser saves screenshots (DIR/screenshots/); default: returned as base64",
    )
    serve.add_argument(
        "--generated",
        type=Path,
        help="the generator's output directory (default: found beside playwright_tools)",
    )
    serve.add_argument(
        "--record",
        type=Path,
        metavar="PATH",
        help="append every successful call of a recordable tool to a trail at PATH (with "
        "--http: a directory, one trail per caller); browser_objective opens a new objective; "
        "refused at start if it cannot be written",
    )
    serve.add_argument(
        "--codegen",
        choices=("python", "typescript", "none"),
        help="add to each recordable tool's result the Playwright code it amounted to (none, "
        "as not given: no code)",
    )
    serve.add_argument(
        "--output-dir",
        type=Path,
        metavar="DIR",
        help="where the host keeps files it makes, such as downloads (default: a folder under "
        "the system's temp dir)",
    )
    add_browser_options(serve)
    serve.add_argument(
        "--secrets",
        type=Path,
        metavar="PATH",
        help="a dotenv file of secrets (NAME=value): a model types ${NAME} in fill or "
        "send_keys text, the page gets the value, and every result, error, log line and trail "
        "shows ${NAME}",
    )
    serve.add_argument(
        "--caps",
        action="append",
        default=[],
        metavar="LIST",
        help="opt-in tools, comma-separated; repeatable: "
        + "; ".join(f"{cap} ({caps_summary(cap)})" for cap in sorted(CAPS)),
    )
    add_peer_options(serve, mode)
    add_config_option(serve)
    serve.add_argument(
        "--log-level",
        default="warning",
        choices=("debug", "info", "warning", "error"),
        help="the least important log records written to standard error (default warning)",
    )
    report = commands.add_parser(
        "report", help="write host/toolsets/REPORT.md (what each toolset costs a model)"
    )
    report.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if the report is stale"
    )
    from host.commands.trail_cli import add_trail_commands

    add_trail_commands(commands)
    # The web executor service (host/executor/) keeps its options and its startup to itself.
    from host.executor.cli import add_executor_command

    add_executor_command(commands)
    return parser


def subcommands(
    parser: argparse.ArgumentParser,
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """The subcommands of `build_parser()`'s parser: `.choices` maps each name (serve, report,
    replay, export, executor) to its own parser, in the order they were added."""
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def config_from(args: argparse.Namespace) -> HostConfig:
    """The host's settings from `serve`'s options; raises OptionError (a bad value, naming the
    option), SecretsFileError, or OSError (the token file)."""
    apply_peer_options(args)
    token = os.environ.get(TOKEN_ENV) or None
    if args.token_file is not None:
        token = args.token_file.read_text(encoding="utf-8").strip() or None
    browser = options_from(args)
    try:
        caps = parse_caps(args.caps)
    except ValueError as error:
        raise OptionError("--caps", str(error)) from None
    secrets = Secrets()
    if args.secrets is not None:
        skipped: list[str] = []
        secrets = read_secrets(args.secrets, skipped)
        for warning in skipped:
            print(f"warning: {warning}", file=sys.stderr)
        if browser.save_trace or browser.save_video:
            option = "--save-trace" if browser.save_trace else "--save-video"
            raise OptionError(
                option,
                "a trace or video shows what --secrets keeps from the model (typed values, "
                "the page's text); give one of the two",
            )
    from host.browsers.endpoint_specs import endpoint_options

    endpoints, capabilities = endpoint_options(args)
    if endpoints:
        if args.cdp_endpoint:
            raise OptionError(
                "--browser-endpoint", "give --browser-endpoint or --cdp-endpoint, not both"
            )
        if browser.user_data_dir is not None:
            raise OptionError(
                "--browser-endpoint", "a --user-data-dir profile needs a browser this host launches"
            )
    max_sessions = args.max_sessions
    if browser.user_data_dir is not None:
        max_sessions = 1  # one profile, one browser context: one session holds it at a time
    return HostConfig(
        executable_path=args.executable_path or None,
        cdp_endpoint=args.cdp_endpoint,
        browser_endpoints=endpoints,
        selenium_capabilities=capabilities,
        max_sessions=max_sessions,
        idle_timeout=_seconds("--idle-timeout", args.idle_timeout, MAX_IDLE_S, 900),
        action_timeout=_seconds("--action-timeout", args.action_timeout, MAX_CALL_S, 5),
        navigation_timeout=_seconds(
            "--navigation-timeout", args.navigation_timeout, MAX_CALL_S, 60
        ),
        dialog_policy=args.dialogs,
        settle_timeout=_settle_seconds(args.timeout_settle),
        console_level=args.console_level,
        snapshot_mode=args.snapshot_mode,
        snapshot_boxes=args.snapshot_boxes,
        toolsets=_toolsets(args.toolset),
        generated_dir=args.generated,
        token=token,
        allowed_hosts=tuple(args.allowed_host),
        allowed_origins=tuple(args.allowed_origin),
        enable_execute=args.enable_execute,
        upload_dirs=tuple(args.upload_dir),
        storage_dir=args.storage_dir,
        file_dirs=tuple(args.allow_file_dir),
        max_connections=max(8, args.max_connections),
        http_header_timeout=max(0.5, args.http_header_timeout),
        http_body_timeout=max(0.5, args.http_body_timeout),
        record=args.record,
        record_per_caller=args.record is not None and args.http is not None,
        codegen=None if args.codegen == "none" else args.codegen,
        output_dir=args.output_dir,
        headless=not browser.headed,
        proxy_server=args.proxy_server,
        browser=browser,
        secrets=secrets,
        caps=caps,
        test_id_attribute=args.test_id_attribute,
        image_responses=args.image_responses,
        shared_context=args.shared_browser_context,
        sandbox=args.sandbox,
        cdp_headers=tuple(args.cdp_header),
        cdp_timeout=args.cdp_timeout,
    )


def _toolsets(given: list[str] | None) -> tuple[str, ...]:
    """`--toolset` values, each a name or a comma-separated list of names (as `--caps`)."""
    names = [n.strip() for value in given or () for n in value.split(",") if n.strip()]
    return tuple(dict.fromkeys(names)) or ("default",)


MAX_IDLE_S = 86_400.0
"""The longest `--idle-timeout`: a day. Past it an idle session would hold its browser context
for good; the cap also catches the peer's milliseconds (`--idle-timeout 3600000`, an hour there)."""
MAX_CALL_S = 300.0
"""The longest action or navigation timeout, as the peer's `--timeout-action` allows (300000 ms)."""


def _seconds(option: str, value: float, most: float, default: float) -> float:
    """A duration option in seconds: above 0 and at most `most` (NaN and infinity refused)."""
    if not 0 < value <= most:
        # Only --idle-timeout shares its name with the peer's, in milliseconds there.
        unit = (
            "; the peer's --idle-timeout is in milliseconds, this host's in seconds"
            if option == "--idle-timeout" and value > most
            else ""
        )
        raise OptionError(
            option, f"give seconds above 0 and at most {most:g} (default {default:g}){unit}"
        )
    return value


def _settle_seconds(milliseconds: float) -> float:
    if not 0 <= milliseconds <= 10_000:
        raise OptionError("--timeout-settle", "give milliseconds from 0 to 10000 (default 500)")
    return milliseconds / 1000


def _starting() -> None:
    """Collect no garbage while the host starts: its imports (the SDK's pydantic models above
    all) allocate much and free little, and collector passes over them cost ~50 ms."""
    gc.disable()


def _started() -> None:
    """The host is serving: what it made so far lives as long as the process, so it is left out
    of the collector's later passes (`gc.freeze`), and collecting resumes."""
    gc.freeze()
    gc.enable()


def _load_stdio_server() -> None:
    """Import the rest of the host, and what serving MCP on stdio needs but no more: the SDK's
    server modules without its package `__init__` files (which load the SDK's client and its
    HTTP client stack)."""
    from host.shared.lazy_packages import defer_init

    defer_init("mcp.server")
    import host.calls.core
    import host.transports.mcp_server  # noqa: F401


async def serve_stdio(config: HostConfig, registry: ToolRegistry) -> None:
    """Serve MCP on stdin/stdout until the client is gone (stdin at EOF, stdout closed) or a
    SIGTERM/SIGINT arrives; then close every session, the browser and the driver, within
    `SHUTDOWN_LIMIT_S`."""
    from host.browsers.browser import BrowserPool
    from host.sessions.keys import SessionKey
    from host.transports.early_answers import AnswerCache, EarlyResponder, base_key
    from host.transports.early_answers import default_location as answers_location
    from host.transports.stdio_wire import StdioWire

    key = SessionKey("stdio", "stdio")  # one process, one connection: one session
    # The browser is launched first (Playwright's driver, a Node process, then Chromium): the
    # launch goes on, on the other core, while this one imports the rest of the host and the
    # SDK, in a thread so that this loop drives the launch meanwhile. The session is made once
    # the host is up, and the first call finds it ready, or nearly.
    pool = BrowserPool(config)
    pool.launch_soon()
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopping: list[str] = []

    def on_signal(signum: int) -> None:
        if not stopping:  # a second signal during the (bounded) shutdown changes nothing
            stopping.append(signal.Signals(signum).name)
            task.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, on_signal, signum)
    wire = StdioWire(config.max_body_bytes)
    # What the client asks first (initialize, tools/list) is answered from answers an earlier
    # start kept, while the SDK loads (host/transports/early_answers.py).
    early = EarlyResponder(
        wire,
        lambda: base_key(config, registry),
        AnswerCache(answers_location()),
        max_depth=config.argument_limits.depth + 8,
    )
    early.start()
    host: Host | None = None
    try:
        await loop.run_in_executor(None, _load_stdio_server)
        from host.calls.core import Host

        host = Host(config, registry, pool)
        await host.start()
        host.warm(key)
        _started()
        await _serve(host, config, key, wire, early)
    except asyncio.CancelledError:
        log.info("stopping on %s", stopping[0] if stopping else "cancellation")
    finally:
        early.close()
        await shutdown(host, pool)
        wire.close()


async def _serve(
    host: Host, config: HostConfig, key: SessionKey, wire: StdioWire, early: EarlyResponder
) -> None:
    import anyio
    from mcp.shared.message import SessionMessage

    from host.transports.mcp_server import build_server
    from host.transports.stdio import serve_wire

    server = build_server(host, host.registry.select(config.toolsets), fixed_key=key)
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)
    async with anyio.create_task_group() as group:

        def gone(why: str) -> None:
            log.info("stopping: %s", why)
            if "stdout" in why:
                group.cancel_scope.cancel()

        async def run_server() -> None:
            await server.run(read_receive, write_send, server.create_initialization_options())
            group.cancel_scope.cancel()

        group.start_soon(run_server)
        group.start_soon(
            lambda: serve_wire(
                wire,
                read_send,
                write_receive,
                max_depth=config.argument_limits.depth + 8,
                on_gone=gone,
                early=early,
            )
        )


SHUTDOWN_LIMIT_S = 15.0


async def shutdown(host: Host | None, pool: BrowserPool) -> None:
    """Close the host (or, if it was not made yet, its browser pool) within `SHUTDOWN_LIMIT_S`;
    past it, kill the driver (and with it Chromium)."""
    closing = asyncio.ensure_future(host.close() if host is not None else pool.close())
    done, _ = await asyncio.wait({closing}, timeout=SHUTDOWN_LIMIT_S)
    if closing not in done:
        log.warning("closing the host took too long; its driver is killed")
        from host.browsers.browser import force_stop

        force_stop(pool)
        for endpoint in host.endpoints.endpoints[1:] if host is not None else []:
            force_stop(endpoint.pool)
    elif closing.exception() is not None:
        log.warning("closing the host failed: %s", closing.exception())


async def serve_http(config: HostConfig, registry: ToolRegistry, sock: socket.socket) -> None:
    from host.calls.core import Host
    from host.transports.http_app import build_app
    from host.transports.http_server import uvicorn_server

    bind_host, actual = sock.getsockname()[:2]
    # The host's own port is kept out of every session's reach (see host/sessions/selfguard.py).
    config = dataclasses.replace(config, guarded_ports=(*config.guarded_ports, actual))
    host = Host(config, registry)
    app = build_app(host, bind_host, port=actual)
    _started()
    shown = f"[{bind_host}]" if ":" in bind_host else bind_host
    server = uvicorn_server(
        app,
        config.http_limits(),
        log_level=logging.getLevelName(log.getEffectiveLevel()).lower(),
    )
    print(
        f"serving MCP at http://{shown}:{actual}/mcp and the scripting callback at http://{shown}:{actual}/scripting/callback",
        file=sys.stderr,
        flush=True,
    )
    try:
        await server.serve(sockets=[sock])
    finally:
        await shutdown(host, host.pool)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    commands = subcommands(parser)
    origins: dict[str, str] = {}
    if arguments and arguments[0] in CONFIG_COMMANDS:
        try:
            arguments[1:], origins = with_config(commands.choices[arguments[0]], arguments[1:])
        except ConfigFileError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    args = parser.parse_args(arguments)
    args.config_origins = origins
    if args.command == "report":
        from host.commands.report import main as report

        return report(check=args.check)
    if args.command == "executor":
        from host.executor.cli import run_executor

        return run_executor(args)
    if args.command in ("replay", "export"):
        from host.commands.trail_cli import run_export, run_replay

        return run_replay(args) if args.command == "replay" else run_export(args)
    logging.basicConfig(
        level=args.log_level.upper(),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    _starting()
    try:
        return serve(args)
    finally:
        gc.enable()  # already, once serving; here for a start that failed or was interrupted


def serve(args: argparse.Namespace) -> int:
    """`serve`: check the options, then serve until the client or a signal ends it."""
    try:
        config = config_from(args)
    except OSError as error:
        print(f"error: cannot read the token file: {error.strerror}", file=sys.stderr)
        return 2
    except OptionError as error:
        print(f"error: {error}{where_set(error.option, args.config_origins)}", file=sys.stderr)
        return 2
    except SecretsFileError as error:
        print(f"error: {error}{where_set('--secrets', args.config_origins)}", file=sys.stderr)
        return 2
    if config.secrets:
        install_log_scrubber(config.secrets)
    if config.browser_endpoints:
        from host.browsers.endpoints import start_check

        lines, fatal = start_check(config)
        for line in lines:
            print(line, file=sys.stderr)
        if fatal:
            return 2
    if config.browser.needs_probe:
        from host.browsers.startup_probe import probe_options

        try:
            if config.browser.save_video:
                from host.browsers.video_encoder import ensure_encoder

                ensure_encoder(config.executable_path)
            asyncio.run(probe_options(config))
        except OptionError as error:
            print(f"error: {error}{where_set(error.option, args.config_origins)}", file=sys.stderr)
            return 2
    try:
        registry = ToolRegistry(config.generated_dir, YamlCache(default_location()))
        registry.select(config.toolsets)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if config.record is not None:
        from host.trails.recorder import Recorder, RecordingError

        try:
            Recorder(config.record, config.record_per_caller).close()
        except RecordingError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    if args.stdio:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_stdio(config, registry))
        return 0
    bind_host, port = args.http
    if bind_host not in LOOPBACK_HOSTS and not config.token:
        print(
            f"error: binding to {bind_host} (not loopback) needs a bearer token: set {TOKEN_ENV} "
            "or pass --token-file",
            file=sys.stderr,
        )
        return 2
    from host.transports.http_server import listening_socket

    try:
        sock = listening_socket(bind_host, port)
    except OSError as error:
        print(f"error: cannot listen on {bind_host}:{port}: {error.strerror}", file=sys.stderr)
        return 2
    # uvicorn handles SIGTERM (graceful shutdown, the host closes its browser), then re-raises
    # it once done; this handler turns that into a normal exit with status 0.
    signal.signal(signal.SIGTERM, _exit_cleanly)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_http(config, registry, sock))
    return 0


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)
