"""The up-to-date answer given before the CLI is imported (generator/write/quick_check.py): it answers
only when every input and output file still has the status the last full run stamped, and every
change, lock or damage sends the run to the full path (which hashes)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PINNED, REPO

pytestmark = pytest.mark.jvm


def _run(out: Path, cache: Path, allowlist: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`python -m generator`, with the modules it imported listed on stderr (`-X importtime`)."""
    command = [sys.executable, "-X", "importtime", "-m", "generator", "--out", str(out)]
    command += ["--cache-dir", str(cache), "--allowlist", str(allowlist), *extra]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)


def _answered_quickly(done: subprocess.CompletedProcess[str]) -> bool:
    assert done.returncode == 0 or "generator.commands.cli" in done.stderr, done.stderr
    return "generator.commands.cli" not in done.stderr


@pytest.fixture(scope="module")
def stamped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A tree generated from an allowlist outside the working directory, then stamped."""
    root = tmp_path_factory.mktemp("quick")
    allowlist = root / "lists" / "allowlist.yaml"
    allowlist.parent.mkdir()
    shutil.copy(REPO / "allowlist.yaml", allowlist)
    out, cache = root / "out", root / "cache"
    assert _run(out, cache, allowlist).returncode == 0
    return out, cache, allowlist


def _copy(stamped: tuple[Path, Path, Path], tmp_path: Path) -> tuple[Path, Path, Path]:
    """A private tree, cache and allowlist: the stamp names the output folder, so a copy
    starts unstamped; one full run stamps it."""
    out, cache, allowlist = stamped
    mine = tmp_path / "out", tmp_path / "cache", tmp_path / "allowlist.yaml"
    shutil.copytree(out, mine[0])
    shutil.copytree(cache, mine[1])
    shutil.copy(allowlist, mine[2])
    first = _run(*mine)
    assert first.returncode == 0 and not _answered_quickly(first), first.stderr
    return mine


def test_an_unchanged_tree_is_answered_without_the_cli(stamped: tuple[Path, Path, Path]) -> None:
    done = _run(*stamped)
    assert _answered_quickly(done)
    assert f"{stamped[0]} is up to date (inputs unchanged;" in done.stdout
    check = _run(*stamped, "--check")
    assert _answered_quickly(check) and "is up to date" in check.stdout


def test_an_edited_allowlist_elsewhere_is_never_answered(
    stamped: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out, cache, allowlist = _copy(stamped, tmp_path)
    assert _answered_quickly(_run(out, cache, allowlist))
    text = allowlist.read_text()
    allowlist.write_text(text.replace("  - method: page.content\n", ""))
    done = _run(out, cache, allowlist)
    assert not _answered_quickly(done)
    assert "168 tools generated" in done.stdout
    assert not (out / "tools" / "web_content.tool.yaml").exists()


def test_an_edited_output_with_its_old_size_and_time_is_never_answered(
    stamped: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out, cache, allowlist = _copy(stamped, tmp_path)
    target = out / "tools" / "web_click.tool.yaml"
    before = target.stat()
    original = target.read_bytes()
    target.write_bytes(original.replace(b"web_click", b"web_clicq"))
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    check = _run(out, cache, allowlist, "--check")
    assert not _answered_quickly(check) and check.returncode == 1
    assert _run(out, cache, allowlist).returncode == 0
    assert target.read_bytes() == original


def test_a_new_template_is_never_answered(stamped: tuple[Path, Path, Path], tmp_path: Path) -> None:
    out, cache, allowlist = _copy(stamped, tmp_path)
    templates = tmp_path / "templates"
    templates.mkdir()
    assert _run(out, cache, allowlist, "--templates", str(templates)).returncode == 0
    assert _answered_quickly(_run(out, cache, allowlist, "--templates", str(templates)))
    toolset = (REPO / "templates" / "toolset.yaml.j2").read_text()
    (templates / "toolset.yaml.j2").write_text(toolset.replace("web_framework", "mine"))
    done = _run(out, cache, allowlist, "--templates", str(templates))
    assert not _answered_quickly(done)
    assert "name: mine" in (out / "toolsets" / "web_framework.toolset.yaml").read_text()


def test_a_damaged_stamp_or_a_held_lock_is_no_answer(
    stamped: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    out, cache, allowlist = _copy(stamped, tmp_path)
    stamp = max((cache / "quick").iterdir(), key=lambda p: p.stat().st_mtime_ns)  # this tree's
    stamp.write_text(stamp.read_text().replace('"warning"', '"warnin"'))
    damaged = _run(out, cache, allowlist)
    assert not _answered_quickly(damaged) and "up to date" in damaged.stdout
    assert _answered_quickly(_run(out, cache, allowlist))  # the full run stamped it again
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a run writing the tree holds it
        busy = _run(out, cache, allowlist, "--lock-timeout", "0")
        assert not _answered_quickly(busy) and busy.returncode == 4, busy.stdout
    finally:
        os.close(fd)


def test_options_it_does_not_know_go_to_the_cli(stamped: tuple[Path, Path, Path]) -> None:
    for extra in (["--no-cache"], ["--debug"], ["--lock-timeout", "5"], ["--no-such-option"]):
        assert not _answered_quickly(_run(*stamped, *extra)), extra


def test_the_readme_command_without_options_is_answered(tmp_path: Path) -> None:
    """`python -m generator` with no option at all (the README's command, run in the folder that
    holds allowlist.yaml and generated/) is answered too: its options are empty, not absent."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(REPO / "allowlist.yaml", project / "allowlist.yaml")
    env = {**os.environ, "PLAYWRIGHT_TOOL_GENERATOR_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-X", "importtime", "-m", "generator"]
    # The project's own modules on the path, as the editable install puts them for the README's run.
    env["PYTHONPATH"] = str(REPO)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=project, env=env, capture_output=True, text=True, check=False
        )

    first = run()
    assert first.returncode == 0 and not _answered_quickly(first), first.stderr
    second = run()
    assert _answered_quickly(second), second.stderr
    assert second.stdout.startswith("generated is up to date (inputs unchanged;")


