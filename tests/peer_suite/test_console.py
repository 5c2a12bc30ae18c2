"""console.spec.ts: `browser_console_messages` returns console messages and uncaught page errors
at or above a level (default `info`: no debug), and an action's result lists the messages it set
off. Where the peer writes a console log file per page and links it from each result, this host
lists the new messages in the result itself, and keeps unread messages until they are read."""

from __future__ import annotations

from typing import Any

from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "console.spec.ts"
LOG_FILE = (
    "differs: this host writes no console log file per page; each action's result lists the "
    "console messages it set off, and browser_console_messages returns them (its filename "
    "argument saves them to a file on request)"
)
KEPT_UNTIL_READ = (
    "differs: messages are kept until browser_console_messages reads them, across navigations "
    "(the peer's plain read drops the messages of a page the tab left), so a model never misses "
    "an error of the page it just left; reading clears them, and all returns the read ones too"
)
PEER_CASES = {
    "browser_console_messages": "test_console_messages_at_each_level",
    "browser_console_messages (page error)": "test_console_messages_at_each_level",
    "recent console messages": "test_an_actions_result_lists_the_messages_it_set_off",
    "recent console messages filter": (
        "host_agent/test_peer_behaviours.py::test_the_console_level_leaves_out_less_severe_messages"
    ),
    "browser_console_messages default level": "test_console_messages_at_each_level",
    "browser_console_messages errors only": "test_console_messages_at_each_level",
    "console log file is created on snapshot": LOG_FILE,
    "console log file shows correct entry count": (
        "test_a_navigations_result_lists_the_messages_of_the_page"
    ),
    "console log file shows singular entry": "test_a_navigations_result_lists_the_messages_of_the_page",
    "new console log file after navigation": LOG_FILE,
    "console log file appends on multiple snapshots": (
        "test_an_actions_result_lists_the_messages_it_set_off"
    ),
    "console log file stores message type and content": (
        "test_a_navigations_result_lists_the_messages_of_the_page"
    ),
    "browser_console_messages all option": KEPT_UNTIL_READ,
    "browser_console_messages all option for page errors": KEPT_UNTIL_READ,
    "console log is updated without taking snapshots": (
        "test_messages_are_there_to_read_without_a_snapshot"
    ),
}

LEVELS = """async () => {{
  console.debug("console.debug");
  console.log("console.log");
  console.warn("console.warn");
  console.error("console.error");
  setTimeout(() => {{ throw new Error("unhandled"); }}, 0);
  const response = await fetch('{missing}');
  console.{last}("fetch status: " + response.status);
}}"""


def _texts(structured: dict[str, Any]) -> list[str]:
    return [m["text"] for m in structured["result"]["messages"]]


async def _read_until(agent: Agent, args: dict[str, Any], needed: str) -> list[dict[str, Any]]:
    """browser_console_messages (kept) until one message holds `needed`: a page error thrown
    from a timer arrives a moment after the call that set it; then the messages, read."""
    for _ in range(100):
        structured, _ = await called(agent, "browser_console_messages", {**args, "keep": True})
        if any(needed in text for text in _texts(structured)):
            break
        await agent.ok("browser_wait_for", {"time": 0.1})
    structured, _ = await called(agent, "browser_console_messages", args)
    return list(structured["result"]["messages"])


def test_console_messages_at_each_level(host: ServedHost, server: PeerSite) -> None:
    page = server.set_content(
        "/",
        '<!DOCTYPE html><html><script>console.log("Hello, world!");'
        'console.error("Error");</script></html>',
    )
    thrown = server.set_content(
        "/thrown",
        '<!DOCTYPE html><html><script>throw new Error("Error in script");</script></html>',
    )
    missing = server.PREFIX + "/missing"

    async def body(agent: Agent) -> list[list[dict[str, Any]]]:
        read = []
        await agent.ok("browser_navigate", {"url": page})
        read.append(await _read_until(agent, {}, "Error"))
        await agent.ok("browser_navigate", {"url": thrown})
        read.append(await _read_until(agent, {}, "Error in script"))
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        await agent.ok("browser_evaluate", {"function": LEVELS.format(missing=missing, last="log")})
        read.append(await _read_until(agent, {}, "unhandled"))
        await agent.ok(
            "browser_evaluate", {"function": LEVELS.format(missing=missing, last="error")}
        )
        read.append(await _read_until(agent, {"level": "error"}, "unhandled"))
        return read

    logged, thrown_read, default, errors = with_agent(host, body)
    # Two messages, a log and an error, each with its level and its text.
    assert [(m["level"], m["type"], m["text"]) for m in logged] == [
        ("info", "log", "Hello, world!"),
        ("error", "error", "Error"),
    ], logged
    # An uncaught error: an error-level message with its message and where it was thrown.
    [error] = thrown_read
    assert error["level"] == "error" and error["type"] == "pageerror", error
    assert "Error: Error in script" in error["text"] and server.PREFIX in error["text"], error
    # The default level (info): everything but debug, the page error and the 404 included.
    texts = " | ".join(m["text"] for m in default)
    for expected in ("console.log", "console.warn", "console.error", "Error: unhandled", "404"):
        assert expected in texts, texts
    assert "console.debug" not in texts
    # Errors only.
    texts = " | ".join(m["text"] for m in errors)
    assert {m["level"] for m in errors} == {"error"}, errors
    for expected in ("console.error", "Error: unhandled", "fetch status: 404"):
        assert expected in texts, texts
    assert "console.log" not in texts and "console.warn" not in texts


