"""init-script.spec.ts: `--init-script` files (given twice) run in every page before its own
scripts, in a fresh context (`--isolated`) and in a persistent profile (the peer's default;
`--user-data-dir` here); a file that does not exist stops the host at start."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import PYTHON, REPO, ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "init-script.spec.ts"
PEER_CASES = {
    "--init-script option loads and executes script (isolated)": "test_init_scripts_run",
    "--init-script option loads and executes script (persistent)": "test_init_scripts_run",
    "--init-script option with non-existent file throws error": (
        "test_a_missing_init_script_stops_the_host"
    ),
}


def scripts(folder: Path) -> list[str]:
    """The peer's two init scripts, as --init-script options."""
    first, second = folder / "init-script1.js", folder / "init-script2.js"
    first.write_text("window.testInitScriptExecuted = true;")
    second.write_text("console.log('Init script executed successfully');")
    return ["--init-script", str(first), "--init-script", str(second)]


@pytest.fixture(scope="module", params=["isolated", "persistent"])
def init_host(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedHost]:
    folder = tmp_path_factory.mktemp("init")
    context = (
        ["--isolated"]
        if request.param == "isolated"
        else ["--user-data-dir", str(tmp_path_factory.mktemp("profile"))]
    )
    served = serve_host(*scripts(folder), *context)
    yield served
    served.stop()


def test_init_scripts_run(init_host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> tuple[object, str]:
        await called(agent, "browser_navigate", {"url": server.HELLO_WORLD})
        await called(agent, "browser_evaluate", {"function": '() => console.log("Custom log")'})
        ran, _ = await called(
            agent, "browser_evaluate", {"function": "() => window.testInitScriptExecuted"}
        )
        _, messages = await called(agent, "browser_console_messages", {})
        return ran["result"], messages

    ran, messages = with_agent(init_host, body)
    assert ran is True
    # The second script's message, logged as the page started, comes before the page's own.
    assert "Init script executed successfully" in messages and "Custom log" in messages
    assert messages.index("Init script executed successfully") < messages.index("Custom log")


def test_a_missing_init_script_stops_the_host(tmp_path: Path) -> None:
    missing = tmp_path / "non-existent-script.js"
    done = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--http", "127.0.0.1:0", "--init-script", str(missing)],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "--init-script" in done.stderr and str(missing) in done.stderr
    assert "Traceback" not in done.stderr
