"""cli-devtools.spec.ts: `playwright-cli console`, `requests`, `request*`/`response*`,
`tracing-*`, `video-*`, `generate-locator` and `highlight`. The console, network, tracing and
locator tools are ours too and are called as ours; the peer's request list numbering, `static`,
`filter`, `part` and `filename` arguments belong to network.spec.ts's translation, and its video
and highlight tools to a capability this host does not offer (`devtools`)."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import Answer, PeerSite, Request

SPEC = "cli-devtools.spec.ts"

NETWORK_ARGS = "which the network.spec.ts translation adds to the host on another branch"
VIDEO = (
    "differs: the peer's video tools (browser_start_video, browser_stop_video, "
    "browser_video_chapter, browser_video_show_actions/hide_actions: its devtools capability) "
    "are not offered; this host records each session's video when its operator says so "
    "(serve --save-video)"
)
HIGHLIGHT = (
    "differs: the peer's browser_highlight and browser_hide_highlight (its devtools capability) "
    "draw over the page for a person watching a headed browser; not offered by this host"
)
PEER_CASES = {
    "console": "test_console_messages_by_level_and_read_once",
    "console error": "test_console_messages_by_level_and_read_once",
    "console --clear": "test_console_messages_by_level_and_read_once",
    "requests": "test_requests_listed_once",
    "requests --static": "test_requests_listed_once",
    "requests --filter": f"todo: needs browser_network_requests' filter, {NETWORK_ARGS}",
    "requests --clear": "test_requests_listed_once",
    "request shows full request and response details": "test_one_request_in_detail",
    "per-part commands extract individual parts": "test_one_request_in_detail",
    "request* and response* commands support --filename": (
        f"todo: needs browser_network_request's filename, {NETWORK_ARGS}"
    ),
    "response-body returns just the body": "test_one_request_in_detail",
    "request with out-of-range index": "test_one_request_in_detail",
    "tracing-start-stop": "test_tracing_start_stop",
    "video-start-stop": VIDEO,
    "video-chapter": VIDEO,
    "video-show-actions and video-hide-actions": VIDEO,
    "video-show-actions rejects invalid position": VIDEO,
    "generate-locator": "test_generate_locator",
    "highlight": HIGHLIGHT,
    "highlight --hide": HIGHLIGHT,
    "highlight --hide all": HIGHLIGHT,
    "highlight --style": HIGHLIGHT,
}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """The suite's host with the tracing capability too."""
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network,tracing",
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
    )
    yield served
    served.stop()


async def messages(agent: Agent, args: dict[str, Any]) -> list[tuple[str, str]]:
    structured, _ = await called(agent, "browser_console_messages", args)
    return [(m["level"], m["text"]) for m in structured["result"]["messages"]]


def test_console_messages_by_level_and_read_once(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok("browser_evaluate", {"function": 'console.log("Hello, world!")'})
        facts["all"] = await messages(agent, {"keep": True})
        await agent.ok("browser_evaluate", {"function": 'console.error("error-level")'})
        facts["errors"] = await messages(agent, {"level": "error", "keep": True})
        # Reading without `keep` clears them (the peer's `console --clear`).
        facts["read"] = await messages(agent, {})
        facts["after"] = await messages(agent, {})
        return facts

    facts = with_agent(host, body)
    assert facts["all"] == [("info", "Hello, world!")]
    assert facts["errors"] == [("error", "error-level")]  # not the log-level one
    assert facts["read"] == [("info", "Hello, world!"), ("error", "error-level")]
    assert facts["after"] == []


async def requests(agent: Agent) -> list[tuple[str, str, int | None]]:
    structured, _ = await called(agent, "browser_network_requests", {})
    return [(r["method"], r["url"], r["status"]) for r in structured["result"]["requests"]]


def test_requests_listed_once(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> list[list[tuple[str, str, int | None]]]:
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/empty.html"})
        await agent.ok("browser_evaluate", {"function": '() => fetch("/hello-world")'})
        # Each call lists what came since the last one (the peer's `requests --clear`).
        return [await requests(agent), await requests(agent)]

    listed, again = with_agent(host, body)
    # The page's own request (the peer shows it with `--static`) and the fetch, with status.
    assert listed == [
        ("GET", server.EMPTY_PAGE, 200),
        ("GET", server.HELLO_WORLD, 200),
    ]
    assert again == []


API_PAGE = """<button onclick="fetch('/api', { method: 'POST', headers: { 'X-Custom-Header':
'test-value' }, body: JSON.stringify({ key: 'value' }) })">Click me</button>"""


def api_answer(request: Request) -> Answer:
    return Answer(
        b'{"name":"John Doe"}',
        "application/json",
        headers={"X-Custom-Response": "response-value"},
    )


def test_one_request_in_detail(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", API_PAGE)
    server.set_route("/api", api_answer)

    async def body(agent: Agent) -> tuple[Any, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        await called(agent, "browser_click", {"target": "role=button[name='Click me']"})
        structured, _ = await called(agent, "browser_network_requests", {})
        (found,) = [r for r in structured["result"]["requests"] if r["url"].endswith("/api")]
        detail, _ = await called(agent, "browser_network_request", {"id": found["id"]})
        return detail["result"], await refused(agent, "browser_network_request", {"id": 999})

    detail, missing = with_agent(host, body)
    assert (detail["method"], detail["url"]) == ("POST", server.PREFIX + "/api")
    assert detail["response"]["status"] == 200 and detail["response"]["statusText"] == "OK"
    # Each part the peer's per-part commands read.
    assert detail["requestHeaders"]["x-custom-header"] == "test-value"
    assert detail["postData"] == '{"key":"value"}'
    assert detail["response"]["headers"]["x-custom-response"] == "response-value"
    assert detail["response"]["body"] == '{"name":"John Doe"}'  # just the body
    assert "[unknown_request]" in missing and "999" in missing


def test_tracing_start_stop(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> tuple[Any, Any]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        started, _ = await called(agent, "browser_start_tracing", {})
        await agent.ok(
            "browser_evaluate", {"function": '() => fetch("/hello-world").then(r => r.text())'}
        )
        stopped, _ = await called(agent, "browser_stop_tracing", {})
        return started["result"], stopped["result"]

    started, stopped = with_agent(host, body)
    assert started == {"tracing": True}
    trace = Path(stopped["path"])
    # Playwright's trace archive: the actions and the network log (the peer's .trace, .network).
    with zipfile.ZipFile(trace) as archive:
        names = archive.namelist()
        network = archive.read("trace.network").decode()
    assert "trace.trace" in names and "trace.network" in names, names
    assert "/hello-world" in network


def test_generate_locator(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<button>Submit</button>")

    async def body(agent: Agent) -> Any:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        structured, _ = await called(agent, "browser_snapshot", {})
        assert '- button "Submit" [ref=e2]' in structured["result"]["snapshot"]
        located, _ = await called(agent, "browser_generate_locator", {"target": "e2"})
        return located["result"]

    located = with_agent(host, body)
    assert located["locator"] == 'page.getByRole("button", { name: "Submit" })'
    assert located["python"] == 'page.get_by_role("button", name="Submit")'
