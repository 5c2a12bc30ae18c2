"""The executor's shortcuts, in process on a real browser: counts taken ahead and what happens
when the page changed since, one read of the page for title and excerpt, an action's session
closing without opening a tab, sessions made ahead of the actions that take them, dialogs
answered by Playwright's driver (the session is sent none), tabs that hold no file chooser and
get a DevTools session only with a worker (a page whose script never ends is left to the
action's limit), a Playwright failure named without a traceback (the service's tasks carry a
fixed stack), and the service's own port refused by the browser itself."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import http.server
import json
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar
from urllib.parse import quote

import pytest
from conftest import HEADLESS_CHROMIUM
from local_server import LocalServer, serve
from playwright._impl._connection import Connection
from playwright.async_api import BrowserContext

from host.calls.core import Host
from host.executor.service import ExecutorService
from host.executor.settings import ExecutorSettings
from host.sessions.keys import SessionKey
from host_executor.helpers import PageServer, wait_until

pytestmark = pytest.mark.browser

T = TypeVar("T")
# Short enough that a step waiting for an element that went away ends soon, long enough for a
# fill on a loaded two-core machine.
SETTINGS = ExecutorSettings(
    engines=("chromium",),
    executable_path=HEADLESS_CHROMIUM,
    step_timeout_ms=5_000,
    max_concurrent=2,
)


class Loop:
    """One event loop in a thread: a service lives on the loop it started on."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(180)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class InProcess:
    def __init__(self, settings: ExecutorSettings = SETTINGS) -> None:
        self.loop = Loop()
        self.service = ExecutorService(settings)
        self.loop.run(self.service.start())

    def execute(self, payload: dict[str, object]) -> tuple[int, dict[str, Any]]:
        body = json.dumps(payload).encode()
        return self.loop.run(self.service.execute(body, "application/json"))

    def close(self) -> None:
        self.loop.run(self.service.close())
        self.loop.close()


@pytest.fixture(scope="module")
def executor() -> Iterator[InProcess]:
    service = InProcess()
    yield service
    service.close()


def sign_up(pages: PageServer, name: str, path: str = "/form") -> dict[str, object]:
    """The action that fills the name form at `path` with `name` and submits it."""
    return {
        "url": pages.url(path),
        "fields": [{"selector": "[name=name]", "value": name}],
        "submit": {"selector": "#go"},
    }


def first_attempt(body: dict[str, Any], step: str) -> tuple[object, ...]:
    attempt = next(a for a in body["attempts"] if a["step"] == step)
    return attempt["attempt"], attempt["outcome"], attempt["matched"]


@pytest.mark.parametrize(
    ("page", "second", "outcome", "matched"),
    [
        # The second field's selector matched one element when counted, two when acted on.
        ("/grow", ".b", "ambiguous", 2),
        # ... or none: its element went away in between.
        ("/vanish", "#b", "not_found", 0),
    ],
)
def test_a_selector_whose_matches_changed_since_they_were_counted_is_judged_again(
    executor: InProcess, pages: PageServer, page: str, second: str, outcome: str, matched: int
) -> None:
    status, body = executor.execute(
        {
            "url": pages.url(page),
            "fields": [{"selector": "#a", "value": "x"}, {"selector": second, "value": "y"}],
        }
    )
    assert body["fields"][0]["filled"] is True, body
    assert first_attempt(body, "fields[1]") == (0, outcome, matched), (status, body)


def test_an_excerpt_in_a_child_frame_comes_with_the_pages_own_title(
    executor: InProcess, pages: PageServer
) -> None:
    status, body = executor.execute(
        {
            "url": pages.url("/framed"),
            "snapshot_selector": "iframe >> internal:control=enter-frame >> #x",
        }
    )
    assert status == 200, body
    assert body["title"] == "outer"
    assert body["excerpt"]["html"] == '<p id="x">in frame</p>'
    assert body["excerpt"]["fallback"] is False


