"""Round five of the hostile catalogue, files on request (issue 42, items 2 to 4; docs/ERRORS.md
rows H5F*): every file a tool writes or reads is opened confined (no symlink followed, created
exclusively, read capped), each session's files sit in a folder of its own that another session
cannot name, and a file too large for the browser is refused before Chromium reads it. Real
Chromium through the host's own call path; the confinement module alone is in test_confined.py."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host.settings.config import HostConfig
from host_tests.host_helpers import AppServer, host_config

pytestmark = pytest.mark.browser

STATE = {"cookies": [], "origins": []}

DOWNLOAD_JS = """() => {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([STATE_JSON], {type: 'application/json'}));
  a.download = 'state.json';
  document.body.appendChild(a);
  a.click();
}""".replace("STATE_JSON", json.dumps(json.dumps(STATE)))

FILES_PAGE_JS = """() => {
  document.body.innerHTML = '<input type=file id=f multiple>'
    + '<div id=zone style="width:300px;height:200px">zone</div><p id=out>none</p>';
  const show = files => document.getElementById('out').textContent =
    [...files].map(f => f.name + ':' + f.size).join(',');
  const zone = document.getElementById('zone');
  zone.addEventListener('dragover', e => e.preventDefault());
  zone.addEventListener('drop', e => { e.preventDefault(); show(e.dataTransfer.files); });
  document.getElementById('f').addEventListener('change', e => show(e.target.files));
}"""

OUT_JS = "() => document.getElementById('out').textContent"

Steps = Callable[[Host], Awaitable[dict[str, Any]]]


def run(config: HostConfig, steps: Steps) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        async with Host(config) as host:
            return await steps(host)

    return asyncio.run(scenario())


def ok(outcome: ToolOutcome) -> Any:
    assert outcome.ok, outcome.text()
    return outcome.value


def refused(outcome: ToolOutcome) -> tuple[str, str, str]:
    assert not outcome.ok and outcome.error is not None, outcome.text()
    return outcome.error.code, outcome.error.path, outcome.error.message


async def downloaded(host: Host, key: str) -> str:
    """The path of the file a page in session `key` downloads (a JSON file it chose)."""
    outcome = await host.call(key, "browser_evaluate", {"function": DOWNLOAD_JS})
    notes = list(outcome.extras.get("notes") or [])
    for _ in range(200):  # the download is noted by this call or a later one; 20 s at most
        saved = [n for n in notes if n.get("event") == "download"]
        if saved:
            return str(saved[0]["path"])
        await asyncio.sleep(0.1)
        notes += (await host.call(key, "browser_tabs", {"action": "list"})).extras.get(
            "notes"
        ) or []
    raise AssertionError(f"no download was noted: {notes}")


# -- 3. sessions do not share files -----------------------------------------------------------


def test_a_downloaded_file_cannot_be_restored_as_a_storage_state(
    app: AppServer, tmp_path: Path
) -> None:
    # The attack: a page plants a JSON file as a download; the model is led to restore
    # it. Inside the output directory is not enough: a session restores only what it saved.
    async def steps(host: Host) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        ok(await host.call("b", "browser_navigate", {"url": app.url("/page")}))
        planted = await downloaded(host, "a")
        seen["planted"] = planted
        saved = Path(ok(await host.call("a", "browser_storage_state", {}))["path"])
        relative = os.path.relpath(planted, saved.parent)
        seen["own_download"] = await host.call(
            "a", "browser_set_storage_state", {"filename": planted}
        )
        seen["relative"] = await host.call("a", "browser_set_storage_state", {"filename": relative})
        seen["other_session"] = await host.call(
            "b", "browser_set_storage_state", {"filename": planted}
        )
        seen["other_save"] = await host.call(
            "b", "browser_set_storage_state", {"filename": str(saved)}
        )
        seen["own_save"] = await host.call(
            "a", "browser_set_storage_state", {"filename": saved.name}
        )
        return seen

    seen = run(host_config(output_dir=tmp_path, caps=("storage",)), steps)
    assert Path(seen["planted"]).read_text() == json.dumps(STATE)  # the page's file is there
    for case in ("own_download", "relative", "other_session", "other_save"):
        code, path, message = refused(seen[case])
        assert (code, path) == ("invalid_argument", "filename"), (case, message)
        assert "only a file it saved" in message, (case, message)
    ok(seen["own_save"])


def test_each_session_writes_in_a_random_folder_of_its_own(app: AppServer, tmp_path: Path) -> None:
    async def steps(host: Host) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key in ("a", "b"):
            ok(await host.call(key, "browser_navigate", {"url": app.url("/page")}))
            seen[key] = ok(await host.call(key, "browser_take_screenshot", {"filename": "x.png"}))
            seen[key + "_default"] = ok(await host.call(key, "browser_storage_state", {}))
        return seen

    seen = run(host_config(output_dir=tmp_path, caps=("storage",)), steps)
    a, b = Path(seen["a"]["path"]), Path(seen["b"]["path"])
    # Both asked for x.png: each got its own, in its own folder under sessions/.
    assert a.name == b.name == "x.png" and a.parent.parent != b.parent.parent
    for shot in (a, b):
        assert shot.parent.parent.parent == tmp_path / "sessions"
        assert len(shot.parent.parent.name.rsplit("-", 1)[1]) == 24  # 96 random bits
    # A default name holds random bits besides the time (two in the same second differ).
    default = Path(seen["a_default"]["path"]).stem
    assert len(default.rsplit("-", 1)[1]) == 8, default


# -- 2. files on request are confined ----------------------------------------------------------

SAVING_TOOLS = {
    "browser_take_screenshot": ("png", {}),
    "browser_pdf_save": ("pdf", {}),
    "browser_snapshot": ("yml", {}),
    "browser_console_messages": ("log", {}),
    "browser_network_requests": ("log", {}),
    "browser_storage_state": ("json", {}),
}


@pytest.mark.parametrize("tool", sorted(SAVING_TOOLS))
def test_a_symlink_planted_where_a_tool_writes_is_not_followed(
    tool: str, app: AppServer, tmp_path: Path
) -> None:
    # A symlink planted in the session's folder under the name the next call asks for, pointing
    # at a file that does not exist yet: a check of `exists()` follows it, sees nothing, and the
    # write then creates the victim. The confined write makes a new file beside it instead.
    extension, extra = SAVING_TOOLS[tool]
    victim = tmp_path / "victim"
    output = tmp_path / "output"

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        first = Path(
            ok(await host.call("a", tool, {**extra, "filename": f"one.{extension}"}))["path"]
        )
        (first.parent / f"two.{extension}").symlink_to(victim)
        second = await host.call("a", tool, {**extra, "filename": f"two.{extension}"})
        return {"first": first, "second": ok(second)["path"]}

    seen = run(host_config(output_dir=output, caps=("pdf", "storage")), steps)
    assert not victim.exists() and not victim.is_symlink()
    second = Path(seen["second"])
    assert second.name == f"two (2).{extension}" and not second.is_symlink()
    assert second.is_file()


@pytest.mark.parametrize(
    ("tool", "folder"),
    [("browser_take_screenshot", "screenshots"), ("browser_stop_tracing", "traces")],
)
def test_a_folder_swapped_for_a_symlink_is_refused(
    tool: str, folder: str, app: AppServer, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    output = tmp_path / "output"

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        shot = Path(
            ok(await host.call("a", "browser_take_screenshot", {"filename": "a.png"}))["path"]
        )
        session_folder = shot.parent.parent
        target = session_folder / folder
        if target.exists():
            for child in target.iterdir():
                child.unlink()
            target.rmdir()
        target.symlink_to(elsewhere, target_is_directory=True)
        if tool == "browser_stop_tracing":
            ok(await host.call("a", "browser_start_tracing", {}))
            outcome = await host.call("a", tool, {})
        else:
            outcome = await host.call("a", tool, {"filename": "b.png"})
        after = await host.call("a", "browser_snapshot", {})
        return {"outcome": outcome, "after": after}

    seen = run(host_config(output_dir=output, caps=("tracing",)), steps)
    code, _, message = refused(seen["outcome"])
    assert code == "output_refused" and "symlink" in message, message
    assert not list(elsewhere.iterdir())
    ok(seen["after"])  # the session stays usable


def test_a_storage_state_that_is_a_symlink_is_not_read(app: AppServer, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps(STATE))

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        saved = Path(ok(await host.call("a", "browser_storage_state", {}))["path"])
        (saved.parent / "link.json").symlink_to(secret)
        return {
            "link": await host.call("a", "browser_set_storage_state", {"filename": "link.json"})
        }

    seen = run(host_config(output_dir=tmp_path / "output", caps=("storage",)), steps)
    code, path, message = refused(seen["link"])
    assert (code, path) == ("invalid_argument", "filename") and "symlink" in message, message


def test_an_upload_through_a_symlinked_folder_is_refused(app: AppServer, tmp_path: Path) -> None:
    # The upload directory holds a symlink to a folder (inside it, even): what it names could be
    # swapped between the check and Playwright's open, so no symlink is followed at all.
    uploads = tmp_path / "uploads"
    (uploads / "real").mkdir(parents=True)
    (uploads / "real" / "a.txt").write_text("abc")
    (uploads / "link").symlink_to(uploads / "real", target_is_directory=True)

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        ok(await host.call("a", "browser_evaluate", {"function": FILES_PAGE_JS}))
        seen = {
            "plain": await host.call(
                "a", "browser_file_upload", {"target": "#f", "paths": ["real/a.txt"]}
            ),
            "plain_out": ok(await host.call("a", "browser_evaluate", {"function": OUT_JS})),
            "linked": await host.call(
                "a", "browser_file_upload", {"target": "#f", "paths": ["link/a.txt"]}
            ),
            "dropped": await host.call(
                "a", "browser_drop", {"target": "#zone", "paths": ["real/a.txt", "link/a.txt"]}
            ),
        }
        return seen

    seen = run(host_config(upload_dirs=(uploads,)), steps)
    ok(seen["plain"])
    assert seen["plain_out"] == "a.txt:3"
    code, path, message = refused(seen["linked"])
    assert (code, path) == ("upload_not_allowed", "paths[0]") and "no symlink" in message, message
    code, path, message = refused(seen["dropped"])
    assert (code, path) == ("upload_not_allowed", "paths[1]"), message


# -- 4. sizes that take the browser down are refused first ------------------------------------


def test_a_drop_or_upload_past_the_cap_is_refused_before_the_browser_reads_it(
    app: AppServer, tmp_path: Path
) -> None:
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    cap = 10 * 1024 * 1024  # the documented default (docs/host.md, "Files")
    # Sparse: one byte past the default cap costs no disk and no time to make.
    with open(uploads / "big.bin", "wb") as big:
        big.truncate(cap + 1)
    with open(uploads / "half.bin", "wb") as half:
        half.truncate(cap // 2 + 1)

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        ok(await host.call("a", "browser_evaluate", {"function": FILES_PAGE_JS}))
        return {
            "drop": await host.call("a", "browser_drop", {"target": "#zone", "paths": ["big.bin"]}),
            "upload": await host.call(
                "a", "browser_file_upload", {"target": "#f", "paths": ["big.bin"]}
            ),
            # Two files of half the cap each: the cap is on the call's files together.
            "two": await host.call(
                "a", "browser_drop", {"target": "#zone", "paths": ["half.bin", "half.bin"]}
            ),
            "web": await host.call(
                "a",
                "webBrowser",
                {"action": "upload_file", "selector": "#f", "filePath": "big.bin"},
            ),
            "out": ok(await host.call("a", "browser_evaluate", {"function": OUT_JS})),
        }

    seen = run(host_config(upload_dirs=(uploads,)), steps)
    for case, where in (("drop", "paths[0]"), ("upload", "paths[0]"), ("two", "paths[1]")):
        code, path, message = refused(seen[case])
        assert (code, path) == ("upload_too_large", where), (case, message)
        assert str(cap) in message, message
    assert refused(seen["web"])[0] == "upload_too_large"
    assert seen["out"] == "none"  # the page never saw a file


def test_a_drop_at_the_cap_is_delivered(app: AppServer, tmp_path: Path) -> None:
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    cap = 1024 * 1024
    (uploads / "exact.bin").write_bytes(b"x" * cap)

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "browser_navigate", {"url": app.url("/page")}))
        ok(await host.call("a", "browser_evaluate", {"function": FILES_PAGE_JS}))
        ok(await host.call("a", "browser_drop", {"target": "#zone", "paths": ["exact.bin"]}))
        return {"out": ok(await host.call("a", "browser_evaluate", {"function": OUT_JS}))}

    seen = run(host_config(upload_dirs=(uploads,), max_upload_bytes=cap), steps)
    assert seen["out"] == f"exact.bin:{cap}"


def test_webbrowser_screenshots_into_a_symlinked_folder_are_refused(
    app: AppServer, tmp_path: Path
) -> None:
    # webBrowser's `screenshot` writes under the operator's --storage-dir, confined the same way.
    storage, elsewhere = tmp_path / "storage", tmp_path / "elsewhere"
    storage.mkdir()
    elsewhere.mkdir()
    (storage / "screenshots").symlink_to(elsewhere, target_is_directory=True)

    async def steps(host: Host) -> dict[str, Any]:
        ok(await host.call("a", "webBrowser", {"action": "navigate", "url": app.url("/page")}))
        return {"shot": await host.call("a", "webBrowser", {"action": "screenshot"})}

    seen = run(host_config(storage_dir=storage), steps)
    code, _, message = refused(seen["shot"])
    assert code == "output_refused" and "symlink" in message, message
    assert not list(elsewhere.iterdir())
