"""Round five of the hostile catalogue (issue 42; docs/ERRORS.md, rows H5P...): a slow page is never
taken for a dead one, and a runaway regular expression in a target is stopped at the action
timeout. A snapshot that outlasts its budget on a page of 50,000 elements and a
navigation to a server that accepts and never answers each answer a clear error (or, under
`--snapshot-mode full`, an action's result that says why its snapshot was left out) and leave the
tab where it was: the same page object, its URL, and a marker the test set in it.

Real Chromium through `Host.call`; the page server is the test's own, and its never-answering
route is released when the module ends."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from local_server import LocalServer, PageHandler, serve

from host.sessions.tab import Tab
from host_tests.host_helpers import LoopThread
from host_tests.test_hostile_runtime import Caller, running

pytestmark = pytest.mark.browser

ELEMENTS = 50_000
PAGES = {
    "/start": "<title>start</title><p>start</p>",
    # 50,000 buttons, built by the page itself (a 2 MB document is not the point).
    "/many": "<title>many</title><div id=root></div><script>"
    "const parts = [];"
    f"for (let i = 0; i < {ELEMENTS}; i++) parts.push('<button id=b' + i + '>button ' + i + '</button>');"
    "document.getElementById('root').innerHTML = parts.join('');</script>",
    # Text on which /(a+)+$/ backtracks without end (2^40 ways to split the a's).
    "/backtrack": "<title>backtrack</title><p>" + "a" * 40 + "!</p><button>go</button>",
}


class Pages:
    """The test's page server: `/hang` accepts the request and never answers until `release`."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.hanging = 0
        pages = self

        class Handler(PageHandler):
            def do_GET(self) -> None:
                if self.path == "/hang":
                    pages.hanging += 1
                    pages.release.wait(600)
                    return
                body = PAGES.get(self.path)
                if body is None:
                    self._send(404, "text/plain", b"")
                    return
                self._send(200, "text/html; charset=utf-8", body.encode())

        self.server: LocalServer = serve(Handler)

    def url(self, path: str) -> str:
        return self.server.origin + path

    def stop(self) -> None:
        self.release.set()  # the hanging handlers return, so the server's threads end
        self.server.stop()


@pytest.fixture(scope="module")
def pages() -> Iterator[Pages]:
    served = Pages()
    yield served
    served.stop()


def _current(call: Caller, key: str) -> Tab:
    session = call.host.sessions.get(key)
    assert session is not None and session.current is not None
    return session.current


def _mark(call: Caller, key: str, url: str) -> tuple[Tab, Any]:
    """Open `url`, set a marker in the page; the tab and its page object."""
    call.ok(key, "web_navigate", {"url": url, "timeout": 60_000})
    call.ok(key, "web_evaluate", {"script": "window.marker = 'still here'; 1"})
    tab = _current(call, key)
    return tab, tab.page


def _still_there(call: Caller, key: str, tab: Tab, page: Any, url: str) -> None:
    """The same tab, page object, URL and marker; the next call answers."""
    now = _current(call, key)
    assert now is tab and now.page is page and not page.is_closed()
    assert call.ok(key, "web_evaluate", {"script": "[location.href, window.marker]"}) == [
        url,
        "still here",
    ]


@pytest.mark.parametrize("tool", ["web_navigate", "browser_navigate"])
def test_a_navigation_to_a_server_that_never_answers_leaves_the_tab_where_it_was(
    loop: LoopThread, pages: Pages, tool: str
) -> None:
    with running(loop, navigation_timeout=3) as call:
        key = "hang-" + tool
        start = pages.url("/start")
        tab, page = _mark(call, key, start)
        hanging = pages.hanging
        answered = call(key, tool, {"url": pages.url("/hang")})
        assert pages.hanging > hanging  # the server did accept it
        assert answered.error is not None, answered.text()
        assert answered.error.code == "timeout", answered.text()
        assert "it was stopped and the tab stays on " + start in answered.error.message
        assert not answered.extras.get("notes"), answered.extras  # nothing was replaced
        _still_there(call, key, tab, page, start)


@pytest.fixture(scope="module")
def slow_snapshots(loop: LoopThread) -> Iterator[Caller]:
    # A short action timeout: the snapshot of 50,000 elements takes minutes, far past it. The
    # call deadline (navigation timeout + 5 s) stays above it, so a page left busy would make the
    # next call time out rather than pass.
    with running(loop, action_timeout=3, navigation_timeout=20) as call:
        yield call


def test_a_snapshot_that_outlasts_its_budget_is_a_clear_error_and_the_tab_stays(
    slow_snapshots: Caller, pages: Pages
) -> None:
    call, key, url = slow_snapshots, "huge-snapshot", pages.url("/many")
    tab, page = _mark(call, key, url)
    answered = call(key, "browser_snapshot", {})
    assert answered.error is not None and answered.error.code == "timeout", answered.text()
    assert "did not give its snapshot within 3 s" in answered.error.message
    assert "the tab is where it was" in answered.error.message
    assert not answered.extras.get("notes"), answered.extras
    # The snapshot's script was stopped in the page: the next call answers, in the same tab.
    _still_there(call, key, tab, page, url)
    # The generated snapshot tool, likewise (a timeout of Playwright's, classified by the core).
    generated = call(key, "web_ariaSnapshot", {})
    assert generated.error is not None, generated.text()
    assert not generated.extras.get("notes"), generated.extras
    _still_there(call, key, tab, page, url)


def test_under_snapshot_mode_full_an_action_says_why_its_snapshot_was_left_out(
    loop: LoopThread, pages: Pages
) -> None:
    with running(loop, action_timeout=3, navigation_timeout=20, snapshot_mode="full") as call:
        key, url = "full-mode", pages.url("/many")
        tab, page = _mark(call, key, url)
        clicked = call(key, "browser_click", {"target": "#b7"})
        assert clicked.ok, clicked.text()
        value = clicked.value
        assert isinstance(value, dict) and "snapshot" not in value, clicked.text()
        assert "did not give its snapshot within 3 s" in value["snapshotOmitted"]
        assert "snapshot left out: the page did not give its snapshot" in clicked.text()
        assert not clicked.extras.get("notes"), clicked.extras
        _still_there(call, key, tab, page, url)


def test_a_regular_expression_in_locator_code_is_stopped_at_the_action_timeout(
    loop: LoopThread, pages: Pages
) -> None:
    # The call deadline (25 s) is far above the action timeout (2 s): a page left blocked by the
    # regular expression would make the next call time out at its deadline.
    with running(loop, action_timeout=2, navigation_timeout=20) as call:
        key, url = "regex", pages.url("/backtrack")
        tab, page = _mark(call, key, url)
        answered = call(key, "browser_click", {"target": "getByText(/(a+)+$/)"})
        assert answered.error is not None and answered.error.code == "timeout", answered.text()
        assert answered.error.path == "target"
        assert "regular expression was stopped in the page" in answered.error.message
        assert not answered.extras.get("notes"), answered.extras
        _still_there(call, key, tab, page, url)
