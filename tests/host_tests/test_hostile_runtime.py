"""Round three of the hostile catalogue, in process: what a hostile page, caller or careless model
does to `Host.call`, and what the host does instead of damage (docs/ERRORS.md, rows 133 on).

Every test drives real Chromium through `Host.call`; every wait is bounded and polled."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host.sessions.keys import SessionKey
from host.settings.limits import ArgumentLimits, check_arguments, json_safe
from host_tests.host_helpers import (
    HEADLESS_CHROMIUM,
    LoopThread,
    alive,
    chromium_pids,
    descendants,
    host_config,
    wait_until,
)
from host_tests.hostile_pages import HostilePages, start_hostile_pages

pytestmark = pytest.mark.browser


class Caller:
    """`Host.call` from the test's thread, with the checks every test makes."""

    def __init__(self, loop: LoopThread, host: Host) -> None:
        self.loop = loop
        self.host = host

    def __call__(self, key: str, name: str, args: Any = None, timeout: float = 120) -> ToolOutcome:
        return self.loop.run(self.host.call(key, name, {} if args is None else args), timeout)

    def ok(self, key: str, name: str, args: Any = None) -> Any:
        outcome = self(key, name, args)
        assert outcome.ok, outcome.text()
        return outcome.value

    def fails(self, key: str, name: str, args: Any, code: str) -> ToolOutcome:
        outcome = self(key, name, args)
        assert not outcome.ok and outcome.error is not None, outcome.text()
        assert outcome.error.code == code, outcome.text()
        return outcome

    def start(self, key: str, name: str, args: Any) -> Any:
        """Start a call without waiting for it (a concurrent future)."""
        return asyncio.run_coroutine_threadsafe(self.host.call(key, name, args), self.loop.loop)


@pytest.fixture(scope="module")
def pages() -> Iterator[HostilePages]:
    state, server = start_hostile_pages()
    yield state
    server.stop()


@contextlib.contextmanager
def running(loop: LoopThread, **settings: Any) -> Iterator[Caller]:
    host = Host(host_config(**settings))
    loop.run(host.start())
    try:
        yield Caller(loop, host)
    finally:
        loop.run(host.close(), 60)


@pytest.fixture(scope="module")
def call(loop: LoopThread) -> Iterator[Caller]:
    with running(loop, navigation_timeout=20) as caller:
        yield caller


# -- local files and other schemes ---------------------------------------------------------

BLOCKED_URLS = [
    "file:///etc/passwd",
    "FILE:///etc/passwd",
    "  file:///etc/passwd",
    "fi\tle:///etc/passwd",
    "file:/etc/passwd",
    "file:///",
    "view-source:file:///etc/passwd",
    "view-source:http://127.0.0.1:1/",
    "chrome://settings",
    "chrome://kill",
    "chrome://hang",
    "chrome://crash",
    "devtools://devtools/bundled/inspector.html",
    "javascript:document.title='x'",
    "filesystem:http://127.0.0.1/temporary/x",
    "chrome-extension://abc/page.html",
    "about:version",
    "ftp://127.0.0.1/x",
]
NAVIGATING = [
    ("navigate", lambda url: {"url": url}),
    ("web_navigate", lambda url: {"url": url}),
    ("web_tabs", lambda url: {"action": "new", "url": url}),
    ("webBrowser", lambda url: {"action": "navigate", "url": url}),
]


@pytest.mark.parametrize("url", BLOCKED_URLS)
def test_no_tool_opens_a_local_file_or_a_browser_page(
    call: Caller, pages: HostilePages, url: str
) -> None:
    key = "schemes"
    call.ok(key, "web_navigate", {"url": pages.url("/plain")})
    for tool, arguments in NAVIGATING:
        refused = call.fails(key, tool, arguments(url), "url_blocked")
        assert refused.error is not None and refused.error.path == "url"
        assert "--allow-file-dir" in refused.error.message
    # Nothing moved: the tab is where it was, and no tab was added.
    assert call.ok(key, "web_url") == pages.url("/plain")
    assert len(call.ok(key, "web_tabs")["tabs"]) == 1


