"""The host's tools over MCP (the official Python SDK's low-level server).

`tools/list` comes from the descriptors of the enabled toolsets; `tools/call` runs the tool in the
session of the caller's connection. A failed call is an `isError` result whose text starts with
`Error [code]`, never a protocol error; only a failure of the host itself is one.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, cast

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host.sessions.keys import SessionKey
from host.shared.descriptors import ToolDescriptor
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject
from host.transports.call_results import call_result

log = logging.getLogger(__name__)

SERVER_NAME = "playwright-tool-host"
INSTRUCTIONS = (
    "Browser tools. Each connection has its own browser session (cookies, storage, tabs); every "
    "tool acts on the current tab (see browser_tabs). Start with browser_snapshot: its refs (e12) are the "
    "best targets. Results may carry 'dialogs' (open dialogs: answer with browser_handle_dialog), "
    "'notes' (tabs opened, crashes) and 'session' (a new session)."
)
_KEY = "host.session_key"


def instructions(host: Host) -> str:
    """What the model is told on `initialize`: how the tools work, and the names of the secrets
    it may type (`--secrets`; their values are never told)."""
    names = host.config.secrets.names()
    if not names:
        return INSTRUCTIONS
    shown = ", ".join("${" + name + "}" for name in names)
    return (
        f"{INSTRUCTIONS} Secrets: type {shown} in the text of browser_type, browser_fill_form or "
        "browser_send_keys to enter the value; results show the name, never the value."
    )


def session_key(ctx: ServerRequestContext[Any, Any], host: Host) -> SessionKey:
    """The host session key of the MCP connection that sent this request.

    Streamable HTTP: the transport's `mcp-session-id` (made by the SDK, never by the caller).
    Other transports (in memory): a random id kept on the connection. Either way the host session
    is closed when the connection ends.
    """
    # The SDK keeps the connection on the per-request session object; its scratch state and exit
    # stack are the documented places for per-connection data and cleanup.
    connection = getattr(ctx.session, "_connection", None)
    state: dict[str, Any] = connection.state if connection is not None else {}
    key = state.get(_KEY)
    if key is None:
        header = None
        request = ctx.request
        headers = getattr(request, "headers", None)
        if headers is not None:
            header = headers.get("mcp-session-id")
        key = SessionKey("mcp", header) if header else SessionKey("mcp", secrets.token_hex(16))
        state[_KEY] = key
        if connection is not None:
            connection.exit_stack.push_async_callback(host.end_session, key)
    return cast(SessionKey, key)


def to_call_result(outcome: ToolOutcome, images: str = "allow") -> types.CallToolResult:
    """An outcome as the SDK's `CallToolResult` (`call_results.call_result`, the one source)."""
    return types.CallToolResult.model_validate(call_result(outcome, images))


def listed_schema(descriptor: ToolDescriptor) -> JsonObject:
    """A tool's input schema as `tools/list` shows it: without the `$schema` line (MCP input
    schemas are JSON Schema 2020-12 unless they say otherwise), so it costs a model less."""
    return {k: v for k, v in descriptor.parameters.items() if k != "$schema"}


def listed_tool(descriptor: ToolDescriptor) -> types.Tool:
    return types.Tool(
        name=descriptor.name,
        description=descriptor.description,
        input_schema=listed_schema(descriptor),
    )


def build_server(
    host: Host, enabled: frozenset[str], *, fixed_key: SessionKey | None = None
) -> Server[Any]:
    """A low-level MCP server listing and running the `enabled` tools of `host`.

    `fixed_key` serves every request in one session (stdio: one process, one connection), which
    also works for the stateless 2026 protocol; without it each connection has its own session and
    the server speaks only the handshake protocol (auto-negotiating clients fall back to it).
    """
    enabled = host.offered(enabled)
    tools = [listed_tool(host.registry.tools[name]) for name in sorted(enabled)]
    listing = types.ListToolsResult(tools=tools)

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if fixed_key is None and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return to_call_result(
                ToolOutcome.failure(
                    params.name,
                    HostError(
                        "stateless_connection",
                        "this host keeps a browser session per connection and needs a stateful "
                        "connection (the initialize handshake); connect without pinning a "
                        "stateless protocol version",
                    ),
                )
            )
        key = fixed_key or session_key(ctx, host)
        outcome = await host.call(key, params.name, params.arguments or {}, enabled=enabled)
        return to_call_result(outcome, host.config.image_responses)

    async def no_discover(
        ctx: ServerRequestContext[Any, Any], params: types.RequestParams | None
    ) -> None:
        # Browser sessions need a connection: make "auto" clients fall back to the handshake.
        raise MCPError(
            code=types.METHOD_NOT_FOUND, message="Method not found", data="server/discover"
        )

    server: Server[Any] = Server(
        SERVER_NAME,
        version="0.1.0",
        instructions=instructions(host),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
    if fixed_key is None:
        server.add_request_handler("server/discover", types.RequestParams, no_discover)
    server.middleware = []  # no per-message tracing span: the host keeps calls cheap
    return server