def test_every_option_set_is_answered_and_told_apart(
    stamped: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """A Kotlin build step's run (`--outputs`, `--kotlin-package`, `--trailblaze-api`, `--expect-playwright`) is answered
    without the CLI once stamped; another value of one of them is not (its stamp is another)."""
    out, cache, allowlist = _copy(stamped, tmp_path)
    step = (
        "--outputs",
        "python,yaml,typescript,trailblaze",
        "--kotlin-package",
        "com.example.tools",
    )
    first = _run(out, cache, allowlist, *step, "--expect-playwright", PINNED)
    assert first.returncode == 0 and not _answered_quickly(first), first.stderr
    again = _run(out, cache, allowlist, *step, "--expect-playwright", PINNED)
    assert _answered_quickly(again)
    other = _run(out, cache, allowlist, "--outputs", "python,yaml,typescript,trailblaze")
    assert not _answered_quickly(other)
    assert (out / "trailblaze" / "kotlin").is_dir()


def test_an_out_from_the_generate_block_is_answered_under_its_own_name(
    tmp_path: Path,
) -> None:
    allowlist = tmp_path / "allowlist.yaml"
    text = (REPO / "allowlist.yaml").read_text()
    allowlist.write_text(text.replace("tools:\n", "generate:\n  out: built\ntools:\n", 1))
    command = [sys.executable, "-X", "importtime", "-m", "generator", "--allowlist", str(allowlist)]
    command += ["--cache-dir", str(tmp_path / "cache")]
    first = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    assert first.returncode == 0 and not _answered_quickly(first), first.stderr
    again = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    assert _answered_quickly(again)
    assert f"{tmp_path / 'built'} is up to date" in again.stdout
