"""Round four of the hostile catalogue against the executor service (docs/ERRORS.md, rows 199
on): no field of `POST /execute` gets a 5xx, whatever it holds."""

from __future__ import annotations

import pytest
from host_tests.test_hostile_round4 import abused_bodies

from host_executor.helpers import ExecutorProcess

pytestmark = pytest.mark.browser


def test_no_field_of_an_action_gets_a_5xx(service: ExecutorProcess) -> None:
    # A URL the service refuses (after every field is validated): nothing reaches a browser.
    action = {
        "url": "ftp://127.0.0.1/refused",
        "fields": [{"selector": "#user", "value": "x", "redact": True}],
        "submit": {"selector": "#go", "kind": "click", "wait_after_ms": 0},
        "snapshot_selector": "body",
        "timeout_ms": 1000,
    }
    failures = []
    tried = 0
    for name, body in abused_bodies(action):
        reply = service.request("POST", "/execute", body, {"content-type": "application/json"})
        tried += 1
        if reply.status >= 500:
            failures.append((name, reply.status, reply.raw[:200]))
    assert tried > 150
    assert failures == []
