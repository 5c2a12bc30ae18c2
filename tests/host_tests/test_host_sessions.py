"""In-process: sessions, tabs and the hand-authored tools, through `Host.call` on real Chromium."""

from __future__ import annotations

import ast
import asyncio
import base64
import time
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
import yaml

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host.shared.descriptors import HOST_TOOLS_DIR
from host_tests.host_helpers import (
    REPO,
    AppServer,
    LoopThread,
    crash_renderer,
    host_config,
    wait_until,
)

pytestmark = pytest.mark.browser


class Caller:
    def __init__(self, loop: LoopThread, host: Host) -> None:
        self.loop = loop
        self.host = host

    def __call__(self, key: str, name: str, args: dict[str, Any] | None = None) -> ToolOutcome:
        return self.loop.run(self.host.call(key, name, args or {}))

    def ok(self, key: str, name: str, args: dict[str, Any] | None = None) -> Any:
        outcome = self(key, name, args)
        assert outcome.ok, outcome.text()
        return outcome.value

    def fails(self, key: str, name: str, args: dict[str, Any] | None, code: str) -> ToolOutcome:
        outcome = self(key, name, args)
        assert not outcome.ok and outcome.error is not None, outcome.text()
        assert outcome.error.code == code, outcome.text()
        return outcome


@pytest.fixture(scope="module")
def call(loop: LoopThread) -> Iterator[Caller]:
    host = Host(host_config(max_result_bytes=1_000_000, idle_timeout=600))
    loop.run(host.start())
    yield Caller(loop, host)
    loop.run(host.close())


def tab_count(call: Caller, key: str) -> int:
    return len(call.ok(key, "web_tabs", {})["tabs"])


def test_popups_and_new_pages_join_the_tab_list_and_can_be_acted_on(
    call: Caller, app: AppServer
) -> None:
    call.ok("tabs", "web_navigate", {"url": app.url("/page")})
    call.ok("tabs", "web_click", {"selector": "#blank"})
    wait_until(lambda: tab_count(call, "tabs") == 2, "the target=_blank tab")
    call.ok("tabs", "web_evaluate", {"script": f"window.open({app.url('/page2')!r}) && 1"})
    wait_until(lambda: tab_count(call, "tabs") == 3, "the window.open tab")
    call.ok("tabs", "web_context_newPage", {})
    tabs = wait_until(
        lambda: (t := call.ok("tabs", "web_tabs", {})["tabs"]) and len(t) == 4 and t, "newPage"
    )
    assert [t["current"] for t in tabs] == [True, False, False, False]
    # Act on the popup: select it, every tool runs there.
    call.ok("tabs", "web_tabs", {"action": "select", "index": 1})
    call.ok("tabs", "web_waitForLoadState", {})
    assert call.ok("tabs", "web_title", {}) == "second"
    assert call.ok("tabs", "web_textContent", {"selector": "#p"}) == "second page"
    # A new tab through web_tabs becomes current.
    listed = call.ok("tabs", "web_tabs", {"action": "new", "url": app.url("/page2")})["tabs"]
    assert len(listed) == 5 and listed[4]["current"] and listed[4]["title"] == "second"
    call.fails("tabs", "web_tabs", {"action": "select", "index": 9}, "invalid_argument")


def test_closing_the_last_tab_ends_the_session_and_the_next_call_says_so(call: Caller) -> None:
    call.ok("closing", "web_evaluate", {"script": "window.marker = 7"})
    assert call.ok("closing", "web_tabs", {"action": "new"})["tabs"][1]["current"]
    call.ok("closing", "web_close", {})  # closes the current (second) tab
    assert tab_count(call, "closing") == 1
    ended = call("closing", "web_tabs", {"action": "close"})
    assert ended.ok and ended.extras["session"]["ended"] is True
    assert "last tab was closed" in ended.extras["session"]["reason"]
    fresh = call("closing", "web_evaluate", {"script": "typeof window.marker"})
    assert fresh.value == "undefined"
    assert (
        fresh.extras["session"]["new"] is True and "last tab" in fresh.extras["session"]["reason"]
    )