def test_what_pages_may_open_still_opens(call: Caller, pages: HostilePages) -> None:
    key = "allowed"
    call.ok(key, "navigate", {"url": "data:text/html,<title>d</title>"})
    assert call.ok(key, "web_title") == "d"
    call.ok(key, "web_navigate", {"url": "about:blank"})
    call.ok(key, "web_setContent", {"html": "<iframe srcdoc='<p>inner</p>'></iframe>"})
    assert call.ok(key, "web_url") == "about:blank"


def test_pages_cannot_take_a_tab_to_a_local_file(call: Caller, pages: HostilePages) -> None:
    key = "landing"
    # A redirect to file: is refused by Chromium itself; nothing of the file is read.
    redirected = call(key, "web_navigate", {"url": pages.url("/to-file")})
    assert not redirected.ok and "root:" not in redirected.text()
    # window.open and location.href to file: from a page are refused by Chromium too.
    key = "landing-2"  # (the first tab is still settling on Chromium's error page)
    call.ok(key, "web_navigate", {"url": pages.url("/opens-file")})
    call.ok(key, "web_click", {"selector": "#go"})
    tabs = call.ok(key, "web_tabs")["tabs"]
    assert all(t["url"].startswith(("http:", "about:")) for t in tabs), tabs
    # A file: iframe in an http page never loads (the host's check is behind Chromium's).
    key = "landing-3"
    call.ok(key, "web_navigate", {"url": pages.url("/file-frame")})
    content = call.ok(key, "web_content")
    assert "root:" not in content


def test_allowed_file_directories_and_where_a_page_really_ended_up(
    loop: LoopThread, tmp_path: Path
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "page.html").write_text("<title>local</title><p>inside</p>")
    (allowed / "escape.html").write_text(
        "<title>escape</title><iframe src='file:///etc/hostname'></iframe>"
    )
    (allowed / "link").symlink_to("/etc/passwd")
    with running(loop, file_dirs=(allowed,)) as call:
        key = "files"
        call.ok(key, "navigate", {"url": (allowed / "page.html").as_uri()})
        assert call.ok(key, "web_title") == "local"
        call.ok(key, "web_navigate", {"url": allowed.as_uri() + "/"})  # its listing is inside
        for outside in (
            "file:///etc/passwd",
            (allowed / "link").as_uri(),
            f"file://{allowed}/../x",
        ):
            refused = call.fails(key, "navigate", {"url": outside}, "url_blocked")
            assert "outside the directories" in refused.text() or "file:" in refused.text()
        # A file page inside may frame a file outside: the call that showed it fails, and the
        # tab is taken back to about:blank before anything can read the frame.
        shown = call(key, "web_navigate", {"url": (allowed / "escape.html").as_uri()})
        assert not shown.ok and shown.error is not None and shown.error.code == "url_blocked"
        assert "/etc/hostname" in shown.error.message and "about:blank" in shown.error.message
        assert call.ok(key, "web_url") == "about:blank"


# -- session keys ------------------------------------------------------------------------------


def test_no_callers_string_names_another_callers_session(call: Caller, pages: HostilePages) -> None:
    host = call.host
    victim = SessionKey("script", "victim")
    attacker = SessionKey("script", "victim/agent:default")
    cookie = "document.cookie = 'secret=1; path=/'; document.cookie"
    agent = call.loop.run(
        host.call(victim, "webBrowser", {"action": "navigate", "url": pages.url("/plain")})
    )
    assert agent.ok, agent.text()
    assert call.loop.run(
        host.call(victim, "webBrowser", {"action": "evaluate", "value": cookie})
    ).ok
    stolen = call.loop.run(host.call(attacker, "web_navigate", {"url": pages.url("/plain")}))
    assert stolen.ok
    seen = call.loop.run(host.call(attacker, "web_evaluate", {"script": "document.cookie"}))
    assert seen.value == "", seen.text()
    assert victim.sub("default") != attacker and attacker.sub("default") != victim.sub("default")
    # Keys of different transports never meet, whatever their text.
    assert SessionKey("mcp", "x") != SessionKey("script", "x") != SessionKey("process", "x")


# -- arguments ---------------------------------------------------------------------------------


NESTED_40: Any = 1
for _ in range(40):
    NESTED_40 = [NESTED_40]


