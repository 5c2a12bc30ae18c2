"""How the host's browser and each session's context are set up: the options users of
@playwright/mcp know (`--viewport-size`, `--device`, `--storage-state`, ...), named as it names them.

Guarantees: `options_from` checks every value it can without a browser (sizes, files readable and
well-formed, a display for `--headed`) and raises `OptionError` naming the option and the fix;
what only Playwright can judge (a device name, a permission, an init script that throws) is
checked at start by `host.browsers.startup_probe`, never at the first call. Files are read once, at
start: a storage state or init script edited later changes nothing until a restart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.shared.confined import Refused, TooLarge, read_file
from host.shared.origins import origin_matches, origin_of, origin_pattern

MAX_VIEWPORT = 10_000
MAX_INIT_SCRIPT_BYTES = 1024 * 1024
MAX_STORAGE_STATE_BYTES = 16 * 1024 * 1024
MAX_USER_AGENT = 1024
_SIZE = re.compile(r"(\d{1,5})\s*[xX,]\s*(\d{1,5})")


class OptionError(ValueError):
    """A bad option value: `option` (`--viewport-size`) and a message that says the fix."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


@dataclass(frozen=True)
class InitScript:
    """An init script's file name (for messages) and its text, read at start."""

    path: Path
    source: str


@dataclass(frozen=True)
class BrowserOptions:
    """The browser's launch options and every session's context options.

    Guarantees: the defaults are today's behaviour (headless, Playwright's default viewport, an
    in-memory context per session, every origin reachable); every field was checked by
    `options_from`; `context_kwargs` is what `new_context` (or `launch_persistent_context`)
    receives, the device's descriptor first and the explicit options over it.
    """

    headed: bool = False
    viewport: tuple[int, int] | None = None
    device: str | None = None
    user_agent: str | None = None
    storage_state: Path | None = None
    user_data_dir: Path | None = None
    """A persistent profile: one session at a time holds it, and what it stores outlives it."""
    proxy_bypass: str | None = None
    ignore_https_errors: bool = False
    init_scripts: tuple[InitScript, ...] = ()
    permissions: tuple[str, ...] = ()
    blocked_origins: tuple[str, ...] = ()
    """Origins (`https://ads.example`) no request of a page may go to."""
    browser_allowed_origins: tuple[str, ...] = ()
    """If set, the only origins requests of a page may go to."""
    save_trace: bool = False
    save_video: bool = False
    block_service_workers: bool = False
    """`--block-service-workers`: pages cannot register service workers."""

    @property
    def filters_origins(self) -> bool:
        return bool(self.blocked_origins or self.browser_allowed_origins)

    @property
    def needs_probe(self) -> bool:
        """Whether some value is for Playwright to judge at start (`host.browsers.startup_probe`)."""
        return bool(
            self.device
            or self.init_scripts
            or self.permissions
            or self.storage_state
            or self.save_video
        )

    def context_kwargs(self, devices: dict[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of `new_context` for these options (`devices`: Playwright's
        descriptors, needed when `device` is set)."""
        kwargs: dict[str, Any] = {}
        if self.device:
            if devices is None or self.device not in devices:
                raise OptionError("--device", f"unknown device {self.device!r}")
            kwargs.update(devices[self.device])
            kwargs.pop("default_browser_type", None)
        if self.viewport:
            kwargs["viewport"] = {"width": self.viewport[0], "height": self.viewport[1]}
        if self.user_agent:
            kwargs["user_agent"] = self.user_agent
        if self.storage_state and not self.user_data_dir:
            kwargs["storage_state"] = str(self.storage_state)
        if self.ignore_https_errors:
            kwargs["ignore_https_errors"] = True
        if self.permissions:
            kwargs["permissions"] = list(self.permissions)
        if self.filters_origins or self.block_service_workers:
            # Requests a service worker makes are not routed: with a filter, no service workers.
            kwargs["service_workers"] = "block"
        return kwargs

    def allows_origin(self, origin: str) -> bool:
        """Whether a page's request to `origin` (`scheme://host[:port]`) may go out."""
        if any(origin_matches(p, origin) for p in self.blocked_origins):
            return False
        return not self.browser_allowed_origins or any(
            origin_matches(p, origin) for p in self.browser_allowed_origins
        )


_PAGE_SCHEMES = {"ws": "http", "wss": "https"}


def request_origin(url: str) -> str:
    """The origin a request goes to, as the origin options spell it (`origin_of`; a websocket as
    its page scheme); `scheme:` for a URL of no http(s) origin."""
    scheme, _, rest = url.partition(":")
    page_scheme = _PAGE_SCHEMES.get(scheme.lower())
    origin = origin_of(f"{page_scheme}:{rest}" if page_scheme else url)
    return origin if origin is not None else scheme.lower() + ":"


def add_browser_options(parser: argparse.ArgumentParser, *, executor: bool = False) -> None:
    """The browser and context options; the executor (no sessions kept between requests) gets
    those that make sense for one action at a time."""
    parser.add_argument(
        "--headed",
        action="store_true",
        help="show the browser's windows (needs a display: DISPLAY set, e.g. under xvfb-run)",
    )
    parser.add_argument(
        "--viewport-size",
        metavar="WxH",
        help="the pages' viewport in CSS pixels, e.g. 1280x720 (default Playwright's 1280x720)",
    )
    parser.add_argument(
        "--device",
        metavar="NAME",
        help='emulate a device from Playwright\'s descriptors, e.g. "iPhone 15" or "Pixel 7": '
        "user agent, viewport, scale, touch",
    )
    parser.add_argument(
        "--user-agent", metavar="TEXT", help="the User-Agent pages see (over the device's)"
    )
    parser.add_argument(
        "--ignore-https-errors",
        action="store_true",
        help="accept invalid or self-signed HTTPS certificates",
    )
    parser.add_argument(
        "--init-script",
        action="append",
        default=[],
        type=Path,
        metavar="PATH",
        help="JavaScript run in every page before its own scripts; repeatable",
    )
    parser.add_argument(
        "--grant-permissions",
        metavar="LIST",
        help="permissions every page has, comma-separated (geolocation,clipboard-read,...)",
    )
    parser.add_argument(
        "--blocked-origins",
        metavar="LIST",
        help="origins no page request may reach, separated by ';' or ',' "
        "(https://ads.example;https://tracker.example); as @playwright/mcp takes them: "
        "scheme://host[:port], scheme://host:* (any port), host[:port] (http or https), * in a "
        "host matching any characters; an aborted request is noted (request_blocked), and "
        "service workers are off so that none escapes the filter",
    )
    parser.add_argument(
        "--browser-allowed-origins",
        metavar="LIST",
        help="the only origins page requests may reach (separated by ';' or ',', in the forms "
        "of --blocked-origins: http://127.0.0.1:* is every port); not the HTTP server's "
        "--allowed-origin check",
    )
    if executor:
        return
    parser.add_argument(
        "--storage-state",
        type=Path,
        metavar="PATH",
        help="start every session with this storage state (cookies, local storage: the JSON "
        "of Playwright's storage_state())",
    )
    profile = parser.add_mutually_exclusive_group()
    profile.add_argument(
        "--user-data-dir",
        type=Path,
        metavar="PATH",
        help="a persistent browser profile: one session at a time holds it, and what it stores "
        "outlives the host",
    )
    profile.add_argument(
        "--isolated",
        action="store_true",
        help="every session in its own in-memory context (the default)",
    )
    parser.add_argument(
        "--proxy-server",
        metavar="URL",
        help="send the browser's requests through this proxy (http://host:3128, socks5://host:1080)",
    )
    parser.add_argument(
        "--proxy-bypass",
        metavar="LIST",
        help="hosts that skip the proxy, comma-separated (.example.com,localhost)",
    )
    parser.add_argument(
        "--save-trace",
        action="store_true",
        help="save a Playwright trace of each session, when it ends, to "
        "OUTPUT_DIR/traces/<transport>-<time>-<id>.zip (open it with playwright show-trace)",
    )
    parser.add_argument(
        "--save-video",
        action="store_true",
        help="save a WebM video of each session's pages to OUTPUT_DIR/videos/ (Playwright's "
        "ffmpeg, else Debian's ffmpeg)",
    )


def options_from(args: argparse.Namespace, *, executor: bool = False) -> BrowserOptions:
    """The options of `args` (those `add_browser_options` added with the same `executor`), each
    checked; raises `OptionError`."""
    headed = bool(args.headed)
    if headed and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise OptionError(
            "--headed",
            "there is no display (DISPLAY is unset); run the host under xvfb-run, or drop --headed",
        )
    user_agent = args.user_agent
    if user_agent is not None and (
        not user_agent.strip() or len(user_agent) > MAX_USER_AGENT or "\n" in user_agent
    ):
        raise OptionError("--user-agent", f"give one line of 1 to {MAX_USER_AGENT} characters")
    device = args.device
    if device is not None and not device.strip():
        raise OptionError("--device", 'give a device name, e.g. "Pixel 7"')
    # The executor's own --user-data-dir is where its process keeps its files, not a profile.
    user_data_dir = None if executor else args.user_data_dir
    storage_state = None if executor else args.storage_state
    if user_data_dir is not None and storage_state is not None:
        raise OptionError(
            "--storage-state",
            "a persistent profile (--user-data-dir) keeps its own storage; give one of the two",
        )
    return BrowserOptions(
        headed=headed,
        viewport=_viewport(args.viewport_size),
        device=device,
        user_agent=user_agent,
        storage_state=_storage_state(storage_state) if storage_state is not None else None,
        user_data_dir=_user_data_dir(user_data_dir) if user_data_dir is not None else None,
        proxy_bypass=None if executor else args.proxy_bypass,
        ignore_https_errors=bool(args.ignore_https_errors),
        init_scripts=tuple(_init_script(path) for path in args.init_script),
        permissions=_names(args.grant_permissions),
        blocked_origins=_origins("--blocked-origins", args.blocked_origins),
        browser_allowed_origins=_origins("--browser-allowed-origins", args.browser_allowed_origins),
        save_trace=not executor and bool(args.save_trace),
        save_video=not executor and bool(args.save_video),
        block_service_workers=bool(getattr(args, "block_service_workers", False)),
    )


def _viewport(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise OptionError(
            "--viewport-size", f"expected WIDTHxHEIGHT such as 1280x720, got {text!r}"
        )
    width, height = int(match[1]), int(match[2])
    if not (1 <= width <= MAX_VIEWPORT and 1 <= height <= MAX_VIEWPORT):
        raise OptionError(
            "--viewport-size", f"width and height must be 1 to {MAX_VIEWPORT}, got {text!r}"
        )
    return width, height


def _readable(option: str, path: Path, limit: int) -> bytes:
    """The bytes of the operator's file `path`: opened once (a FIFO cannot hang it), checked to be
    a regular file on that handle, and read to at most `limit` bytes, the limit counted on the
    bytes read rather than on a size asked for first (`host.shared.confined.read_file`)."""
    real = Path(os.path.realpath(path))  # the operator's own path: its symlinks are theirs
    try:
        return read_file(real.parent, (real.name,), limit)
    except TooLarge:
        raise OptionError(option, f"{path} has more than the {limit} bytes allowed") from None
    except Refused:
        raise OptionError(
            option, f"{path} is not a file; give the path of an existing file"
        ) from None
    except OSError as error:
        raise OptionError(option, f"cannot read {path}: {error.strerror}") from None


def _storage_state(path: Path) -> Path:
    data = _readable("--storage-state", path, MAX_STORAGE_STATE_BYTES)
    try:
        state = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise OptionError(
            "--storage-state",
            f"{path} is not JSON ({error}); save one with context.storage_state(path=...)",
        ) from None
    if not (
        isinstance(state, dict)
        and isinstance(state.get("cookies", []), list)
        and isinstance(state.get("origins", []), list)
    ):
        raise OptionError(
            "--storage-state",
            f'{path} is not a storage state (a JSON object with "cookies" and "origins" lists)',
        )
    return path.resolve()


def _user_data_dir(path: Path) -> Path:
    if path.exists() and not path.is_dir():
        raise OptionError("--user-data-dir", f"{path} exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OptionError("--user-data-dir", f"cannot create {path}: {error.strerror}") from None
    if not os.access(path, os.W_OK):
        raise OptionError("--user-data-dir", f"{path} is not writable by this user")
    return path.resolve()


def _init_script(path: Path) -> InitScript:
    data = _readable("--init-script", path, MAX_INIT_SCRIPT_BYTES)
    try:
        return InitScript(path, data.decode("utf-8"))
    except UnicodeDecodeError:
        raise OptionError("--init-script", f"{path} is not UTF-8 text") from None


def _names(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def _origins(option: str, text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    origins: list[str] = []
    for part in re.split(r"[;,]", text):
        part = part.strip().rstrip("/")
        if not part:
            continue
        pattern = origin_pattern(part)
        if pattern is None:
            raise OptionError(
                option,
                f"{part!r} is not an origin; write scheme://host[:port] (https://a.example), "
                "scheme://host:* (any port) or host[:port] (http or https)",
            )
        origins.append(pattern)
    return tuple(dict.fromkeys(origins))
