"""The executor over HTTP against Chromium: actions, redaction, drift, limits, concurrency, crashes.

One service for the whole module; the last test stops it and searches every byte it emitted.
"""

from __future__ import annotations

import html
import http.client
import importlib.metadata
import json
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote, quote_plus

import pytest

from host_executor.helpers import (
    SECRET,
    ExecutorProcess,
    PageServer,
    chromium_processes,
    wait_until,
)

pytestmark = pytest.mark.browser


def form_action(pages: PageServer, name: str, secret: str = SECRET) -> dict[str, object]:
    return {
        "url": pages.url("/form"),
        "fields": [
            {"selector": "[data-testid=full-name]", "value": name},
            {"selector": "input[name=email]", "value": f"{name.lower()}@example.org"},
            {"selector": "input[type=password]", "value": secret, "redact": True},
        ],
        "submit": {"selector": "#go"},
        "snapshot_selector": "body",
    }


def test_healthz_and_sandbox(service: ExecutorProcess) -> None:
    health = service.get("/healthz")
    assert health.status == 200, health.body
    assert health.body["ok"] is True
    assert health.body["browser"]["connected"] is True
    assert health.body["browser"]["engine"] == "chromium"
    # The Python playwright the project pins (the allowlist's version), as installed.
    assert health.body["versions"]["playwright"] == importlib.metadata.version("playwright")
    assert health.body["versions"]["browser"]
    sandbox = service.get("/sandbox").body
    assert sandbox["browser"]["headless"] is True
    assert sandbox["browser"]["engine"] == "chromium"
    assert sandbox["browser"]["processes"] >= 1
    assert sandbox["browser"]["uids"] == [os.geteuid()]
    assert "--no-sandbox" in sandbox["sandbox_flags"]
    assert sandbox["chromium_sandbox"] is False
    assert sandbox["sessions_open"] == 0


