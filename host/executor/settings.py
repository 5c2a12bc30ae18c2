"""The executor's settings: one frozen value, safe by default, from the command line and environment."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from host.executor.portguard import chromium_guard
from host.executor.redaction import MAX_SECRET_CHARS
from host.settings.browser_options import BrowserOptions
from host.settings.config import DEFAULT_BROWSER_ARGS, HostConfig

DEFAULT_BIND = "127.0.0.1:8091"
BIND_ENV = "WEB_EXECUTOR_BIND_ADDR"
TOKEN_ENV = "WEB_EXECUTOR_TOKEN"
ENGINES_ENV = "WEB_EXECUTOR_ENGINES"
KNOWN_ENGINES = ("chromium", "firefox", "webkit")
BACKOFF_MS = (200, 400, 800)
"""Delays before the retries of a selector that did not resolve: at most three retries."""


@dataclass(frozen=True)
class ExecutorSettings:
    """Everything the executor can be told.

    Guarantees: every limit is finite (payload bytes, fields, selector and value lengths, action
    time, concurrent and queued actions, excerpt size), so no request makes the service hold
    unbounded memory or wait forever. Times are in milliseconds unless the name says otherwise.
    """

    engines: tuple[str, ...] = KNOWN_ENGINES
    """Engines tried in order at start (and again while none runs): Chromium first."""
    executable_path: str | None = "/usr/bin/chromium"
    """The Chromium binary; other engines use Playwright's own lookup."""
    browser_args: tuple[str, ...] = DEFAULT_BROWSER_ARGS
    """Chromium's flags; other engines get none of these (they are Chromium's)."""
    headless: bool = True
    token: str | None = field(default=None, repr=False)
    """Bearer token for every route but `/healthz`; required when bound off loopback."""
    allowed_hosts: tuple[str, ...] = ()
    """Extra `Host` header values accepted (a container's service name), besides loopback."""
    allowed_origins: tuple[str, ...] = ()
    """Extra `Origin` header values accepted from browsers."""
    url_origins: tuple[str, ...] = ()
    """If set, the only origins (`https://shop.example`) an action may open or navigate to."""
    max_body_bytes: int = 256 * 1024
    max_fields: int = 64
    max_selector_chars: int = 1024
    max_value_chars: int = 32 * 1024
    max_redact_chars: int = MAX_SECRET_CHARS
    """The longest value a field with `redact` may hold (redaction decodes every spelling of it
    in what the service emits; a password or a token, not a document)."""
    max_url_chars: int = 8192
    default_timeout_ms: int = 30_000
    """An action's time limit when the payload names none (`timeout_ms`)."""
    max_timeout_ms: int = 120_000
    step_timeout_ms: int = 15_000
    """How long one fill or click waits for its element to be actionable."""
    max_wait_after_ms: int = 30_000
    max_concurrent: int = 16
    """Actions running at once, each in its own session (BrowserContext). More do not make a
    two-core machine faster; they make every action slower together (all miss their deadline at
    once), so the rest wait for a slot, within their own time limit."""
    max_queue: int = 256
    """Actions waiting for a slot; one more is refused with `busy`."""
    excerpt_chars: int = 32 * 1024
    """Characters of the sanitised DOM excerpt returned; longer ones are cut (`truncated`)."""
    backoff_ms: tuple[int, ...] = BACKOFF_MS
    max_candidates: int = 5
    pii_key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    """Key of the HMAC that replaces PII in returned selectors (random per process by default)."""
    user: str | None = None
    """The account the service (and so the browser) runs as after dropping root."""
    guarded_ports: tuple[int, ...] = ()
    """The service's own port(s): no page of an action may reach them (with Chromium, no host
    on them at all: see `portguard`)."""
    header_timeout: float = 10.0
    """An HTTP request's headers must arrive within this (else 408)."""
    body_timeout: float = 30.0
    """An HTTP request's body must arrive within this (else 408)."""
    max_connections: int = 512
    """HTTP connections held at once (below the descriptor limit); past it, 503."""

    browser_endpoints: tuple[str, ...] = ()
    """`--browser-endpoint`: browsers to use instead of launching one (Chromium only); with
    several, each action's session goes to the healthy one with the fewest (host/browsers/endpoints.py)."""

    selenium_capabilities: str | None = None
    """`--selenium-capabilities`: JSON merged into a Selenium endpoint's session requests."""

    browser: BrowserOptions = field(default_factory=BrowserOptions)
    """Every action's context options (`--viewport-size`, `--device`, ...; `--headed`)."""

    def host_config(self, engine: str, proxy: str | None = None) -> HostConfig:
        """The host's configuration for `engine`: sessions for every running action and a few
        more; with `proxy`, every request of the browser goes through it; the guarded ports
        refused by Chromium itself, or by the host's guard (`portguard.chromium_guard`)."""
        chromium = engine == "chromium"
        browser_args, guarded_ports = self.browser_args, self.guarded_ports
        if chromium:
            # The browser refuses the service's ports itself: a routed guard would intercept
            # every request of every action.
            browser_args, guarded_ports = chromium_guard(guarded_ports, browser_args)
        return HostConfig(
            # The URL policy's proxy listens on this machine's loopback: a browser elsewhere
            # cannot reach it (navigations are still guarded inside the browser).
            proxy_server=None if self.browser_endpoints and chromium else proxy,
            browser_endpoints=self.browser_endpoints if chromium else (),
            selenium_capabilities=self.selenium_capabilities,
            guarded_ports=guarded_ports,
            http_header_timeout=self.header_timeout,
            http_body_timeout=self.body_timeout,
            max_connections=self.max_connections,
            engine=engine,
            executable_path=self.executable_path if chromium else None,
            browser_args=browser_args if chromium else (),
            headless=self.headless and not self.browser.headed,
            browser=self.browser,
            page_events=False,  # no action reports console, page errors or requests
            # An action's context is closed after it: a spare renderer would be thrown away.
            spare_renderer=False,
            max_sessions=self.max_concurrent + 8,
            action_timeout=self.step_timeout_ms / 1000,
            # The runner enforces each action's own limit; the host's is only a backstop.
            navigation_timeout=self.max_timeout_ms / 1000,
            # Nobody is there to answer a dialog: dismissing is the choice that confirms nothing.
            dialog_policy="dismiss",
            max_body_bytes=self.max_body_bytes,
            token=self.token,
            allowed_hosts=self.allowed_hosts,
            allowed_origins=self.allowed_origins,
        )
