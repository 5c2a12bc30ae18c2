"""One shared browser per host: launched on first use (or reached over CDP), relaunched when it or
Playwright's driver dies, and never waited for longer than the launch limit."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.async_api import Browser, BrowserContext, Playwright, async_playwright

from host.browsers.chromium_features import chromium_launch_args
from host.browsers.driver_env import compile_cache_env, driver_env
from host.browsers.early_driver import adopting
from host.browsers.selenium_driver import selenium_env
from host.settings.config import HostConfig, default_output_dir
from host.shared.errors import HostError

if TYPE_CHECKING:
    from host.browsers.endpoint_specs import EndpointSpec

log = logging.getLogger(__name__)

_RETRY_AFTER_FAILED_LAUNCH_S = 2.0
"""A launch that failed is not tried again for this long: calls in between fail at once."""
_STOP_LIMIT_S = 5.0


def driver_alive(playwright: Playwright | None) -> bool:
    """Whether Playwright's driver process still answers: its pipe open, its process running.

    Playwright reports a dead driver only as a plain exception on the next call, and its browser
    objects still say they are connected; the connection's transport is where it shows first.
    """
    if playwright is None:
        return False
    transport: Any = getattr(getattr(playwright._impl_obj, "_connection", None), "_transport", None)
    if transport is None:
        return True  # a layout this code does not know: trust the calls to fail if it is dead
    failed = getattr(transport, "on_error_future", None)
    if failed is not None and failed.done():
        return False
    process = getattr(transport, "_proc", None)
    return process is None or process.returncode is None


def _kill_driver(playwright: Playwright) -> None:
    transport: Any = getattr(getattr(playwright._impl_obj, "_connection", None), "_transport", None)
    process = getattr(transport, "_proc", None)
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()


class BrowserPool:
    """Hands out the host's browser.

    Guarantees: `browser()` returns a browser that is connected through a live driver, starting
    Playwright's driver and launching Chromium (or connecting to `cdp_endpoint`) when there is
    none, the last browser disconnected (crashed, killed, remote end gone) or the driver died
    (then a new driver is started). A launch is one shared task, bounded by the config's
    `launch_timeout`; callers wait for it only until their own deadline and hold no lock while
    they wait, and a launch that failed is reported at once to calls in the next two seconds
    (`browser_unavailable`), then tried again. `generation` increases with every new browser, so
    a session can tell that the browser it was created on is gone. `close()` closes the browser
    (a CDP browser is only disconnected from, never killed) and stops Playwright; it is safe to
    call twice, also while a launch or a driver start is under way (it waits for the driver to
    be up, at most `_STOP_LIMIT_S`, and stops it: nothing is left running). `launch_soon()`
    starts a launch ahead of the first call that needs it. With `enable_execute`, a launched browser also
    listens for CDP on a loopback port (`cdp_url`), which `playwright_execute`'s worker processes
    connect to; otherwise it listens on no port.
    """

    def __init__(self, config: HostConfig, endpoint: EndpointSpec | None = None) -> None:
        """`endpoint`: the browser to connect to (by default the config's first
        `browser_endpoints`, else its `cdp_endpoint`, else none: the pool launches one)."""
        self._config = config
        if endpoint is None and config.browser_endpoints:
            from host.browsers.endpoint_specs import parse_endpoint

            endpoint = parse_endpoint(config.browser_endpoints[0])
        if endpoint is None and config.cdp_endpoint:
            from host.browsers.endpoint_specs import EndpointSpec

            endpoint = EndpointSpec("cdp", config.cdp_endpoint, config.cdp_endpoint)
        self.endpoint = endpoint
        self.on_loss: list[Any] = []
        """Called with why, when the browser of this pool is found gone or fails to start."""
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._launching: asyncio.Task[Browser] | None = None
        self._driver: asyncio.Future[Playwright] | None = None
        self._driver_manager: Any = None
        self._profile_context: BrowserContext | None = None
        """`--user-data-dir`: the profile's context, until a session takes it."""
        self._failed: tuple[float, HostError] | None = None
        self._closed = False
        self.generation = 0
        self.launches = 0
        self.driver_starts = 0
        self.last_loss: str | None = None
        """Why the previous browser went away (`the browser exited`, `Playwright's driver exited`)."""
        self.cdp_url: str | None = (
            endpoint.url if endpoint is not None and endpoint.kind == "cdp" else None
        )
        """Where another process can reach the current browser over CDP (None: nowhere)."""
        self.on_cdp_port: list[Any] = []
        """Called with the CDP port of each launched browser that listens on one."""
        self.cdp_port: int | None = None
        """The loopback CDP port of the current launched browser, if it listens on one."""

    @property
    def connected(self) -> Browser | None:
        """The current browser if it is connected through a live driver, else None (never launches)."""
        browser = self._browser
        if browser is None or not browser.is_connected():
            return None
        if not driver_alive(self._playwright):
            return None
        return browser

    def loss(self) -> str | None:
        """Why the current browser cannot be used (None while it can)."""
        if self._browser is None:
            return self.last_loss
        if not driver_alive(self._playwright):
            return "Playwright's driver exited"
        if not self._browser.is_connected():
            return "the browser exited"
        return None

    async def browser(self, timeout: float | None = None) -> Browser:
        """The live browser, launched if needed; waits at most `timeout` seconds for a launch."""
        browser = self.connected
        if browser is not None:
            return browser
        if self._closed:
            raise HostError("shutting_down", "the host is shutting down")
        if self._failed is not None:
            when, error = self._failed
            if time.monotonic() - when < _RETRY_AFTER_FAILED_LAUNCH_S:
                raise HostError(error.code, error.message)
        launching = self._begin_launch()
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.shield(launching)
        except TimeoutError:
            raise HostError(
                "browser_unavailable",
                f"the browser did not start within this call's {timeout:g} s (it is still "
                "starting; call again)",
            ) from None

    def launch_soon(self) -> None:
        """Start launching the browser now, in the background, unless it runs, is starting, or
        failed in the last two seconds: the next `browser()` waits for this launch instead of
        starting one, and reports its failure as it reports any launch's."""
        if self.connected is not None or self._closed:
            return
        failed = self._failed
        if failed is not None and time.monotonic() - failed[0] < _RETRY_AFTER_FAILED_LAUNCH_S:
            return
        self._begin_launch()

    def _begin_launch(self) -> asyncio.Task[Browser]:
        if self._launching is None or self._launching.done():
            self._launching = asyncio.ensure_future(self._launch())
            self._launching.add_done_callback(_retrieve)
        return self._launching

    async def _launch(self) -> Browser:
        limit = self._config.launch_timeout
        if self._config.cdp_timeout is not None and self.endpoint is not None:
            limit = max(limit, self._config.cdp_timeout)  # the launch limit spans the connect
        try:
            async with asyncio.timeout(limit + 5.0):
                browser = await self._start(limit)
        except TimeoutError:
            error = HostError(
                "browser_unavailable",
                f"the browser did not start within {limit:g} s (the host's launch limit); the "
                "next call tries again",
            )
            self._failed = (time.monotonic(), error)
            self._tell_loss(error.message)
            raise error from None
        except HostError as error:
            self._failed = (time.monotonic(), error)
            self._tell_loss(error.message)
            raise
        except Exception as error:
            what = "started" if self.endpoint is None else f"reached at {self.endpoint.shown}"
            reason = _first_line(error)
            if self._config.sandbox and "sandboxing failed" in str(error).lower():
                reason = (
                    "Chromium could not start its sandbox here (--sandbox); drop --sandbox, "
                    "or run where the sandbox is allowed"
                )
            if self.endpoint is not None:
                # Playwright's errors quote the URL it used, user name and password included.
                from host.browsers.endpoint_specs import hide_credentials

                reason = hide_credentials(reason, self.endpoint)
            failure = HostError("browser_unavailable", f"no browser could be {what}: {reason}")
            self._failed = (time.monotonic(), failure)
            self._tell_loss(failure.message)
            raise failure from None
        self._failed = None
        return browser

    async def _start(self, limit: float) -> Browser:
        if self._browser is not None and self.last_loss is None:
            self.last_loss = self.loss()
        self._browser = None
        if self._playwright is not None and not driver_alive(self._playwright):
            await self._stop_playwright()
        if self._playwright is None:
            self._playwright = await self._start_driver()
            self.driver_starts += 1
            # What getByTestId matches (the generated tools'); targets' testid= follows it too.
            self._playwright.selectors.set_test_id_attribute(self._config.test_id_attribute)
        pw = self._playwright
        engine = {"chromium": pw.chromium, "firefox": pw.firefox, "webkit": pw.webkit}[
            self._config.engine
        ]
        remote = self.endpoint
        if remote is not None and remote.kind == "cdp":
            browser = await engine.connect_over_cdp(
                remote.url,
                timeout=(self._config.cdp_timeout or limit) * 1000,
                headers=dict(self._config.cdp_headers) or None,
            )
        elif remote is not None and remote.kind == "ws":
            from host.browsers.endpoint_specs import launch_options_header

            browser = await engine.connect(
                remote.url, timeout=limit * 1000, headers=launch_options_header(self._config)
            )
        else:
            # A launch here, or (a Selenium endpoint) through the hub the driver points at.
            args = list(self._config.browser_args)
            if self._config.sandbox:
                args = [arg for arg in args if arg != "--no-sandbox"]
            if self._config.engine == "chromium":
                args = chromium_launch_args(args, spare_renderer=self._config.spare_renderer)
            port = None
            if self._config.enable_execute and remote is None:
                port = _free_loopback_port()
                args += ["--remote-debugging-address=127.0.0.1", f"--remote-debugging-port={port}"]
            proxy: dict[str, str] | None = None
            if self._config.proxy_server:
                proxy = {"server": self._config.proxy_server}
                if self._config.browser.proxy_bypass:
                    proxy["bypass"] = self._config.browser.proxy_bypass
            launch: dict[str, Any] = {
                "executable_path": self._config.executable_path,
                "headless": self._config.headless,
                "args": args,
                "proxy": proxy,
                "chromium_sandbox": self._config.sandbox,
                "timeout": limit * 1000,
                # The host, not Playwright, handles SIGTERM/SIGINT and closes the browser.
                "handle_sigint": False,
                "handle_sigterm": False,
                "handle_sighup": False,
            }
            profile = self._config.browser.user_data_dir
            if profile is not None:
                context = await engine.launch_persistent_context(
                    profile, **launch, **self.context_kwargs()
                )
                if context.browser is None:  # not Chromium's way
                    await context.close()
                    raise HostError("browser_unavailable", "the persistent profile has no browser")
                browser = context.browser
                self._profile_context = context
            else:
                browser = await engine.launch(**launch)
            self.cdp_port = port
            if port is not None:
                self.cdp_url = f"http://127.0.0.1:{port}"
                for listener in self.on_cdp_port:
                    listener(port)
        browser.on("disconnected", self._on_disconnected)
        self._browser = browser
        self.generation += 1
        self.launches += 1
        log.info(
            "browser %s (generation %d)",
            "launched" if remote is None else f"connected at {remote.shown}",
            self.generation,
        )
        return browser

    async def _start_driver(self) -> Playwright:
        """Start Playwright's driver in a task of its own. Playwright's start cannot be cancelled
        halfway (its connection's tasks outlive it, and the event loop then never finishes
        closing), so a launch cancelled meanwhile leaves it running: the next launch takes it
        over, and `close` waits for it and stops what it started."""
        if self._driver is None:
            self._driver_manager = async_playwright()
            extra = compile_cache_env()
            if self.endpoint is not None and self.endpoint.kind == "selenium":
                extra |= selenium_env(self.endpoint.url, self._config.selenium_capabilities)
            # The task copies the context now: these variables reach this driver alone, and it
            # may take the driver `python -m host serve --stdio` started at its top.
            with driver_env(extra), adopting():
                self._driver = asyncio.ensure_future(self._driver_manager.start())
            self._driver.add_done_callback(_retrieve)
        driver = self._driver
        try:
            return await asyncio.shield(driver)
        finally:
            if driver.done() and self._driver is driver:
                self._driver = None

    async def _finish_driver_start(self) -> None:
        """A driver start a cancelled launch left running: wait for it, so that it is stopped
        below (or, past the stop limit, kill its process)."""
        driver, self._driver = self._driver, None
        if driver is None:
            return
        try:
            async with asyncio.timeout(_STOP_LIMIT_S):
                self._playwright = await asyncio.shield(driver)
        except BaseException:
            transport: Any = getattr(
                getattr(self._driver_manager, "_connection", None), "_transport", None
            )
            process = getattr(transport, "_proc", None)
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()

    def context_kwargs(self) -> dict[str, Any]:
        """What a new session's context is made with: the `--device`'s descriptor (from the
        running driver), the other browser options over it, and the video folder."""
        options = self._config.browser
        devices = self._playwright.devices if options.device and self._playwright else None
        kwargs = options.context_kwargs(devices)
        if options.save_video:
            kwargs["record_video_dir"] = str(self.output_dir() / "videos")
            if options.viewport:
                width, height = options.viewport
                kwargs["record_video_size"] = {"width": width, "height": height}
        return kwargs

    def devices(self) -> dict[str, Any]:
        """Playwright's device descriptors by name (empty until the driver runs)."""
        return dict(self._playwright.devices) if self._playwright is not None else {}

    def output_dir(self) -> Path:
        return self._config.output_dir or default_output_dir()

    async def new_context(self, browser: Browser) -> BrowserContext:
        """A new session's context: a fresh one with the options, or (`--user-data-dir`) the
        persistent profile's only context, handed out once per launch: closing it closes that
        browser, and the next session launches the profile again."""
        if self._config.browser.user_data_dir is None:
            return await browser.new_context(**self.context_kwargs())
        context, self._profile_context = self._profile_context, None
        if context is None or context.browser is not browser:
            raise HostError(
                "too_many_sessions",
                "the persistent profile (--user-data-dir) is held by another session; one "
                "session at a time can use it",
            )
        return context

    def _on_disconnected(self, browser: Browser) -> None:
        if browser is self._browser:
            log.warning("the browser disconnected (generation %d)", self.generation)
            self.last_loss = "the browser exited"
            self._browser = None
            self._tell_loss(self.last_loss)

    def _tell_loss(self, why: str) -> None:
        for listener in self.on_loss:
            try:
                listener(why)
            except Exception:
                log.exception("a browser loss listener failed")

    def check(self) -> str | None:
        """Look at the browser and the driver now; if either is gone, forget the browser (the
        next `browser()` starts a new one) and say why."""
        loss = self.loss() if self._browser is not None else None
        if loss is not None:
            log.warning("%s (generation %d)", loss, self.generation)
            self.last_loss = loss
            self._browser = None
            self._tell_loss(loss)
        return loss

    def gone(self) -> str | None:
        """Why the browser of the current generation cannot be used any more (None: it can)."""
        if self.connected is not None:
            return None
        return self.check() or self.last_loss or "the browser exited"

    async def gone_after(self, patience: float) -> str | None:
        """`gone()`, looked at again for up to `patience` seconds: a browser's disconnect can
        trail the failed call that it caused (by seconds on a loaded machine)."""
        give_up = time.monotonic() + patience
        while True:
            loss = self.gone()
            if loss is not None or time.monotonic() >= give_up:
                return loss
            await asyncio.sleep(0.05)

    async def probe(self, timeout: float = 5.0) -> str | None:
        """A round trip to the browser through the driver: None if it answered within `timeout`,
        else why not (then the browser is forgotten, as by `check`)."""
        browser = self.connected
        if browser is None:
            return self.check() or self.last_loss or "no browser is running"
        try:
            async with asyncio.timeout(timeout):
                context = await browser.new_context()
                await context.close()
        except Exception as error:
            loss = self.check()
            if loss is None:
                return f"the browser did not answer: {_first_line(error)}"
            return loss
        return None

    async def _stop_playwright(self) -> None:
        playwright, self._playwright = self._playwright, None
        if playwright is None:
            return
        if not driver_alive(playwright):
            _kill_driver(playwright)
        try:
            async with asyncio.timeout(_STOP_LIMIT_S):
                await playwright.stop()
        except Exception:
            log.debug("stopping Playwright failed", exc_info=True)
            _kill_driver(playwright)

    async def close(self) -> None:
        self._closed = True
        launching = self._launching
        if launching is not None and not launching.done():
            launching.cancel()
            with contextlib.suppress(BaseException):
                await launching
        await self._finish_driver_start()
        browser, self._browser = self._browser, None
        if browser is not None and driver_alive(self._playwright):
            try:
                async with asyncio.timeout(_STOP_LIMIT_S):
                    await browser.close()
            except Exception:  # already gone
                log.debug("closing the browser failed", exc_info=True)
        await self._stop_playwright()


def force_stop(pool: BrowserPool) -> None:
    """Kill the pool's driver at once (its browser exits with it): the last resort of a shutdown
    that did not finish in time."""
    if pool._playwright is not None:
        _kill_driver(pool._playwright)


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "message", None) or error).strip()
    return (text.splitlines()[0] if text else type(error).__name__)[:500]


def _free_loopback_port() -> int:
    """A TCP port free on 127.0.0.1 right now (Chromium binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
