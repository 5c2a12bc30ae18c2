"""The JAR and the Python playwright must share a minor version, unless overridden loudly."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, generate


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


def test_mismatch_is_refused_with_the_fix(
    previous_minor_allowlist: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    pinned_version: str,
) -> None:
    path, previous = previous_minor_allowlist
    assert generate(tmp_path / "out", path) == 3
    err = capsys.readouterr().err
    assert (
        f"Playwright Java is {previous} but the installed Python playwright is {pinned_version}"
        in err
    )
    assert f"pip install playwright=={previous}" in err
    assert not (tmp_path / "out").exists()


def test_mismatch_can_be_overridden_loudly(
    previous_minor_allowlist: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = previous_minor_allowlist
    assert generate(tmp_path / "out", path, "--allow-version-mismatch") == 0
    assert "WARNING: --allow-version-mismatch" in capsys.readouterr().err
