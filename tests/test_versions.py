"""The JAR and the Python playwright must share a minor version, unless overridden loudly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO, generate

pytestmark = pytest.mark.jvm


@pytest.fixture
def previous_minor_allowlist(tmp_path: Path, pinned_version: str) -> tuple[Path, str]:
    major, minor, _ = pinned_version.split(".")
    previous = f"{major}.{int(minor) - 1}.0"
    path = tmp_path / "allowlist.yaml"
    text = (
        (REPO / "allowlist.yaml")
        .read_text()
        .replace(f"playwright: {pinned_version}", f"playwright: {previous}")
    )
    # Methods new in the pinned minor would not bind to the older JAR.
    path.write_text(text.replace("  - method: locator.waitForFunction\n", ""))
    return path, previous


def test_another_pin_than_the_installed_playwright_is_generated_from_its_wheel(
    previous_minor_allowlist: tuple[Path, str], tmp_path: Path, pinned_version: str
) -> None:
    """A consumer on an older Playwright generates for its own version: the pin's Python API is
    read from that release's wheel (kept in the cache) and its JAR resolved; the generator's own
    environment keeps its playwright."""
    from generator.shared.dist_version import dist_version

    path, previous = previous_minor_allowlist
    assert generate(tmp_path / "out", path) == 0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["playwright"]["java"] == previous
    assert manifest["playwright"]["python"] == previous
    assert dist_version("playwright") == pinned_version


def test_mismatch_can_be_overridden_loudly(
    previous_minor_allowlist: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = previous_minor_allowlist
    assert generate(tmp_path / "out", path, "--allow-version-mismatch") == 0
    assert "WARNING: --allow-version-mismatch" in capsys.readouterr().err


def test_a_jar_of_another_version_than_the_pin_is_refused_naming_both(
    previous_minor_allowlist: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    pinned_version: str,
) -> None:
    """`--jar` does not silently replace the pin: the JAR (the pinned one) and the allowlist (a
    previous release) disagree, and the message names both and the fix."""
    from generator.read.jar_resolver import resolve_jar

    path, previous = previous_minor_allowlist
    jar = resolve_jar(pinned_version, None).jar
    assert generate(tmp_path / "out", path, "--jar", str(jar)) == 3
    err = capsys.readouterr().err
    assert (
        f"--jar {jar} is Playwright Java {pinned_version}, but {path.name} pins {previous}" in err
    )
    assert f"python -m generator bump {pinned_version}" in err
    assert not (tmp_path / "out").exists()
    assert generate(tmp_path / "out", path, "--jar", str(jar), "--allow-version-mismatch") == 0
    assert "WARNING: --allow-version-mismatch: --jar" in capsys.readouterr().err