def test_sessions_are_isolated(call: Caller, app: AppServer) -> None:
    for key in ("iso-a", "iso-b"):
        call.ok(key, "web_navigate", {"url": app.url("/page")})
    call.ok(
        "iso-a",
        "web_evaluate",
        {
            "script": "document.cookie = 'secret=a'; localStorage.k = 'a'; console.error('a-only'); 1"
        },
    )
    call.ok("iso-a", "web_route", {"url": "**/api/items*", "fulfill": {"json": {"mocked": "a"}}})
    call.ok("iso-a", "web_tabs", {"action": "new"})
    read = "document.cookie + '|' + localStorage.k"
    assert call.ok("iso-b", "web_evaluate", {"script": read}) == "|undefined"
    assert call.ok("iso-b", "web_console_messages", {})["messages"] == []
    assert call.ok("iso-b", "web_route_list", {})["routes"] == []
    assert tab_count(call, "iso-b") == 1
    fetch = f"fetch({app.url('/api/items')!r}).then(r => r.json())"
    assert call.ok("iso-b", "web_evaluate", {"script": fetch}) == {"items": [1, 2, 3]}
    call.ok("iso-a", "web_tabs", {"action": "select", "index": 0})
    assert call.ok("iso-a", "web_evaluate", {"script": fetch}) == {"mocked": "a"}
    assert call.ok("iso-a", "web_evaluate", {"script": read}) == "secret=a|a"
    a, b = call.host.sessions.get("iso-a"), call.host.sessions.get("iso-b")
    assert a is not None and b is not None and a.context is not b.context
    assert len(a.id) == 32 and a.id != b.id and int(a.id, 16) >= 0


def test_route_fulfill_abort_continue_list_and_unroute(call: Caller, app: AppServer) -> None:
    key = "routes"
    call.ok(key, "web_navigate", {"url": app.url("/page")})
    fetch = "fetch({!r}).then(r => r.status + ' ' + r.headers.get('content-type') + ' ' + r.statusText).catch(e => 'failed')"
    call.ok(
        key,
        "web_route",
        {
            "url": "**/api/items?mock",
            "fulfill": {"status": 201, "contentType": "text/x-mock", "body": "hi"},
        },
    )
    assert call.ok(
        key, "web_evaluate", {"script": fetch.format(app.url("/api/items?mock"))}
    ).startswith("201 text/x-mock")
    call.ok(
        key, "web_route", {"url": "**/api/items?abort", "abort": {"errorCode": "connectionrefused"}}
    )
    assert (
        call.ok(key, "web_evaluate", {"script": fetch.format(app.url("/api/items?abort"))})
        == "failed"
    )
    call.ok(
        key, "web_route", {"url": "**/api/items?cont", "continue": {"headers": {"x-routed": "yes"}}}
    )
    call.ok(key, "web_evaluate", {"script": fetch.format(app.url("/api/items?cont"))})
    assert app.headers_for("/api/items")[-1]["x-routed"] == "yes"
    routes = call.ok(key, "web_route_list", {})["routes"]
    assert [(r["url"], r["action"], r["hits"]) for r in routes] == [
        ("**/api/items?mock", "fulfill", 1),
        ("**/api/items?abort", "abort", 1),
        ("**/api/items?cont", "continue", 1),
    ]
    assert call.ok(key, "web_unroute", {"url": "**/api/items?mock"}) == {"removed": 1, "routes": 2}
    assert call.ok(
        key, "web_evaluate", {"script": fetch.format(app.url("/api/items?mock"))}
    ).startswith("200 application/json")
    call.fails(key, "web_route", {"url": "**", "abort": {}, "continue": {}}, "invalid_argument")
    call.fails(key, "web_route", {"url": "**", "abort": {"errorCode": "nope"}}, "invalid_argument")