@pytest.mark.parametrize(
    ("tool", "arguments", "path", "words"),
    [
        ("web_click", {"selector": "#p", "timeout": 2e9}, "timeout", "at most 300000"),
        ("web_waitForTimeout", {"timeout": 2e9}, "timeout", "at most 300000"),
        ("web_waitForResponse", {"url": "**/x", "timeout": 2e9}, "timeout", "at most 300000"),
        ("wait_for", {"text": "x", "timeout": -1}, "timeout", "at least 0"),
        ("web_keyboard_type", {"text": "x", "delay": 1e9}, "delay", "at most 10000"),
        ("web_click", {"selector": "#p", "clickCount": 1e9}, "clickCount", "at most 10"),
        ("web_setViewportSize", {"width": 10**9, "height": 10}, "width", "at most 16384"),
        ("web_snapshot", {"depth": 0}, "depth", "at least 1"),
        ("web_snapshot", {"depth": -5}, "depth", "at least 1"),
        ("web_route", {"url": "**", "times": 0, "abort": {}}, "times", "at least 1"),
        ("select_option", {"target": "#s", "values": []}, "values", "at least 1"),
        ("web_evaluate", {"script": "1", "arg": NESTED_40}, "arg", "nested more than 32"),
        ("web_evaluate", {"script": "'\ud800'"}, "script", "lone surrogate"),
        ("web_fill", {"selector": "#\ud800", "value": "x"}, "selector", "lone surrogate"),
        ("web_evaluate", {"script": "1", "arg": float("nan")}, "arg", "JSON can carry"),
        ("web_navigate", {"url": "http://x/" + "a" * 3_000_000}, "url", "at most 2097152"),
    ],
)
def test_every_argument_is_bounded_before_the_browser(
    call: Caller, tool: str, arguments: dict[str, Any], path: str, words: str
) -> None:
    started = time.monotonic()
    refused = call.fails("bounds", tool, arguments, "invalid_argument")
    assert refused.error is not None and refused.error.path.startswith(path), refused.text()
    assert words in refused.error.message, refused.text()
    # Refused before any browser work: no session was needed, let alone a page.
    assert time.monotonic() - started < 10


def test_a_bad_tool_name_is_answered_and_never_echoed_raw(call: Caller) -> None:
    refused = call("names", "web_\ud800", {})
    assert refused.error is not None and refused.error.code == "invalid_argument"
    assert "\\ud800" in refused.error.message and "\ud800" not in refused.text()
    long = call("names", "x" * 10_000, {})
    assert long.error is not None and long.error.code == "unknown_tool" and len(long.text()) < 500


def test_argument_limits_walk_without_recursion() -> None:
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(Exception) as refused:
        check_arguments({"arg": deep}, ArgumentLimits())
    assert getattr(refused.value, "code", "") == "invalid_argument"
    assert json_safe({"a": [float("nan"), float("inf"), "x\ud800"]}) == {
        "a": [None, None, "x\ufffd"]
    }


# -- every call answered, the session usable --------------------------------------------------


def test_a_call_that_never_returns_is_abandoned_and_the_next_call_runs(loop: LoopThread) -> None:
    with running(loop, navigation_timeout=2) as call:
        key = "never"
        hanging = call.start(key, "web_evaluate", {"script": "new Promise(() => {})"})
        wait_until(lambda: (s := call.host.sessions.get(key)) and s.inflight, "the call to start")
        # The next call of the same session waits behind it only until its deadline.
        second = call.start(key, "web_evaluate", {"script": "6 * 7"})
        first = hanging.result(60)
        assert first.error is not None and first.error.code == "timeout", first.text()
        assert "abandoned" in first.error.message
        after = second.result(60)
        assert after.ok and after.value == 42, after.text()


def test_a_script_looping_in_the_page_is_stopped(loop: LoopThread, pages: HostilePages) -> None:
    with running(loop, navigation_timeout=2) as call:
        key = "busy"
        call.ok(
            key, "web_navigate", {"url": pages.url("/busy"), "timeout": 30_000}
        )  # launch included
        looped = call(key, "web_evaluate", {"script": "while (true) {}"})
        assert looped.error is not None and looped.error.code == "timeout", looped.text()
        # The same tab answers again: the loop was stopped through its DevTools session.
        assert call.ok(key, "web_title") == "busy"
        assert "tab_hung" not in looped.text()