def test_a_form_is_filled_submitted_and_the_secret_redacted(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute(form_action(pages, "Ada"))
    assert reply.status == 200, reply.body
    body = reply.body
    assert body["ok"] is True
    assert body["title"] == "Welcome Ada"
    assert body["url"].startswith(pages.url("/welcome?name=Ada&email=ada%40example.org&pw="))
    # The GET form put the password in the URL and the page echoed it: both scrubbed.
    assert body["url"].endswith("pw=REDACTED")
    assert "pw=REDACTED" in body["excerpt"]["html"]
    assert "Hello Ada" in body["excerpt"]["html"]
    assert body["fields"] == [
        {
            "selector": "[data-testid=full-name]",
            "selector_used": "[data-testid=full-name]",
            "filled": True,
            "redacted": False,
            "value": "Ada",
        },
        {
            "selector": "input[name=email]",
            "selector_used": "input[name=email]",
            "filled": True,
            "redacted": False,
            "value": "ada@example.org",
        },
        {
            "selector": "input[type=password]",
            "selector_used": "input[type=password]",
            "filled": True,
            "redacted": True,
            "value": "REDACTED",
        },
    ]
    assert body["submit"] == {
        "selector": "#go",
        "selector_used": "#go",
        "kind": "click",
        "done": True,
    }
    assert [a["outcome"] for a in body["attempts"]] == ["done"] * 4
    assert body["retries"] == 0
    for form in (SECRET, quote(SECRET, safe=""), quote_plus(SECRET), "Tr0ub4dor&amp;3"):
        assert form.encode() not in reply.raw


def test_submit_kind_submit_calls_request_submit(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute(
        {
            "url": pages.url("/js-submit"),
            "fields": [{"selector": "input[name=q]", "value": "hello"}],
            "submit": {"selector": "#send", "kind": "submit"},
            "snapshot_selector": "#out",
        }
    )
    assert reply.status == 200, reply.body
    # requestSubmit runs the page's submit handler (form.submit() would not), with its submitter.
    assert reply.body["excerpt"]["html"] == '<p id="out">submitted by send with hello</p>'
    assert reply.body["url"] == pages.url("/js-submit")


def test_a_submit_is_read_back_once_what_it_set_off_has_run(
    service: ExecutorProcess, pages: PageServer
) -> None:
    # The click starts a request that the server answers only once the test releases it, a
    # second after it arrived; the page is read back after its answer, not before (issue 45:
    # the executor's submit settles on evidence, as an agent's click does).
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(
            service.execute,
            {
                "url": pages.url("/late-submit"),
                "submit": {"selector": "#send"},
                "snapshot_selector": "#out",
            },
        )
        wait_until(
            lambda: any(p.startswith("/hold?key=late") for p in pages.seen), "the held request", 60
        )
        time.sleep(1.0)  # the submit has long returned: only its settle still waits
        pages.hold("late").set()
        reply = running.result(90)
    assert reply.status == 200, reply.body
    assert reply.body["excerpt"]["html"] == '<p id="out">answered late</p>'


def test_the_excerpt_is_sanitised_and_falls_back_to_body(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute({"url": pages.url("/dirty"), "snapshot_selector": "#not-there"})
    assert reply.status == 200, reply.body
    excerpt = reply.body["excerpt"]
    assert excerpt["selector"] == "body" and excerpt["fallback"] is True
    text = excerpt["html"]
    assert "visible text" in text and 'href="/form"' in text
    for gone in ("<script", "leaked", "<style", "color", "onclick", "onmouseover", "steal"):
        assert gone not in text
    for gone in ("csrf-abc123", "draft words", "javascript:"):
        assert gone not in text
    assert excerpt["removed"] >= 8


def retry_events(service: ExecutorProcess, action_id: str) -> list[dict[str, object]]:
    return [e for e in service.events("executor_web.retry") if e["action"] == action_id]


def test_drifted_selectors_are_found_after_logged_backoffs(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute(
        {
            "url": pages.url("/drift"),
            "fields": [
                {"selector": "#email", "value": "x@example.org"},
                {"selector": "input[name=user_name]", "value": "grace"},
            ],
            "submit": {"selector": "#submit"},
            "snapshot_selector": "#out",
        }
    )
    assert reply.status == 200, reply.body
    body = reply.body
    assert [f["selector_used"] for f in body["fields"]] == [
        '[data-testid="email-input"]',
        'input[name="userName"]',
    ]
    assert body["submit"]["selector_used"] == '[data-testid="submit-btn"]'
    assert body["excerpt"]["html"] == '<p id="out">sent grace</p>'
    assert body["retries"] == 3
    assert [(a["step"], a["attempt"], a["outcome"], a["delay_ms"]) for a in body["attempts"]] == [
        ("fields[0]", 0, "not_found", 0),
        ("fields[0]", 1, "done", 200),
        ("fields[1]", 0, "not_found", 0),
        ("fields[1]", 1, "done", 200),
        ("submit", 0, "not_found", 0),
        ("submit", 1, "done", 200),
    ]
    events = retry_events(service, body["action_id"])
    assert [(e["step"], e["attempt"], e["delay_ms"]) for e in events] == [
        ("fields[0]", 1, 200),
        ("fields[1]", 1, 200),
        ("submit", 1, 200),
    ]
    assert events[0]["candidates_left"] == ['[data-testid="email-input"]']
    # The delays are the service's to choose; the test only checks they were really waited.
    assert reply.elapsed >= sum(e["delay_ms"] for e in events) / 1000  # type: ignore[misc]


def test_a_late_element_is_found_by_its_own_selector_on_a_retry(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute(
        {"url": pages.url("/late"), "fields": [{"selector": "#late-field", "value": "v"}]}
    )
    assert reply.status == 200, reply.body
    attempts = reply.body["attempts"]
    assert attempts[0]["outcome"] == "not_found"
    assert attempts[-1]["outcome"] == "done" and attempts[-1]["selector"] == "#late-field"
    assert reply.body["fields"][0]["selector_used"] == "#late-field"
    events = retry_events(service, reply.body["action_id"])
    assert [e["delay_ms"] for e in events] == [200, 400, 800][: len(events)]
    assert [e["candidates_left"] for e in events] == [[]] * len(events)
    assert reply.elapsed >= sum(e["delay_ms"] for e in events) / 1000  # type: ignore[misc]


def test_exhausted_selectors_report_every_selector_tried(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute(
        {"url": pages.url("/ambiguous"), "fields": [{"selector": "#e-mail", "value": "v"}]}
    )
    assert reply.status == 422, reply.body
    error = reply.body["error"]
    assert error["code"] == "SelectorsExhausted"
    assert error["path"] == "fields[0].selector"
    assert error["retries"] == 3
    assert error["tried"] == [
        "#e-mail",
        'input[name="email"]',
        'input[aria-label="email"]',
        '[data-testid="email"]',
    ]
    outcomes = [(a["attempt"], a["outcome"], a["delay_ms"]) for a in reply.body["attempts"]]
    assert outcomes == [
        (0, "not_found", 0),
        (1, "ambiguous", 200),
        (2, "ambiguous", 400),
        (3, "ambiguous", 800),
    ]
    events = retry_events(service, reply.body["action_id"])
    assert [e["attempt"] for e in events] == [1, 2, 3]
    assert [e["delay_ms"] for e in events] == [200, 400, 800]
    assert [len(e["candidates_left"]) for e in events] == [3, 2, 1]  # type: ignore[arg-type]
    assert reply.elapsed >= 1.4
    assert reply.body["fields"][0]["filled"] is False


def test_selectors_handed_back_have_pii_hashed(service: ExecutorProcess, pages: PageServer) -> None:
    reply = service.execute(
        {
            "url": pages.url("/pii"),
            "fields": [{"selector": '[name="jane.doe@example.com"]', "value": "v"}],
        }
    )
    assert reply.status == 200, reply.body
    field = reply.body["fields"][0]
    assert field["selector"].startswith('[name="{email:') and field["selector"].endswith('}"]')
    assert field["selector_used"].startswith("#acct-{digits:")
    events = retry_events(service, reply.body["action_id"])
    # The excerpt is the page's own content; every selector (and every log event) is checked.
    handed_back = {k: v for k, v in reply.body.items() if k != "excerpt"}
    for text in (json.dumps(handed_back), json.dumps(events)):
        assert "jane.doe@example.com" not in text and "12345678" not in text


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ([], "$"),
        ({}, "url"),
        ({"url": 5}, "url"),
        ({"url": "http://a.test/", "colour": "red"}, "colour"),
        ({"url": "http://a.test/", "fields": {}}, "fields"),
        ({"url": "http://a.test/", "fields": [{"selector": "#a"}]}, "fields[0].value"),
        ({"url": "http://a.test/", "fields": [{"value": "v"}]}, "fields[0].selector"),
        (
            {
                "url": "http://a.test/",
                "fields": [
                    {"selector": "#a", "value": "v"},
                    {"selector": "#b", "value": "v", "redact": "yes"},
                ],
            },
            "fields[1].redact",
        ),
        (
            {"url": "http://a.test/", "fields": [{"selector": "", "value": "v"}]},
            "fields[0].selector",
        ),
        ({"url": "http://a.test/", "fields": [{"selector": "#a", "value": 3}]}, "fields[0].value"),
        ({"url": "http://a.test/", "submit": {"selector": "#s", "kind": "tap"}}, "submit.kind"),
        (
            {"url": "http://a.test/", "submit": {"selector": "#s", "wait_after_ms": -1}},
            "submit.wait_after_ms",
        ),
        ({"url": "http://a.test/", "submit": {"kind": "click"}}, "submit.selector"),
        ({"url": "http://a.test/", "submit": {"selector": "#s", "extra": 1}}, "submit.extra"),
        ({"url": "http://a.test/", "snapshot_selector": 1}, "snapshot_selector"),
        ({"url": "http://a.test/", "timeout_ms": True}, "timeout_ms"),
    ],
)
def test_invalid_payloads_name_the_field(
    service: ExecutorProcess, payload: object, path: str
) -> None:
    reply = service.execute(payload)
    assert reply.status == 400, reply.body
    assert reply.body["error"]["code"] == "invalid_payload"
    assert reply.body["error"]["path"] == path


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b"{not json", "application/json"),
        (b'{"url": "http://a.test/", "url": "http://b.test/"}', "application/json"),
        (b'{"url": "http://a.test/", "timeout_ms": NaN}', "application/json"),
        (b'{"url": "http://a.test/"}', "text/plain"),
        (b"\xff\xfe", "application/json"),
    ],
)
def test_bodies_that_are_not_one_json_object_are_refused(
    service: ExecutorProcess, body: bytes, kind: str
) -> None:
    reply = service.request("POST", "/execute", body, {"content-type": kind})
    assert reply.status == 400, reply.body
    assert reply.body["error"] == {**reply.body["error"], "code": "invalid_payload", "path": "$"}


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html,<p>x</p>",
        "ftp://127.0.0.1/",
        "/relative/path",
        "//127.0.0.1/scheme-relative",
        "http://user:pass@127.0.0.1/",
        "http://127.0.0.1\\@evil.example/",
        " http://127.0.0.1/",
        "http:///no-host",
    ],
)
def test_urls_outside_the_policy_are_refused(service: ExecutorProcess, url: str) -> None:
    reply = service.execute({"url": url})
    assert reply.status == 400, reply.body
    assert reply.body["error"]["code"] == "url_refused"
    assert reply.body["error"]["path"] == "url"


