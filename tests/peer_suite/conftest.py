"""Fixtures of the peer suite: @playwright/mcp's own spec files (microsoft/playwright,
`tests/mcp/*.spec.ts`) translated case by case into checks on what a model reads or what the
page does. Each module names the spec it translates and lists every case of it in `PEER_CASES`
(see test_ledger.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest
from host_agent.agent_client import Agent, text_of
from host_tests.host_helpers import ServedHost, serve_host
from mcp import Client

from peer_suite.peer_site import PeerSite

T = TypeVar("T")


@pytest.fixture(scope="session")
def site_server() -> Iterator[PeerSite]:
    site = PeerSite()
    yield site
    site.stop()


@pytest.fixture
def server(site_server: PeerSite) -> PeerSite:
    """The peer's `server`: a fresh set of answers for each test."""
    site_server.reset()
    return site_server


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """One `python -m host serve` per module with the peer's capabilities on; each test's MCP
    client is its own session (its own browser context)."""
    output = tmp_path_factory.mktemp("output")
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--output-dir",
        str(output),
    )
    yield served
    served.stop()


def with_agent(host: ServedHost, body: Callable[[Agent], Awaitable[T]]) -> T:
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
