"""`browser_generate_locator` (capability `testing`): the locator a test would use for an element.

Described by `browser_generate_locator.tool.yaml` beside this file. The locator is the one
Playwright's own generator picks (test id, role and name, label, placeholder, text, CSS last),
as trails record it, checked to match exactly that one element; it comes back as a `target`
for the host's tools and as code for a Playwright test in TypeScript and Python.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.targets import locate
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.trails.locators import as_code, stable_selector


async def browser_generate_locator(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await locate(call.tab, str(args["target"]))
    count = await locator.count()
    if count != 1:
        raise HostError(
            "ambiguous_target",
            f"the target matches {count} elements, not one; give a ref from browser_snapshot",
            path="target",
        )
    try:
        selector = await stable_selector(locator)
    except HostError as error:
        raise HostError("ambiguous_target", error.message, path="target") from None
    typescript = as_code(selector, "typescript")
    value: JsonObject = {
        "locator": typescript,
        "python": as_code(selector, "python"),
        "target": selector,
    }
    return Rendered(value, f"{typescript}\ntarget: {selector}")