def test_wait_for_response_network_requests(call: Caller, app: AppServer) -> None:
    key = "network"
    call.ok(key, "web_navigate", {"url": app.url("/page")})
    call.ok(key, "web_network_requests", {})  # start afresh
    call.ok(
        key,
        "web_evaluate",
        {
            "script": f"fetch({app.url('/api/missing')!r}).then(() => fetch({app.url('/api/items?x=1')!r})).then(() => fetch({app.url('/image.png')!r})).then(() => 1)"
        },
    )
    items = call.ok(key, "web_waitForResponse", {"url": "**/api/items*"})
    assert items["status"] == 200 and items["bodyEncoding"] == "text"
    assert (
        items["body"] == '{"items": [1, 2, 3]}'
        and items["headers"]["content-type"] == "application/json"
    )
    missing = call.ok(key, "web_waitForResponse", {"url": "**/api/*", "status": 404})
    assert missing["url"].endswith("/api/missing") and missing["body"] == '{"error": "missing"}'
    image = call.ok(key, "web_waitForResponse", {"url": "**/*.png"})
    assert image["bodyEncoding"] == "base64" and base64.b64decode(image["body"]).startswith(
        b"\x89PNG"
    )
    # Each response is returned once: a second wait for the same one times out.
    call.fails(key, "web_waitForResponse", {"url": "**/api/items*", "timeout": 300}, "timeout")
    # Act, then wait: a response that arrives after the wait began.
    call.ok(
        key,
        "web_evaluate",
        {"script": f"setTimeout(() => fetch({app.url('/api/items?late')!r}), 200); 1"},
    )
    assert (
        call.ok(key, "web_waitForResponse", {"url": "**/api/items?late", "timeout": 10000})[
            "status"
        ]
        == 200
    )
    call.ok(key, "web_route", {"url": "**/api/items?fail", "abort": {}})
    call.ok(
        key, "web_evaluate", {"script": f"fetch({app.url('/api/items?fail')!r}).catch(() => 0)"}
    )
    requests = call.ok(key, "web_network_requests", {})["requests"]
    by_url = {r["url"].removeprefix(app.base): r for r in requests}
    assert by_url["/api/missing"]["status"] == 404 and by_url["/api/missing"]["method"] == "GET"
    assert by_url["/image.png"]["resourceType"] == "fetch"
    assert by_url["/api/items?fail"]["failure"] and by_url["/api/items?fail"]["status"] is None
    assert call.ok(key, "web_network_requests", {})["requests"] == []  # since the last call


def test_dialogs_are_reported_block_and_are_answered(call: Caller, app: AppServer) -> None:
    key = "dialogs"
    call.ok(key, "web_navigate", {"url": app.url("/page")})
    clicked = call("dialogs", "web_click", {"selector": "#confirm"})
    assert clicked.ok and "interrupted" in clicked.extras
    assert clicked.extras["dialogs"] == [{"type": "confirm", "message": "Delete it?", "tab": 0}]
    blocked = call.fails(key, "web_title", {}, "dialog_open")
    assert "Delete it?" in blocked.error.message and blocked.extras["dialogs"]  # type: ignore[union-attr]
    answered = call.ok(key, "web_handle_dialog", {"accept": False})
    assert answered["handled"] == {"type": "confirm", "message": "Delete it?", "accepted": False}
    assert call.ok(key, "web_title", {}) == "confirm:false"
    # Armed for the next dialog: a prompt answered with text, reported as a note.
    assert call.ok(key, "web_handle_dialog", {"accept": True, "promptText": "Ada"})["armed"]
    prompted = call(key, "web_click", {"selector": "#prompt"})
    assert prompted.ok and prompted.extras["notes"][0]["type"] == "prompt"
    assert call.ok(key, "web_title", {}) == "prompt:Ada"


def test_console_messages_levels_page_errors_and_clearing(call: Caller, app: AppServer) -> None:
    key = "console"
    call.ok(key, "web_navigate", {"url": app.url("/page")})
    call.ok(
        key,
        "web_evaluate",
        {
            "script": "console.debug('d'); console.log('l'); console.warn('w'); console.error('e'); setTimeout(() => { throw new Error('uncaught boom') }); 1"
        },
    )
    call.ok(key, "web_waitForFunction", {"expression": "true"})
    everything = wait_until(
        lambda: (
            (
                m := call.ok(key, "web_console_messages", {"level": "debug", "keep": True})[
                    "messages"
                ]
            )
            and len(m) == 5
            and m
        ),
        "five console entries",
    )
    assert [(m["level"], m["text"].splitlines()[0]) for m in everything] == [
        ("debug", "d"),
        ("info", "l"),
        ("warning", "w"),
        ("error", "e"),
        ("error", "Error: uncaught boom"),
    ]
    assert everything[4]["type"] == "pageerror"
    errors = call.ok(key, "web_console_messages", {"level": "error"})["messages"]
    assert [m["text"].splitlines()[0] for m in errors] == ["e", "Error: uncaught boom"]
    assert call.ok(key, "web_console_messages", {"level": "debug"})["messages"] == []


