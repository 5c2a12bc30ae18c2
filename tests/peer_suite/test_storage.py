"""storage.spec.ts: `browser_storage_state` saves the session's cookies and web storage to a file
of the output directory (a default name or the one given), `browser_set_storage_state` restores
them from one, and `--storage-state` starts sessions with a state also on a browser the host
reaches over an endpoint. The peer's page server is on localhost, ours on 127.0.0.1: the states
name 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.browser_servers import BrowserServer, needs_node
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "storage.spec.ts"
PEER_CASES = {
    "browser_storage_state unavailable": (
        "host_agent/test_browser_tools.py::"
        "test_capability_tools_are_listed_and_callable_only_with_their_capability"
    ),
    "browser_storage_state saves storage state to file": "test_save_to_a_default_and_a_given_name",
    "browser_storage_state saves to custom filename": "test_save_to_a_default_and_a_given_name",
    "browser_set_storage_state restores storage state from file": "test_restore_from_a_file",
    "--storage-state option works with remote endpoint in config": "test_storage_state_option_on_a_browser_endpoint",
    "browser_storage_state and browser_set_storage_state roundtrip": "test_save_clear_and_restore",
}
SET_BOTH = (
    "() => { document.cookie = 'testCookie=testValue';"
    " localStorage.setItem('testKey', 'testValue'); }"
)
READ_BOTH = "() => document.cookie + '|' + localStorage.getItem('{key}')"


@pytest.fixture(scope="module")
def storage_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedHost, Path]]:
    """A host with the `storage` capability and an output directory the tests read."""
    output = tmp_path_factory.mktemp("output")
    served = serve_host("--caps", "storage", "--output-dir", str(output))
    yield served, output
    served.stop()


def test_save_to_a_default_and_a_given_name(
    storage_host: tuple[ServedHost, Path], server: PeerSite
) -> None:
    host, output = storage_host

    async def body(agent: Agent) -> list[tuple[dict[str, Any], str]]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok("browser_evaluate", {"function": SET_BOTH})
        return [
            await called(agent, "browser_storage_state", {}),
            await called(agent, "browser_storage_state", {"filename": "my-state.json"}),
        ]

    (default, default_text), (named, _) = with_agent(host, body)
    saved = Path(default["result"]["path"])
    # The session's own folder: <output>/sessions/<transport>-<random>/storage/.
    assert saved.parent.parent.parent == output.resolve() / "sessions"
    assert saved.parent.name == "storage" and saved.name.startswith("storage-state-")
    assert saved.suffix == ".json" and str(saved) in default_text
    state = json.loads(saved.read_text())
    assert {"name": "testCookie", "value": "testValue"}.items() <= state["cookies"][0].items()
    assert state["origins"][0]["localStorage"] == [{"name": "testKey", "value": "testValue"}]
    mine = Path(named["result"]["path"])
    assert mine.name == "my-state.json" and json.loads(mine.read_text()) == state


def test_restore_from_a_file(storage_host: tuple[ServedHost, Path], server: PeerSite) -> None:
    host, output = storage_host
    state = {
        "cookies": [
            {"name": "restoredCookie", "value": "restoredValue", "domain": "127.0.0.1", "path": "/"}
        ],
        "origins": [
            {
                "origin": server.PREFIX,
                "localStorage": [{"name": "restoredKey", "value": "restoredValue"}],
            }
        ],
    }
    # A session restores only its own files: the test puts one in the session's storage/ folder
    # as the operator would; one elsewhere in the output directory is refused.
    elsewhere = output / "state.json"
    elsewhere.write_text(json.dumps(state))

    async def body(agent: Agent) -> tuple[str, Any, str, str]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        folder = Path((await agent.ok("browser_storage_state", {}))["path"]).parent
        state_file = folder / "state.json"
        state_file.write_text(json.dumps(state))
        _, text = await called(agent, "browser_set_storage_state", {"filename": str(state_file)})
        seen = await agent.ok("browser_evaluate", {"function": READ_BOTH.format(key="restoredKey")})
        outside = await refused(agent, "browser_set_storage_state", {"filename": "/etc/hostname"})
        other = await refused(agent, "browser_set_storage_state", {"filename": str(elsewhere)})
        return text, seen, outside, other

    text, seen, outside, other = with_agent(host, body)
    assert "restored" in text
    assert seen == "restoredCookie=restoredValue|restoredValue"
    # Files stay in the session's folder: another is refused, naming the argument.
    for refusal in (outside, other):
        assert "[invalid_argument]" in refusal and "only a file it saved" in refusal, refusal


def test_save_clear_and_restore(storage_host: tuple[ServedHost, Path], server: PeerSite) -> None:
    host, _ = storage_host
    read = READ_BOTH.format(key="roundtripKey")

    async def body(agent: Agent) -> list[Any]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok(
            "browser_evaluate",
            {
                "function": "() => { document.cookie = 'roundtripCookie=roundtripValue';"
                " localStorage.setItem('roundtripKey', 'roundtripValue'); }"
            },
        )
        saved = await agent.ok("browser_storage_state", {"filename": "roundtrip-state.json"})
        await agent.ok(
            "browser_evaluate",
            {
                "function": "() => { document.cookie = 'roundtripCookie=; expires=Thu, 01 Jan"
                " 1970 00:00:00 GMT'; localStorage.clear(); }"
            },
        )
        cleared = await agent.ok("browser_evaluate", {"function": read})
        # The path the save returned, as the peer passes it back.
        await agent.ok("browser_set_storage_state", {"filename": saved["path"]})
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        return [cleared, await agent.ok("browser_evaluate", {"function": read})]

    cleared, restored = with_agent(host, body)
    assert cleared == "|null"
    assert restored == "roundtripCookie=roundtripValue|roundtripValue"


def test_storage_state_option_on_a_browser_endpoint(server: PeerSite, tmp_path: Path) -> None:
    needs_node()
    state_file = tmp_path / "state.json"
    state_file.write_text(
        json.dumps(
            {
                "cookies": [
                    {
                        "name": "remoteCookie",
                        "value": "remoteValue",
                        "domain": "127.0.0.1",
                        "path": "/",
                    }
                ],
                "origins": [],
            }
        )
    )
    browser = BrowserServer()
    try:
        host = serve_host("--browser-endpoint", browser.ws, "--storage-state", str(state_file))
        try:

            async def body(agent: Agent) -> Any:
                await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
                return await agent.ok("browser_evaluate", {"function": "() => document.cookie"})

            cookies = with_agent(host, body)
        finally:
            host.stop()
    finally:
        browser.kill()
    assert "remoteCookie=remoteValue" in cookies
