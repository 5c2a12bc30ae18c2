"""The executor against hostile pages and careless callers (issue 21, item 7), over HTTP with
real Chromium: every spelling of a secret, the URL policy where requests are made, a dead
driver, and what happens past capacity.

Three services: the conftest's (the control, and the one whose driver is killed), one with an
origin allow-list, one with one slot and one queue place. The last test stops them and searches
every byte they emitted.
"""

from __future__ import annotations

import http.server
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from local_server import LocalServer, serve

from host_executor.helpers import (
    ExecutorProcess,
    PageServer,
    Reply,
    process_tree,
    wait_until,
)

pytestmark = pytest.mark.browser

# `~` is kept by Python's quoting and not by a browser's form encoding (%7E); `é` is one byte in
# windows-1252 (%E9); `中` is not in windows-1252 at all (the browser sends `&#20013;`, encoded).
SPELLED_SECRET = "S3cr~é中-q7Zk"
FRAGMENTS = ("S3cr", "q7Zk", "%7E", "%E9", "20013", "中", "é", "%C3%A9", "%E4%B8%AD")


@pytest.fixture(scope="module")
def away() -> Iterator[list[str]]:
    """Another origin (another port): every request it receives is recorded."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            body = b"<title>away</title>"
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET

        def log_message(self, *args: object) -> None:
            pass

    server: LocalServer = serve(Handler)
    seen.append(server.origin)  # seen[0] is the origin; requests follow
    yield seen
    server.stop()


@pytest.fixture(scope="module")
def guarded(pages: PageServer) -> Iterator[ExecutorProcess]:
    process = ExecutorProcess("--allow-url-origin", pages.base, "--bind", "127.0.0.1:0")
    yield process
    process.stop()


@pytest.fixture(scope="module")
def small() -> Iterator[ExecutorProcess]:
    process = ExecutorProcess("--max-concurrent", "1", "--max-queue", "1", "--bind", "127.0.0.1:0")
    yield process
    process.stop()


def visible(reply: Reply) -> str:
    """The answer as a reader sees it (JSON escapes undone), plus its raw bytes."""
    return json.dumps(reply.body, ensure_ascii=False) + reply.raw.decode(errors="replace")


@pytest.mark.parametrize(
    ("page", "sent"),
    [
        ("/form-1252", "pw=S3cr%7E%E9%26%2320013%3B-q7Zk"),
        ("/form-utf8", "pw=S3cr%7E%C3%A9%E4%B8%AD-q7Zk"),
    ],
)
def test_a_secret_is_redacted_in_every_spelling_the_browser_makes(
    service: ExecutorProcess, pages: PageServer, page: str, sent: str
) -> None:
    reply = service.execute(
        {
            "url": pages.url(page),
            "fields": [{"selector": "input[name=pw]", "value": SPELLED_SECRET, "redact": True}],
            "submit": {"selector": "#go"},
            "snapshot_selector": "body",
        }
    )
    assert reply.status == 200, reply.body
    # The page really received the browser's spelling (not Python's) and echoed it, encoded
    # and decoded: the URL, the title and the excerpt each held a form of the secret.
    assert any(path.endswith(sent) for path in pages.seen), pages.seen[-3:]
    assert reply.body["url"].endswith("pw=REDACTED")
    assert "REDACTED" in reply.body["title"]
    assert reply.body["excerpt"]["html"].count("REDACTED") >= 2, reply.body["excerpt"]
    text = visible(reply)
    for fragment in FRAGMENTS:
        assert fragment not in text, fragment


def test_a_redirect_to_an_origin_not_allowed_never_reaches_it(
    guarded: ExecutorProcess, pages: PageServer, away: list[str]
) -> None:
    before = len(away)
    reply = guarded.execute({"url": pages.url(f"/redirect?url={away[0]}/landing")})
    assert reply.status == 400, reply.body
    assert reply.body["error"]["code"] == "url_refused"
    assert len(away) == before, away[before:]
    assert guarded.get("/healthz").body["proxy_refusals"] >= 1


def test_subresources_to_an_origin_not_allowed_never_reach_it(
    guarded: ExecutorProcess, service: ExecutorProcess, pages: PageServer, away: list[str]
) -> None:
    embed = pages.url(f"/embed?url={away[0]}/sub")
    before = len(away)
    reply = guarded.execute({"url": embed, "snapshot_selector": "#done"})
    assert reply.status == 200, reply.body
    assert reply.body["excerpt"]["html"] == '<p id="done">embedded</p>'
    assert len(away) == before, away[before:]
    # The control: without an allow-list the same page does reach the other origin.
    control = service.execute({"url": embed, "snapshot_selector": "#done"})
    assert control.status == 200, control.body
    wait_until(lambda: len(away) > before, "the control's subresource requests")


def driver_of(service: ExecutorProcess) -> int:
    for pid in process_tree(service.process.pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if b"run-driver" in handle.read():
                    return pid
        except OSError:
            continue
    raise AssertionError("no Playwright driver below the service")


def test_a_killed_driver_is_reported_and_replaced(
    service: ExecutorProcess, pages: PageServer
) -> None:
    before = service.get("/healthz").body
    key = f"driver{time.monotonic_ns()}"
    running: list[Reply] = []
    worker = threading.Thread(
        target=lambda: running.append(
            service.execute({"url": pages.url(f"/hold?key={key}"), "timeout_ms": 60_000})
        )
    )
    worker.start()
    wait_until(lambda: any(key in path for path in pages.seen), "the action to reach the page")
    driver = driver_of(service)
    os.kill(driver, signal.SIGKILL)
    worker.join(90)
    pages.hold(key).set()
    (reply,) = running
    assert reply.status == 502, reply.body
    assert reply.body["error"]["code"] == "driver_crashed"
    health = service.get("/healthz")
    assert health.status == 200, health.body
    assert health.body["driver_starts"] == before["driver_starts"] + 1
    assert health.body["last_loss"] == "Playwright's driver exited"
    assert driver_of(service) != driver
    following = service.execute({"url": pages.url("/drift"), "snapshot_selector": "#out"})
    assert following.status == 200, following.body


def test_past_capacity_requests_get_503_with_retry_after_never_504(
    small: ExecutorProcess, pages: PageServer
) -> None:
    key = f"capacity{time.monotonic_ns()}"
    holder = ThreadPoolExecutor(max_workers=1)
    first = holder.submit(
        small.execute, {"url": pages.url(f"/hold?key={key}"), "timeout_ms": 60_000}
    )
    try:
        wait_until(lambda: any(key in path for path in pages.seen), "the first action to run")
        with ThreadPoolExecutor(max_workers=4) as pool:
            # One waits in the queue (its half-time patience is 2 s); three find it full.
            queued = pool.submit(small.execute, {"url": pages.url("/drift"), "timeout_ms": 4000})
            wait_until(lambda: small.get("/healthz").body["waiting"] == 1, "the queue to fill")
            refused = list(
                pool.map(
                    lambda _: small.execute({"url": pages.url("/drift"), "timeout_ms": 4000}),
                    range(3),
                )
            )
            late = queued.result(60)
        # Every one of them came back while the first still held the only slot.
        assert not first.done()
    finally:
        pages.hold(key).set()
    for reply in [*refused, late]:
        assert reply.status == 503, reply.body
        assert reply.body["error"]["code"] == "busy"
        assert reply.headers.get("retry-after", "").isdigit(), reply.headers
    assert "within half" in late.body["error"]["message"]
    assert first.result(60).status == 200
    holder.shutdown()
    assert small.execute({"url": pages.url("/drift")}).status == 200


def test_zz_nothing_secret_in_what_the_services_emitted(
    service: ExecutorProcess, guarded: ExecutorProcess, small: ExecutorProcess
) -> None:
    for process in (service, guarded, small):
        assert process.stop() == 0
    emitted = service.emitted().decode(errors="replace")
    for fragment in ("S3cr", "q7Zk"):
        assert fragment not in emitted
    for process in (service, guarded, small):
        assert b"Traceback" not in process.emitted()
