"""Issue 45: an action's result waits on evidence of what it set off (host/sessions/settle.py,
host/sessions/pending_work.py), not on a clock, and still reports all of it.

Through MCP (the official SDK's client over streamable HTTP) against a host at the default
`--timeout-settle` (500 ms), in Chromium. Every assertion is about WHAT a result reports, never
how long it took (the speed is measured in benchmarks/host_bench.py).
"""

from __future__ import annotations

import http.server
import time
from collections.abc import Iterator
from typing import Any

import pytest
from host_tests.host_helpers import ServedHost, host_config, serve_host
from local_server import LocalServer, serve

from host_agent.agent_client import Agent, called, find_ref, with_agent

pytestmark = pytest.mark.browser

STARTS = (0, 100, 300, 450)
"""When each page starts what a click sets off, in ms after the click: up to the peer's 500 ms."""

KINDS = {
    "navigation": "location.href = `/landed`",
    "dialog": "document.title = confirm(`Sure?`)",
    "popup": "window.open(`/landed`)",
    "download": "location.href = `/file.csv`",
    "fetch": "fetch(`/api`).then(r => r.text()).then(t => out.textContent = t)",
}
CSV = b"name,size\nalpha,1\n"


def _later(ms: int, code: str) -> str:
    return f"setTimeout(() => {{ {code} }}, {ms})" if ms else code


def _start_page() -> str:
    buttons = "".join(
        f'<button id={kind}{ms} onclick="{_later(ms, code)}">{kind} {ms}</button>'
        for kind, code in KINDS.items()
        for ms in STARTS
    )
    return (
        "<title>Start</title>" + buttons + "<p id=out>none</p>"
        # a key, a drop and typing that set something off
        '<input id=keys aria-label=Keys onkeydown="if (event.key === `Enter`) '
        + _later(300, "location.href = `/landed`")
        + '">'
        '<div id=zone style="width:80px;height:80px" ondragover="event.preventDefault()" '
        'ondrop="event.preventDefault(); '
        + _later(300, "location.href = `/landed`")
        + '">zone</div>'
        '<input id=typed aria-label=Typed oninput="fetch(`/api`)">'
        # work that its own answer sets off: a request, then a timer once it is answered
        "<button id=chain onclick=\"fetch('/api/slow').then(r => r.text())"
        ".then(() => setTimeout(() => { location.href = '/landed' }, 200))\">chain</button>"
        # recurring work started by a click: it must not hold the answer (the call answers)
        '<button id=poll onclick="setInterval(() => fetch(`/api`), 30); '
        '(function f() { requestAnimationFrame(f) })()">poll</button>'
    )


