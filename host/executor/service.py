"""The executor's state and answers, independent of HTTP: execute, health, sandbox telemetry."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import os
import platform
import secrets
import time

from host.browsers.chromium_features import chromium_launch_args
from host.calls.core import Host
from host.calls.registry import ToolRegistry, generated_registry
from host.executor.engines import EngineSet
from host.executor.errors import ExecutorError
from host.executor.logs import event, log
from host.executor.payload import Action, parse_action
from host.executor.pii import SelectorPrivacy
from host.executor.prepared import SessionsAhead
from host.executor.privileges import browser_processes, user_name
from host.executor.proxy import OriginProxy
from host.executor.redaction import SECRETS, Redactor
from host.executor.runner import ActionRun, action_origin
from host.executor.settings import ExecutorSettings
from host.executor.stacks import install as keep_stacks_fixed
from host.executor.urlpolicy import UrlPolicy
from host.sessions.keys import SessionKey
from host.sessions.selfguard import SelfGuard
from host.shared.jsontypes import JsonObject, JsonValue

JSON_TYPES = ("application/json",)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _failure(action_id: str | None, error: ExecutorError) -> tuple[int, JsonObject]:
    body: JsonObject = {"ok": False, "error": error.to_json()}
    if action_id is not None:
        body = {"ok": False, "action_id": action_id, "error": error.to_json()}
    return error.status, body


class ExecutorService:
    """Runs planner actions on the host's sessions, one fresh session per action.

    Guarantees: `execute` answers every request with `(status, JSON body)` and never raises: a
    payload error is 400 `invalid_payload` with the field path, a refused URL `url_refused`, a
    failed action its code; at most `max_concurrent` actions run at once and at most `max_queue`
    wait; one more is answered `busy` (503) at once, and one that waited half its time limit
    without a slot is answered `busy` then, never `timeout` (504 is only for an action that ran
    out of its own time); every redacted value is registered for log scrubbing while its action
    runs and is absent from the body. Each action runs in a session no other action used: one
    made ahead of it (`prepared`), or its own. With an origin allow-list, every request of the browser
    goes through the service's `OriginProxy`. `health` is 200 only while the browser answers a
    round trip through a live driver (relaunched if either died), else 503 with the reason.
    """

    def __init__(self, settings: ExecutorSettings, registry: ToolRegistry | None = None) -> None:
        self.settings = settings
        self.engines = EngineSet(settings, registry)
        self.policy = UrlPolicy(settings.url_origins)
        self.privacy = SelectorPrivacy(settings.pii_key)
        self.proxy: OriginProxy | None = None
        if settings.url_origins:
            self.proxy = OriginProxy(self.policy, SelfGuard(settings.guarded_ports))
        self._slots = asyncio.Semaphore(settings.max_concurrent)
        # Each action takes a session made while the one before it ran (not with browser
        # endpoints, where an action is placed when it starts, nor with a persistent profile).
        plain = not settings.browser_endpoints and settings.browser.user_data_dir is None
        self.ahead = SessionsAhead(1 if plain else 0)
        self._waiting = 0
        self._closing: set[asyncio.Task[None]] = set()
        self.running = 0
        self.started = time.time()
        # Read now: package metadata may be unreadable once the process dropped root.
        self._versions: JsonObject = {
            "service": _version("playwright-tool-generator"),
            "playwright": _version("playwright"),
            "python": platform.python_version(),
        }

    async def start(self) -> None:
        keep_stacks_fixed(asyncio.get_running_loop())
        if self.proxy is not None:
            await self.proxy.start()
            self.engines.proxy = self.proxy.url
        # The generated registry imports ~200 modules: once here, not during the first action.
        await asyncio.get_running_loop().run_in_executor(None, generated_registry)
        host = await self.engines.start()
        if host is not None:
            self.ahead.fill(host)

    async def close(self) -> None:
        if self._closing:
            await asyncio.wait(set(self._closing), timeout=15)
        await self.ahead.close()
        await self.engines.close()
        if self.proxy is not None:
            await self.proxy.close()

    # -- POST /execute -------------------------------------------------------------------------

    async def execute(self, body: bytes, content_type: str | None) -> tuple[int, JsonObject]:
        action_id = secrets.token_hex(8)
        received = asyncio.get_running_loop().time()
        kind = (content_type or "").split(";", 1)[0].strip().lower()
        try:
            if kind not in JSON_TYPES:
                # Also a CSRF defence: a cross-site form cannot send application/json unasked.
                raise ExecutorError(
                    "invalid_payload",
                    "the body must be JSON (Content-Type: application/json)",
                    path="$",
                )
            action = parse_action(body, self.settings)
            self.policy.check(action.url)
        except ExecutorError as error:
            event("executor_web.rejected", action=action_id, code=error.code, path=error.path)
            return _failure(action_id, error)
        redactor = Redactor(action.secrets)
        with SECRETS.holding(redactor):
            status, answer = await self._run(action, redactor, action_id, received)
            failure = answer.get("error")
            event(
                "executor_web.action",
                action=action_id,
                ok=status == 200,
                status=status,
                code=failure.get("code") if isinstance(failure, dict) else None,
                origin=action_origin(action.url),
                fields=len(action.fields),
                retries=answer.get("retries", 0),
                elapsed_ms=answer.get("elapsed_ms"),
            )
            return status, answer

    async def _run(
        self, action: Action, redactor: Redactor, action_id: str, received: float
    ) -> tuple[int, JsonObject]:
        host = await self.engines.ensure()
        if host is None:
            return _failure(
                action_id,
                ExecutorError(
                    "browser_unavailable",
                    "no browser engine could be launched (see /healthz)",
                    details={"engines": list(self.engines.failures)},
                ),
            )
        if self._slots.locked() and self._waiting >= self.settings.max_queue:
            return _failure(
                action_id,
                ExecutorError(
                    "busy",
                    f"{self.settings.max_concurrent} actions are running and "
                    f"{self.settings.max_queue} waiting (the service's limits); retry shortly",
                ),
            )
        deadline = received + action.timeout_ms / 1000
        # A waiting action keeps half its time for running: past that it is told to come back
        # (503) rather than started too late to finish (which would be a 504 after the deadline).
        patience = received + action.timeout_ms / 2000
        self._waiting += 1
        try:
            async with asyncio.timeout_at(patience):
                await self._slots.acquire()
        except TimeoutError:
            return _failure(
                action_id,
                ExecutorError(
                    "busy",
                    f"no slot freed up within half the action's {action.timeout_ms} ms; retry "
                    "shortly",
                ),
            )
        finally:
            self._waiting -= 1
        self.running += 1
        run: ActionRun | None = None
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(deadline):  # past it, the run says `timeout`
                    await self.ahead.take(host, SessionKey("executor", action_id))
            run = ActionRun(
                host,
                self.settings,
                self.privacy,
                self.policy,
                action,
                redactor,
                action_id,
                deadline,
                next_session=lambda: self.ahead.fill(host),
            )
            return await run.run()
        except Exception as error:
            # A bug of the service, not of the page: logged (scrubbed), answered without details.
            log.error("action %s failed inside the service", action_id, exc_info=error)
            return _failure(
                action_id,
                ExecutorError(
                    "internal_error", f"the service failed on this action (logged as {action_id})"
                ),
            )
        finally:
            self.running -= 1
            # The answer goes out now; the session closes behind it and only then frees the slot,
            # so that sessions never outnumber slots (and the one made ahead for the next action).
            task = asyncio.ensure_future(self._release(run))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _release(self, run: ActionRun | None) -> None:
        try:
            if run is not None:
                await run.close()
        finally:
            self._slots.release()
            # An action that ended before it submitted did not ask for the next one's session.
            if run is not None:
                self.ahead.fill(run.host)

    # -- GET /healthz, GET /sandbox ---------------------------------------------------------------

    def versions(self) -> JsonObject:
        return {**self._versions, "browser": self.engines.version}

    async def health(self) -> tuple[int, JsonObject]:
        engines: JsonObject = {
            "order": list(self.settings.engines),
            "selected": self.engines.engine,
            "failed": list(self.engines.failures),
        }
        host = await self.engines.ensure()
        if host is None:
            return 503, {
                "ok": False,
                "reason": "no browser engine could be launched: "
                + "; ".join(f"{f['engine']}: {f['error']}" for f in self.engines.failures),
                "browser": {"connected": False},
                "engines": engines,
                "versions": self.versions(),
            }
        if host.endpoints.several:
            return self._pool_health(host, engines)
        try:
            # A real round trip: a dead driver or a browser that no longer answers shows here.
            # Either is relaunched, so that a health check answers whether the next action runs.
            problem = await host.pool.probe()
            async with asyncio.timeout(30):
                browser = await host.pool.browser(30)
            if problem is not None:
                problem = await host.pool.probe()
            if problem is not None:
                raise RuntimeError(problem)
        except Exception as error:
            return 503, {
                "ok": False,
                "reason": f"the {self.engines.engine} browser could not be relaunched: "
                + str(error).strip().splitlines()[0][:300],
                "browser": {"connected": False, "engine": self.engines.engine},
                "engines": engines,
                "versions": self.versions(),
            }
        answer: JsonObject = {
            "ok": True,
            "browser": {
                "connected": browser.is_connected(),
                "engine": self.engines.engine,
                "version": browser.version,
                "launches": host.pool.launches,
            },
            "engines": engines,
            "versions": self.versions(),
            "sessions": len(host.sessions) - self.ahead.count(host),
            "sessions_ahead": self.ahead.count(host),
            "running": self.running,
            "waiting": self._waiting,
            "driver_starts": host.pool.driver_starts,
            "last_loss": host.pool.last_loss,
            "proxy_refusals": self.proxy.refused if self.proxy is not None else None,
        }
        if self.settings.browser_endpoints:
            answer["endpoints"] = host.endpoints.report()  # type: ignore[assignment]
        return 200, answer

    def _pool_health(self, host: Host, engines: JsonObject) -> tuple[int, JsonObject]:
        """Health with several endpoints: each one up or down, its sessions and limit; ready
        while one is up (the others are retried in the background)."""
        endpoints = host.endpoints.report()
        up = any(e["up"] for e in endpoints)
        answer: JsonObject = {
            "ok": up,
            "browser": {"connected": up, "engine": self.engines.engine},
            "endpoints": endpoints,  # type: ignore[dict-item]
            "engines": engines,
            "versions": self.versions(),
            "sessions": len(host.sessions),
            "running": self.running,
            "waiting": self._waiting,
        }
        if not up:
            answer["reason"] = "no browser endpoint is up; they are retried in the background"
        return (200 if up else 503), answer

    def sandbox(self) -> JsonObject:
        host = self.engines.host
        processes = browser_processes()
        uids = sorted({p.uids[1] for p in processes})
        chromium = self.engines.engine == "chromium"
        # The flags the browser was launched with (the port guard's and the features off included).
        config = self.settings.host_config("chromium")
        args = (
            chromium_launch_args(config.browser_args, spare_renderer=config.spare_renderer)
            if chromium
            else []
        )
        browser: JsonObject = {
            "engine": self.engines.engine,
            "version": self.engines.version,
            "headless": self.settings.headless,
            "processes": len(processes),
            "uids": list[JsonValue](uids),
            "users": [user_name(uid) for uid in uids],
            "all_ids_equal": all(len(set(p.uids)) == 1 for p in processes),
        }
        return {
            "service": {
                "user": user_name(os.geteuid()),
                "uid": os.getuid(),
                "euid": os.geteuid(),
                "gid": os.getgid(),
                "groups": list[JsonValue](os.getgroups()),
                "privileges_dropped": self.settings.user is not None and os.geteuid() != 0,
            },
            "browser": browser,
            "sandbox_flags": list[JsonValue](args),
            # With --no-sandbox, Chromium's own sandbox is off; the isolation is the dropped uid.
            "chromium_sandbox": self.engines.engine == "chromium" and "--no-sandbox" not in args,
            "sessions_open": len(host.sessions) - self.ahead.count(host) if host is not None else 0,
            "sessions_ahead": self.ahead.count(host),
            "actions_running": self.running,
        }
