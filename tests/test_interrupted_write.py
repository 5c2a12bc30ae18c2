"""A write interrupted at any point (SIGKILL or SIGINT) leaves, once the next run has started,
exactly the old tree or exactly the new one; never a mixture, never a stray temporary file.
Each run is held at its checkpoint until the signal has been sent, so timing plays no part."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, read_tree
from paused_run import PausedRun

from generator.write.output import recover

pytestmark = pytest.mark.jvm


def _generate(out: Path, allowlist: Path) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "generator",
        "--out",
        str(out),
        "--allowlist",
        str(allowlist),
        "-q",
    ]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """An old tree (a smaller allowlist, plus a file of the user's) and the new allowlist."""
    work = tmp_path_factory.mktemp("interrupt")
    full = (REPO / "allowlist.yaml").read_text()
    old_allowlist = work / "old.yaml"
    old_allowlist.write_text(
        full.replace("  - method: page.title\n", "").replace("  - method: page.url\n", "")
    )
    new_allowlist = work / "new.yaml"
    new_allowlist.write_text(full.replace("  - method: page.content\n", ""))
    old = work / "old"
    assert _generate(old, old_allowlist).returncode == 0
    (old / "tools" / "mine.txt").write_text("the user's file\n")
    new = work / "new"
    shutil.copytree(old, new)
    assert _generate(new, new_allowlist).returncode == 0
    assert read_tree(old) != read_tree(new)
    return old, new, new_allowlist


# (signal at checkpoint, the tree after recovery, exit status). Past the commit point SIGINT is
# ignored while renaming, so that run is released after the signal and must finish normally.
CASES = [
    ("kill:staging", "old", -9),
    ("kill:staged", "old", -9),
    ("kill:journaled", "new", -9),
    ("kill:renaming", "new", -9),
    ("int:staging", "old", 130),
    ("int:staged", "old", 130),
    ("int:journaled", "new", 130),
    ("int:renaming", "new", 0),
]


def _interrupt(out: Path, allowlist: Path, case: str, markers: Path) -> tuple[int, str]:
    kind, point = case.split(":")
    run = PausedRun(point, ["--out", str(out), "--allowlist", str(allowlist), "-q"], markers)
    run.wait_until_held()
    run.signal(signal.SIGKILL if kind == "kill" else signal.SIGINT)
    if kind == "int" and point == "renaming":
        run.release()  # SIGINT is ignored from the commit point on: the run goes on
    status, _, err = run.wait()
    return status, err


@pytest.mark.parametrize(("case", "expected", "status"), CASES, ids=[c[0] for c in CASES])
def test_interrupted_write(
    case: str, expected: str, status: int, trees: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    old, new, new_allowlist = trees
    out = tmp_path / "generated"
    shutil.copytree(old, out)
    returncode, stderr = _interrupt(out, new_allowlist, case, tmp_path)
    assert returncode == status, stderr
    assert "Traceback" not in stderr
    recover(out)  # what the next run does first
    after = read_tree(out)
    assert after == read_tree(old if expected == "old" else new)
    assert not [name for name in after if name.endswith(".generator-tmp") or "journal" in name]


def test_next_run_finishes_the_interrupted_write(
    trees: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    old, new, new_allowlist = trees
    out = tmp_path / "generated"
    shutil.copytree(old, out)
    assert _interrupt(out, new_allowlist, "kill:renaming", tmp_path)[0] == -9
    check = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "--out",
            str(out),
            "--allowlist",
            str(new_allowlist),
            "--check",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 1 and "interrupted write" in check.stderr
    done = _generate(out, new_allowlist)
    assert done.returncode == 0
    assert "completed an interrupted write" in done.stderr
    assert read_tree(out) == read_tree(new)