def test_a_tab_that_stops_answering_is_replaced(loop: LoopThread, pages: HostilePages) -> None:
    with running(loop, navigation_timeout=2) as call:
        key = "frozen"
        call.ok(
            key, "web_navigate", {"url": pages.url("/sync-wait"), "timeout": 30_000}
        )  # launch included
        frozen = call(key, "web_evaluate", {"script": "document.getElementById('go').click()"})
        assert frozen.error is not None and frozen.error.code == "timeout", frozen.text()
        notes = frozen.extras.get("notes") or []
        after = call(key, "web_url", {})
        notes += after.extras.get("notes") or []
        assert after.ok and after.value == "about:blank", after.text()
        assert any(n.get("event") == "tab_hung" for n in notes), notes
        assert call.ok(key, "web_evaluate", {"script": "1 + 2"}) == 3


def test_a_page_that_closes_its_last_tab_mid_navigation(call: Caller, pages: HostilePages) -> None:
    key = "self-closing"
    call.ok(key, "web_navigate", {"url": pages.url("/opener")})
    call.ok(key, "web_evaluate", {"script": "document.cookie = 'kept=1'; 1"})
    call.ok(key, "web_click", {"selector": "#go"})
    wait_until(lambda: len(call.ok(key, "web_tabs")["tabs"]) == 2, "the popup")
    call.ok(key, "web_tabs", {"action": "select", "index": 1})
    call.ok(key, "web_tabs", {"action": "close", "index": 0})  # the popup is the last tab now
    call.ok(key, "web_click", {"selector": "#arm"})
    # The navigation waits for its slow answer when the page closes its tab.
    answered = call(key, "web_navigate", {"url": pages.url("/slow")}, timeout=60)
    assert answered.error is not None and answered.error.code == "tab_closed", answered.text()
    after = call(key, "web_navigate", {"url": pages.url("/plain")})
    assert after.ok, after.text()
    notes = (answered.extras.get("notes") or []) + (after.extras.get("notes") or [])
    assert any(n.get("event") == "tab_closed_by_page" for n in notes), notes
    # The session lives on (its cookie too): only the tab was new.
    assert "kept=1" in call.ok(key, "web_evaluate", {"script": "document.cookie"})


def test_a_dead_driver_is_replaced_for_every_session(loop: LoopThread, pages: HostilePages) -> None:
    others = chromium_pids(descendants(os.getpid()))
    with running(loop) as call:
        for key in ("d1", "d2"):
            call.ok(key, "web_navigate", {"url": pages.url("/plain")})
        pending = [
            call.start(key, "web_evaluate", {"script": "new Promise(() => {})"})
            for key in ("d1", "d2")
        ]
        wait_until(
            lambda: all((s := call.host.sessions.get(k)) and s.inflight for k in ("d1", "d2")),
            "calls in flight",
        )
        browsers = chromium_pids(descendants(os.getpid())) - others
        assert len(browsers) == 1
        os.kill(driver_pid(call.host), signal.SIGKILL)
        for future in pending:
            outcome = future.result(60)
            assert outcome.error is not None and outcome.error.code == "driver_crashed", (
                outcome.text()
            )
        assert call.loop.run(call.host.pool.probe()) is not None
        for key in ("d1", "d2", "d3"):
            again = call(key, "web_navigate", {"url": pages.url("/plain")})
            assert again.ok, again.text()
        assert call.host.pool.driver_starts == 2 and call.loop.run(call.host.pool.probe()) is None
        wait_until(lambda: not any(alive(p) for p in browsers), "the old browser to exit")


def driver_pid(host: Host) -> int:
    playwright = host.pool._playwright
    assert playwright is not None
    return int(playwright._impl_obj._connection._transport._proc.pid)  # type: ignore[attr-defined]


