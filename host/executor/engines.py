"""Which browser engine runs the actions: the first of the configured order that launches."""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Browser

from host.browsers.endpoints import CONNECT_TIMEOUT_S
from host.calls.core import Host
from host.calls.registry import ToolRegistry
from host.executor.action_session import ActionSession
from host.executor.logs import event
from host.executor.settings import ExecutorSettings
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject

RETRY_AFTER_S = 10.0
"""While no engine runs, a health check or an action tries the order again at most this often."""
LAUNCH_LIMIT_S = 60.0


def _reason(error: BaseException) -> str:
    text = str(getattr(error, "message", None) or error).strip()
    # Playwright's launch errors carry a boxed banner after the first line; the first line says why.
    first = text.splitlines()[0] if text else type(error).__name__
    return first[:500]


async def _first_browser(host: Host) -> Browser:
    """The browser the host launched or connected to; with several endpoints, the first that
    answers (the others are connected in the background, and marked down if they do not)."""
    if not host.endpoints.several:
        return await host.pool.browser()
    host.endpoints.connect_soon()
    problems = []
    for endpoint in host.endpoints.endpoints:
        try:
            return await endpoint.pool.browser(CONNECT_TIMEOUT_S)
        except HostError as error:
            problems.append(f"{endpoint.spec.shown}: {error.message}")
    raise HostError("browser_unavailable", "no browser endpoint answered: " + "; ".join(problems))


class EngineSet:
    """Owns the host (sessions on one shared browser) of the engine that launched.

    Guarantees: `start` tries the engines in the configured order and keeps the first whose
    browser launches (a `Host` whose `BrowserPool` relaunches the same engine after a crash);
    `failures` says, per engine tried, why it could not launch; while none runs, `ensure` tries
    the order again (at most every `RETRY_AFTER_S` seconds) and returns None. One registry is
    shared by every attempt.
    """

    def __init__(self, settings: ExecutorSettings, registry: ToolRegistry | None = None) -> None:
        self.settings = settings
        self.registry = registry or ToolRegistry()
        self.host: Host | None = None
        self.engine: str | None = None
        self.version: str | None = None
        self.failures: list[JsonObject] = []
        self.proxy: str | None = None
        """The proxy every browser launched goes through (the URL policy), if any."""
        self._lock = asyncio.Lock()
        self._last_try = -RETRY_AFTER_S

    async def start(self) -> Host | None:
        async with self._lock:
            if self.host is not None:
                return self.host
            self._last_try = time.monotonic()
            failures: list[JsonObject] = []
            for engine in self.settings.engines:
                host = Host(self.settings.host_config(engine, self.proxy), self.registry)
                host.sessions.session_type = ActionSession
                try:
                    async with asyncio.timeout(LAUNCH_LIMIT_S):
                        browser = await _first_browser(host)
                    await host.start()
                except Exception as error:
                    reason = _reason(error)
                    failures.append({"engine": engine, "error": reason})
                    event("executor_web.engine", engine=engine, launched=False, error=reason)
                    await host.close()
                    continue
                self.host, self.engine, self.version = host, engine, browser.version
                self.failures = failures
                event("executor_web.engine", engine=engine, launched=True, version=browser.version)
                return host
            self.failures = failures
            return None

    async def ensure(self) -> Host | None:
        """The running host, or one more try of the engine order if it is time, else None."""
        if self.host is not None:
            return self.host
        if time.monotonic() - self._last_try < RETRY_AFTER_S:
            return None
        return await self.start()

    async def close(self) -> None:
        async with self._lock:
            host, self.host = self.host, None
            if host is not None:
                await host.close()