PAGES: dict[str, tuple[bytes, str, dict[str, str]]] = {
    "/landed": (b"<title>Landed</title><h1>Landed</h1>", "text/html", {}),
    "/file.csv": (
        CSV,
        "text/csv",
        {"content-disposition": 'attachment; filename="data.csv"'},
    ),
    "/csp": (
        b"<title>CSP</title><button id=go>Go</button><script nonce=n1>"
        b"document.getElementById('go').onclick = () => "
        b"setTimeout(() => { location.href = '/landed' }, 300)</script>",
        "text/html",
        {"content-security-policy": "script-src 'nonce-n1'; default-src 'self'"},
    ),
    "/framed": (
        b'<title>Framed</title><button id=go onclick="setTimeout(() => '
        b"{ location.href = '/landed' }, 300)\">Go</button>"
        b"<iframe sandbox srcdoc='<p>no scripts here</p>'></iframe>"
        b"<iframe sandbox='allow-scripts allow-same-origin' src='/inner'></iframe>",
        "text/html",
        {},
    ),
    "/inner": (
        b"<title>Inner</title><button onclick=\"setTimeout(() => fetch('/api'), 300)\">Inner"
        b"</button>",
        "text/html",
        {},
    ),
    "/worker": (
        b"<title>Worker</title><button id=go onclick=\"const w = new Worker('/worker.js'); "
        b"w.onmessage = (e) => { out.textContent = e.data; setTimeout(() => { "
        b"location.href = '/landed' }, 100) }; w.postMessage(20)\">Go</button><p id=out>none</p>",
        "text/html",
        {},
    ),
    "/worker.js": (
        b"onmessage = (e) => setTimeout(() => postMessage('worked ' + e.data), e.data);",
        "text/javascript",
        {},
    ),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/start":
                self._send(_start_page().encode(), "text/html", {})
            elif path in PAGES:
                self._send(*PAGES[path])
            elif path == "/api":
                self._send(b"api answer", "text/plain", {})
            elif path == "/api/slow":
                time.sleep(0.3)  # answered after the action's own settle time
                self._send(b"slow answer", "text/plain", {})
            else:
                self.send_error(404)

        def _send(self, body: bytes, kind: str, headers: dict[str, str]) -> None:
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server: LocalServer = serve(Handler)
    yield server.origin
    server.stop()


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """A host at the default settle time (no --timeout-settle), which the 450 ms starts need."""
    uploads = tmp_path_factory.mktemp("uploads")
    served = serve_host(
        "--output-dir", str(tmp_path_factory.mktemp("output")), "--upload-dir", str(uploads)
    )
    yield served
    served.stop()


def _click(host: ServedHost, site: str, target: str, page: str = "/start") -> dict[str, Any]:
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site + page})
        structured, _ = await called(agent, "browser_click", {"target": target})
        result = structured["result"]
        if result.get("dialog"):  # the page waits on it: answer, so the session ends cleanly
            await agent.ok("browser_handle_dialog", {"accept": True})
        return structured

    return with_agent(host, body)


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("kind", list(KINDS))
def test_what_a_click_sets_off_within_the_settle_time_is_in_its_result(
    host: ServedHost, site: str, kind: str, start: int
) -> None:
    structured = _click(host, site, f"#{kind}{start}")
    result, notes = structured["result"], structured.get("notes", [])
    if kind == "navigation":
        assert (result["url"], result["title"]) == (site + "/landed", "Landed"), structured
    elif kind == "dialog":
        assert result["dialog"] == {"type": "confirm", "message": "Sure?"}, structured
    elif kind == "popup":
        opened = [n for n in notes if n.get("event") == "tab_opened"]
        assert result["tabs"] == 2 and opened and opened[0]["url"] == site + "/landed", structured
    elif kind == "download":
        saved = [n for n in notes if n.get("event") == "download"]
        assert saved and saved[0]["name"] == "data.csv", structured
        assert saved[0]["size"] == len(CSV)
    else:
        assert result["requests"] == [f"GET {site}/api 200"], structured


def test_a_key_press_reports_the_navigation_it_set_off(host: ServedHost, site: str) -> None:
    # browser_press_key did not settle before issue 45: its result named the page it left.
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site + "/start"})
        await agent.ok("browser_click", {"target": "#keys"})
        structured, _ = await called(agent, "browser_press_key", {"key": "Enter"})
        return structured

    result = with_agent(host, body)["result"]
    assert (result["url"], result["title"]) == (site + "/landed", "Landed"), result


def test_a_drop_reports_the_navigation_it_set_off(host: ServedHost, site: str) -> None:
    # browser_drop did not settle before issue 45.
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site + "/start"})
        structured, _ = await called(
            agent, "browser_drop", {"target": "#zone", "data": {"text/plain": "hello"}}
        )
        return structured

    result = with_agent(host, body)["result"]
    assert (result["url"], result["title"]) == (site + "/landed", "Landed"), result


def test_typing_without_submit_does_not_settle(host: ServedHost, site: str) -> None:
    # As the peer: a fill is not waited after, so the request its input event starts is not
    # the fill's to report (before issue 45 the fill waited for it and listed it).
    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": site + "/start"})
        structured, _ = await called(agent, "browser_type", {"target": "#typed", "text": "x"})
        return structured

    result = with_agent(host, body)["result"]
    assert "requests" not in result, result


