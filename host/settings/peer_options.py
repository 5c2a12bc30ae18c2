"""`serve`'s options under @playwright/mcp 0.0.83's names, for a drop-in start of this host.

Guarantees: every option of the peer's `--help` is either taken, with the peer's meaning and
units (`--timeout-action` is milliseconds, as the peer's), or refused at start naming the option,
why, and what to use instead; none is silently ignored. Where `serve` already has the meaning
under another name the peer's option sets the same value (`--timeout-action 3000` is
`--action-timeout 3`); `--port`/`--host` become `--http HOST:PORT`, loopback unless told, and
keep the host's rules (a host off loopback still needs a token). Each is also a config-file key
(its name without the dashes). docs/host.md lists the mapping.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from typing import Any

from host.settings.browser_options import OptionError
from host.settings.options import shortened

MAX_TIMEOUT_MS = 300_000
MAX_CDP_HEADERS = 32
MAX_HEADER_CHARS = 8192
_ATTRIBUTE = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]{0,99}")
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}")
PEER_CONFIG_KEYS = frozenset(
    {"browser", "server", "network", "timeouts", "capabilities", "console", "snapshot"}
) - {"browser"}
"""Top-level keys of @playwright/mcp's own nested config file (`browser` is also an option)."""
MOBILE_DEVICE = "Pixel 10"
"""The device `--mobile` emulates in Chromium, as the peer's."""


class Refused(argparse.Action):
    """An option of the peer this host does not support (yet): given, on the command line or in
    a config file, it stops the host with `why` (what to use instead), never ignored."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        why: str,
        nargs: int | str | None = None,
        **kwargs: Any,
    ) -> None:
        self.why = why
        kwargs.setdefault("help", f"@playwright/mcp's; refused: {why}")
        if nargs != 0:
            kwargs.setdefault("metavar", "VALUE")
        super().__init__(option_strings, dest=argparse.SUPPRESS, nargs=nargs, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        raise argparse.ArgumentError(self, f"not supported by this host: {self.why}")


def milliseconds(example: int, low: float = 1) -> Callable[[str], float]:
    """A type reading the peer's milliseconds (from `low` to `MAX_TIMEOUT_MS`) as seconds."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not low <= value <= MAX_TIMEOUT_MS:
            raise argparse.ArgumentTypeError(
                f"give milliseconds from {low:g} to {MAX_TIMEOUT_MS} (e.g. {example}), got {text!r}"
            )
        return value / 1000

    return parse


def _port(text: str) -> int:
    # Short ASCII digits before int(): past 4300 digits int() raises, and '²' is a digit too.
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or int(text) > 65535:
        raise argparse.ArgumentTypeError(
            f"give a port from 0 to 65535 (0 picks one), got {shortened(repr(text), 60)}"
        )
    return int(text)


def _hosts(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "*" in names:
        raise argparse.ArgumentTypeError(
            "'*' would turn the Host header check off, which keeps DNS rebinding out; name "
            "each host callers reach this one by (name or name:port)"
        )
    if not names:
        raise argparse.ArgumentTypeError("give host names, comma-separated")
    return names


def _header(text: str) -> tuple[str, str]:
    name, _, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not _HEADER_NAME.fullmatch(name) or len(text) > MAX_HEADER_CHARS or "\n" in text:
        raise argparse.ArgumentTypeError(
            f"give one header as 'Name: value' (a token name, one line), got {text[:80]!r}"
        )
    return name, value


def _attribute(text: str) -> str:
    if not _ATTRIBUTE.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"give an HTML attribute name such as data-testid or data-qa, got {text[:80]!r}"
        )
    return text


def _only(accepted: str, why: str) -> Callable[[str], str]:
    """A type for a peer's choice of which this host does one: that one, or a refusal."""

    def parse(text: str) -> str:
        if text != accepted:
            raise argparse.ArgumentTypeError(
                f"this host supports only {accepted!r}: {why}; got {text!r}"
            )
        return text

    return parse


