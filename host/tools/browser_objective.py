"""`browser_objective`: opens a new objective (a Trailblaze `prompt`) in the caller's recorded trail.

Described by `browser_objective.tool.yaml` beside this file.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_objective(call: CallContext, args: JsonObject) -> JsonValue:
    recorder = call.recorder
    if recorder is None:
        raise HostError(
            "not_recording",
            "this host is not recording; start it with --record PATH to record a trail",
        )
    text = " ".join(str(args["text"]).split())
    recorder.objective(call.session.key, text)
    return {"objective": text, "recording": True}
