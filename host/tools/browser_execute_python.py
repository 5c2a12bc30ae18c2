"""`browser_execute_python`: Python code against the session's tab, in a process that can be stopped.

Design: the code runs in a worker process (`host.tools.execute_worker`), not in the host. A blocking
`time.sleep(1000)` or a `while True: pass` in the host's event loop would stall every session, and
a thread cannot be stopped from outside; a process can. The worker connects to the host's own
browser over CDP (a loopback port the browser opens only when execute is enabled), acts on the
session's current tab (found by its CDP target id), and reaches the session's BrowserContext
through a small proxy the host serves. At the time limit the host kills the worker's process group
(its Playwright driver included); the browser, the tab and the session stay as they are. Workers
are started one ahead, so a call does not wait for Python and Playwright to import. Locals never
persist: each call gets a fresh worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from typing import Any

from playwright.async_api import Error as PlaywrightError

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.session import Session
from host.sessions.tab import Tab
from host.settings.limits import execute_timeout
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.tools.execute_worker import CONTEXT_METHODS

_warm: dict[asyncio.AbstractEventLoop, asyncio.subprocess.Process] = {}
"""The worker started ahead of time, per event loop (a subprocess belongs to its loop)."""


async def _spawn() -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "host.tools.execute_worker",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        start_new_session=True,  # its own process group: killed whole, driver included
        limit=16 * 1024 * 1024,
    )


async def _take_worker() -> asyncio.subprocess.Process:
    """The worker started ahead of time if it is alive, else a new one; then start the next."""
    loop = asyncio.get_running_loop()
    worker = _warm.pop(loop, None)
    if worker is None or worker.returncode is not None:
        worker = await _spawn()
    _warm[loop] = await _spawn()
    return worker


def kill(worker: asyncio.subprocess.Process) -> None:
    if worker.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(worker.pid, signal.SIGKILL)


async def shutdown() -> None:
    """Kill the worker started ahead of time (the host is closing)."""
    worker = _warm.pop(asyncio.get_running_loop(), None)
    if worker is not None:
        kill(worker)
        with contextlib.suppress(Exception):
            await worker.wait()


async def target_id(session: Session, tab: Tab) -> str:
    """The CDP target id of a tab (asked once, then kept)."""
    if tab.target_id is None:
        cdp = await session.context.new_cdp_session(tab.page)
        try:
            info = await cdp.send("Target.getTargetInfo")
        finally:
            await cdp.detach()
        tab.target_id = str(info["targetInfo"]["targetId"])
    return tab.target_id


async def _answer_rpc(session: Session, message: dict[str, Any]) -> JsonObject:
    method = str(message.get("method"))
    args = message.get("args") or []
    kwargs = message.get("kwargs") or {}
    try:
        if method == "pages":
            return {"ok": True, "value": [await target_id(session, t) for t in session.tabs]}
        if method not in CONTEXT_METHODS:
            return {"ok": False, "error": f"context.{method} is not available"}
        value = await getattr(session.context, method)(*args, **kwargs)
        if method == "new_page":
            session._adopt(value)
            index = session.index_of(value)
            assert index is not None
            return {"ok": True, "value": await target_id(session, session.tabs[index])}
        json.dumps(value)
        return {"ok": True, "value": value}
    except (PlaywrightError, TypeError, ValueError) as error:
        return {"ok": False, "error": f"context.{method}: {error}"}


async def browser_execute_python(call: CallContext, args: JsonObject) -> JsonValue:
    timeout = execute_timeout(args)
    session = call.session
    endpoint = session.cdp_url
    if endpoint is None:
        raise HostError("execute_unavailable", "the browser has no CDP endpoint for the worker")
    job = {
        "code": str(args["code"]),
        "endpoint": endpoint,
        "target": await target_id(session, call.tab),
        "limit": call.config.max_result_bytes,
    }
    worker = await _take_worker()
    assert worker.stdin is not None and worker.stdout is not None
    result: dict[str, Any] | None = None
    try:
        worker.stdin.write((json.dumps(job) + "\n").encode())
        await worker.stdin.drain()
        async with asyncio.timeout(timeout):
            while result is None:
                line = await worker.stdout.readline()
                if not line:
                    break
                message = json.loads(line)
                if "rpc" in message:
                    answer = await _answer_rpc(session, message)
                    worker.stdin.write((json.dumps(answer) + "\n").encode())
                    await worker.stdin.drain()
                elif "done" in message:
                    result = message["done"]
    except ValueError:
        # A line past the stream's limit: the worker sent more than any answer may hold.
        kill(worker)
        raise HostError(
            "result_too_large",
            "the code's answer was larger than the host accepts; return less",
        ) from None
    except TimeoutError:
        kill(worker)
        await worker.wait()
        raise HostError(
            "timeout",
            f"the code did not finish within {timeout:g} s and was stopped (its process was "
            "killed; the browser session is unchanged and usable). Output printed before the stop "
            "is lost; make the code finish sooner or raise timeout_sec (at most 300)",
            details={
                "success": False,
                "result": None,
                "stdout": "",
                "stderr": "",
                "error": f"stopped after {timeout:g} s (timeout_sec)",
            },
        ) from None
    finally:
        kill(worker)
        with contextlib.suppress(Exception):
            await worker.wait()
    if result is None:
        raise HostError(
            "execute_failed", f"the worker process exited with status {worker.returncode}"
        )
    if result.pop("too_large", False):
        raise HostError("result_too_large", str(result.get("error")), details=result)
    if not result.get("success"):
        parts = [str(result.get("error"))]
        for stream in ("stdout", "stderr"):
            if result.get(stream):
                parts.append(f"{stream}:\n{result[stream]}")
        raise HostError("execution_error", "\n".join(parts), details=result)
    lines = [f"result: {json.dumps(result.get('result'), ensure_ascii=False)}"]
    if result.get("note"):
        lines.append(f"note: {result['note']}")
    for stream in ("stdout", "stderr"):
        if result.get(stream):
            lines.append(f"{stream}:\n{result[stream]}")
    return Rendered(result, "\n".join(lines), spread=True)
