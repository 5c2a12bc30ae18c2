"""pdf.spec.ts: with `--caps pdf`, `browser_pdf_save` saves the current page as a PDF under the
output directory (`pdf/`), named `page-<time>.pdf` or as the caller asks, and returns its path;
without the capability the tool is not there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "pdf.spec.ts"
PEER_CASES = {
    "save as pdf unavailable": (
        "host_agent/test_browser_tools.py::"
        "test_capability_tools_are_listed_and_callable_only_with_their_capability"
    ),
    "save as pdf": "test_save_as_pdf_by_default_name_and_by_the_name_asked",
    "save as pdf (filename: output.pdf)": "test_save_as_pdf_by_default_name_and_by_the_name_asked",
}


def test_save_as_pdf_by_default_name_and_by_the_name_asked(
    host: ServedHost, server: PeerSite
) -> None:
    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        default = await called(agent, "browser_pdf_save", {})
        named = await called(agent, "browser_pdf_save", {"filename": "output.pdf"})
        return default, named

    (default, default_text), (named, named_text) = with_agent(host, body)
    path = Path(default["result"]["path"])
    assert re.fullmatch(r"page-[^:/]+\.pdf", path.name) and path.parent.name == "pdf", path
    assert str(path) in default_text
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and len(data) == default["result"]["size"]
    path = Path(named["result"]["path"])
    assert path.name == "output.pdf" and path.parent.name == "pdf", path
    assert "output.pdf" in named_text and path.read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in path.parent.glob("output*.pdf")) == ["output.pdf"]