def test_what_a_request_s_answer_sets_off_is_waited_for_too(host: ServedHost, site: str) -> None:
    # A fetch answered after the settle time, whose answer sets a timer that navigates: the
    # settle time counts again from the answer, as the peer's second settle does.
    result = _click(host, site, "#chain")["result"]
    assert (result["url"], result["title"]) == (site + "/landed", "Landed"), result
    assert f"GET {site}/api/slow 200" in result["requests"]


def test_recurring_work_a_click_starts_does_not_hold_its_answer(
    host: ServedHost, site: str
) -> None:
    # An interval of requests and an endless animation loop: the call still answers, well
    # within its deadline (it would time out if either held it).
    result = _click(host, site, "#poll")["result"]
    assert result["url"] == site + "/start"


def test_a_page_with_a_content_security_policy_gets_the_script_and_is_waited_for(
    host: ServedHost, site: str
) -> None:
    async def body(agent: Agent) -> tuple[Any, dict[str, Any]]:
        await agent.ok("browser_navigate", {"url": site + "/csp"})
        present = await agent.ok(
            "browser_evaluate", {"expression": "() => typeof window.__hostPendingWork"}
        )
        structured, _ = await called(agent, "browser_click", {"target": "#go"})
        return present, structured["result"]

    present, result = with_agent(host, body)
    assert present == "function"  # the page's CSP does not keep the script out
    assert (result["url"], result["title"]) == (site + "/landed", "Landed"), result


def test_sandboxed_frames_keep_working(host: ServedHost, site: str) -> None:
    async def body(agent: Agent) -> tuple[dict[str, Any], dict[str, Any]]:
        await agent.ok("browser_navigate", {"url": site + "/framed"})
        _, snapshot = await called(agent, "browser_snapshot", {})
        inner = find_ref(snapshot, r'button "Inner"')
        in_frame, _ = await called(agent, "browser_click", {"target": inner})
        structured, _ = await called(agent, "browser_click", {"target": "#go"})
        return in_frame["result"], structured["result"]

    in_frame, result = with_agent(host, body)
    assert in_frame["requests"] == [f"GET {site}/api 200"], in_frame  # from the framed page
    assert (result["url"], result["title"]) == (site + "/landed", "Landed"), result


def test_a_page_s_worker_keeps_working(host: ServedHost, site: str) -> None:
    # The worker answers 20 ms later; what its answer sets off (a timer) is not the click's
    # evidence (a worker's message is not noted), but the worker itself must work.
    async def body(agent: Agent) -> Any:
        await agent.ok("browser_navigate", {"url": site + "/worker"})
        await agent.ok("browser_click", {"target": "#go"})
        await agent.ok("browser_wait_for", {"text": "Landed"})
        return await agent.ok("browser_evaluate", {"expression": "() => document.title"})

    assert with_agent(host, body) == "Landed"


def test_where_the_script_did_not_run_the_fixed_wait_still_reports_it(site: str) -> None:
    # A session made while the settle was off has no pending-work script in its pages; once the
    # settle is on, its click finds no script, waits the fixed settle time (as before issue 45)
    # and still reports the navigation the page starts 300 ms later.
    import asyncio
    import dataclasses

    from host.calls.core import Host
    from host.sessions import settle

    fell_back: list[bool] = []
    real_settle = settle.ActionWatch.settle

    async def recorded(watch: settle.ActionWatch) -> None:
        await real_settle(watch)
        fell_back.append(watch.fell_back)

    async def body() -> Any:
        async with Host(host_config(settle_timeout=0)) as host:
            await host.call("k", "browser_navigate", {"url": site + "/start"})
            host.config = dataclasses.replace(host.config, settle_timeout=0.5)
            return await host.call("k", "browser_click", {"target": "#navigation300"})

    settle.ActionWatch.settle = recorded  # type: ignore[method-assign]
    try:
        outcome = asyncio.run(body())
    finally:
        settle.ActionWatch.settle = real_settle  # type: ignore[method-assign]
    assert outcome.ok, outcome.text()
    assert outcome.value["url"] == site + "/landed", outcome.value
    assert any(fell_back)  # the click's settle found no script and waited the fixed time
