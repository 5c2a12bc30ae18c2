"""evaluate.spec.ts: `browser_evaluate` with the peer's `function` argument: a function, a
function called with an element, an object, bare expressions (a value, an array, a named
function, an async function, a promise) and a script error."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "evaluate.spec.ts"
PEER_CASES = {
    "browser_evaluate": "test_evaluate_in_the_page",
    "browser_evaluate (element)": "test_evaluate_on_an_element",
    "browser_evaluate object": "test_evaluate_in_the_page",
    "browser_evaluate expression": "test_evaluate_in_the_page",
    "browser_evaluate (error)": "test_evaluate_in_the_page",
}

# The peer's functions and expressions and the value each returns (its `result`, parsed).
EXPRESSIONS: list[tuple[str, Any]] = [
    ("() => document.title", "Title"),
    ("(1+1)", 2),
    ("[1,2,3].map(x => x*2)", [2, 4, 6]),
    ("function foo() { return 1; }", 1),
    ("async () => 42", 42),
    ("Promise.resolve(42)", 42),
]


def test_evaluate_in_the_page(host: ServedHost, server: PeerSite) -> None:
    """Four peer cases on the hello-world page in one session: a function, an object, the
    expressions, and a function that throws (the call fails naming the error; the session goes
    on)."""

    async def body(agent: Agent) -> tuple[Any, ...]:
        page, _ = await called(agent, "browser_navigate", {"url": server.HELLO_WORLD})
        values = [
            (await called(agent, "browser_evaluate", {"function": f}))[0]["result"]
            for f, _ in EXPRESSIONS
        ]
        an_object, text = await called(
            agent,
            "browser_evaluate",
            {"function": "() => ({ title: document.title, url: document.URL })"},
        )
        error = await refused(agent, "browser_evaluate", {"function": "() => nonExistentVariable"})
        after = (await called(agent, "browser_evaluate", {"function": "() => 1"}))[0]
        return page, values, an_object, text, error, after

    page, values, an_object, text, error, after = with_agent(host, body)
    assert page["result"]["title"] == "Title"
    assert values == [value for _, value in EXPRESSIONS]
    assert an_object["result"] == {"title": "Title", "url": server.HELLO_WORLD}
    assert '"title": "Title"' in text
    assert "nonExistentVariable" in error and "not defined" in error
    assert after["result"] == 1


def test_evaluate_on_an_element(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", '<body style="background-color: red">Hello, world!</body>')

    async def body(agent: Agent) -> tuple[str, Any]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        value, _ = await called(
            agent,
            "browser_evaluate",
            {
                "function": "element => element.style.backgroundColor",
                "element": "body",
                "target": "e1",
            },
        )
        return snapshot, value["result"]

    snapshot, value = with_agent(host, body)
    assert "- generic [active] [ref=e1]: Hello, world!" in snapshot
    assert value == "red"
