"""cli-devtools.spec.ts: `playwright-cli console`, `requests`, `request*`/`response*`,
`tracing-*`, `video-*`, `generate-locator` and `highlight`. The console, network, tracing and
locator tools are ours too and are called as ours, with the peer's `filter`, `static`, `part` and
`filename` arguments where a case passes them (`--filter`, `--static`, `request-headers`,
`--filename`: files under the output directory, a secret shown as its name); the peer's video and
highlight tools belong to a capability this host does not offer (`devtools`)."""

from __future__ import annotations

import asyncio
import json
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent, text_of
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import Answer, PeerSite, Request

pytestmark = pytest.mark.browser

SPEC = "cli-devtools.spec.ts"

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
    "requests --filter": "test_requests_filtered_by_url",
    "requests --clear": "test_requests_listed_once",
    "request shows full request and response details": "test_one_request_in_detail",
    "per-part commands extract individual parts": "test_one_request_in_detail",
    "request* and response* commands support --filename": "test_request_parts_saved_to_files",
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


SECRET = "s3cret-token-4711"
SECRET_NAME = "${API_TOKEN}"


@pytest.fixture(scope="module")
def secret_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedHost, Path]]:
    """A host with a secret and an output directory the tests read (the `--filename` case)."""
    folder = tmp_path_factory.mktemp("secrets")
    (folder / "secrets.env").write_text(f"API_TOKEN={SECRET}\n")
    output = folder / "output"
    served = serve_host("--secrets", str(folder / "secrets.env"), "--output-dir", str(output))
    yield served, output
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


async def listed_when(
    agent: Agent, args: dict[str, Any], done: Any, deadline_s: float = 30.0
) -> list[dict[str, Any]]:
    """The peer-form request list once `done(requests)` holds (polled up to the deadline)."""
    deadline = time.monotonic() + deadline_s
    while True:
        listed = (await agent.ok("browser_network_requests", args))["requests"]
        if done(listed) or time.monotonic() > deadline:
            return list(listed)
        await asyncio.sleep(0.1)


def test_requests_filtered_by_url(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<script>Promise.all([fetch('/api/users'), fetch('/api/orders'),"
        " fetch('/static/image.png')]);</script>",
    )

    async def body(agent: Agent) -> tuple[list[str], list[str]]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        every = await listed_when(agent, {"static": True}, lambda rs: len(rs) >= 4)
        # The peer's `requests --filter=/api/ --static`.
        filtered = await agent.ok("browser_network_requests", {"filter": "/api/", "static": True})
        return [r["url"] for r in every], [r["url"] for r in filtered["requests"]]

    every, filtered = with_agent(host, body)
    assert server.PREFIX + "/static/image.png" in every  # made, and left out by the filter
    assert filtered == [server.PREFIX + "/api/users", server.PREFIX + "/api/orders"]


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


FILE_PAGE = f"""<button onclick="fetch('/api', {{ method: 'POST', body: 'hello' }});
fetch('/token?value={SECRET}')">Click me</button>"""


def test_request_parts_saved_to_files(
    secret_host: tuple[ServedHost, Path], server: PeerSite
) -> None:
    host, output = secret_host
    server.set_content("/", FILE_PAGE)
    server.set_content(
        "/api",
        '{"name":"John Doe"}',
        "application/json",
        headers={"X-Custom-Response": "response-value", "X-Token": SECRET},
    )
    server.set_content("/token", "{}", "application/json")
    api = server.PREFIX + "/api"

    async def body(agent: Agent) -> tuple[dict[str, Any], list[str]]:
        shown: list[str] = []
        saved: dict[str, Any] = {}

        async def save(tool: str, args: dict[str, Any]) -> None:
            result = await agent.call(tool, args)
            assert not result.is_error, text_of(result)
            shown.append(json.dumps(result.model_dump(mode="json")))
            saved[str(args["filename"])] = (result.structured_content or {})["result"]

        await agent.ok("browser_navigate", {"url": server.PREFIX})
        await agent.ok("browser_click", {"target": "role=button[name='Click me']"})
        listed = await listed_when(
            agent,
            {"static": True},
            lambda rs: sum(1 for r in rs if r["status"] is not None) >= 3,
        )
        (number,) = [r["id"] for r in listed if r["url"] == api and r["method"] == "POST"]
        await save("browser_network_requests", {"static": True, "filename": "requests.log"})
        await save("browser_network_request", {"index": number, "filename": "req.log"})
        for part, name in (
            ("request-headers", "req-h.txt"),
            ("request-body", "req-b.txt"),
            ("response-headers", "res-h.txt"),
            ("response-body", "res-b.json"),
        ):
            await save("browser_network_request", {"index": number, "part": part, "filename": name})
        return saved, shown

    saved, shown = with_agent(host, body)
    files = {name: Path(value["path"]) for name, value in saved.items()}
    for name, path in files.items():
        # Each in the session's folder under the output directory, under the name given (the
        # peer's `./req.log`).
        assert path.name == name and path.parent.name == "network", path
        assert path.parent.parent.parent == output.resolve() / "sessions", path
    read = {name: path.read_text() for name, path in files.items()}
    assert saved["requests.log"]["count"] == 3
    assert f"[POST] {api} => [200]" in read["requests.log"]
    whole = json.loads(read["req.log"])
    assert (whole["method"], whole["url"], whole["postData"]) == ("POST", api, "hello")
    assert "content-type: text/plain;charset=UTF-8" in read["req-h.txt"].splitlines()
    assert read["req-b.txt"] == "hello"
    assert "x-custom-response: response-value" in read["res-h.txt"].splitlines()
    assert read["res-b.json"] == '{"name":"John Doe"}'
    assert saved["res-b.json"]["size"] == len(read["res-b.json"])
    # A secret in a URL or a header is written, as it is shown, as its name.
    assert f"/token?value={SECRET_NAME} => [200]" in read["requests.log"]
    assert f"x-token: {SECRET_NAME}" in read["res-h.txt"].splitlines()
    assert whole["response"]["headers"]["x-token"] == SECRET_NAME
    assert not [name for name, text in read.items() if SECRET in text]
    assert SECRET not in "".join(shown)


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
