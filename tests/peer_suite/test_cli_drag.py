"""cli-drag.spec.ts: `playwright-cli drag` calls `browser_drag` with the peer's `startTarget`/
`endTarget`, and `drop` calls `browser_drop` with a file and with MIME-typed data; the pages
record what reached them (the peer's pages plus a record of the drop)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-drag.spec.ts"
PEER_CASES = {
    "drag between elements": "test_drag_between_elements",
    "drop files and data onto an element": "test_drop_files_and_data_onto_an_element",
}

DRAG_PAGE = """<!DOCTYPE html>
<html>
<body>
  <div id="source" draggable="true" aria-label="drag source" style="width:60px;height:40px;border:1px solid"></div>
  <div id="target" aria-label="drop target" style="width:120px;height:80px;border:1px solid;margin-top:20px"></div>
  <script>
    window.dropped = null;
    document.getElementById('source').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'ok'));
    document.getElementById('target').addEventListener('dragover', e => e.preventDefault());
    document.getElementById('target').addEventListener('drop', e => { e.preventDefault(); window.dropped = e.dataTransfer.getData('text/plain'); });
  </script>
</body>
</html>"""

DROP_PAGE = """<!DOCTYPE html>
<html>
<body>
  <div id="zone" aria-label="dropzone" style="width:200px;height:100px;border:1px solid"></div>
  <script>
    window.__dropInfo = null;
    const zone = document.getElementById('zone');
    zone.addEventListener('dragenter', e => e.preventDefault());
    zone.addEventListener('dragover', e => e.preventDefault());
    zone.addEventListener('drop', async e => {
      e.preventDefault();
      const data = {};
      for (const t of e.dataTransfer.types) {
        if (t !== 'Files')
          data[t] = e.dataTransfer.getData(t);
      }
      window.__dropInfo = { fileCount: e.dataTransfer.files.length, data };
    });
  </script>
</body>
</html>"""


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """The suite's host with an upload folder, where dropped files must lie."""
    uploads = tmp_path_factory.mktemp("uploads")
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
        "--upload-dir",
        str(uploads),
    )
    served.uploads = uploads  # type: ignore[attr-defined]
    yield served
    served.stop()


async def snapshot_of(agent: Agent) -> str:
    structured, _ = await called(agent, "browser_snapshot", {})
    return str(structured["result"]["snapshot"])


def test_drag_between_elements(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", DRAG_PAGE)

    async def body(agent: Agent) -> object:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        snapshot = await snapshot_of(agent)
        await called(
            agent,
            "browser_drag",
            {
                "startTarget": find_ref(snapshot, '"drag source"'),
                "endTarget": find_ref(snapshot, '"drop target"'),
            },
        )
        return await agent.ok("browser_evaluate", {"function": "() => window.dropped"})

    assert with_agent(host, body) == "ok"  # the source's data reached the target


def test_drop_files_and_data_onto_an_element(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", DROP_PAGE)
    uploads: Path = host.uploads  # type: ignore[attr-defined]
    dropped = uploads / "drop.txt"
    dropped.write_text("hi")
    info = "() => JSON.stringify(window.__dropInfo)"

    async def body(agent: Agent) -> tuple[object, object]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        ref = find_ref(await snapshot_of(agent), '"dropzone"')
        await called(agent, "browser_drop", {"target": ref, "paths": [str(dropped)]})
        with_file = await agent.ok("browser_evaluate", {"function": info})
        await called(agent, "browser_drop", {"target": ref, "data": {"text/plain": "hello world"}})
        return with_file, await agent.ok("browser_evaluate", {"function": info})

    with_file, with_data = with_agent(host, body)
    assert json.loads(str(with_file))["fileCount"] == 1
    assert json.loads(str(with_data)) == {"fileCount": 0, "data": {"text/plain": "hello world"}}
