"""secrets.spec.ts: `--secrets` with the peer's dotenv file (a name with `-`, an empty value
skipped). A model types the secret's name (`X-PASSWORD`, the peer's form, or `${X-PASSWORD}`,
ours); the page gets the value; every result, snapshot, console message and output file shows
the name instead (ours `${X-PASSWORD}`, the peer's `<secret>X-PASSWORD</secret>`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost, serve_host
from mcp import Client

from peer_suite.conftest import called
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "secrets.spec.ts"
PEER_CASES = {
    "browser_type": "test_type_a_secret_by_name",
    "secrets are redacted in console log artifact": "test_type_a_secret_by_name",
    "browser_fill_form": "test_fill_form_with_a_secret",
    "empty secret value is ignored": "test_an_empty_secret_is_skipped",
}

VALUE = "password123"
NAME = "${X-PASSWORD}"
TYPING = """<!DOCTYPE html><html><input type='keypress'
  onkeypress="console.log('Key pressed:', event.key, ', Text:', event.target.value)"></input></html>"""
FORM = """<!DOCTYPE html><html><body><form>
<label><input type="email" id="email" name="email" /> Email</label>
<label><input type="password" id="name" name="password" /> Password</label>
</form></body></html>"""


@pytest.fixture(scope="module")
def secret_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedHost, Path]]:
    folder = tmp_path_factory.mktemp("secrets")
    (folder / "secrets.env").write_text(f"EMPTY_SECRET=\nX-PASSWORD={VALUE}\n")
    output = folder / "output"
    served = serve_host("--secrets", str(folder / "secrets.env"), "--output-dir", str(output))
    yield served, output
    served.stop()


def _run(host: ServedHost, body: Any) -> tuple[Any, str]:
    """What `body` returns, and every result it got as JSON (to look for the value in)."""
    import asyncio

    shown: list[str] = []

    class Watched(Agent):
        async def call(self, tool: str, args: dict[str, Any] | None = None) -> Any:
            result = await super().call(tool, args)
            shown.append(json.dumps(result.model_dump(mode="json")))
            return result

    async def run() -> Any:
        async with Client(host.mcp_url) as client:
            return await body(Watched(client))

    return asyncio.run(run()), "\n".join(shown)


def test_type_a_secret_by_name(secret_host: tuple[ServedHost, Path], server: PeerSite) -> None:
    host, output = secret_host
    server.set_content("/", TYPING)

    async def body(agent: Agent) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        ref = find_ref(snapshot, "textbox")
        await agent.ok(
            "browser_type", {"element": "textbox", "ref": ref, "text": "X-PASSWORD", "submit": True}
        )
        seen["page"] = await agent.ok(
            "browser_evaluate",
            {"function": f"() => document.querySelector('input').value === {VALUE!r}"},
        )
        seen["snapshot"] = (await called(agent, "browser_snapshot", {}))[1]
        seen["console"] = await agent.ok("browser_console_messages", {"keep": True})
        seen["file"] = await agent.ok("browser_console_messages", {"filename": "console.log"})
        return seen

    seen, shown = _run(host, body)
    assert seen["page"] is True  # the page got the value ...
    assert VALUE not in shown  # ... and no result shows it
    assert any(
        "textbox" in line and line.endswith(f": {NAME}") for line in seen["snapshot"].splitlines()
    ), seen["snapshot"]
    texts = [m["text"] for m in seen["console"]["messages"]]
    assert f"Key pressed: Enter , Text: {NAME}" in texts
    logged = Path(seen["file"]["path"]).read_text()
    assert output in Path(seen["file"]["path"]).parents
    assert VALUE not in logged and f"Text: {NAME}" in logged


def test_fill_form_with_a_secret(secret_host: tuple[ServedHost, Path], server: PeerSite) -> None:
    host, _ = secret_host
    server.set_content("/", FORM)

    async def body(agent: Agent) -> dict[str, Any]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        snapshot = (await called(agent, "browser_snapshot", {}))[1]
        await agent.ok(
            "browser_fill_form",
            {
                "fields": [
                    {
                        "name": "Email textbox",
                        "type": "textbox",
                        "target": find_ref(snapshot, 'textbox "Email"'),
                        "value": "John Doe",
                    },
                    {
                        "name": "Password textbox",
                        "type": "textbox",
                        "target": find_ref(snapshot, 'textbox "Password"'),
                        "value": "X-PASSWORD",
                    },
                ]
            },
        )
        return {
            "page": await agent.ok(
                "browser_evaluate",
                {
                    "function": "() => [document.getElementById('email').value,"
                    f" document.getElementById('name').value === {VALUE!r}]"
                },
            ),
            "snapshot": (await called(agent, "browser_snapshot", {}))[1],
        }

    seen, shown = _run(host, body)
    assert seen["page"] == ["John Doe", True]
    assert VALUE not in shown
    assert any(
        'textbox "Password"' in line and line.endswith(f": {NAME}")
        for line in seen["snapshot"].splitlines()
    ), seen["snapshot"]


def test_an_empty_secret_is_skipped(secret_host: tuple[ServedHost, Path], server: PeerSite) -> None:
    host, _ = secret_host
    server.set_content("/", "<!DOCTYPE html><html><body><p>hello password123</p></body></html>")

    async def body(agent: Agent) -> str:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        return (await called(agent, "browser_snapshot", {}))[1]

    snapshot, shown = _run(host, body)
    # The empty secret masks nothing (the text is not mangled); the other is masked as usual.
    assert f"hello {NAME}" in snapshot
    assert VALUE not in shown
    assert "EMPTY_SECRET has an empty value; it is skipped" in "".join(host.log)
