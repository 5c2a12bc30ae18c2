"""`POST /scripting/callback`: the scripting callback contract TypeScript tools already speak.

Request:  `{version: 1, session_id, invocation_id, action: {type: "call_tool", tool_name, arguments_json}}`
Response: `{result: {type: "call_tool_result", success, text_content, error_message, structured_content}}`
A request that cannot be dispatched (not JSON, wrong version, missing fields) is answered 400 with
`{result: {type: "error", message}}`. A tool that ran and failed is `success: false`, HTTP 200.

A success's `structured_content` is null, as for Trailblaze's own Kotlin tools (text only): its SDK
returns a tool's structured content when there is one and `text_content` otherwise, and the types
the generated Trailblaze augmentation declares are that text. A caller that sends
`X-Result-Shape: host` (this project's TypeScript client) gets the host's structured content
instead, as MCP's: `{"result": value}` with the session's news beside it. A failure's is always
`{"error": {...}}`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host.sessions.keys import SessionKey
from host.settings.limits import json_depth
from host.shared.jsontypes import JsonObject

VERSION = 1
MAX_ID_LENGTH = 256
RESULT_SHAPE_HEADER = "x-result-shape"
"""With the value `host`, a success carries the host's structured content (see above)."""


def _protocol_error(message: str) -> JSONResponse:
    return JSONResponse({"result": {"type": "error", "message": message}}, status_code=400)


def call_tool_result(outcome: ToolOutcome, host_shape: bool = False) -> JsonObject:
    """An outcome in the contract's `call_tool_result` shape; `host_shape` keeps a success's
    structured content (else null, so Trailblaze's SDK returns `text_content`)."""
    if outcome.ok:
        # As the generated Kotlin shims' `resultText`: nothing for no value, a string as it is.
        value = outcome.value
        if value is None:
            text = ""
        else:
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        error = ""
    else:
        text, error = "", outcome.error_text()
    return {
        "type": "call_tool_result",
        "success": outcome.ok,
        "text_content": text,
        "error_message": error,
        "structured_content": outcome.structured() if host_shape or not outcome.ok else None,
    }


def parse_envelope(raw: bytes, max_depth: int = 64) -> tuple[str, str, JsonObject] | str:
    """(session_id, tool_name, arguments) from a request body, or what is wrong with it.

    `action.arguments_json` is JSON inside a string, which the body's own depth check cannot see
    into: it is measured before it is parsed (a parser given 100,000 levels runs out of stack)."""
    try:
        envelope: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return "the body is not JSON"
    if not isinstance(envelope, dict):
        return "the body must be a JSON object"
    if envelope.get("version") != VERSION:
        return f"unsupported version {envelope.get('version')!r}; this endpoint speaks version {VERSION}"
    for field in ("session_id", "invocation_id"):
        value = envelope.get(field)
        if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_LENGTH:
            return f"{field} must be a non-empty string of at most {MAX_ID_LENGTH} characters"
    action = envelope.get("action")
    if not isinstance(action, dict) or action.get("type") != "call_tool":
        return "action.type must be 'call_tool'"
    tool_name, arguments_json = action.get("tool_name"), action.get("arguments_json")
    if not isinstance(tool_name, str) or not isinstance(arguments_json, str):
        return "action.tool_name and action.arguments_json must be strings"
    encoded = arguments_json.encode("utf-8", "surrogatepass")
    if json_depth(encoded) > max_depth:
        return (
            f"action.arguments_json nests more than {max_depth} levels deep; send flatter arguments"
        )
    try:
        arguments = json.loads(arguments_json) if arguments_json.strip() else {}
    except (ValueError, RecursionError):
        return "action.arguments_json is not JSON"
    if not isinstance(arguments, dict):
        return "action.arguments_json must encode a JSON object"
    return envelope["session_id"], tool_name, arguments


def scripting_endpoint(host: Host):  # type: ignore[no-untyped-def]
    """The Starlette endpoint, reaching every tool of the always-enabled toolsets."""
    enabled = host.registry.always_enabled()

    async def endpoint(request: Request) -> JSONResponse:
        parsed = parse_envelope(await request.body(), host.config.argument_limits.depth + 16)
        if isinstance(parsed, str):
            return _protocol_error(parsed)
        session_id, tool_name, arguments = parsed
        key = SessionKey("script", session_id)
        outcome = await host.call(key, tool_name, arguments, enabled=enabled)
        host_shape = request.headers.get(RESULT_SHAPE_HEADER, "").strip().lower() == "host"
        return JSONResponse({"result": call_tool_result(outcome, host_shape)})

    return endpoint
