"""`browser_send_keys`: Press keys, optionally after focusing target: single keys and combinations such as
Enter, Escape, Tab, ArrowDown, Control+a, Shift+Tab, separated by spaces; then type text, if
given.

Described by `browser_send_keys.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_send_keys(call: CallContext, args: JsonObject) -> JsonValue:
    page = call.tab.page
    target = args.get("target")
    if isinstance(target, str):
        await (await locate(call.tab, target)).focus()
    keys = str(args.get("keys", "")).split()
    text = args.get("text")
    if not keys and not isinstance(text, str):
        raise HostError("missing_argument", "give keys, text or both", path="keys")
    for key in keys:
        await page.keyboard.press(key)
    if isinstance(text, str):
        await page.keyboard.type(call.config.secrets.reveal(text))
    return await page_feedback(call.session)
