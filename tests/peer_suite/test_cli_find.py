"""cli-find.spec.ts: `playwright-cli find` calls `browser_find`: text or a regex (with flags)
over the page's snapshot, each match shown with the lines around it."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-find.spec.ts"
PEER_CASES = {
    "find by text": "test_find_by_text_and_by_regex",
    "find by regex": "test_find_by_text_and_by_regex",
    "find by regex with /i flag": "test_find_by_text_and_by_regex",
    "find reports no matches": "test_find_by_text_and_by_regex",
}

LIST_PAGE = """
  <h1>Groceries</h1>
  <ul>
    <li>Apples</li>
    <li>Bananas</li>
    <li>Cherries</li>
  </ul>
"""


def test_find_by_text_and_by_regex(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", LIST_PAGE)

    async def body(agent: Agent) -> list[tuple[Any, str]]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        found = []
        for args in (
            {"text": "Bananas"},
            {"regex": "Bananas|Cherries"},
            {"regex": "/apples/i"},
            {"text": "Pineapples"},
        ):
            structured, text = await called(agent, "browser_find", args)
            found.append((structured["result"], text))
        return found

    (text, text_read), (regex, regex_read), (flags, flags_read), (none, none_read) = with_agent(
        host, body
    )
    assert text["count"] == 1 and text["matches"][0]["line"].endswith(": Bananas")
    assert "1 match(es) for 'Bananas'" in text_read
    # The match is shown among its neighbours, as the peer's.
    assert "Apples" in text_read and "Cherries" in text_read
    assert regex["count"] == 2 and "2 match(es) for /Bananas|Cherries/" in regex_read
    assert [m["line"].rsplit(": ", 1)[1] for m in regex["matches"]] == ["Bananas", "Cherries"]
    assert flags["count"] == 1 and flags["matches"][0]["line"].endswith(": Apples")
    assert "for /apples/i" in flags_read
    assert none["count"] == 0 and "no match for 'Pineapples'" in none_read