def test_errors_are_results_with_codes(call: Caller) -> None:
    unknown = call.fails("errors", "web_clik", {"selector": "a"}, "unknown_tool")
    assert "did you mean web_click" in unknown.error.message  # type: ignore[union-attr]
    bad = call.fails(
        "errors", "web_setViewportSize", {"width": "wide", "height": 1}, "invalid_argument"
    )
    assert bad.error.path == "width"  # type: ignore[union-attr]
    call.fails("errors", "web_setViewportSize", {"width": 1}, "missing_argument")
    call.fails("errors", "web_tabs", {"verb": "list"}, "unknown_argument")
    call.fails(
        "errors", "web_click", {"selector": "#nothing-here", "timeout": 200}, "playwright_error"
    )
    call.fails("errors", "web_evaluate", {"script": "'x'.repeat(2000000)"}, "result_too_large")
    assert call.ok("errors", "web_evaluate", {"script": "1 + 1"}) == 2  # the session still works
    outcome = call.loop.run(
        call.host.call("errors", "web_title", {}, enabled=frozenset({"web_evaluate"}))
    )
    assert outcome.error is not None and outcome.error.code == "tool_not_enabled"


def test_a_crashed_tab_is_replaced(call: Caller, app: AppServer) -> None:
    key = "crash"
    call.ok(key, "web_navigate", {"url": app.url("/page")})
    call.ok(key, "web_tabs", {"action": "new", "url": app.url("/page2")})
    # chrome://crash is refused like every chrome: URL; the renderer is crashed through DevTools
    # while a call waits on it.
    pending = asyncio.run_coroutine_threadsafe(
        call.host.call(key, "web_evaluate", {"script": "new Promise(() => {})"}), call.loop.loop
    )
    session = wait_until(
        lambda: (s := call.host.sessions.get(key)) and s.inflight and s, "the call in flight"
    )
    call.loop.run(crash_renderer(session.context, session.current.page))
    crashed = pending.result(60)
    assert not crashed.ok and crashed.error is not None and crashed.error.code == "tab_crashed", (
        crashed.text()
    )
    after = call(key, "web_evaluate", {"script": "location.href"})
    assert after.ok and after.value == "about:blank", after.text()
    tabs = call.ok(key, "web_tabs", {})["tabs"]
    assert [t["url"] for t in tabs] == [app.url("/page"), "about:blank"] and tabs[1]["current"]


def test_idle_sessions_are_closed_and_the_limit_is_enforced(loop: LoopThread) -> None:
    host = Host(host_config(max_sessions=2, idle_timeout=30, dialog_policy="dismiss"))
    caller = Caller(loop, host)
    try:
        caller.ok("one", "web_evaluate", {"script": "window.keep = 1"})
        caller.ok("two", "web_evaluate", {"script": "1"})
        full = caller.fails("three", "web_evaluate", {"script": "1"}, "too_many_sessions")
        assert "--max-sessions" in full.error.message  # type: ignore[union-attr]
        # The "dismiss" policy answers a dialog at once and says so.
        dismissed = caller("two", "web_evaluate", {"script": "confirm('sure?')"})
        assert dismissed.value is False and dismissed.extras["notes"][0]["how"].startswith(
            "answered by the 'dismiss'"
        )
        # "one" stays busy-free; pretend 31 s passed: both sessions are reaped.
        assert loop.run(host.sessions.reap_idle(time.monotonic() + 31)) == 2
        assert len(host.sessions) == 0
        again = caller("one", "web_evaluate", {"script": "typeof window.keep"})
        assert again.value == "undefined" and "idle" in again.extras["session"]["reason"]
        caller.ok("three", "web_evaluate", {"script": "1"})
    finally:
        loop.run(host.close())


def test_host_descriptors_are_valid_and_the_host_never_imports_the_generator() -> None:
    for path in sorted(HOST_TOOLS_DIR.glob("*.tool.yaml")):
        descriptor = yaml.safe_load(path.read_text())
        jsonschema.Draft202012Validator.check_schema(descriptor["parameters"])
        assert descriptor["parameters"]["additionalProperties"] is False, path
        assert descriptor["name"] == path.name.removesuffix(".tool.yaml")
    for source in sorted((REPO / "host").rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n == "generator" or n.startswith("generator.") for n in names), source
