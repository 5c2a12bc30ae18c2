"""`browser_wait_for`: Wait some seconds, then until text appears, text disappears or target is
visible (whichever are given).

Described by `browser_wait_for.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import asyncio

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_wait_for(call: CallContext, args: JsonObject) -> JsonValue:
    page = call.tab.page
    timeout_ms = args.get("timeout")
    timeout = float(timeout_ms) if isinstance(timeout_ms, int | float) else 5000.0
    timeout = min(timeout, call.config.navigation_timeout * 1000)
    seconds = args.get("time")
    if isinstance(seconds, int | float):  # a plain pause, as @playwright/mcp's (30 s at most)
        await asyncio.sleep(float(seconds))
    if isinstance(args.get("text"), str):
        await page.get_by_text(str(args["text"])).first.wait_for(state="visible", timeout=timeout)
    if isinstance(args.get("gone"), str):
        await page.get_by_text(str(args["gone"])).first.wait_for(state="hidden", timeout=timeout)
    if isinstance(args.get("target"), str):
        await (await locate(call.tab, str(args["target"]))).first.wait_for(
            state="visible", timeout=timeout
        )
    return await page_feedback(call.session)
