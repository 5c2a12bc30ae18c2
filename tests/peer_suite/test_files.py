"""files.spec.ts: a click on a file input opens a file chooser, which `browser_file_upload`
(without a target) answers with files from the directories uploads may read (`--upload-dir`,
where the peer takes the MCP client's roots); `browser_drop` drops files or MIME-typed data onto
an element as from outside the page. Downloads are reported where the action that started them
answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "files.spec.ts"
PEER_CASES = {
    "browser_file_upload": "test_a_file_chooser_is_answered_by_file_upload",
    "clicking on download link emits download": (
        "host_agent/test_peer_behaviours.py::test_a_click_reports_the_download_it_started_later"
    ),
    "navigating to download link emits download": (
        "host_agent/test_peer_behaviours.py::test_navigating_to_an_attachment_reports_the_download"
    ),
    "file upload restricted to roots by default": "test_uploads_come_only_from_allowed_directories",
    "file upload is restricted to cwd if no roots are configured": (
        "differs: without --upload-dir uploads are off (upload_disabled names the option); no "
        "directory, the working one included, is readable unless named"
    ),
    "file upload unrestricted when flag is set": (
        "differs: --allow-unrestricted-file-access is refused at start on purpose: files are read "
        "only from the directories --upload-dir names"
    ),
    "browser_drop files": "test_drop_files_and_data",
    "browser_drop data": "test_drop_files_and_data",
    "browser_drop requires paths or data": "test_drop_files_and_data",
}

DROPZONE = """
  <div id="dropzone" aria-label="dropzone" style="width:300px;height:200px;border:2px dashed #888">
  </div>
  <script>
    window.__dropInfo = null;
    const zone = document.getElementById('dropzone');
    zone.addEventListener('dragenter', e => e.preventDefault());
    zone.addEventListener('dragover', e => e.preventDefault());
    zone.addEventListener('drop', async e => {
      e.preventDefault();
      const files = [];
      for (const f of e.dataTransfer.files)
        files.push({ name: f.name, size: f.size, text: await f.text() });
      const data = {};
      for (const t of e.dataTransfer.types) {
        if (t !== 'Files')
          data[t] = e.dataTransfer.getData(t);
      }
      window.__dropInfo = { files, data };
    });
  </script>
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory uploads may read, with its files; a file beside it, outside."""
    base = tmp_path_factory.mktemp("files")
    (base / "workspace").mkdir()
    (base / "workspace" / "test.txt").write_text("Hello, world!")
    (base / "workspace" / "drop-me.txt").write_text("hello")
    (base / "outside.txt").write_text("Outside root")
    return base / "workspace"


@pytest.fixture(scope="module")
def upload_host(workspace: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    served = serve_host(
        "--upload-dir",
        str(workspace),
        "--output-dir",
        str(tmp_path_factory.mktemp("output")),
    )
    yield served
    served.stop()


def test_a_file_chooser_is_answered_by_file_upload(
    upload_host: ServedHost, server: PeerSite, workspace: Path
) -> None:
    page = server.set_content(
        "/",
        """<input type="file" onchange="document.title = [...this.files].map(f => f.name)"/>
        <button onclick="document.title = 'pressed'">Button</button>""",
    )

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": page})
        _, snapshot = await called(agent, "browser_snapshot", {})
        chooser = find_ref(snapshot, 'button "Choose File"')
        button = find_ref(snapshot, 'button "Button"')
        none_open = await refused(
            agent, "browser_file_upload", {"paths": [str(workspace / "test.txt")]}
        )
        opened = await called(agent, "browser_click", {"element": "Textbox", "target": chooser})
        uploaded = await called(
            agent, "browser_file_upload", {"paths": [str(workspace / "test.txt")]}
        )
        again = await called(agent, "browser_click", {"element": "Textbox", "target": chooser})
        other = await called(agent, "browser_click", {"element": "Button", "target": button})
        return none_open, opened, uploaded, again, other

    none_open, opened, uploaded, again, other = with_agent(upload_host, body)
    # No chooser open: the upload is refused, saying how to open one.
    assert "no file chooser is open" in none_open and "click" in none_open, none_open
    # The click's result says a chooser is open and what answers it.
    assert "file chooser open" in opened[1] and "browser_file_upload" in opened[1], opened[1]
    # The upload answers it: the page got the file, and the chooser is gone.
    structured, text = uploaded
    assert structured["result"]["uploaded"] == "test.txt", text
    assert structured["result"]["bytes"] == 13
    assert structured["result"]["title"] == "test.txt"
    assert "file chooser open" not in text
    assert "file chooser open" in again[1]
    # Where the peer refuses other actions while a chooser is open, this host lets them run (a
    # chooser does not block the page, unlike a dialog) and keeps saying the chooser is open.
    structured, text = other
    assert structured["result"]["title"] == "pressed" and "file chooser open" in text, text


def test_uploads_come_only_from_allowed_directories(
    upload_host: ServedHost, server: PeerSite, workspace: Path
) -> None:
    page = server.set_content("/", '<input type="file" />')
    outside = workspace.parent / "outside.txt"

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": page})
        _, snapshot = await called(agent, "browser_snapshot", {})
        chooser = find_ref(snapshot, 'button "Choose File"')
        await agent.ok("browser_click", {"element": "Textbox", "target": chooser})
        inside = await agent.ok("browser_file_upload", {"paths": [str(workspace / "test.txt")]})
        await agent.ok("browser_click", {"element": "Textbox", "target": chooser})
        refusal = await refused(agent, "browser_file_upload", {"paths": [str(outside)]})
        return inside, refusal

    inside, refusal = with_agent(upload_host, body)
    assert (inside["uploaded"], inside["bytes"]) == ("test.txt", 13), inside
    assert "[upload_not_allowed]" in refusal and "outside the allowed directories" in refusal
    assert str(workspace) in refusal and "(at paths[0])" in refusal, refusal


def test_drop_files_and_data(upload_host: ServedHost, server: PeerSite, workspace: Path) -> None:
    page = server.set_content("/", DROPZONE)

    async def body(agent: Agent) -> tuple[Any, ...]:
        await agent.ok("browser_navigate", {"url": page})
        _, snapshot = await called(agent, "browser_snapshot", {})
        zone = find_ref(snapshot, "dropzone")
        drop = {"element": "dropzone", "target": zone}
        await agent.ok("browser_drop", {**drop, "paths": [str(workspace / "drop-me.txt")]})
        files = await agent.ok("browser_evaluate", {"function": "() => window.__dropInfo"})
        await agent.ok("browser_drop", {**drop, "data": {"text/plain": "hello world"}})
        data = await agent.ok("browser_evaluate", {"function": "() => window.__dropInfo"})
        neither = await refused(agent, "browser_drop", drop)
        return files, data, neither

    files, data, neither = with_agent(upload_host, body)
    files, data = (json.loads(v) if isinstance(v, str) else v for v in (files, data))
    assert files["files"] == [{"name": "drop-me.txt", "size": 5, "text": "hello"}], files
    assert data["data"]["text/plain"] == "hello world" and data["files"] == [], data
    assert "[missing_argument]" in neither and '"paths" or "data"' in neither, neither
