"""Fixtures of the peer suite: @playwright/mcp's own spec files (microsoft/playwright,
`tests/mcp/*.spec.ts`) translated case by case into checks on what a model reads or what the
page does. Each module names the spec it translates and lists every case of it in `PEER_CASES`
(see test_ledger.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

import pytest

# The suite's modules import these helpers from here.
from host_agent.agent_client import called, refused, with_agent  # noqa: F401
from host_tests.host_helpers import ServedHost, serve_host

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


@pytest.fixture(scope="session")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """One `python -m host serve` for the suite (per test worker), with the peer's capabilities
    on; each test's MCP client is its own session (its own browser context), so cases share
    nothing but the output directory. A case that needs other options starts its own."""
    output = tmp_path_factory.mktemp("output")
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--output-dir",
        str(output),
    )
    yield served
    served.stop()
