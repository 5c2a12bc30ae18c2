"""Playwright browser servers for the pool tests: `chromium.launchServer` of the pinned
playwright-core (Node), and the Python package's `playwright run-server`."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from host.settings.config import DEFAULT_BROWSER_ARGS
from host_tests.host_helpers import HEADLESS_CHROMIUM, PYTHON, REPO

PLAYWRIGHT_CORE = REPO / "node_modules" / "playwright-core"

LAUNCH_SERVER = REPO / "scripts" / "launch-server.js"


class BrowserServer:
    """`chromium.launchServer` of playwright-core in a Node process group of its own."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [
                "node",
                str(LAUNCH_SERVER),
                str(PLAYWRIGHT_CORE),
                HEADLESS_CHROMIUM,
                json.dumps(list(DEFAULT_BROWSER_ARGS)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        assert line.startswith("ws://"), f"the browser server did not start: {line!r}"
        self.ws = line

    def kill(self) -> None:
        """Kill the server and its browser at once, as a machine that goes away would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)


def needs_node() -> None:
    if not PLAYWRIGHT_CORE.is_dir():
        pytest.skip("node_modules/playwright-core is not installed")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_server(port: int) -> subprocess.Popen[str]:
    """`playwright run-server --unsafe` (the Python package's driver) on `port`, listening."""
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "playwright"),
            *("run-server", "--host", "127.0.0.1", "--port", str(port), "--unsafe"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert server.stdout is not None
    assert "Listening on" in server.stdout.readline()
    return server


def kill(server: subprocess.Popen[str]) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(30)
