"""The host's settings, one frozen value shared by every part of the host."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from host.settings.browser_options import BrowserOptions
from host.settings.limits import ArgumentLimits, HttpLimits
from host.settings.secrets_file import Secrets
from host.shared.private_temp import private_temp_folder

DEFAULT_BROWSER_ARGS = (
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class HostConfig:
    """Everything the host can be told; the defaults are the safe ones.

    Guarantees: every limit is finite (sessions, buffers, result and body sizes, timeouts), so no
    client can make the host hold unbounded memory or wait forever. Times are in seconds.
    """

    executable_path: str | None = "/usr/bin/chromium"
    """Chromium to launch (Debian's by default); `None` uses Playwright's own lookup."""
    cdp_endpoint: str | None = None
    """Connect to a browser that runs elsewhere (`http://host:9222`) instead of launching one."""
    selenium_capabilities: str | None = None
    """`--selenium-capabilities`: JSON merged into what a Selenium endpoint's sessions ask for."""
    browser_endpoints: tuple[str, ...] = ()
    """`--browser-endpoint` URLs (ws:// a Playwright browser server, http:// CDP, `?max=N` a limit
    of live sessions): with several, each new session goes to the healthy one with the fewest
    (host/browsers/endpoints.py). Empty: `cdp_endpoint`, else a browser the host launches."""
    headless: bool = True
    engine: str = "chromium"
    """Playwright browser type to launch: `chromium`, `firefox` or `webkit` (the executor's engine order)."""
    browser_args: tuple[str, ...] = DEFAULT_BROWSER_ARGS
    spare_renderer: bool = True
    """Chromium's spare renderer process, started after a navigation for the next one in its
    context: kept for sessions that live on; off for the executor's one-action contexts
    (host/browsers/chromium_features.py)."""
    max_sessions: int = 32
    """Sessions held at once; one more is refused with `too_many_sessions`."""
    idle_timeout: float = 900.0
    """A session with no call for this long is closed (its browser context with it)."""
    action_timeout: float = 5.0
    """Default timeout of a Playwright action (click, fill, ...)."""
    navigation_timeout: float = 60.0
    """Default timeout of a navigation; also bounds how long any one call may run (plus a margin)."""
    dialog_policy: str = "report"
    """`report`: a dialog stays open, is reported in results and blocks other calls until
    `web_handle_dialog` answers it. `accept` / `dismiss`: answered at once, and reported."""
    toolsets: tuple[str, ...] = ("default",)
    """What MCP lists: `default` (the `web_agent` toolset), `all`, or toolset names."""
    generated_dir: Path | None = None
    """The generator's output (`generated/`); found beside the `playwright_tools` package if unset."""
    max_result_bytes: int = 4 * 1024 * 1024
    """A result larger than this (as JSON) is refused with `result_too_large`."""
    max_body_bytes: int = 4 * 1024 * 1024
    """An HTTP request body larger than this is answered 413."""
    max_text_body: int = 64 * 1024
    """`web_waitForResponse` returns at most this many characters of a text body."""
    max_binary_body: int = 1024 * 1024
    """... and at most this many bytes (base64-encoded) of a binary body."""
    record: Path | None = None
    """`--record`: where successful calls of recordable tools are appended as a trail (one file;
    a directory of one trail per caller when `record_per_caller`)."""
    record_per_caller: bool = False
    codegen: str | None = None
    """`--codegen python|typescript`: each recordable tool's result also holds the Playwright
    code it amounted to (off by default: it costs tokens)."""
    output_dir: Path | None = None
    """Where the host keeps files it makes, each session in a folder of its own
    (`host.sessions.session_files`); a folder under the system's temp dir if unset."""
    max_download_bytes: int = 100 * 1024 * 1024
    """A download larger than this is deleted and reported as refused."""
    download_wait: float = 5.0
    """How long a call that started a download waits for it before answering."""
    settle_timeout: float = 0.5
    """`--timeout-settle`: after an action that may set something off (click, key, select, drop,
    drag, submit, ...), the longest the host waits for a timer, animation frame or request the
    action started in the page; it answers as soon as none is pending, then waits for a
    navigation to load (at most 10 s) or requests to finish (at most 5 s)
    (host/sessions/settle.py). 0 answers at once."""
    snapshot_mode: str = "none"
    """`--snapshot-mode`: "none" (this host's default: an action's feedback is a few lines) or
    "full" (@playwright/mcp's default: the feedback also carries the page's snapshot, with refs
    the next call can use)."""
    snapshot_boxes: bool = False
    """`--snapshot-boxes`: snapshots show each element's box, `[box=x,y,width,height]` in CSS
    pixels relative to the viewport (Playwright's `aria_snapshot(boxes=True)`)."""
    console_level: str = "info"
    """`--console-level`: the least severe console messages (`error`, `warning`, `info`, `debug`)
    an action's feedback lists as new."""
    page_events: bool = True
    """Keep each session's console messages, page errors and network requests (what the
    console, network and feedback tools report). The executor, which reports none of them, turns
    it off: no such event then crosses from the browser to Python."""
    buffer_limit: int = 1000
    """Console messages, network requests and responses kept per session (oldest dropped first)."""
    message_limit: int = 4096
    """Characters kept of one console message or page error."""
    token: str | None = field(default=None, repr=False)
    """Bearer token HTTP callers must present; required when binding off loopback."""
    allowed_hosts: tuple[str, ...] = ()
    """Extra `Host` header values accepted (`name:port`), besides the loopback names."""
    allowed_origins: tuple[str, ...] = ()
    """Extra `Origin` header values accepted, besides the loopback origins."""
    browser: BrowserOptions = field(default_factory=BrowserOptions)
    """The browser's and every session's options (`--viewport-size`, `--device`, ...); their
    defaults are Playwright's."""
    secrets: Secrets = field(default_factory=Secrets, repr=False)
    """`--secrets`: values typed by name; shown by name everywhere else (`host.settings.secrets_file`)."""
    caps: tuple[str, ...] = ()
    """Opt-in capabilities (`--caps`, see `host.settings.caps`): their tools are listed and callable."""
    enable_execute: bool = False
    """`playwright_execute` runs Python code; off unless set (`--enable-execute`). When off it is
    absent from every listing and refused by every transport."""
    upload_dirs: tuple[Path, ...] = ()
    """Directories `upload_file` (and webBrowser's `upload_file`) may read from; empty: uploads off."""
    max_upload_bytes: int = 10 * 1024 * 1024
    """The bytes one upload or drop call may send, its files together (10 MiB): counted while the
    host reads them, before the browser sees any (a 300 MB drop took Chromium to 3.3 GB; a file
    goes to the page as a buffer, at about 0.2 s a MiB on an idle machine, over 1.5 s loaded)."""
    storage_dir: Path | None = None
    """Where webBrowser's `screenshot` saves files (under `screenshots/`); unset: returned as base64."""
    snapshot_limit: int = 24_000
    """Characters of a `web_snapshot` returned; longer snapshots are cut with a note."""
    launch_timeout: float = 30.0
    """How long starting Playwright's driver and the browser may take before calls are told the
    browser is unavailable (a hung launch holds nothing other sessions need)."""
    argument_limits: ArgumentLimits = field(default_factory=ArgumentLimits)
    """Depth, size and text bounds every call's arguments are checked against first."""
    file_dirs: tuple[Path, ...] = ()
    """Directories whose files pages may open as `file:` URLs (`--allow-file-dir`); empty: none."""
    guarded_ports: tuple[int, ...] = ()
    """Ports of this machine that sessions' pages may not reach (the host's own HTTP port; the
    CDP port is added when the browser opens one)."""
    proxy_server: str | None = None
    """A proxy every request of the browser goes through (the executor's URL policy), or None."""
    max_tabs: int = 32
    """Tabs a session may hold; a page that opens more sees them closed at once (with a note)."""
    console_rate: int = 200
    """Console messages per second a frame may log; beyond it they are dropped in the page and
    counted, so a flood never leaves the browser."""
    event_flood: int = 2000
    """Console, page-error, network or dialog events per second past which a session stops
    listening for that kind for `flood_pause` seconds (a page that bypassed the in-page limit)."""
    flood_pause: float = 5.0
    flood_slowdown: float = 50.0
    """While a session's flood is not listened to, its tabs' CPU runs this many times slower
    (DevTools CPU throttling): what a flood still costs the browser and Playwright's driver,
    which every session shares, shrinks with it. 1 turns it off."""
    http_header_timeout: float = 10.0
    """An HTTP request's headers must arrive within this (else 408); idle connections close."""
    http_body_timeout: float = 30.0
    """An HTTP request's body must arrive within this (else 408)."""
    max_connections: int = 512
    """HTTP connections held at once (kept below the descriptor limit); past it, the oldest one
    still waiting for its request is closed, else the new one is answered 503."""
    abandon_grace: float = 2.0
    """After a call's deadline, how long the host waits for Playwright to let go of it before
    abandoning it (the session's next call runs anyway)."""

    test_id_attribute: str = "data-testid"
    """`--test-id-attribute`: the attribute `testid=` targets and Playwright's `getByTestId`
    match."""
    image_responses: str = "allow"
    """`--image-responses`: `allow` (images with text), `omit` (no images) or `only` (a result
    with an image holds the image alone) in MCP results."""
    shared_context: bool = False
    """`--shared-browser-context`: every HTTP client calls in one session (else one per MCP
    connection)."""
    sandbox: bool = False
    """`--sandbox`: launch Chromium with its sandbox (without `--no-sandbox`)."""
    cdp_headers: tuple[tuple[str, str], ...] = ()
    """`--cdp-header`: headers sent when connecting to a CDP endpoint."""
    cdp_timeout: float | None = None
    """`--cdp-timeout`: how long connecting to a CDP endpoint may take; unset: the launch limit."""

    def http_limits(self) -> HttpLimits:
        """The HTTP server's limits, from these settings."""
        return HttpLimits(
            header_timeout=self.http_header_timeout,
            body_timeout=self.http_body_timeout,
            max_connections=self.max_connections,
            max_body_bytes=self.max_body_bytes,
            max_depth=self.argument_limits.depth + 16,
        )


def default_output_dir() -> Path:
    """The host's files when no `--output-dir` is given: `<temp>/playwright-tool-host-<uid>`, or
    a folder of its own when another user took that name first (`private_temp_folder`)."""
    return private_temp_folder(f"playwright-tool-host-{os.geteuid()}")
