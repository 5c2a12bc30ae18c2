"""`Host.call` takes its steps in order: a call refused by its check starts nothing.

A call is checked (tool on, arguments within bounds and schema, URLs allowed) before it is placed
in a session: a refused call launches no browser and creates no session (no BrowserContext).
The host's browser is a program that fails the test if it is ever started.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from host.calls.core import Host
from host.sessions.keys import SessionKey
from host_tests.host_helpers import LoopThread, host_config

# An in-process Host (its "browser" is a script that only leaves a marker): counted with the
# browser tests, as tests/test_lanes.py counts every module that makes a Host.
pytestmark = [pytest.mark.browser]

KEY = SessionKey("stdio", "stdio")
DEEP: object = 1
for _ in range(80):  # deeper than the host's argument limits allow
    DEEP = [DEEP]

REFUSED = [
    ("web_title", {"unknown": 1}, "unknown_argument"),
    ("web_navigate", {"url": "file:///etc/passwd"}, "url_blocked"),
    ("browser_execute_python", {"code": "1"}, "tool_disabled"),
    ("no_such_tool", {}, "unknown_tool"),
    ("web_evaluate", {"script": "1", "arg": DEEP}, "invalid_argument"),
]


@pytest.mark.parametrize(
    ("tool", "args", "code"), REFUSED, ids=[r[2] + "-" + r[0] for r in REFUSED]
)
def test_a_call_refused_by_its_check_starts_no_browser_and_no_session(
    loop: LoopThread, tmp_path: Path, tool: str, args: dict[str, object], code: str
) -> None:
    started = tmp_path / "started"
    browser = tmp_path / "chromium"
    browser.write_text(f'#!/bin/sh\ntouch "{started}"\nexit 1\n')
    browser.chmod(browser.stat().st_mode | stat.S_IEXEC)
    host = Host(host_config(executable_path=str(browser)))
    try:
        loop.run(host.start())
        outcome = loop.run(host.call(KEY, tool, args))
        assert outcome.error is not None and outcome.error.code == code, outcome.text()
        assert host.sessions.created == 0 and len(host.sessions) == 0
        assert host.pool.launches == 0 and not started.exists()
    finally:
        loop.run(host.close(), 60)
