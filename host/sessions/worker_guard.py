"""The console limit inside a page's workers, which init scripts never reach.

An init script runs in every frame but in no worker, so a page could flood the console from a
`new Worker(...)` and every message would cross the browser, Playwright's driver (shared by
every session) and the pipe. `guard_workers` has the tab's own DevTools session attach to each
worker (and frame) the page starts, and to the workers those start (those already running
too); into each dedicated worker it evaluates the page's limiter under a debugger pause, so
that a worker already in a loop (Playwright's own session may resume a new worker before the
guard's commands arrive, and a guard attached late finds it running) is limited from its next
statement. Messages travel through `Target.sendMessageToTarget` (the session is not flattened)
because Playwright's `CDPSession` can only address its own target.

A target that waits for a debugger is always let run, whatever else failed: a paused worker
would hang the page. What a worker logs before the pause lands (a few thousand lines at most)
still reaches the driver; a session that listens to the console pauses listening past its
flood limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from typing import Any

log = logging.getLogger(__name__)

_AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False}
_LIMITED = ("worker",)  # dedicated workers: a shared or service worker outlives the page
_MAX_DEPTH = 8  # workers starting workers: past this depth nested targets are let run untouched
_PAUSE_PATIENCE_S = 2.0
"""How long a worker's pause may take to land: at once in a running script; an idle worker
pauses when it next runs a script, and is limited without a pause after this."""


class _Router:
    """Sends commands to nested targets of one DevTools session and answers their attaches."""

    def __init__(self, cdp: Any, limiter: str) -> None:
        self.cdp = cdp
        self.limiter = limiter
        self.ids = itertools.count(1)
        self.tasks: set[asyncio.Task[None]] = set()
        self.answers: dict[int, asyncio.Future[None]] = {}
        self.paused: dict[tuple[str, ...], asyncio.Future[None]] = {}

    def on_attached(self, event: dict[str, Any], path: tuple[str, ...] = ()) -> None:
        session = event.get("sessionId")
        if not isinstance(session, str):
            return
        kind = (event.get("targetInfo") or {}).get("type", "")
        waiting = bool(event.get("waitingForDebugger"))
        task = asyncio.ensure_future(self._prepare((*path, session), kind, waiting))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def on_message(self, event: dict[str, Any], path: tuple[str, ...] = ()) -> None:
        """A nested target's own events arrive wrapped; unwrap them to see its attaches."""
        session = event.get("sessionId")
        raw = event.get("message")
        if not isinstance(session, str) or not isinstance(raw, str) or len(raw) > 65_536:
            return
        try:
            message = json.loads(raw)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        answered = self.answers.pop(message.get("id", 0), None) if "id" in message else None
        if answered is not None and not answered.done():
            answered.set_result(None)
        method, params = message.get("method"), message.get("params") or {}
        if method == "Debugger.paused":
            paused = self.paused.get((*path, session))
            if paused is not None and not paused.done():
                paused.set_result(None)
        elif method == "Target.attachedToTarget":
            self.on_attached(params, (*path, session))
        elif method == "Target.receivedMessageFromTarget":
            self.on_message(params, (*path, session))

    async def _prepare(self, path: tuple[str, ...], kind: str, waiting: bool) -> None:
        """Limit a dedicated worker from its next statement, in two steps of commands each
        sent at once (under a flood, each answer queues behind the flood's messages).

        First auto-attach (for the workers it starts), the debugger and a pause, and the run of
        a worker that waits for a debugger (always sent, whatever else failed). The pause lands
        at the worker's next statement: at once in a loop already running, at its first one in
        a worker that was waiting. Only then the limiter and the resume: an evaluation is no
        interrupt, so sent earlier it would wait behind a running loop, and a resume or disable
        sent before the pause landed would cancel it. A worker that stays idle is limited
        without a pause after `_PAUSE_PATIENCE_S`, or in the pause its next script meets."""
        first: list[tuple[str, dict[str, Any]]] = []
        if len(path) < _MAX_DEPTH:
            first.append(("Target.setAutoAttach", _AUTO_ATTACH))
        limited = kind in _LIMITED
        if limited:
            self.paused[path] = asyncio.get_running_loop().create_future()
            first += [("Debugger.enable", {}), ("Debugger.pause", {})]
        if waiting:
            first.append(("Runtime.runIfWaitingForDebugger", {}))
        try:
            answers = await self._send_all(path, first)
            if limited:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.paused[path], _PAUSE_PATIENCE_S)
                answers += await self._send_all(
                    path,
                    [
                        ("Runtime.evaluate", {"expression": self.limiter}),
                        ("Debugger.resume", {}),
                        ("Debugger.disable", {}),
                    ],
                )
        finally:
            self.paused.pop(path, None)
        if answers:
            _, late = await asyncio.wait(answers, timeout=5)
            for future in late:
                future.cancel()

    async def _send_all(
        self, path: tuple[str, ...], commands: list[tuple[str, dict[str, Any]]]
    ) -> list[asyncio.Future[None]]:
        """Send `commands` in order without waiting for any answer; the answers to wait for."""
        # Tasks start in the order they were made, and each sends before its first wait.
        sent = await asyncio.gather(
            *(asyncio.ensure_future(self._post(path, m, p)) for m, p in commands),
            return_exceptions=True,
        )
        answers = [future for future in sent if isinstance(future, asyncio.Future)]
        if len(answers) < len(sent):
            log.debug("a target closed while it was prepared")
        return answers

    async def _post(
        self, path: tuple[str, ...], method: str, params: dict[str, Any]
    ) -> asyncio.Future[None]:
        """Send a command to the target at `path`; the future is its answer."""
        number = next(self.ids)
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.answers[number] = answered
        answered.add_done_callback(lambda _: self.answers.pop(number, None))
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        for session in reversed(path[1:]):
            message = {
                "id": next(self.ids),
                "method": "Target.sendMessageToTarget",
                "params": {"sessionId": session, "message": json.dumps(message)},
            }
        try:
            await self.cdp.send(
                "Target.sendMessageToTarget",
                {"sessionId": path[0], "message": json.dumps(message)},
            )
        except BaseException:
            answered.cancel()
            raise
        return answered


async def guard_workers(cdp: Any, limiter: str) -> None:
    """Have every worker the tab of `cdp` starts from now on run `limiter` before its script."""
    router = _Router(cdp, limiter)
    cdp.on("Target.attachedToTarget", router.on_attached)
    cdp.on("Target.receivedMessageFromTarget", router.on_message)
    await cdp.send("Target.setAutoAttach", _AUTO_ATTACH)
