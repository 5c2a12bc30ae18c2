"""An image result sized to fit a model's message, as @playwright/mcp sizes its screenshots.

Models read images of at most 1568 pixels a side and about 1.15 megapixels (Anthropic's vision
guidance, which @playwright/mcp follows); a larger image is shrunk by the model's API anyway, so
sending it whole only costs bytes. `fit_for_message` shrinks a PNG, JPEG or WebP screenshot past
those bounds, keeping its aspect ratio and its type, with @playwright/mcp's arithmetic (sides
truncated), so a caller gets the same pixel size from either host. Saved files keep the full size.

The host has no image codec of its own: the browser that took the screenshot decodes, scales and
encodes it, in an isolated world of the tab (the page's scripts cannot see or change it) through
the tab's DevTools session. Sizes are read from the image's header in the host (no decoding);
an image within bounds never leaves the host again.
"""

from __future__ import annotations

import asyncio
import base64
import json
import math
import struct
from typing import Any

MAX_SIDE = 1568
MAX_PIXELS = 1.15 * 1024 * 1024
_WORLD = "host-image-fit"
_QUALITY = 0.8  # @playwright/mcp re-encodes a shrunk JPEG or lossy WebP at quality 80
# Runs in the isolated world: decode, scale with the browser's best filter, encode in the type.
_SCALE = """(async () => {{
  const bytes = Uint8Array.from(atob({data}), c => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], {{ type: {mime} }}));
  const canvas = new OffscreenCanvas({width}, {height});
  const context = canvas.getContext('2d');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, {width}, {height});
  const blob = await canvas.convertToBlob({{ type: {mime}, quality: {quality} }});
  const out = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < out.length; i += 0x8000)
    text += String.fromCharCode.apply(null, out.subarray(i, i + 0x8000));
  return btoa(text);
}})()"""


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, JPEG or WebP header; None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8X":
            width = int.from_bytes(data[24:27], "little") + 1
            return width, int.from_bytes(data[27:30], "little") + 1
        if chunk == b"VP8L":
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8 ":
            width, height = struct.unpack("<HH", data[26:30])
            return width & 0x3FFF, height & 0x3FFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    # Walk the segments to the frame header (SOFn, not DHT/JPG/DAC, which share the range).
    at = 2
    while at + 9 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
    return None


def fitted_size(width: int, height: int) -> tuple[int, int] | None:
    """The size a `width` x `height` image is shrunk to, or None when it fits already."""
    if width <= 0 or height <= 0:
        return None
    shrink = min(MAX_SIDE / width, MAX_SIDE / height, math.sqrt(MAX_PIXELS / (width * height)))
    if shrink >= 1:
        return None
    return max(1, int(width * shrink)), max(1, int(height * shrink))


async def fit_for_message(cdp: Any, data: bytes, mime: str, timeout: float) -> bytes:
    """`data` shrunk to fit a model's message (see the module's docstring), or `data` itself when
    it fits, its size cannot be read, or the tab cannot scale it within `timeout` seconds (a
    page busy in a loop): an image too large is still an answer, a failed call would not be."""
    size = image_size(data)
    fitted = fitted_size(*size) if size is not None else None
    if fitted is None or cdp is None:
        return data
    try:
        async with asyncio.timeout(timeout):
            tree = await cdp.send("Page.getFrameTree")
            world = await cdp.send(
                "Page.createIsolatedWorld",
                {"frameId": tree["frameTree"]["frame"]["id"], "worldName": _WORLD},
            )
            answer = await cdp.send(
                "Runtime.evaluate",
                {
                    "expression": _SCALE.format(
                        data=json.dumps(base64.b64encode(data).decode("ascii")),
                        mime=json.dumps(mime),
                        width=fitted[0],
                        height=fitted[1],
                        quality=_QUALITY,
                    ),
                    "contextId": world["executionContextId"],
                    "awaitPromise": True,
                    "returnByValue": True,
                },
            )
    except Exception:
        return data
    value = answer.get("result", {}).get("value")
    if "exceptionDetails" in answer or not isinstance(value, str):
        return data
    scaled = base64.b64decode(value)
    return scaled if image_size(scaled) == fitted else data
