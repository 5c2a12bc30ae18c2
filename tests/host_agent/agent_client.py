"""An MCP client as an agent uses it: calls counted, results read as a model would."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import mcp_types as types
from mcp import Client


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))


def find_ref(snapshot: str, line_pattern: str) -> str:
    """The ref on the first snapshot line matching `line_pattern` (a regex)."""
    for line in snapshot.splitlines():
        if re.search(line_pattern, line):
            found = re.search(r"\[ref=((?:f\d+)?e\d+)\]", line)
            if found:
                return found.group(1)
    raise AssertionError(f"no line matching {line_pattern!r} with a ref in:\n{snapshot}")


class Agent:
    """Calls tools over one MCP connection and counts them (the task table's call counts)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.calls = 0

    async def call(self, tool: str, args: dict[str, Any] | None = None) -> types.CallToolResult:
        self.calls += 1
        return await self.client.call_tool(tool, args or {})

    async def ok(self, tool: str, args: dict[str, Any] | None = None) -> Any:
        """The structured result of a call that must succeed."""
        result = await self.call(tool, args)
        assert not result.is_error, text_of(result)
        structured = result.structured_content or {}
        return structured.get("result", structured)

    async def fails(self, tool: str, args: dict[str, Any], code: str) -> str:
        result = await self.call(tool, args)
        assert result.is_error, text_of(result)
        assert f"[{code}]" in text_of(result), text_of(result)
        return text_of(result)


T = TypeVar("T")


class Served(Protocol):
    """A host serving MCP over HTTP (host_tests.host_helpers.ServedHost)."""

    @property
    def mcp_url(self) -> str: ...


def with_agent(host: Served, body: Callable[[Agent], Awaitable[T]]) -> T:
    """Run `body` with an agent on a new MCP session of `host` (closed afterwards)."""

    async def run() -> T:
        async with Client(host.mcp_url) as client:
            return await body(Agent(client))

    return asyncio.run(run())


async def called(agent: Agent, tool: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The structured content and the text a model reads, of a call that must succeed."""
    result = await agent.call(tool, args)
    assert not result.is_error, text_of(result)
    return dict(result.structured_content or {}), text_of(result)


async def refused(agent: Agent, tool: str, args: dict[str, Any]) -> str:
    """The text of a call that must fail (any code)."""
    result = await agent.call(tool, args)
    assert result.is_error, text_of(result)
    return text_of(result)
