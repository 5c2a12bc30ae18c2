"""`browser_network_request`: one request of the session in detail, by the id that
`browser_network_requests` shows.

Described by `browser_network_request.tool.yaml` beside this file. The session keeps its latest
`buffer_limit` requests by id. Bounded: at most `MAX_HEADERS` headers of each side, each value cut
at `MAX_HEADER`; post data and a text body cut at `BODY_LIMIT` characters (and the host's
`max_text_body`); a binary body is only sized.

@playwright/mcp's `part` (never listed) answers one part alone: `request-headers`,
`request-body`, `response-headers` or `response-body`; a binary response body is then written
under the output directory's `network/` (as the peer saves it to a file) and its path returned.
"""

from __future__ import annotations

import asyncio
import mimetypes

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Request, Response

from host.calls.registry import CallContext
from host.sessions.downloads import save_output
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

MAX_HEADERS = 100
MAX_HEADER = 2048
BODY_LIMIT = 10_000
_TEXT_TYPES = ("text/", "json", "xml", "javascript", "html", "css", "x-www-form-urlencoded")


def _headers(headers: dict[str, str]) -> JsonObject:
    kept = list(headers.items())[:MAX_HEADERS]
    return {k[:256]: v if len(v) <= MAX_HEADER else v[:MAX_HEADER] + "..." for k, v in kept}


def _cut(text: str, limit: int) -> tuple[str, bool]:
    return (text, False) if len(text) <= limit else (text[:limit], True)


async def _body(response: Response, limit: int) -> JsonObject:
    try:
        body = await response.body()
    except PlaywrightError as error:
        return {"body": None, "bodyError": (str(error.message).splitlines() or [""])[0][:300]}
    content_type = response.headers.get("content-type", "").lower()
    if any(marker in content_type for marker in _TEXT_TYPES) or not content_type:
        try:
            text, cut = _cut(body.decode("utf-8"), limit)
            return {"bodySize": len(body), "body": text, "bodyTruncated": cut}
        except UnicodeDecodeError:
            pass
    return {
        "bodySize": len(body),
        "body": None,
        "bodyNote": f"binary ({content_type or 'no type'})",
    }


async def _response(request: Request) -> Response | None:
    try:
        return await asyncio.wait_for(request.response(), 2.0)
    except (TimeoutError, PlaywrightError):
        return None


async def _part(
    call: CallContext, number: int, request: Request, part: str, limit: int
) -> JsonObject:
    """One part of `request` alone (the peer's `part`); None where there is none."""
    if part == "request-headers":
        try:
            return {"headers": _headers(await request.all_headers())}
        except PlaywrightError:
            return {"headers": _headers(request.headers)}
    if part == "request-body":
        post = request.post_data
        if post is None:
            return {"body": None}
        text, cut = _cut(post, limit)
        return {"body": text, "bodyTruncated": cut}
    response = await _response(request)
    if response is None:
        return {"response": None}
    if part == "response-headers":
        try:
            return {"headers": _headers(await response.all_headers())}
        except PlaywrightError:
            return {"headers": _headers(response.headers)}
    body = await _body(response, limit)
    if body.get("body") is not None or "bodyError" in body:
        return body
    try:
        data = await response.body()
    except PlaywrightError as error:
        return {"body": None, "bodyError": (str(error.message).splitlines() or [""])[0][:300]}
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    extension = mimetypes.guess_extension(kind) or ".bin"
    path = save_output(call.config.output_dir, "network", f"response-{number}", extension, data)
    return {"path": str(path), "bodySize": len(data), "contentType": kind or None}


async def browser_network_request(call: CallContext, args: JsonObject) -> JsonValue:
    number = args["id"]
    assert isinstance(number, int)
    request = call.session.requests_by_id.get(number)
    if request is None:
        raise HostError(
            "unknown_request",
            f"no request {number} is kept in this session; ids come from browser_network_requests "
            f"(the latest {call.config.buffer_limit} requests are kept)",
            path="id",
        )
    limit = min(BODY_LIMIT, call.config.max_text_body)
    part = args.get("part")
    if isinstance(part, str):
        return {"id": number, "part": part, **await _part(call, number, request, part, limit)}
    result: JsonObject = {
        "id": number,
        "method": request.method,
        "url": request.url[:2048],
        "resourceType": request.resource_type,
        "failure": request.failure,
    }
    try:
        result["requestHeaders"] = _headers(await request.all_headers())
    except PlaywrightError:
        result["requestHeaders"] = _headers(request.headers)
    post = request.post_data
    if post is not None:
        text, cut = _cut(post, limit)
        result.update(postData=text, postDataTruncated=cut)
    response = await _response(request)
    if response is None:
        result["response"] = None
        return result
    answer: JsonObject = {"status": response.status, "statusText": response.status_text}
    try:
        answer["headers"] = _headers(await response.all_headers())
    except PlaywrightError:
        answer["headers"] = _headers(response.headers)
    answer.update(await _body(response, limit))
    result["response"] = answer
    return result
