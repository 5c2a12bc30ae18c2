"""One shared browser per host: launched on first use (or reached over CDP), relaunched after a crash."""

from __future__ import annotations

import asyncio
import logging
import socket

from playwright.async_api import Browser, Playwright, async_playwright

from host.config import HostConfig

log = logging.getLogger(__name__)


class BrowserPool:
    """Hands out the host's browser.

    Guarantees: `browser()` returns a connected browser, starting Playwright and launching Chromium
    (or connecting to `cdp_endpoint`) when there is none or the last one disconnected (crashed,
    killed, remote end gone). `generation` increases with every new browser, so a session can tell
    that the browser it was created on is gone. `close()` closes the browser (a CDP browser is only
    disconnected from, never killed) and stops Playwright; it is safe to call twice. With
    `enable_execute`, a launched browser also listens for CDP on a loopback port (`cdp_url`), which
    `playwright_execute`'s worker processes connect to; otherwise it listens on no port.
    """

    def __init__(self, config: HostConfig) -> None:
        self._config = config
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._lock = asyncio.Lock()
        self.generation = 0
        self.launches = 0
        self.cdp_url: str | None = config.cdp_endpoint
        """Where another process can reach the current browser over CDP (None: nowhere)."""

    @property
    def connected(self) -> Browser | None:
        """The current browser if it is still connected, else None (never launches)."""
        browser = self._browser
        return browser if browser is not None and browser.is_connected() else None

    async def browser(self) -> Browser:
        browser = self.connected
        if browser is not None:
            return browser
        async with self._lock:
            browser = self.connected
            if browser is not None:
                return browser
            if self._playwright is None:
                self._playwright = await async_playwright().start()
            pw = self._playwright
            chromium = {"chromium": pw.chromium, "firefox": pw.firefox, "webkit": pw.webkit}[
                self._config.engine
            ]
            if self._config.cdp_endpoint:
                browser = await chromium.connect_over_cdp(
                    self._config.cdp_endpoint, timeout=self._config.navigation_timeout * 1000
                )
            else:
                args = list(self._config.browser_args)
                if self._config.enable_execute:
                    port = _free_loopback_port()
                    args += [
                        "--remote-debugging-address=127.0.0.1",
                        f"--remote-debugging-port={port}",
                    ]
                    self.cdp_url = f"http://127.0.0.1:{port}"
                browser = await chromium.launch(
                    executable_path=self._config.executable_path,
                    headless=self._config.headless,
                    args=args,
                    # The host, not Playwright, handles SIGTERM/SIGINT and closes the browser.
                    handle_sigint=False,
                    handle_sigterm=False,
                    handle_sighup=False,
                )
            browser.on("disconnected", self._on_disconnected)
            self._browser = browser
            self.generation += 1
            self.launches += 1
            log.info(
                "browser %s (generation %d)",
                "connected" if self._config.cdp_endpoint else "launched",
                self.generation,
            )
            return browser

    def _on_disconnected(self, browser: Browser) -> None:
        if browser is self._browser:
            log.warning("the browser disconnected (generation %d)", self.generation)
            self._browser = None

    async def close(self) -> None:
        async with self._lock:
            browser, self._browser = self._browser, None
            if browser is not None:
                try:
                    await browser.close()
                except Exception:  # already gone
                    log.debug("closing the browser failed", exc_info=True)
            playwright, self._playwright = self._playwright, None
            if playwright is not None:
                try:
                    await playwright.stop()
                except Exception:
                    log.debug("stopping Playwright failed", exc_info=True)


def _free_loopback_port() -> int:
    """A TCP port free on 127.0.0.1 right now (Chromium binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
