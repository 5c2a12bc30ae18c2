"""`browser_select_option`: Choose options of a native <select> by value or visible label.

Described by `browser_select_option.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from typing import cast

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_select_option(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await locate(call.tab, str(args["target"]))
    values = cast(list[str], args["values"])
    chosen = await locator.select_option(values)
    return await page_feedback(call.session, {"selected": list[JsonValue](chosen)})
