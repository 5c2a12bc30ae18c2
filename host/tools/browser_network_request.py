"""`browser_network_request`: one request of the session in detail, by the id that
`browser_network_requests` shows.

Described by `browser_network_request.tool.yaml` beside this file. The session keeps its latest
`buffer_limit` requests by id. Bounded: at most `MAX_HEADERS` headers of each side, each value cut
at `MAX_HEADER`; post data and a text body cut at `BODY_LIMIT` characters (and the host's
`max_text_body`); a binary body is only sized.

@playwright/mcp's `part` (never listed) answers one part alone: `request-headers`,
`request-body`, `response-headers` or `response-body`; a binary response body is then written
under the output directory's `network/` (as the peer saves it to a file) and its path returned.
Its `filename` (never listed) writes the answer there instead, under that plain name, and
returns the path (as the peer's does): the whole request as JSON (`.json` unless the name has an
extension), headers one `name: value` a line and a body whole, not cut (`.txt`). A written text
shows a secret's value as its `${NAME}`, as every output does; a binary body is written as it is.
"""

from __future__ import annotations

import asyncio
import json
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


def _is_text(content_type: str) -> bool:
    return any(marker in content_type for marker in _TEXT_TYPES) or not content_type


async def _body(response: Response, limit: int) -> JsonObject:
    try:
        body = await response.body()
    except PlaywrightError as error:
        return {"body": None, "bodyError": _first_line(error)}
    content_type = response.headers.get("content-type", "").lower()
    if _is_text(content_type):
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


def _first_line(error: PlaywrightError) -> str:
    return (str(error.message).splitlines() or [""])[0][:300]


async def _response(request: Request) -> Response | None:
    try:
        return await asyncio.wait_for(request.response(), 2.0)
    except (TimeoutError, PlaywrightError):
        return None


async def _request_headers(request: Request) -> JsonObject:
    try:
        return _headers(await request.all_headers())
    except PlaywrightError:
        return _headers(request.headers)


async def _response_headers(response: Response) -> JsonObject:
    try:
        return _headers(await response.all_headers())
    except PlaywrightError:
        return _headers(response.headers)


def _save(call: CallContext, name: str, extension: str, data: bytes) -> JsonObject:
    """`data` written under the output directory's `network/`: where, and how many bytes."""
    path = save_output(call.session.files, "network", name, extension, data)
    return {"path": str(path), "size": len(data)}


def _save_text(call: CallContext, name: str, extension: str, text: str) -> JsonObject:
    # The file is output too: a secret's value shows as its ${NAME}, as in a result.
    return _save(call, name, extension, call.config.secrets.scrub(text).encode("utf-8"))


def _header_lines(headers: JsonObject) -> str:
    return "".join(f"{name}: {value}\n" for name, value in headers.items())


async def _part(
    call: CallContext, number: int, request: Request, part: str, limit: int, filename: str | None
) -> JsonObject:
    """One part of `request` alone (the peer's `part`); None where there is none. With
    `filename`, the part is written to that file whole (never cut) and its path returned."""
    if part == "request-headers":
        headers = await _request_headers(request)
        if filename is not None:
            return _save_text(call, filename, ".txt", _header_lines(headers))
        return {"headers": headers}
    if part == "request-body":
        post = request.post_data
        if post is None:
            return {"body": None}
        if filename is not None:
            return _save_text(call, filename, ".txt", post)
        text, cut = _cut(post, limit)
        return {"body": text, "bodyTruncated": cut}
    response = await _response(request)
    if response is None:
        return {"response": None}
    if part == "response-headers":
        headers = await _response_headers(response)
        if filename is not None:
            return _save_text(call, filename, ".txt", _header_lines(headers))
        return {"headers": headers}
    if filename is None:
        body = await _body(response, limit)
        if body.get("body") is not None or "bodyError" in body:
            return body
    try:
        data = await response.body()
    except PlaywrightError as error:
        return {"body": None, "bodyError": _first_line(error)}
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if filename is not None and _is_text(kind):
        try:
            return _save_text(call, filename, ".txt", data.decode("utf-8"))
        except UnicodeDecodeError:
            pass
    extension = mimetypes.guess_extension(kind) or ".bin"
    saved = _save(call, filename or f"response-{number}", extension, data)
    return {"path": saved["path"], "bodySize": len(data), "contentType": kind or None}


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
    requested = args.get("filename")
    filename = requested if isinstance(requested, str) else None
    part = args.get("part")
    if isinstance(part, str):
        alone = await _part(call, number, request, part, limit, filename)
        return {"id": number, "part": part, **alone}
    result: JsonObject = {
        "id": number,
        "method": request.method,
        "url": request.url[:2048],
        "resourceType": request.resource_type,
        "failure": request.failure,
    }
    result["requestHeaders"] = await _request_headers(request)
    post = request.post_data
    if post is not None:
        text, cut = _cut(post, limit)
        result.update(postData=text, postDataTruncated=cut)
    response = await _response(request)
    if response is None:
        result["response"] = None
    else:
        answer: JsonObject = {"status": response.status, "statusText": response.status_text}
        answer["headers"] = await _response_headers(response)
        answer.update(await _body(response, limit))
        result["response"] = answer
    if filename is None:
        return result
    whole = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    return {"id": number, **_save_text(call, filename, ".json", whole)}
