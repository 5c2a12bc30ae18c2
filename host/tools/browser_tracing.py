"""`browser_start_tracing` and `browser_stop_tracing` (capability `tracing`): a Playwright trace
of the caller's session, saved as a zip in the session's folder under the host's output directory
(`traces/`; `host.sessions.session_files.save_trace`).

Described by `browser_start_tracing.tool.yaml` and `browser_stop_tracing.tool.yaml` beside this
file. A session the operator traces whole (`--save-trace`) refuses both with `tracing_active`: its
trace is already running and is saved when the session ends.
"""

from __future__ import annotations

import weakref

from host.calls.registry import CallContext
from host.sessions.session import Session
from host.sessions.session_files import save_trace, unguessable
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

_tracing: weakref.WeakSet[Session] = weakref.WeakSet()
"""Sessions whose trace a `browser_start_tracing` started and no stop saved yet."""


def _traced_whole(call: CallContext) -> bool:
    """Whether the operator traces every session (`--save-trace`), wherever the config says so."""
    browser = getattr(call.config, "browser", None)
    return bool(getattr(browser, "save_trace", False) or getattr(call.config, "save_trace", False))


def _refuse_if_traced_whole(call: CallContext) -> None:
    if _traced_whole(call):
        raise HostError(
            "tracing_active",
            "this host traces every session whole (--save-trace): the trace already runs and is "
            "saved when the session ends, so it cannot be started or stopped here",
        )


async def browser_start_tracing(call: CallContext, args: JsonObject) -> JsonValue:
    _refuse_if_traced_whole(call)
    if call.session in _tracing:
        raise HostError(
            "tracing_active",
            "this session is already being traced; stop it with browser_stop_tracing",
        )
    await call.session.context.tracing.start(screenshots=True, snapshots=True, sources=False)
    _tracing.add(call.session)
    return {"tracing": True}


async def browser_stop_tracing(call: CallContext, args: JsonObject) -> JsonValue:
    _refuse_if_traced_whole(call)
    if call.session not in _tracing:
        raise HostError(
            "tracing_not_started",
            "this session is not being traced; start with browser_start_tracing",
        )
    _tracing.discard(call.session)
    path = await save_trace(call.session.context, call.session.files, unguessable("trace") + ".zip")
    return {
        "path": str(path),
        "size": path.stat().st_size,
        "open": f"npx playwright show-trace {path}",
    }
