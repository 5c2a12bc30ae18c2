"""cli-storage.spec.ts: `playwright-cli state-save` and `state-load` call the peer's
`browser_storage_state` and `browser_set_storage_state` (its `storage` capability), which save
the context's cookies and local storage to a file and load them back; here they are called as
ours, by the names the program passes (a file name alone, or the path a save returned). Files
stay in the host's output directory: a name alone is saved and looked for under its `storage/`.
The peer's page server is on localhost, ours on 127.0.0.1: the states name 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "cli-storage.spec.ts"
PEER_CASES = {
    "state-save saves storage state to file": "test_state_save_to_a_default_and_a_given_name",
    "state-save saves to custom filename": "test_state_save_to_a_default_and_a_given_name",
    "state-load restores storage state from file": "test_state_load_by_file_name",
    "state-save and state-load roundtrip": "test_state_save_and_load_roundtrip",
}
READ_BOTH = "() => document.cookie + '|' + localStorage.getItem('{key}')"


@pytest.fixture(scope="module")
def storage_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedHost, Path]]:
    """A host with the `storage` capability (the peer's config) and an output directory the
    tests read and write."""
    output = tmp_path_factory.mktemp("output")
    served = serve_host("--caps", "storage", "--output-dir", str(output))
    yield served, output
    served.stop()


def test_state_save_to_a_default_and_a_given_name(
    storage_host: tuple[ServedHost, Path], server: PeerSite
) -> None:
    host, output = storage_host

    async def body(agent: Agent) -> list[tuple[dict[str, Any], str]]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        await agent.ok(
            "browser_evaluate",
            {
                "function": "() => { document.cookie = 'testCookie=testValue';"
                " localStorage.setItem('testKey', 'testValue'); }"
            },
        )
        return [
            await called(agent, "browser_storage_state", {}),  # `state-save`
            await called(agent, "browser_storage_state", {"filename": "my-state.json"}),
        ]

    (default, default_text), (named, named_text) = with_agent(host, body)
    saved = Path(default["result"]["path"])
    # The text names the file: storage-state-<time>.json, in the output directory.
    assert saved.name.startswith("storage-state-") and saved.suffix == ".json"
    # The session's own folder: <output>/sessions/<transport>-<random>/storage/.
    assert saved.parent.parent.parent == output.resolve() / "sessions"
    assert saved.parent.name == "storage" and str(saved) in default_text
    state = json.loads(saved.read_text())
    assert any((c["name"], c["value"]) == ("testCookie", "testValue") for c in state["cookies"]), (
        state
    )
    mine = Path(named["result"]["path"])
    assert mine.name == "my-state.json" and "my-state.json" in named_text
    assert mine.is_file() and mine.parent == saved.parent


def test_state_load_by_file_name(storage_host: tuple[ServedHost, Path], server: PeerSite) -> None:
    host, _ = storage_host
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
    # The peer's `state-load state.json` reads the file the test wrote where the program runs;
    # here a name alone is looked for in the session's own storage/ (a session reads only its
    # own files), where the test puts the file as the operator would.

    async def body(agent: Agent) -> tuple[str, Any, Any]:
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})
        folder = Path((await agent.ok("browser_storage_state", {}))["path"]).parent
        (folder / "state.json").write_text(json.dumps(state))
        _, text = await called(agent, "browser_set_storage_state", {"filename": "state.json"})
        cookie = await agent.ok("browser_evaluate", {"function": "() => document.cookie"})
        stored = await agent.ok(
            "browser_evaluate", {"function": "() => localStorage.getItem('restoredKey')"}
        )
        return text, cookie, stored

    text, cookie, stored = with_agent(host, body)
    assert "storage state restored" in text
    assert "restoredCookie=restoredValue" in cookie
    assert stored == "restoredValue"


def test_state_save_and_load_roundtrip(
    storage_host: tuple[ServedHost, Path], server: PeerSite
) -> None:
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
        # The peer's `state-load <output path>`: the path the save returned.
        await agent.ok("browser_set_storage_state", {"filename": saved["path"]})
        await agent.ok("browser_navigate", {"url": server.EMPTY_PAGE})  # the peer's `goto`
        return [cleared, await agent.ok("browser_evaluate", {"function": read})]

    cleared, restored = with_agent(host, body)
    assert cleared == "|null"
    assert restored == "roundtripCookie=roundtripValue|roundtripValue"