def test_dialogs_nobody_answers_are_dismissed_and_a_leave_prompt_lets_the_submit_go(
    executor: InProcess, pages: PageServer
) -> None:
    # An action's session is sent no dialog (host/executor/action_session.py): Playwright's
    # driver dismisses each as it opens, as the executor's `dismiss` policy did, and accepts the
    # page's "leave this page?", so the submit navigates.
    status, body = executor.execute(
        {"url": pages.url("/dialogs"), "submit": {"selector": "#send"}, "snapshot_selector": "#out"}
    )
    assert status == 200, body
    assert body["excerpt"]["html"] == '<p id="out">confirm false, prompt null</p>', body
    status, body = executor.execute(sign_up(pages, "Ada", "/leave"))
    assert status == 200, body
    assert body["title"] == "Welcome Ada", body


def test_a_file_chooser_a_page_opens_does_not_hold_the_action(
    executor: InProcess, pages: PageServer
) -> None:
    status, body = executor.execute(
        {
            "url": pages.url("/chooser"),
            "fields": [{"selector": "#name", "value": "x"}],
            "submit": {"selector": "#go"},
        }
    )
    assert status == 200 and body["title"] == "chose x", body


def test_a_playwright_failure_still_names_its_call_without_a_traceback(
    executor: InProcess, pages: PageServer
) -> None:
    # `requestSubmit` on an element outside any form fails in the page: each attempt says so.
    status, body = executor.execute(
        {"url": pages.url("/drift"), "submit": {"selector": "#out", "kind": "submit"}}
    )
    assert status == 422, body
    detail = body["attempts"][0]["detail"]
    assert "Locator.evaluate: Error: the submit selector is not a form" in detail, detail
    assert "Traceback" not in json.dumps(body) and ".py" not in json.dumps(body)