def test_oversized_payloads_are_refused_before_parsing(service: ExecutorProcess) -> None:
    big = json.dumps(
        {"url": "http://a.test/", "fields": [{"selector": "#a", "value": "x" * 300_000}]}
    )
    reply = service.request("POST", "/execute", big.encode(), {"content-type": "application/json"})
    assert reply.status == 413
    assert reply.body["error"]["code"] == "payload_too_large"
    # A chunked body announces no length: it is cut off once it grows past the limit.
    connection = http.client.HTTPConnection(service.host, service.port, timeout=30)
    chunks = iter([b"{" + b" " * 65536] * 8)
    connection.request(
        "POST",
        "/execute",
        body=chunks,
        headers={"content-type": "application/json"},
        encode_chunked=True,
    )
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    service.responses.append(raw)
    assert response.status == 413
    assert json.loads(raw)["error"]["code"] == "payload_too_large"


def test_other_hosts_and_methods_get_json_errors(service: ExecutorProcess) -> None:
    misdirected = service.get("/healthz", headers={"host": "evil.example"})
    assert misdirected.status == 421
    assert service.get("/execute").status == 405
    assert service.get("/execute").body["error"]["code"] == "method_not_allowed"
    assert service.get("/nothing").body["error"]["code"] == "not_found"