def test_a_browser_that_hangs_at_launch_is_bounded(loop: LoopThread, tmp_path: Path) -> None:
    marker = tmp_path / "hang"
    marker.touch()
    wrapper = tmp_path / "chromium"
    wrapper.write_text(
        f'#!/bin/sh\nif [ -e "{marker}" ]; then exec sleep 600; fi\nexec {HEADLESS_CHROMIUM} "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    with running(loop, executable_path=str(wrapper), launch_timeout=2.0) as call:
        started = time.monotonic()
        first = call("launch", "web_title", {})
        assert first.error is not None and first.error.code == "browser_unavailable", first.text()
        assert time.monotonic() - started < 30
        marker.unlink()
        wait_until(
            lambda: call("launch", "web_title", {}).ok, "a launch once the browser starts", 60
        )


# -- results -----------------------------------------------------------------------------------


def test_results_are_json_every_encoder_accepts(call: Caller) -> None:
    key = "json"
    assert call.ok(key, "web_evaluate", {"script": "[NaN, Infinity, -Infinity, 1]"}) == [
        None,
        None,
        None,
        1,
    ]
    text = call.ok(key, "evaluate", {"expression": "'a' + String.fromCharCode(0xd800) + 'b'"})
    assert text == "a\ufffdb"
    call.ok(key, "web_evaluate", {"script": "document.title = String.fromCharCode(0xdc00)"})
    assert call.ok(key, "web_title") == "\ufffd"


def test_huge_results_are_refused_in_the_page(call: Caller, pages: HostilePages) -> None:
    key = "huge"
    for tool, arguments in (
        ("web_evaluate", {"script": "'x'.repeat(100 * 1024 * 1024)"}),
        ("evaluate", {"expression": "() => 'x'.repeat(100 * 1024 * 1024)"}),
        ("webBrowser", {"action": "evaluate", "value": "'x'.repeat(100 * 1024 * 1024)"}),
        ("web_evaluate", {"script": "Array.from({length: 3e6}, (_, i) => i)"}),
    ):
        started = time.monotonic()
        refused = call.fails(key, tool, arguments, "result_too_large")
        assert "measured in the page" in refused.text()
        assert time.monotonic() - started < 30  # never carried through: no 150 s transfer
    call.ok(key, "web_navigate", {"url": pages.url("/huge-dom")})
    call.fails(key, "web_content", {}, "result_too_large")
    call.fails(key, "web_innerHTML", {"selector": "#root"}, "result_too_large")
    # What is small still comes back; get_text is cut in the page.
    assert call.ok(key, "web_textContent", {"selector": ".item >> nth=3"}) == "item 3"
    text = call.ok(key, "get_text", {})
    assert text["truncated"] is True and len(text["text"]) == 10_000


# -- floods ------------------------------------------------------------------------------------


def test_a_console_flood_stays_in_the_page(call: Caller, pages: HostilePages) -> None:
    key = "flood"
    call.ok(key, "web_navigate", {"url": pages.url("/console-flood")})
    messages = wait_until(
        lambda: (m := call.ok(key, "web_console_messages", {"keep": True}))["dropped"] > 0 and m,
        "the dropped count",
    )
    assert messages["dropped"] >= 90_000 and len(messages["messages"]) <= 1000
    # Another session is untouched, and a new one starts.
    assert call.ok("bystander", "web_evaluate", {"script": "1 + 1"}) == 2
    call.loop.run(call.host.end_session(key))


@pytest.mark.parametrize(
    ("page", "sent"),
    [("/worker-flood", 100_000), ("/nested-worker-flood", 100_000), ("/error-flood", 20_000)],
)
def test_floods_from_workers_and_errors_stay_in_the_page(
    call: Caller, pages: HostilePages, page: str, sent: int
) -> None:
    key = "worker" + page.replace("/", "-")
    call.ok(key, "web_navigate", {"url": pages.url(page)})
    messages = wait_until(
        lambda: (
            (m := call.ok(key, "web_console_messages", {"keep": True}))["dropped"] >= sent - 1000
            and m
        ),
        "the dropped count",
    )
    # The first ones within the limit a second did get through; the rest stayed in the page.
    assert 100 <= len(messages["messages"]) <= 1000
    call.loop.run(call.host.end_session(key))  # its page stops: later tests share this host


def test_a_worker_looping_before_its_guard_lands_is_limited(
    call: Caller, pages: HostilePages
) -> None:
    call.ok("worker-loop", "web_navigate", {"url": pages.url("/worker-loop")})
    title = wait_until(
        lambda: (t := call.ok("worker-loop", "web_title", {})).startswith("limited") and t,
        "the looping worker limited",
    )
    assert title.startswith("limited after "), title
    call.loop.run(call.host.end_session("worker-loop"))  # later tests share this host


def test_a_flood_that_bypasses_the_page_limit_is_not_listened_to(
    loop: LoopThread, pages: HostilePages
) -> None:
    # The page sends 20,000 network events; how many reach the host in a second depends on how
    # busy the machine is (two test workers on two cores), so the host's threshold here is one
    # every machine passes: the mechanism is under test, not the default figure.
    with running(loop, navigation_timeout=20, event_flood=300) as call:
        key = "request-flood"
        notes = call(key, "web_navigate", {"url": pages.url("/request-flood")}).extras.get("notes")
        seen = list(notes or [])

        def paused() -> bool:
            seen.extend(call(key, "web_network_requests").extras.get("notes") or [])
            return any(n.get("kind") == "network" for n in seen)

        wait_until(paused, "the flood note")
        assert call.ok("bystander", "web_evaluate", {"script": "2 + 2"}) == 4


def test_popup_and_dialog_floods_are_capped(loop: LoopThread, pages: HostilePages) -> None:
    with running(loop, max_tabs=8, dialog_policy="accept") as call:
        key = "popups"
        call.ok(key, "web_navigate", {"url": pages.url("/popups")})
        notes = call(key, "web_click", {"selector": "#go"}).extras.get("notes") or []

        def refused() -> bool:
            notes.extend(call(key, "web_tabs").extras.get("notes") or [])
            return any(n.get("event") == "tab_refused" for n in notes)

        wait_until(refused, "popups past the limit to be refused")
        assert len(call.ok(key, "web_tabs")["tabs"]) <= 8
        dialogs = "dialogs"
        call.ok(dialogs, "web_navigate", {"url": pages.url("/dialogs")})
        flooded = call(dialogs, "web_click", {"selector": "#go"})
        seen = flooded.extras.get("notes") or []

        def left_open() -> bool:
            outcome = call(dialogs, "web_tabs")
            seen.extend(outcome.extras.get("notes") or [])
            return bool(outcome.extras.get("dialogs"))

        wait_until(left_open, "the dialog left open")
        assert any(n.get("kind") == "dialog" for n in seen), seen
        answered = [n for n in seen if n.get("event") == "dialog"]
        # Answered by the policy up to 20 a second (how many seconds the flood lasts depends on
        # the machine), then left open.
        assert 0 < len(answered) < 200


def test_pages_cannot_reach_the_hosts_own_port(
    loop: LoopThread, call: Caller, pages: HostilePages
) -> None:
    target, server = start_hostile_pages()  # stands for the host's own endpoint
    try:
        port = int(target.base.rsplit(":", 1)[1])

        def post(caller: Caller, key: str, host: str) -> ToolOutcome:
            return caller(
                key,
                "web_evaluate",
                {
                    "script": f"fetch('http://{host}:{port}/callback', {{method: 'POST', "
                    "mode: 'no-cors', body: 'x'}).then(() => 'sent', () => 'blocked')"
                },
            )

        # Without the guard the request arrives (so the check below means something).
        call.ok("unguarded", "web_navigate", {"url": pages.url("/plain")})
        assert post(call, "unguarded", "127.0.0.1").value == "sent"
        wait_until(lambda: "POST /callback" in target.seen, "the unguarded request")
        target.seen.clear()
        with running(loop, guarded_ports=(port,)) as guarded:
            key = "guarded"
            guarded.ok(key, "web_navigate", {"url": pages.url("/plain")})
            notes: list[Any] = []
            for host in ("127.0.0.1", "localhost", "127.0.0.1.", "2130706433", "0x7f.1", "0.0.0.0"):
                outcome = post(guarded, key, host)
                assert outcome.ok and outcome.value == "blocked", (host, outcome.text())
                notes += outcome.extras.get("notes") or []
            assert target.seen == [], target.seen
            assert any(n.get("event") == "request_blocked" for n in notes), notes
    finally:
        server.stop()
