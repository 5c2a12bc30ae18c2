"""`serve`'s options, and the settings (`HostConfig`) they make.

`add_serve_command` declares the `serve` subcommand and every option it takes; `config_from`
reads them into a `HostConfig`, refusing a bad value with an `OptionError` that names the option.
Reading is pure: starting anything is `host/commands/serve.py`'s.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from host.settings.browser_options import OptionError, add_browser_options, options_from
from host.settings.caps import CAPS, parse_caps
from host.settings.caps import summary as caps_summary
from host.settings.config import HostConfig
from host.settings.config_file import add_config_option
from host.settings.options import add_http_limits, parse_address, whole_number, within
from host.settings.peer_options import add_peer_options, apply_peer_options
from host.settings.secrets_file import Secrets, read_secrets

TOKEN_ENV = "PLAYWRIGHT_TOOL_HOST_TOKEN"


def add_serve_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add `serve` and its options to `commands`; its parser."""
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
        help="a directory browser_file_upload (and webBrowser's upload_file) may read files from; repeatable (default: uploads off); "
        "refused at start if it is not an existing directory",
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
    return serve


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
        upload_dirs=_upload_dirs(args.upload_dir),
        storage_dir=args.storage_dir,
        file_dirs=tuple(args.allow_file_dir),
        max_connections=int(within("--max-connections", args.max_connections, 8, 512)),
        http_header_timeout=within("--http-header-timeout", args.http_header_timeout, 0.5, 10),
        http_body_timeout=within("--http-body-timeout", args.http_body_timeout, 0.5, 30),
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


def _upload_dirs(given: list[Path]) -> tuple[Path, ...]:
    """`--upload-dir` values, each an existing directory: one that is missing or a file would
    only show at the first upload, as every file refused."""
    for path in given:
        if not path.exists():
            raise OptionError(
                "--upload-dir",
                f"{path} does not exist; create the directory, or give one that exists "
                "(uploads read files from it)",
            )
        if not path.is_dir():
            raise OptionError(
                "--upload-dir",
                f"{path} is not a directory; give the directory uploads may read files from",
            )
    return tuple(given)


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
