"""`browser_handle_dialog`: Answer the open alert, confirm, prompt or beforeunload dialog (results list
open dialogs under "dialogs"); with no dialog open, the answer is kept for the next dialog.

Described by `browser_handle_dialog.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.dialogs import describe_dialog
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_handle_dialog(call: CallContext, args: JsonObject) -> JsonValue:
    session = call.session
    accept = bool(args["accept"])
    text = args.get("promptText")
    prompt = str(text) if text is not None else None
    dialog = session.blocking_dialog() or (
        session.open_dialogs[0] if session.open_dialogs else None
    )
    if dialog is None:
        session.dialog_answer = (accept, prompt)
        return {"handled": None, "armed": {"accept": accept, "promptText": prompt}}
    session.open_dialogs.remove(dialog)
    # The answer is this call's work: a dialog the page opens once this one closes (a second
    # alert) must not interrupt it; the result lists that next dialog instead.
    session.inflight = None
    described = describe_dialog(dialog)
    if accept:
        await (dialog.accept(prompt) if prompt is not None else dialog.accept())
    else:
        await dialog.dismiss()
    # As @playwright/mcp: the answer comes with the page it leaves (url, title, a next dialog),
    # so a model sees where the page is without another call.
    return await page_feedback(
        call.session, {"handled": {**described, "accepted": accept}, "armed": None}
    )
