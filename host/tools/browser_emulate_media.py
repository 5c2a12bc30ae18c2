"""`browser_emulate_media`: emulate CSS media features on the current tab.

Described by `browser_emulate_media.tool.yaml` beside this file. An omitted feature stays as it
is; `null` clears its emulation (Playwright's `'null'`).
"""

from __future__ import annotations

from typing import Any

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

_OPTIONS = {
    "colorScheme": "color_scheme",
    "reducedMotion": "reduced_motion",
    "forcedColors": "forced_colors",
    "contrast": "contrast",
    "media": "media",
}


async def browser_emulate_media(call: CallContext, args: JsonObject) -> JsonValue:
    options: dict[str, Any] = {
        _OPTIONS[name]: "null" if value is None else value
        for name, value in args.items()
        if name in _OPTIONS
    }
    if not options:
        raise HostError(
            "missing_argument",
            "name at least one media feature: colorScheme, reducedMotion, forcedColors, "
            "contrast or media",
        )
    await call.tab.page.emulate_media(**options)
    return await page_feedback(call.session, {"emulated": dict(args)})
