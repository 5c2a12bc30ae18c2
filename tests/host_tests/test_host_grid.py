"""`--browser-endpoint selenium+http://HUB:PORT`: a real Selenium Grid 4 (`scripts/grid.sh up`,
one node driving Debian's chromium through Debian's chromedriver) serving the host's sessions,
while a host beside it still launches its own browser (the hub's address reaches only the
driver of the Selenium endpoint). Marked `grid`: it fetches the grid through mvn once."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.calls.core import Host
from host_tests.host_helpers import (
    AppServer,
    LoopThread,
    alive,
    chromium_pids,
    descendants,
    host_config,
    wait_until,
)

pytestmark = [pytest.mark.grid, pytest.mark.filterwarnings("ignore::ResourceWarning")]

REPO = Path(__file__).resolve().parents[2]
GRID = REPO / "scripts" / "grid.sh"


def _grid(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(GRID), *args],
        env={**os.environ, "GRID_STATE": str(state), "GRID_MAX_SESSIONS": "2"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The hub's URL and the grid's state folder; the grid is stopped afterwards, by its PIDs."""
    if not Path("/usr/bin/chromedriver").exists():
        pytest.fail("chromium-driver is not installed: run scripts/setup.sh --with-test-tools")
    state = tmp_path_factory.mktemp("grid") / "state"
    started = _grid(state, "up", "1")
    assert started.returncode == 0, started.stderr[-3000:]
    url = started.stdout.strip().splitlines()[-1]
    assert url.startswith("http://127.0.0.1:")
    try:
        yield url, state
    finally:
        pids = [int(p.read_text()) for p in state.glob("*.pid")]
        stopped = _grid(state, "down")
        assert stopped.returncode == 0, stopped.stderr
        assert not state.exists()
        assert not any(alive(pid) for pid in pids), "grid.sh down left a grid process running"


def _sessions(hub_url: str) -> int:
    """Sessions the hub's nodes hold now."""
    with urllib.request.urlopen(hub_url + "/status", timeout=10) as response:
        value: Any = json.load(response)["value"]
    return sum(1 for node in value["nodes"] for slot in node["slots"] if slot.get("session"))


def test_a_page_driven_through_a_one_node_grid(hub: tuple[str, Path], app: AppServer) -> None:
    hub_url, state = hub
    node = int((state / "node-1.pid").read_text())
    loop = LoopThread()
    grid_host = Host(host_config(browser_endpoints=(f"selenium+{hub_url}",)))
    local_host = Host(host_config())
    try:
        outcome = loop.run(grid_host.call("agent", "web_navigate", {"url": app.url("/page")}))
        assert outcome.ok, outcome.text()
        title = loop.run(grid_host.call("agent", "web_title", {}))
        assert title.ok and title.text() == loop.run(_local_title(local_host, app))
        # The browser is the grid node's (a child of its chromedriver), and the hub holds it.
        assert chromium_pids(descendants(node)), "no chromium under the grid node"
        assert _sessions(hub_url) == 1
        # The local host launched its own browser: the hub's address never left the endpoint's
        # driver (os.environ untouched), so the grid still holds one session, not two.
        assert "SELENIUM_REMOTE_URL" not in os.environ
        assert chromium_pids(descendants(os.getpid())) - chromium_pids(descendants(node))
        assert _sessions(hub_url) == 1
        loop.run(grid_host.close())
        wait_until(lambda: _sessions(hub_url) == 0, "the hub's session ended with the host")
    finally:
        loop.run(grid_host.close())
        loop.run(local_host.close())
        loop.close()


async def _local_title(host: Host, app: AppServer) -> str:
    outcome = await host.call("local", "web_navigate", {"url": app.url("/page")})
    assert outcome.ok, outcome.text()
    title = await host.call("local", "web_title", {})
    assert title.ok
    return title.text()
