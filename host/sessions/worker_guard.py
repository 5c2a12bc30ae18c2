"""The console limit inside a page's workers, which init scripts never reach.

An init script runs in every frame but in no worker, so a page could flood the console from a
`new Worker(...)` and every message would cross the browser, Playwright's driver (shared by
every session) and the pipe. `guard_workers` has the tab's own DevTools session attach to each
worker (and frame) the page starts, and to the workers those start; into each dedicated worker
it evaluates the page's limiter under a debugger pause, so that a worker already in its first
loop is limited from its next statement. Messages travel through `Target.sendMessageToTarget`
(the session is not flattened) because Playwright's `CDPSession` can only address its own
target.

A target that waits for a debugger is always let run, whatever else failed: a paused worker
would hang the page. What a worker logs before the limiter lands (the race with Playwright's
own session, which resumes it first: a few hundred lines at most when measured) still reaches
the session, whose flood pause and CPU slowdown cover anything that gets past.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from typing import Any

log = logging.getLogger(__name__)

_AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False}
_LIMITED = ("worker",)  # dedicated workers: a shared or service worker outlives the page
_MAX_DEPTH = 8  # workers starting workers: past this depth nested targets are let run untouched


class _Router:
    """Sends commands to nested targets of one DevTools session and answers their attaches."""

    def __init__(self, cdp: Any, limiter: str) -> None:
        self.cdp = cdp
        self.limiter = limiter
        self.ids = itertools.count(1)
        self.tasks: set[asyncio.Task[None]] = set()
        self.answers: dict[int, asyncio.Future[None]] = {}

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
        if method == "Target.attachedToTarget":
            self.on_attached(params, (*path, session))
        elif method == "Target.receivedMessageFromTarget":
            self.on_message(params, (*path, session))

    async def _prepare(self, path: tuple[str, ...], kind: str, waiting: bool) -> None:
        """Send the target every command at once, in order, and wait for none of them in
        between: under a flood, each answer queues behind the flood's messages in the same pipe.

        Playwright's own session usually resumes a new worker before these commands arrive, so
        the worker may already be in its first script (a flood is a loop there). A debugger
        pause stops it at its next statement, the limiter is evaluated while it stands there
        (or the pause lands in that evaluation, if no script was running), and the resume after
        it lets the worker go on, limited. Auto-attach comes first, for the workers it starts;
        a worker that waits for a debugger is let run last, whatever else failed."""
        commands: list[tuple[str, dict[str, Any]]] = []
        if len(path) < _MAX_DEPTH:
            commands.append(("Target.setAutoAttach", _AUTO_ATTACH))
        if kind in _LIMITED:
            commands += [
                ("Debugger.enable", {}),
                ("Debugger.pause", {}),
                ("Runtime.evaluate", {"expression": self.limiter}),
                ("Debugger.resume", {}),
                ("Debugger.disable", {}),
            ]
        if waiting:
            commands.append(("Runtime.runIfWaitingForDebugger", {}))
        # Tasks start in the order they were made, and each sends before its first wait.
        sent = await asyncio.gather(
            *(asyncio.ensure_future(self._post(path, m, p)) for m, p in commands),
            return_exceptions=True,
        )
        answers = [future for future in sent if isinstance(future, asyncio.Future)]
        if len(answers) < len(sent):
            log.debug("the %s target closed while it was prepared", kind)
        if answers:
            _, late = await asyncio.wait(answers, timeout=5)
            for future in late:
                future.cancel()

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
