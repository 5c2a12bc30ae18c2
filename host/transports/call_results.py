"""A tool call's outcome as the `result` of an MCP `tools/call`, in plain JSON.

One source for both ways a stdio host answers a call: through the SDK (`mcp_server` validates this
into the SDK's `CallToolResult`) and before the SDK is loaded (`early_answers`, which writes it
as it is). It imports nothing of the SDK.
"""

from __future__ import annotations

from host.calls.results import ToolOutcome
from host.shared.jsontypes import JsonObject, JsonValue


def call_result(outcome: ToolOutcome, images: str = "allow") -> JsonObject:
    """An outcome as MCP content: text (and an image for screenshots) plus structuredContent.
    `images` (`--image-responses`): `allow` the image and its text, `omit` the text alone,
    `only` the image alone (a failure is always text). Keys in the order, and with the
    defaults (`isError: false`), of what the SDK writes for the same result."""
    if not outcome.ok:
        return _result([_text(outcome.text())], outcome.structured(), failed=True)
    if outcome.image_mime is not None and isinstance(outcome.value, str):
        summary: JsonObject = {"image": outcome.image_mime, "base64Length": len(outcome.value)}
        image: JsonObject = {"data": outcome.value, "mimeType": outcome.image_mime, "type": "image"}
        text = _text(ToolOutcome(outcome.tool, True, summary, extras=outcome.extras).text())
        content = {"omit": [text], "only": [image]}.get(images, [image, text])
        return _result(list(content), outcome.structured(summary))
    return _result([_text(outcome.text())], outcome.structured())


def _result(content: list[JsonValue], structured: JsonObject, failed: bool = False) -> JsonObject:
    return {"content": content, "isError": failed, "structuredContent": structured}


def _text(text: str) -> JsonObject:
    return {"text": text, "type": "text"}