def test_an_actions_result_lists_the_messages_it_set_off(
    host: ServedHost, server: PeerSite
) -> None:
    page = server.set_content(
        "/",
        """<!DOCTYPE html><html><button onclick="console.log('Hello, world!');">Click me</button>
        <button onclick="console.error('Button clicked');">Error me</button></html>""",
    )

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": page})
        _, snapshot = await called(agent, "browser_snapshot", {})
        hello = find_ref(snapshot, 'button "Click me"')
        error = find_ref(snapshot, 'button "Error me"')
        clicked = await called(agent, "browser_click", {"element": "Click me", "target": hello})
        first = await called(agent, "browser_click", {"element": "Error me", "target": error})
        second = await called(agent, "browser_click", {"element": "Error me", "target": error})
        read, _ = await called(agent, "browser_console_messages", {"level": "error"})
        return clicked, first, second, read

    clicked, first, second, read = with_agent(host, body)
    structured, text = clicked
    assert structured["result"]["console"] == [{"level": "info", "text": "Hello, world!"}], text
    assert "Hello, world!" in text
    # Each click's result lists its own message, and both are there to read.
    for structured, text in (first, second):
        assert structured["result"]["console"] == [{"level": "error", "text": "Button clicked"}]
        assert "Button clicked" in text
    assert _texts(read) == ["Button clicked", "Button clicked"]


def test_a_navigations_result_lists_the_messages_of_the_page(
    host: ServedHost, server: PeerSite
) -> None:
    three = server.set_content(
        "/three",
        '<!DOCTYPE html><html><script>console.error("Error 1");console.error("Error 2");'
        'console.error("Error 3");</script></html>',
    )
    one = server.set_content(
        "/one", '<!DOCTYPE html><html><script>console.error("Single error");</script></html>'
    )
    warned = server.set_content(
        "/warned",
        '<!DOCTYPE html><html><script>console.warn("Warning message");'
        'console.error("Error message");</script></html>',
    )

    async def body(agent: Agent) -> tuple[Any, ...]:
        navigated = [await called(agent, "browser_navigate", {"url": url}) for url in (three, one)]
        await agent.ok("browser_console_messages", {})  # read: what follows is the next page's
        await agent.ok("browser_navigate", {"url": warned})
        return navigated, await _read_until(agent, {}, "Error message")

    navigated, kinds = with_agent(host, body)
    (many, many_text), (single, single_text) = navigated
    assert many["result"]["console"] == [
        {"level": "error", "text": f"Error {n}"} for n in (1, 2, 3)
    ], many_text
    assert "Error 1" in many_text and "Error 3" in many_text
    assert single["result"]["console"] == [{"level": "error", "text": "Single error"}]
    assert "Single error" in single_text
    # Each message keeps its type and its content. (The peer's file also names the script's
    # line; here console calls pass through the host's rate limiter in the page, so Chromium
    # reports the limiter's place, and the location is left out rather than misleading.)
    assert [(m["type"], m["text"]) for m in kinds] == [
        ("warning", "Warning message"),
        ("error", "Error message"),
    ], kinds


def test_messages_are_there_to_read_without_a_snapshot(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> list[dict[str, Any]]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok(
            "browser_evaluate",
            {
                "function": "() => { for (let i = 0; i < 5; i++) "
                "console.error('Evaluated message ' + i); }"
            },
        )
        return await _read_until(agent, {}, "Evaluated message 4")

    read = with_agent(host, body)
    assert [m["text"] for m in read] == [f"Evaluated message {i}" for i in range(5)]