def test_an_action_subscribes_to_no_event_of_the_driver(
    executor: InProcess, pages: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each subscription is a message to Playwright's driver per session or tab; an action's
    # session takes no dialog and no file chooser, and follows no console or network events.
    sent: list[tuple[str, object]] = []
    send = Connection._send_message_to_server

    def counted(self: Connection, owner: Any, method: str, params: Any, *rest: Any) -> Any:
        sent.append((method, params.get("event") if isinstance(params, dict) else None))
        return send(self, owner, method, params, *rest)

    monkeypatch.setattr(Connection, "_send_message_to_server", counted)
    status, body = executor.execute(sign_up(pages, "Ada"))
    assert status == 200 and body["title"] == "Welcome Ada", body
    assert ("fill", None) in sent  # the count saw the action's own messages
    assert [event for method, event in sent if method == "updateSubscription"] == []
    # Nor is its tab given a DevTools session: the page starts no worker.
    assert "newCDPSession" not in {method for method, _ in sent}


def test_an_actions_tab_gets_a_devtools_session_once_its_page_starts_a_worker(
    executor: InProcess, pages: PageServer
) -> None:
    # Late, the worker guard still limits a worker that floods the console from its first
    # statement: it pauses the worker where it is and puts the limiter in.
    host = executor.service.engines.host
    assert host is not None
    key = SessionKey("executor", "worker-guard")

    async def run() -> tuple[object, object, str]:
        await host.sessions.prepare(key)
        session = host.sessions.get(key)
        assert session is not None
        try:
            tab = session.tabs[0]
            await tab.page.goto(pages.url("/form"))
            without_worker = tab.cdp
            await tab.page.goto(pages.url("/worker"))
            await tab.page.wait_for_function("document.title.startsWith('limited')", timeout=60_000)
            return without_worker, tab.cdp, await tab.page.title()
        finally:
            await host.sessions.drop(key, "the test ended")

    without_worker, with_worker, title = executor.loop.run(run())
    assert without_worker is None and with_worker is not None, (without_worker, with_worker)
    assert title.startswith("limited after "), title


@pytest.mark.parametrize("page", ["/spin", "/spin-load"])
def test_an_action_on_a_page_whose_script_never_ends_is_answered_and_the_next_runs(
    executor: InProcess, pages: PageServer, page: str
) -> None:
    # Nothing stops the page's script (the tab has no DevTools session without a worker): the
    # action ends at its limit, its session closes with the renderer still busy, the next runs.
    status, body = executor.execute(
        {"url": pages.url(page), "fields": [{"selector": "#a", "value": "x"}], "timeout_ms": 3000}
    )
    assert status == 504 and body["error"]["code"] == "timeout", body
    wait_until(
        lambda: executor.service.sandbox()["sessions_open"] == 0, "the action's session closed"
    )
    status, body = executor.execute(sign_up(pages, "Ada"))
    assert status == 200 and body["title"] == "Welcome Ada", body


def test_an_actions_session_closes_without_opening_a_tab(
    pages: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = InProcess()
    opened: list[object] = []
    new_page = BrowserContext.new_page

    async def counted(self: BrowserContext, *args: Any, **kwargs: Any) -> Any:
        opened.append(self)
        return await new_page(self, *args, **kwargs)

    monkeypatch.setattr(BrowserContext, "new_page", counted)
    try:
        status, body = service.execute(
            {"url": pages.url("/form"), "fields": [{"selector": "[name=name]", "value": "Ada"}]}
        )
        assert status == 200, body
    finally:
        # Waits for the action's session to close, then closes the browser.
        service.close()
    # One tab per context: the action's own (or the next action's, made ahead); none in the
    # action's context while it closed.
    assert opened and len({id(c) for c in opened}) == len(opened)


@contextlib.contextmanager
def one_made_ahead() -> Iterator[tuple[InProcess, Host]]:
    """A service of its own, once its first session made ahead is ready."""
    service = InProcess()
    try:
        host = service.service.engines.host
        assert host is not None
        ahead = service.service.ahead
        wait_until(lambda: ahead.count(host) == 1, "the first session made ahead")
        yield service, host
    finally:
        service.close()


def test_each_action_takes_a_session_made_ahead(pages: PageServer) -> None:
    with one_made_ahead() as (service, host):
        ahead = service.service.ahead
        made = host.sessions.created
        for name in ("Ada", "Bob"):
            status, body = service.execute(sign_up(pages, name))
            assert status == 200 and body["title"] == f"Welcome {name}", body
        wait_until(lambda: ahead.count(host) == 1, "the next session made ahead")
        # One session made per action, ahead of it: none made by the action itself.
        assert host.sessions.created == made + 2
        wait_until(lambda: service.service.sandbox()["sessions_open"] == 0, "the actions closed")
        assert service.service.sandbox()["sessions_ahead"] == 1


def test_a_session_made_ahead_on_a_browser_since_lost_is_not_handed_over(
    pages: PageServer,
) -> None:
    with one_made_ahead() as (service, host):
        (stale,) = host.sessions.sessions()
        browser = host.pool.connected
        assert browser is not None
        # The browser goes away (as when it crashed); the pool launches a new one on demand.
        service.loop.run(browser.close())
        wait_until(lambda: host.pool.connected is None, "the browser's loss noticed")
        status, body = service.execute({"url": pages.url("/form")})
        assert status == 200, body
        assert host.pool.connected is not browser
        wait_until(lambda: stale not in host.sessions.sessions(), "the stale session dropped")
        assert stale.ended is not None


def sink() -> tuple[LocalServer, list[str]]:
    """A server that records every request it gets (standing in for the service's own port)."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    return serve(Handler), hits


def test_no_request_of_a_page_reaches_a_guarded_port(pages: PageServer) -> None:
    guarded, guarded_hits = sink()
    other, other_hits = sink()
    port = int(guarded.origin.rsplit(":", 1)[1])
    service = InProcess(dataclasses.replace(SETTINGS, guarded_ports=(port,)))
    try:
        assert f"--host-rules=MAP *:{port} ~NOTFOUND" in service.service.sandbox()["sandbox_flags"]
        for origin in (guarded.origin, other.origin):
            # Images, a script, a frame, a stylesheet, fetch, a beacon and a worker's fetch.
            status, body = service.execute(
                {"url": pages.url(f"/embed?url={quote(origin)}/x"), "snapshot_selector": "#done"}
            )
            assert status == 200, body
        for url in (
            f"{guarded.origin}/direct",
            f"http://localhost:{port}/by-name",
            pages.url(f"/redirect?url={quote(guarded.origin)}/redirected"),
        ):
            status, body = service.execute({"url": url})
            assert status == 502 and body["error"]["code"] == "navigation_failed", body
        status, body = service.execute({"url": other.origin + "/direct"})
        assert status == 200, body
    finally:
        service.close()
        guarded.stop()
        other.stop()
    assert guarded_hits == []
    assert other_hits  # the page did make its requests; only the guarded port saw none
