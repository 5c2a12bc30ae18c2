"""Browser endpoints (`--browser-endpoint`): the pool that places each new session on the healthy
endpoint with the fewest live sessions (what a URL names is host/browsers/endpoint_specs.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from host.browsers.endpoint_specs import EndpointSpec, parse_endpoint
from host.shared.errors import HostError

if TYPE_CHECKING:
    from host.browsers.browser import BrowserPool
    from host.settings.config import HostConfig

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 15.0
"""A connect to an endpoint of a pool of several waits this long at most; then the next one."""
_BACKOFF_FIRST_S = 1.0
_BACKOFF_MAX_S = 30.0


@dataclass(eq=False)
class Endpoint:
    """One endpoint of the pool: its browser pool, the sessions placed on it (live and ever), and
    while it is down, since when, why, and the task that tries it again."""

    spec: EndpointSpec
    pool: BrowserPool
    sessions: int = 0
    """Live sessions placed here (and sessions being made here)."""
    placed: int = 0
    """Sessions ever placed here: among endpoints with as few live sessions, the one placed on
    least goes first, so that short sessions one after another still spread."""
    down_since: float | None = None
    problem: str | None = None
    retry_at: float = 0.0
    backoff: float = _BACKOFF_FIRST_S
    retrying: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def up(self) -> bool:
        return self.down_since is None

    @property
    def full(self) -> bool:
        return self.spec.limit is not None and self.sessions >= self.spec.limit

    def report(self) -> dict[str, Any]:
        return {
            "url": self.spec.shown,
            "up": self.up,
            "sessions": self.sessions,
            "placed": self.placed,
            "limit": self.spec.limit,
            "problem": self.problem,
        }


class EndpointPool:
    """The host's browser endpoints, each with its own BrowserPool.

    With one endpoint (or none: the browser the host launches) nothing changes: every session
    goes to that pool, which relaunches or reconnects as it always did. With several, each new
    session goes to the healthy endpoint with the fewest live sessions and room under its
    limit; a connect waits `CONNECT_TIMEOUT_S` at most, and an endpoint that fails to connect or
    drops is marked down, tried again in the background with a growing backoff (1 s up to
    30 s), and left out of placement until it answers again. `several` tells callers to end the
    sessions of a lost endpoint with `browser_lost` instead of relaunching in place.
    """

    def __init__(self, config: HostConfig, first: BrowserPool) -> None:
        from host.browsers.browser import BrowserPool

        self._config = config
        specs = [parse_endpoint(url) for url in config.browser_endpoints]
        self.endpoints: list[Endpoint] = []
        for index, spec in enumerate(specs or [None]):
            pool = first if index == 0 else BrowserPool(config, endpoint=spec)
            endpoint = Endpoint(spec or EndpointSpec("launch", "", "(launched)"), pool)
            pool.on_loss.append(lambda why, e=endpoint: self._lost(e, why))
            self.endpoints.append(endpoint)
        self.several = len(self.endpoints) > 1
        self._closed = False

    def connect_soon(self) -> None:
        """With several endpoints, connect to each now, in the background: one that fails is
        marked down (and retried) before a session is placed on it."""
        if self.several:
            for endpoint in self.endpoints:
                endpoint.pool.launch_soon()

    def of(self, pool: BrowserPool | None) -> Endpoint | None:
        return next((e for e in self.endpoints if e.pool is pool), None)

    async def place(self, timeout: float | None) -> Endpoint:
        """The endpoint a new session goes to, connected, its `sessions` already counted (the
        caller `release`s it if the session is not made). Raises `too_many_sessions` when every
        healthy endpoint is at its limit, `browser_unavailable` when none answers."""
        if not self.several:
            endpoint = self.endpoints[0]
            if endpoint.full:
                raise _full([endpoint])
            endpoint.sessions += 1
            try:
                await endpoint.pool.browser(timeout)
            except BaseException:
                endpoint.sessions -= 1
                raise
            endpoint.placed += 1
            return endpoint
        give_up = None if timeout is None else time.monotonic() + timeout
        tried: list[str] = []
        failed: set[int] = set()
        while True:
            candidates = [e for e in self.endpoints if e.up and not e.full and id(e) not in failed]
            if not candidates:
                break
            endpoint = min(candidates, key=lambda e: (e.sessions, e.placed))
            endpoint.sessions += 1
            limit = CONNECT_TIMEOUT_S
            if give_up is not None:
                limit = max(0.1, min(limit, give_up - time.monotonic()))
            try:
                await endpoint.pool.browser(limit)
            except HostError as error:
                endpoint.sessions -= 1
                failed.add(id(endpoint))
                self._lost(endpoint, error.message)
                tried.append(f"{endpoint.spec.shown}: {error.message}")
                if give_up is not None and time.monotonic() >= give_up:
                    raise HostError(
                        "browser_unavailable",
                        "no browser endpoint answered within this call's time ("
                        + "; ".join(tried)
                        + "); the next call tries the others",
                    ) from None
                continue
            except BaseException:
                endpoint.sessions -= 1
                raise
            endpoint.placed += 1
            return endpoint
        if self._closed:
            raise HostError("shutting_down", "the host is shutting down")
        if any(e.up and id(e) not in failed for e in self.endpoints):
            raise _full([e for e in self.endpoints if e.up])
        problems = tried or [f"{e.spec.shown}: {e.problem}" for e in self.endpoints]
        raise HostError(
            "browser_unavailable",
            "no browser endpoint is up (" + "; ".join(problems) + "); they are tried again "
            "in the background",
        )

    def release(self, endpoint: Endpoint | None) -> None:
        if endpoint is not None and endpoint.sessions > 0:
            endpoint.sessions -= 1

    def _lost(self, endpoint: Endpoint, why: str) -> None:
        if not self.several or self._closed:
            return
        if endpoint.up:
            log.warning("browser endpoint %s is down: %s", endpoint.spec.shown, why)
            endpoint.down_since = time.monotonic()
            endpoint.backoff = _BACKOFF_FIRST_S
        endpoint.problem = why
        if endpoint.retrying is None or endpoint.retrying.done():
            with contextlib.suppress(RuntimeError):  # no loop: the next placement retries
                endpoint.retrying = asyncio.get_running_loop().create_task(self._retry(endpoint))

    async def _retry(self, endpoint: Endpoint) -> None:
        while not self._closed and not endpoint.up:
            await asyncio.sleep(endpoint.backoff)
            endpoint.backoff = min(endpoint.backoff * 2, _BACKOFF_MAX_S)
            try:
                await endpoint.pool.browser(CONNECT_TIMEOUT_S)
            except HostError as error:
                endpoint.problem = error.message
                continue
            except Exception as error:  # never let the retry loop die quietly
                endpoint.problem = str(error)
                continue
            log.warning("browser endpoint %s is up again", endpoint.spec.shown)
            endpoint.down_since = None
            endpoint.problem = None
            endpoint.backoff = _BACKOFF_FIRST_S

    def report(self) -> list[dict[str, Any]]:
        return [e.report() for e in self.endpoints]

    async def close(self) -> None:
        self._closed = True
        for endpoint in self.endpoints:
            task = endpoint.retrying
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for endpoint in self.endpoints:
            await endpoint.pool.close()


def _full(endpoints: list[Endpoint]) -> HostError:
    shown = ", ".join(f"{e.spec.shown} ({e.sessions}/{e.spec.limit})" for e in endpoints)
    return HostError(
        "too_many_sessions",
        f"every browser endpoint that is up holds as many sessions as its limit allows ({shown}); "
        "end a session or wait until idle sessions expire",
    )


def start_check(config: HostConfig) -> tuple[list[str], bool]:
    """The start's check of `--browser-endpoint` (host and executor alike): a line per endpoint
    that did not answer, and whether to refuse to start (none answered)."""
    failures = asyncio.run(check_endpoints(config))
    fatal = bool(failures) and len(failures) == len(config.browser_endpoints)
    lines = [
        f"{'error' if fatal else 'warning'}: --browser-endpoint {url}: {reason}"
        + ("" if fatal else " (starting with the others; it is retried)")
        for url, reason in failures
    ]
    return lines, fatal


async def check_endpoints(config: HostConfig) -> list[tuple[str, str]]:
    """Connect to each endpoint once (with the connect timeout), then let go: the endpoints that
    failed, with why."""
    from host.browsers.browser import BrowserPool

    failures = []
    for url in config.browser_endpoints:
        spec = parse_endpoint(url)
        pool = BrowserPool(config, endpoint=spec)
        try:
            await pool.browser(CONNECT_TIMEOUT_S)
        except HostError as error:
            failures.append((spec.shown, error.message))
        finally:
            await pool.close()
    return failures
