"""`python -m generator diff`: fixture JARs for the kinds of change that bind end to end, manifest
pairs for the rest, and two real Playwright releases fetched through Maven."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import PINNED, REPO
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from generator.commands.cli import main
from generator.review.diff_report import compare

pytestmark = pytest.mark.jvm

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "diff"
ALLOWLIST = f"""playwright: {PINNED}
tools:
  - method: page.title
  - method: page.setViewportSize
  - method: page.click
  - method: page.bringToFront
  - method: page.addInitScript
  - method: page.reload
"""


class MarkdownSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "md"


def _jar(side: str, work: Path) -> Path:
    classes = work / side
    sources = sorted((FIXTURES / side).rglob("*.java"))
    done = subprocess.run(
        ["javac", "-parameters", "--release", "11", "-d", str(classes), *map(str, sources)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return Path(shutil.make_archive(str(work / f"playwright-{side}"), "zip", classes)).rename(
        work / f"playwright-{side}.jar"
    )


@pytest.fixture(scope="module")
def fixture_jars(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    work = tmp_path_factory.mktemp("diff-jars")
    allowlist = work / "allowlist.yaml"
    allowlist.write_text(ALLOWLIST)
    return _jar("old", work), _jar("new", work), allowlist


def test_fixture_jars_report_every_kind_of_change(
    fixture_jars: tuple[Path, Path, Path],
    tmp_path: Path,
    snapshot: SnapshotAssertion,
) -> None:
    old, new, allowlist = fixture_jars
    report = tmp_path / "report.md"
    status = main(
        ["diff", str(old), str(new), "--allowlist", str(allowlist), "--output", str(report)]
    )
    text = report.read_text()
    assert status == 1  # breaking changes fail by default
    assert text == snapshot(extension_class=MarkdownSnapshot)
    expected = [
        "**breaking** tool `web_setViewportSize` removed",
        "tool `web_reload` added",
        "`web_click`: new optional parameter `force`",
        "**breaking** `web_click`: parameter `timeout` type changed",
        "**breaking** `web_title`: result changed",
        "**breaking** `Page.addInitScript` was tool web_addInitScript and is now refused: callback",
        # The Kotlin shims are compared too: a new field changes the constructor.
        "**breaking** `web_click`: Kotlin shim signature changed from `GeneratedClickTool(",
    ]
    for line in expected:
        assert line in text, line
    assert "web_bringToFront" not in text


def test_fail_on_choices(fixture_jars: tuple[Path, Path, Path], tmp_path: Path) -> None:
    old, new, allowlist = fixture_jars
    common = ["--allowlist", str(allowlist), "--output", str(tmp_path / "r.md")]
    assert main(["diff", str(old), str(new), *common, "--fail-on", "never"]) == 0
    assert main(["diff", str(old), str(old), *common, "--fail-on", "any"]) == 0
    assert "No change to the tool surface." in (tmp_path / "r.md").read_text()


def _manifest() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((REPO / "generated" / "manifest.json").read_text())
    return loaded


def test_manifest_level_changes() -> None:
    old = _manifest()
    new = copy.deepcopy(old)
    fill = new["tools"]["web_fill"]["parameters"]
    fill["text"] = fill.pop("value")  # renamed, same schema
    fill["timeout"]["required"] = True  # optional -> required
    new["tools"]["web_click"]["parameters"]["extra"] = {
        "required": True,
        "schema": {"type": "string"},
    }
    new["tools"]["web_check"]["parameters"]["timeout"]["required"] = False
    new["tools"]["web_check"]["parameters"]["force"]["required"] = False
    old["tools"]["web_check"]["parameters"]["force"]["required"] = True  # required -> optional
    report = compare(old, new, "old", "new")
    assert "**breaking** `web_fill`: parameter `value` renamed to `text`" in report.breaking
    assert "**breaking** `web_fill`: parameter `timeout` is now required" in report.breaking
    assert "**breaking** `web_click`: new required parameter `extra`" in report.breaking
    assert "`web_check`: parameter `force` is now optional" in report.other
    assert compare(old, old, "a", "b").changed is False


def test_kotlin_shim_changes() -> None:
    """A shim's signature changed or no longer generated is breaking; one that gains a trailing
    defaulted parameter or whose parameter becomes optional is source-compatible; a new shim is
    not breaking; a side without the Kotlin record says so instead of comparing."""
    old, new = _manifest(), _manifest()
    old["kotlin"] = {
        "package": "a.b",
        "shims": {
            "web_fill": "GeneratedFillTool(value: String)",
            "web_press": "GeneratedPressTool(key: String)",
            "web_type": "GeneratedTypeTool(text: String)",
            "web_title": "GeneratedTitleTool()",
        },
        "refused": {"web_click": "argument position: the object Position has no conversion"},
    }
    new["kotlin"] = {
        "package": "a.b",
        "shims": {
            "web_fill": "GeneratedFillTool(value: String, force: Boolean? = null)",
            "web_press": "GeneratedPressTool(key: String? = null)",
            # A defaulted parameter before the old one moves it: positional calls break.
            "web_type": "GeneratedTypeTool(delay: Double? = null, text: String)",
            "web_click": "GeneratedClickTool()",
        },
        "refused": {"web_title": "a reason"},
    }
    report = compare(old, new, "old", "new")
    assert report.breaking == [
        "**breaking** `web_title`: Kotlin shim `GeneratedTitleTool()` is no longer generated: "
        "a reason",
        "**breaking** `web_type`: Kotlin shim signature changed from "
        "`GeneratedTypeTool(text: String)` to "
        "`GeneratedTypeTool(delay: Double? = null, text: String)`",
    ]
    assert report.other == [
        "`web_fill`: Kotlin shim gains defaulted `force` (source-compatible)",
        "`web_press`: Kotlin shim `key` now optional (source-compatible)",
        "`web_click`: new Kotlin shim `GeneratedClickTool()`",
    ]
    new["kotlin"]["package"] = "c.d"
    assert "**breaking** Kotlin shims moved from package `a.b` to `c.d`" in (
        compare(old, new, "old", "new").breaking
    )
    del new["kotlin"]
    assert compare(old, new, "old", "new").other == [
        "Kotlin shims not compared: the new manifest does not record them "
        "(generate it with --outputs including trailblaze)"
    ]


def test_malformed_kotlin_record_is_refused(tmp_path: Path) -> None:
    broken = _manifest()
    broken["kotlin"] = {"package": "a.b", "shims": {"web_fill": 3}, "refused": {}}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(broken))
    assert main(["diff", str(path), str(REPO / "generated" / "manifest.json")]) == 2


def test_manifest_files_as_sides(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(_manifest()))
    assert (
        main(["diff", str(path), str(REPO / "generated" / "manifest.json"), "--fail-on", "any"])
        == 0
    )


def test_two_real_releases(tmp_path: Path, pinned_version: str) -> None:
    """The previous minor against the pinned one, both fetched through Maven and reflected."""
    major, minor, _ = pinned_version.split(".")
    previous = f"{major}.{int(minor) - 1}.0"
    report = tmp_path / "bump.md"
    status = main(["diff", previous, pinned_version, "--output", str(report), "--fail-on", "never"])
    text = report.read_text()
    assert status == 0
    # Each side is bound against the Python API of its own release, and the headline says so.
    assert text.startswith(
        f"# Tool surface: Playwright Java {previous} / Python {previous} → "
        f"Playwright Java {pinned_version} / Python {pinned_version}"
    )
    assert "breaking change(s)" in text


def test_a_side_without_its_python_api_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """A side is judged against the Python API of its own release, never silently against the
    installed one: a release without a wheel is refused with the reason and the way out."""
    status = main(["diff", "0.0.0", PINNED, "--allowlist", str(REPO / "allowlist.yaml")])
    err = capsys.readouterr().err
    assert status == 3
    assert err.startswith("error: 0.0.0: no Python API of Playwright 0.0.0 to judge it against: ")
    assert "pip could not download the Python playwright 0.0.0 wheel" in err
    assert "--allow-version-mismatch" in err
