"""`browser_take_screenshot`: Take a PNG or JPEG screenshot of the viewport, the full page or one
element; returns it as an image, or, given a `filename`, writes it under the host's output
directory (the session's folder's `screenshots/`) and returns its path.

Described by `browser_take_screenshot.tool.yaml` beside this file; its arguments were checked against that
schema before it runs. A `filename` is reduced to a plain name (no directories, no leading dots),
ends in the type's extension, and never replaces an existing file, as `browser_pdf_save`'s; an
empty one is no filename (the image is returned), as @playwright/mcp takes it.

As @playwright/mcp's: `type` webp too; `scale` (a peer parameter, never listed) `css` (default:
CSS pixels) or `device` (device pixels, larger where the device pixel ratio is above 1); and an
image returned (not one saved) is shrunk to fit a model's message (`host/tools/image_fit.py`).
"""

from __future__ import annotations

import base64
from typing import Literal

from host.calls.registry import CallContext
from host.calls.results import Image
from host.sessions.session_files import plain_name, unguessable
from host.sessions.targets import locate
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.tools.image_fit import fit_for_message

_EXTENSIONS = {"png": (".png",), "jpeg": (".jpg", ".jpeg"), "webp": (".webp",)}


def _type_of(args: JsonObject) -> str:
    """`type`, else what the file name's extension says (as @playwright/mcp), else png."""
    kind = args.get("type")
    if isinstance(kind, str):
        return kind
    name = str(args.get("filename") or "").lower()
    return next((k for k, endings in _EXTENSIONS.items() if name.endswith(endings)), "png")


async def browser_take_screenshot(call: CallContext, args: JsonObject) -> JsonValue:
    target = args.get("target")
    if isinstance(target, str) and args.get("fullPage"):
        raise HostError(
            "invalid_argument",
            "fullPage and target contradict each other: a target's screenshot is that element; "
            "leave one out",
            path="fullPage",
        )
    kind = _type_of(args)
    quality = 90 if kind == "jpeg" else None
    scale: Literal["css", "device"] = "device" if args.get("scale") == "device" else "css"
    if isinstance(target, str):
        locator = await locate(call.tab, target)
        data = await locator.screenshot(
            type=kind,  # type: ignore[arg-type]
            quality=quality,
            scale=scale,
        )
    else:
        data = await call.tab.page.screenshot(
            type=kind,  # type: ignore[arg-type]
            quality=quality,
            full_page=bool(args.get("fullPage")),
            scale=scale,
        )
    requested = args.get("filename")
    if not isinstance(requested, str) or not requested:
        await call.tab.attached()
        data = await fit_for_message(
            call.tab.cdp, data, f"image/{kind}", call.config.action_timeout
        )
        return Image(base64.b64encode(data).decode("ascii"), f"image/{kind}")
    name = plain_name(requested)
    if name == "download":
        name = unguessable("page")
    if not name.lower().endswith(_EXTENSIONS[kind]):
        name += _EXTENSIONS[kind][0]
    path = call.session.files.save("screenshots", name, data)
    return {"path": str(path), "size": len(data), "type": kind}
