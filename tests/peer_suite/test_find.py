"""find.spec.ts: `browser_find` searches the page's snapshot for text (case-insensitive) or a
JavaScript regex (case-sensitive, `/…/i` for flags), shows each match under its path from the
root with its neighbouring lines, and refuses a missing, doubled or broken query."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "find.spec.ts"
PEER_CASES = {
    "browser_find by text": "test_find_in_a_list_by_text_and_by_regex",
    "browser_find shows the path from the root to the match": "test_find_shows_the_path_from_the_root",
    "browser_find marks gaps within off-path context with an ellipsis": (
        "test_find_marks_gaps_off_the_path_with_an_ellipsis"
    ),
    "browser_find is case-insensitive for text": "test_find_in_a_list_by_text_and_by_regex",
    "browser_find by regex": "test_find_in_a_list_by_text_and_by_regex",
    "browser_find regex is case-sensitive by default": "test_find_in_a_list_by_text_and_by_regex",
    "browser_find regex honors /i flag": "test_find_in_a_list_by_text_and_by_regex",
    "browser_find reports no matches": "test_find_in_a_list_by_text_and_by_regex",
    "browser_find requires text or regex": "test_find_refuses_a_missing_doubled_or_broken_query",
    "browser_find rejects both text and regex": "test_find_refuses_a_missing_doubled_or_broken_query",
    "browser_find rejects invalid regex": "test_find_refuses_a_missing_doubled_or_broken_query",
}

LIST_PAGE = """
  <h1>Groceries</h1>
  <ul>
    <li>Apples</li>
    <li>Bananas</li>
    <li>Cherries</li>
  </ul>
  <button>Add to cart</button>
"""

NESTED_PAGE = """
  <main>
    <section aria-label="Sidebar">
      <nav aria-label="Primary">
        <ul>
          <li><a href="/home">Home</a></li>
          <li><a href="/products">Products</a></li>
          <li><a href="/about">About</a></li>
          <li><a href="/contact">Contact</a></li>
          <li><a href="/careers">Careers</a></li>
          <li><a href="/target">Deep Target Link</a></li>
        </ul>
      </nav>
    </section>
  </main>
"""

TOOLBAR_PAGE = """
  <main>
    <div role="group" aria-label="Toolbar">
      <button>One</button>
      <button>Two</button>
      <button>Three</button>
      <button>Four</button>
    </div>
    <div role="group" aria-label="Content">
      <button>Target Button</button>
    </div>
  </main>
"""


def _finds(host: ServedHost, url: str, queries: list[dict[str, Any]]) -> list[tuple[Any, str]]:
    async def body(agent: Agent) -> list[tuple[Any, str]]:
        await agent.ok("browser_navigate", {"url": url})
        found = []
        for query in queries:
            structured, text = await called(agent, "browser_find", query)
            found.append((structured["result"], text))
        return found

    return with_agent(host, body)


def _texts(result: Any) -> list[str]:
    """The matched lines' text, without the snapshot's role and ref."""
    return [m["line"] for m in result["matches"]]


def test_find_in_a_list_by_text_and_by_regex(host: ServedHost, server: PeerSite) -> None:
    url = server.set_content("/", LIST_PAGE)
    by_text, lower, regex, sensitive, flagged, none = _finds(
        host,
        url,
        [
            {"text": "Bananas"},
            {"text": "apples"},
            {"regex": "Bananas|Cherries"},
            {"regex": "apples"},
            {"regex": "/apples/i"},
            {"text": "Pineapples"},
        ],
    )
    # by text: one match, with the neighbouring list items as its context.
    result, text = by_text
    assert result["count"] == 1 and "Bananas" in _texts(result)[0], text
    match = result["matches"][0]
    assert any("Apples" in line for line in match["before"]), match
    assert any("Cherries" in line for line in match["after"]), match
    assert "Apples" in text and "Cherries" in text
    # text is case-insensitive.
    assert lower[0]["count"] == 1 and "Apples" in _texts(lower[0])[0], lower[1]
    # a regex, two matches.
    assert regex[0]["count"] == 2, regex[1]
    assert ["Bananas" in t for t in _texts(regex[0])] == [True, False]
    assert "Cherries" in _texts(regex[0])[1]
    # a regex is case-sensitive unless it says /i.
    assert sensitive[0] == {"matches": [], "count": 0, "truncated": False}, sensitive[1]
    assert "no match" in sensitive[1]
    assert flagged[0]["count"] == 1 and "Apples" in _texts(flagged[0])[0], flagged[1]
    # no match: an answer, not an error.
    assert none[0]["count"] == 0 and "no match" in none[1] and "Pineapples" in none[1]


def test_find_shows_the_path_from_the_root(host: ServedHost, server: PeerSite) -> None:
    url = server.set_content("/", NESTED_PAGE)
    [(result, text)] = _finds(host, url, [{"text": "Deep Target Link"}])
    assert result["count"] == 1, text
    match = result["matches"][0]
    assert match["line"].startswith('- link "Deep Target Link" [ref='), match
    # Every ancestor from the root, though the root is far above the context window.
    assert [line.split(" [ref=")[0] for line in match["path"]] == [
        "- main",
        '- region "Sidebar"',
        '- navigation "Primary"',
        "- list",
        "- listitem",
    ], match["path"]
    assert any("Careers" in line for line in match["before"]), match
    # As the model reads it: the path, then the window, with no "..." at the implied jump.
    lines = text.splitlines()
    assert [line.strip().split(" [ref=")[0] for line in lines[1:5]] == [
        "- main",
        '- region "Sidebar"',
        '- navigation "Primary"',
        "- list",
    ], text
    assert not any(line.strip() == "..." for line in lines), text
    assert [line for line in lines if "<- match" in line] == [
        line for line in lines if 'link "Deep Target Link"' in line
    ], text
    assert any("Careers" in line for line in lines), text


def test_find_marks_gaps_off_the_path_with_an_ellipsis(host: ServedHost, server: PeerSite) -> None:
    url = server.set_content("/", TOOLBAR_PAGE)
    [(result, text)] = _finds(host, url, [{"text": "Target Button"}])
    assert result["count"] == 1, text
    shown = [line.split(" [ref=")[0].rstrip(":").rstrip() for line in text.splitlines()[1:]]
    # The "Toolbar" group is context off the path: it keeps its container, and the buttons
    # left out of it are marked with "..."; the path down to the match is not.
    assert shown == [
        "- main",
        '  - group "Toolbar"',
        "    ...",
        '    - button "Three"',
        '    - button "Four"',
        '  - group "Content"',
        '    - button "Target Button"',
    ], text


def test_find_refuses_a_missing_doubled_or_broken_query(host: ServedHost, server: PeerSite) -> None:
    url = server.set_content("/", LIST_PAGE)

    async def body(agent: Agent) -> tuple[str, str, str, Any]:
        await agent.ok("browser_navigate", {"url": url})
        nothing = await refused(agent, "browser_find", {})
        both = await refused(agent, "browser_find", {"text": "Apples", "regex": "Apples"})
        broken = await refused(agent, "browser_find", {"regex": "("})
        after = await agent.ok("browser_find", {"text": "Apples"})  # the session goes on
        return nothing, both, broken, after

    nothing, both, broken, after = with_agent(host, body)
    assert "[missing_argument]" in nothing and "text" in nothing and "regex" in nothing
    assert "[invalid_argument]" in both and "one of the two" in both
    assert "[invalid_argument]" in broken and "regular expression" in broken
    assert after["count"] == 1