def test_a_page_that_never_loads_ends_in_the_action_timeout(
    service: ExecutorProcess, pages: PageServer
) -> None:
    reply = service.execute({"url": pages.url("/hang?n=timeout"), "timeout_ms": 1500})
    assert reply.status == 504, reply.body
    assert reply.body["error"]["code"] == "timeout"
    # At least the limit, and well under the 30 s default a run that ignored it would take.
    assert 1.5 <= reply.elapsed < 25
    assert service.execute({"url": pages.url("/drift")}).status == 200


def test_50_concurrent_actions_each_get_their_own_result(
    service: ExecutorProcess, pages: PageServer
) -> None:
    names = [f"User{n:02d}" for n in range(50)]
    with ThreadPoolExecutor(max_workers=50) as pool:
        # 50 browser contexts at once on two cores: generous limits, correctness is the point.
        replies = list(
            pool.map(
                lambda name: service.execute({**form_action(pages, name), "timeout_ms": 120_000}),
                names,
            )
        )
    for name, reply in zip(names, replies, strict=True):
        assert reply.status == 200, (reply.body.get("error"), reply.body.get("attempts"))
        assert reply.body["title"] == f"Welcome {name}"
        assert f"Hello {name}<" in reply.body["excerpt"]["html"]
        assert reply.body["fields"][1]["value"] == f"{name.lower()}@example.org"
        assert SECRET.encode() not in reply.raw
    assert len({r.body["action_id"] for r in replies}) == 50
    wait_until(lambda: service.get("/sandbox").body["sessions_open"] == 0, "sessions to close", 120)


def test_a_browser_killed_mid_action_fails_that_action_and_the_next_succeeds(
    service: ExecutorProcess, pages: PageServer
) -> None:
    launches = service.get("/healthz").body["browser"]["launches"]
    result: list[object] = []
    marker = f"/hang?n=crash{time.monotonic_ns()}"
    worker = threading.Thread(
        target=lambda: result.append(
            service.execute({"url": pages.url(marker), "timeout_ms": 60_000})
        )
    )
    worker.start()
    wait_until(lambda: marker in pages.seen, "the action to reach the page")
    browsers = [
        pid
        for pid, cmdline in chromium_processes(service.process.pid).items()
        if not any(arg.startswith(b"--type=") for arg in cmdline)
    ]
    assert len(browsers) == 1
    os.kill(browsers[0], signal.SIGKILL)
    worker.join(60)
    (reply,) = result
    assert reply.status == 502, reply.body  # type: ignore[attr-defined]
    assert reply.body["error"]["code"] == "browser_crashed"  # type: ignore[attr-defined]
    following = service.execute(form_action(pages, "After"))
    assert following.status == 200, following.body
    assert following.body["title"] == "Welcome After"
    health = service.get("/healthz").body
    assert health["browser"]["connected"] is True
    assert health["browser"]["launches"] == launches + 1


def test_zz_no_redacted_value_in_any_byte_the_service_emitted(
    service: ExecutorProcess,
) -> None:
    """Last: stop the service (flushing its logs), then search stdout, stderr and every response."""
    assert service.stop() == 0
    emitted = service.emitted()
    assert len(emitted) > 10_000  # the transcript really holds the run
    forms = {
        SECRET,
        quote(SECRET, safe=""),
        quote_plus(SECRET),
        json.dumps(SECRET)[1:-1],
        html.escape(SECRET, quote=False),
        html.escape(SECRET, quote=True),
    }
    for form in forms:
        assert form.encode() not in emitted, form
    # Nor its distinctive start, as a cut inside it would leave.
    assert SECRET[:10].encode() not in emitted
    assert b"REDACTED" in emitted
    assert b"Traceback" not in emitted