def add_peer_options(
    parser: argparse.ArgumentParser, mode: argparse._MutuallyExclusiveGroup
) -> None:
    """The peer's option names on `serve` (`mode`: the group of `--stdio` and `--http`)."""
    mode.add_argument(
        "--port",
        type=_port,
        metavar="PORT",
        help="@playwright/mcp's way to serve HTTP: --http on --host (default 127.0.0.1) and PORT",
    )
    parser.add_argument(
        "--host",
        dest="bind_host",
        metavar="HOST",
        help="with --port: the address to bind (default 127.0.0.1; off loopback a token is "
        "required, as for --http)",
    )
    parser.add_argument(
        "--timeout-action",
        dest="action_timeout",
        type=milliseconds(5000),
        metavar="MILLISECONDS",
        help="--action-timeout in milliseconds, as @playwright/mcp takes it",
    )
    parser.add_argument(
        "--timeout-navigation",
        dest="navigation_timeout",
        type=milliseconds(60000),
        metavar="MILLISECONDS",
        help="--navigation-timeout in milliseconds, as @playwright/mcp takes it",
    )
    parser.add_argument(
        "--allowed-hosts",
        dest="allowed_host",
        action="extend",
        type=_hosts,
        metavar="LIST",
        help="--allowed-host for each of a comma-separated list, as @playwright/mcp takes it "
        "('*', which turns the Host check off, is refused)",
    )
    parser.add_argument(
        "--allowed-origins",
        dest="browser_allowed_origins",
        metavar="LIST",
        help="@playwright/mcp's name of --browser-allowed-origins (the origins page requests "
        "may reach; not the HTTP server's --allowed-origin)",
    )
    parser.add_argument(
        "--headless",
        dest="headed",
        action="store_false",
        default=False,
        help="run the browser headless (this host's default; @playwright/mcp's is headed)",
    )
    parser.add_argument(
        "--sandbox",
        dest="sandbox",
        action="store_true",
        default=False,
        help="run Chromium with its sandbox (off by default, as @playwright/mcp runs Chromium; "
        "the environment must allow it, else no browser starts)",
    )
    parser.add_argument(
        "--no-sandbox",
        dest="sandbox",
        action="store_false",
        help="run Chromium without its sandbox (the default)",
    )
    parser.add_argument(
        "--test-id-attribute",
        type=_attribute,
        default="data-testid",
        metavar="NAME",
        help="the attribute testid= targets and getByTestId match (default data-testid)",
    )
    parser.add_argument(
        "--image-responses",
        choices=("allow", "omit", "only"),
        default="allow",
        help="images in MCP results: allow (default), omit (text only), or only (a result "
        "with an image holds the image alone)",
    )
    parser.add_argument(
        "--shared-browser-context",
        action="store_true",
        help="every HTTP client shares one browser session (default: one per MCP connection); "
        "it ends after --idle-timeout without a call",
    )
    parser.add_argument(
        "--block-service-workers",
        action="store_true",
        help="pages cannot register service workers",
    )
    parser.add_argument(
        "--mobile",
        action="store_true",
        help=f'emulate a generic mobile device ("{MOBILE_DEVICE}"); not with --device',
    )
    parser.add_argument(
        "--cdp-header",
        action="append",
        default=[],
        type=_header,
        metavar="'NAME: VALUE'",
        help="a header sent when connecting to a CDP endpoint (--cdp-endpoint, or an http:// "
        f"--browser-endpoint); repeatable, at most {MAX_CDP_HEADERS}",
    )
    parser.add_argument(
        "--cdp-timeout",
        type=milliseconds(30000),
        metavar="MILLISECONDS",
        help="how long connecting to a CDP endpoint may take (default 30000)",
    )
    parser.add_argument(
        "--browser",
        type=_only("chromium", "this host drives Chromium (--executable-path)"),
        metavar="NAME",
        help="@playwright/mcp's browser choice: only chromium, which this host drives",
    )
    parser.add_argument(
        "--snapshot-mode",
        choices=("none", "full"),
        default="none",
        metavar="MODE",
        help="the page's snapshot in each action's result: none (default: a few lines of "
        "feedback; browser_snapshot takes one) or full (@playwright/mcp's default)",
    )
    parser.add_argument(
        "--snapshot-boxes",
        action="store_true",
        help="each element of a snapshot also shows its box, [box=x,y,width,height] in CSS "
        "pixels relative to the viewport",
    )
    parser.add_argument(
        "--file-paths",
        type=_only("absolute", "results show absolute paths"),
        metavar="MODE",
        help="how results show file paths: only absolute, this host's way",
    )
    parser.add_argument(
        "--no-webmcp",
        action="store_true",
        help="tools a page registers (WebMCP) are not exposed: always so on this host",
    )
    for option, why, nargs in _REFUSED:
        parser.add_argument(option, action=Refused, why=why, nargs=nargs)


_REFUSED: tuple[tuple[str, str, int | None], ...] = (
    (
        "--allow-unrestricted-file-access",
        "files stay in the directories named: give --allow-file-dir DIR (file: URLs) and "
        "--upload-dir DIR (uploads)",
        0,
    ),
    ("--extension", "it drives no browser extension; give --cdp-endpoint URL", 0),
    ("--profile-dir-name", "it drives no browser extension; give --user-data-dir PATH", None),
    (
        "--endpoint",
        "give a Playwright browser server as --browser-endpoint ws://HOST:PORT/...",
        None,
    ),
    (
        "--init-page",
        "it runs no TypeScript; give JavaScript for every page as --init-script PATH",
        None,
    ),
    ("--output-max-size", "output files are not evicted yet; clean --output-dir yourself", None),
    (
        "--save-session",
        "it writes no session log; give --record PATH for a trail of the calls",
        0,
    ),
)


def apply_peer_options(args: argparse.Namespace) -> None:
    """Fold the peer's options into `serve`'s own (`--port`/`--host` into `--http`, `--mobile`
    into `--device`); raises OptionError for a combination that does not hold."""
    port = getattr(args, "port", None)
    bind_host = getattr(args, "bind_host", None)
    if bind_host is not None and port is None:
        raise OptionError(
            "--host", "give --port PORT with it (or --http HOST:PORT); --host alone serves nothing"
        )
    if port is not None:
        host = (bind_host or "127.0.0.1").strip()
        if not host:
            raise OptionError("--host", "give an address such as 127.0.0.1 or 0.0.0.0")
        args.http = (host.strip("[]"), port)
    if getattr(args, "mobile", False):
        if args.device is not None:
            raise OptionError("--mobile", "give --mobile or --device, not both")
        args.device = MOBILE_DEVICE
    headers = getattr(args, "cdp_header", [])
    if headers and not (args.cdp_endpoint or args.browser_endpoint):
        raise OptionError(
            "--cdp-header", "it is sent to a CDP endpoint: give --cdp-endpoint URL with it"
        )
    if len(headers) > MAX_CDP_HEADERS:
        raise OptionError("--cdp-header", f"give at most {MAX_CDP_HEADERS} headers")
