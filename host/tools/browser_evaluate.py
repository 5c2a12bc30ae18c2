"""`browser_evaluate`: Run a JavaScript expression in the page and return its JSON value; with target,
expression is a function called with the element, e.g.

Described by `browser_evaluate.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from typing import cast

from host.calls.registry import CallContext
from host.calls.result_caps import MAX_RESULT_DEPTH, bounded_expression
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_evaluate(call: CallContext, args: JsonObject) -> JsonValue:
    expression = bounded_expression(
        str(args["expression"]), call.config.max_result_bytes, MAX_RESULT_DEPTH
    )
    target = args.get("target")
    if isinstance(target, str):
        result = await (await locate(call.tab, target)).evaluate(expression)
    else:
        result = await call.tab.page.evaluate(expression)
    return cast(JsonValue, result)
