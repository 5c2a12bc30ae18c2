"""`browser_get_text`: Read the visible text of the page or of target, cut at 10,000 characters.

Described by `browser_get_text.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue
from host.tools.page_text import TEXT_LIMIT, visible_text


async def browser_get_text(call: CallContext, args: JsonObject) -> JsonValue:
    target = args.get("target")
    if isinstance(target, str):
        source = await locate(call.tab, target)
    else:
        source = call.tab.page.locator("body")
    text, cut = await visible_text(source)
    note = f"\n[cut at {TEXT_LIMIT} characters; pass a target for a part]" if cut else ""
    return Rendered({"text": text, "truncated": cut}, text + note)
