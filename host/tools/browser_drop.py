"""`browser_drop`: drop files or data onto an element, as from outside the page (@playwright/mcp's).

Described by `browser_drop.tool.yaml` beside this file. Files obey the host's upload rules
(`host.sessions.uploads.read_upload`: off until `--upload-dir`; read by the host, confined, at most
`max_upload_bytes` for the call's files together, and handed to Playwright as buffers), each
refusal naming `paths[i]`; at most 20 files and 20 MIME types. The page must accept the drop (its `dragover` calls
`preventDefault()`), else the call fails with `drop_refused` and nothing was dropped.
"""

from __future__ import annotations

from typing import Any, cast

from playwright.async_api import Error as PlaywrightError

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.sessions.uploads import Upload, read_uploads, sending_timeout
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

MAX_TYPES = 20


def _files(call: CallContext, raw: object) -> list[Upload]:
    named = [(f"paths[{i}]", str(path)) for i, path in enumerate(cast(list[str], raw or []))]
    return read_uploads(call.config, named)


async def browser_drop(call: CallContext, args: JsonObject) -> JsonValue:
    data = cast(dict[str, str], args.get("data") or {})
    if not args.get("paths") and not data:
        raise HostError(
            "missing_argument",
            'at least one of "paths" or "data" must be given (files to drop, or '
            '{"text/plain": "..."})',
            path="paths",
        )
    if len(data) > MAX_TYPES:
        raise HostError(
            "invalid_argument", f"at most {MAX_TYPES} MIME types, got {len(data)}", path="data"
        )
    files = _files(call, args.get("paths"))
    locator = await locate(call.tab, str(args["target"]))
    payload: dict[str, Any] = {}
    if files:
        payload["files"] = [f.payload() for f in files]
    if data:
        payload["data"] = data
    try:
        await locator.drop(payload, timeout=sending_timeout(call.config, files))  # type: ignore[arg-type]
    except PlaywrightError as error:
        if "preventDefault" not in str(error) and "rejected" not in str(error).lower():
            raise
        raise HostError(
            "drop_refused",
            "the element did not accept the drop (its dragover handler does not call "
            "preventDefault()); drop onto the page's drop zone",
            path="target",
        ) from None
    dropped: JsonObject = {}
    if files:
        dropped["files"] = [f.name for f in files]
    if data:
        dropped["data"] = list(data)
    return await page_feedback(call.session, {"dropped": dropped})
