"""`browser_wait_for_response`: Return the first response whose URL matches the glob (and status, if
given) that arrived since the session started and was not returned before, or wait for the next
one.

Described by `browser_wait_for_response.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

import base64

from playwright.async_api import Error as PlaywrightError

from host.calls.registry import CallContext
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

_TEXT_TYPES = ("text/", "json", "javascript", "xml", "x-www-form-urlencoded", "svg")


async def browser_wait_for_response(call: CallContext, args: JsonObject) -> JsonValue:
    timeout_ms = args.get("timeout")
    timeout = (
        timeout_ms / 1000 if isinstance(timeout_ms, int | float) else call.config.action_timeout
    )
    status = args.get("status")
    url = str(args["url"])
    try:
        response = await call.session.wait_for_response(
            url, status if isinstance(status, int) else None, timeout
        )
    except TimeoutError:
        raise HostError(
            "timeout",
            f"no response matching {url!r}{f' with status {status}' if status else ''} arrived "
            f"within {timeout * 1000:g} ms",
        ) from None
    result: JsonObject = {
        "url": response.url,
        "status": response.status,
        "statusText": response.status_text,
        "headers": dict(response.headers),
    }
    try:
        body = await response.body()
    except PlaywrightError as error:
        result.update(body=None, bodyEncoding=None, bodyError=str(error.message).splitlines()[0])
        return result
    content_type = response.headers.get("content-type", "").lower()
    text: str | None = None
    if any(marker in content_type for marker in _TEXT_TYPES) or not content_type:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    result["bodySize"] = len(body)
    if text is not None:
        limit = call.config.max_text_body
        result.update(body=text[:limit], bodyEncoding="text", truncated=len(text) > limit)
    else:
        limit = call.config.max_binary_body
        encoded = base64.b64encode(body[:limit]).decode("ascii")
        result.update(body=encoded, bodyEncoding="base64", truncated=len(body) > limit)
    return result
