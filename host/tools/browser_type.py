"""`browser_type`: Replace the text of an input, textarea or contenteditable element.

Described by `browser_type.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_type(call: CallContext, args: JsonObject) -> JsonValue:
    if not args.get("submit") and call.session.watch is not None:
        call.session.watch.skip()  # typing alone sets nothing off worth a wait (as the peer)
    locator = await locate(call.tab, str(args["target"]))
    text = call.config.secrets.reveal(str(args["text"]))
    if args.get("slowly"):  # one key at a time, for pages that listen to keys
        await locator.fill("")
        await locator.press_sequentially(text)
    else:
        await locator.fill(text)
    if args.get("submit"):
        await locator.press("Enter")
    return await page_feedback(call.session)
