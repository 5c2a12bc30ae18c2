"""cli-run-code.spec.ts: `playwright-cli run-code` calls the peer's `browser_run_code_unsafe`,
which runs a JavaScript function on `page`. This host's counterpart is `browser_execute_python`
(`--enable-execute`): the same Playwright calls in Python's async API, the return value coming
back as JSON."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-run-code.spec.ts"
PEER_CASES = {
    "run-code inline": "test_run_code_clicks_and_returns_the_title",
    "run-code from file": (
        "differs: the peer's run-code can read its JavaScript from a file it names (filename); "
        "browser_execute_python takes its Python code in the call only (code that wants a file "
        "can open it itself), so no tool argument makes the host read a file as code"
    ),
    "run-code from file with template literals": "test_run_code_clicks_and_returns_the_title",
}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """The suite's host with Playwright code execution on."""
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
        "--enable-execute",
    )
    yield served
    served.stop()


CLICK = 'await page.get_by_role("button", name="Submit").click()\n'


def test_run_code_clicks_and_returns_the_title(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<button onclick=\"document.title = 'clicked'\">Submit</button>")
    server.set_content(
        "/templated", "<button onclick=\"document.title = 'templated'\">Submit</button>"
    )

    async def body(agent: Agent) -> tuple[Any, Any]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        inline, _ = await called(
            agent, "browser_execute_python", {"code": CLICK + "return await page.title()"}
        )
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/templated"})
        # The peer's template-literal case: code whose text has the language's own string
        # interpolation (and braces, quotes, several lines) reaches the interpreter as written.
        templated, _ = await called(
            agent,
            "browser_execute_python",
            {"code": CLICK + "title = await page.title()\nreturn f'result: {title}'"},
        )
        return inline, templated

    inline, templated = with_agent(host, body)
    assert inline["success"] is True and inline["result"] == "clicked", inline
    assert templated["result"] == "result: templated", templated
