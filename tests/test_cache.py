"""The cache: a warm run starts no JVM, corrupt or foreign entries are rebuilt, --no-cache
leaves no trace, and an unchanged tree is recognised as up to date."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, read_tree

pytestmark = pytest.mark.jvm


def _run(
    out: Path,
    cache: Path,
    *extra: str,
    env: dict[str, str] | None = None,
    allowlist: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable, "-m", "generator", "--out", str(out), "--cache-dir", str(cache), "-q",
        "--allowlist", str(allowlist or REPO / "allowlist.yaml"), *extra,
    ]  # fmt: skip
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False, env=env)


def _without_java() -> dict[str, str]:
    """An environment in which starting a JVM fails: JAVA_HOME points nowhere, no java on PATH."""
    python_dir = str(Path(sys.executable).parent)
    return {**os.environ, "JAVA_HOME": "/nonexistent-jdk", "PATH": python_dir}


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("warm")
    done = _run(root / "out", root / "cache")
    assert done.returncode == 0, done.stderr
    return root / "out", root / "cache"


def test_up_to_date_run_starts_no_jvm(warm: tuple[Path, Path]) -> None:
    out, cache = warm
    done = _run(out, cache, env=_without_java())
    assert done.returncode == 0, done.stderr
    assert "is up to date (inputs unchanged" in done.stdout
    assert _run(out, cache, "--check", env=_without_java()).returncode == 0


def test_allowlist_change_reuses_the_reflected_surface(
    warm: tuple[Path, Path], tmp_path: Path
) -> None:
    out, cache = warm
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    smaller = tmp_path / "allowlist.yaml"
    smaller.write_text(
        (REPO / "allowlist.yaml").read_text().replace("  - method: page.title\n", "")
    )
    done = _run(copy, cache, env=_without_java(), allowlist=smaller)
    assert done.returncode == 0, done.stderr
    assert not (copy / "tools/web_title.tool.yaml").exists()
    assert "5 file(s) written" in done.stdout or "file(s) written" in done.stdout


def test_without_cache_the_jvm_is_needed(tmp_path: Path) -> None:
    done = _run(tmp_path / "out", tmp_path / "cache", "--no-cache", env=_without_java())
    assert done.returncode == 3
    assert "JAVA_HOME is set to /nonexistent-jdk" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "cache").exists()


def test_edited_output_is_not_up_to_date(warm: tuple[Path, Path], tmp_path: Path) -> None:
    out, cache = warm
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    (copy / "tools/web_title.tool.yaml").write_text("edited\n")
    done = _run(copy, cache, "--check")
    assert done.returncode == 1
    assert "+++ b/tools/web_title.tool.yaml" in done.stdout


@pytest.mark.parametrize("damage", ["flip", "foreign", "empty"])
def test_corrupt_cache_entries_are_rebuilt(
    warm: tuple[Path, Path], tmp_path: Path, damage: str
) -> None:
    out, cache = warm
    copied_cache = tmp_path / "cache"
    shutil.copytree(cache, copied_cache)
    (entry,) = list((copied_cache / "java").iterdir())
    original = entry.read_bytes()
    if damage == "flip":
        entry.write_bytes(original[:-10] + bytes(b ^ 0xFF for b in original[-10:]))
    elif damage == "foreign":  # a valid checksum over text that is not a surface
        import hashlib

        payload = b'{"not": "a surface"}'
        entry.write_bytes(
            b"sha256:" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
        )
    else:
        entry.write_bytes(b"")
    for rendered_entry in list((copied_cache / "rendered").iterdir())[:3]:
        rendered_entry.write_bytes(b"sha256:0\nnot yaml")
    shutil.rmtree(copied_cache / "runs")
    done = _run(tmp_path / "out", copied_cache)
    assert done.returncode == 0, done.stderr
    assert entry.read_bytes() == original  # rebuilt by reflecting again
    assert read_tree(tmp_path / "out") == read_tree(out)


def test_a_file_changed_meanwhile_is_not_recorded_as_the_output(tmp_path: Path) -> None:
    """The record of a run holds the digests of the text the run wrote, not of what is on disk
    when it is made: a file someone changed meanwhile makes the next run not up to date."""
    from types import SimpleNamespace

    from generator.commands.pipeline import remember, up_to_date
    from generator.shared.cache import Cache
    from generator.write.ledger import LEDGER

    out, cache = tmp_path / "out", Cache(tmp_path / "cache")
    out.mkdir()
    files = {"a.txt": "written\n"}
    (out / "a.txt").write_text("written\n")
    (out / LEDGER).write_text("# ledger\nx  a.txt\n")
    inputs: Any = SimpleNamespace(fingerprint="f")
    remember(inputs, out, files, cache)
    assert up_to_date(inputs, out, cache)
    (out / "a.txt").write_text("changed by someone else\n")
    remember(inputs, out, files, cache)  # as if the change came between the write and the record
    assert not up_to_date(inputs, out, cache)
