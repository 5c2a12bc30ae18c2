"""The output directory under hostile conditions: concurrent runs, a tampered ledger or journal,
files the generator did not write, and output directories it must refuse.

Categories (issue 9): concurrency (lock, waiting, interleavings), deleting or overwriting what the
generator did not write, and the located messages for a bad --out."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, read_tree
from paused_run import PausedRun

from generator.write.ledger import LEDGER
from generator.write.output import INTENT, JOURNAL, TMP_SUFFIX

pytestmark = pytest.mark.jvm

# Concurrent runs with no synchronisation between them: each trial starts two at once.
RACE_TRIALS = 8


def _allowlist(folder: Path, name: str, methods: list[str]) -> Path:
    version = (REPO / "allowlist.yaml").read_text().split("playwright:", 1)[1].split()[0]
    path = folder / f"{name}.yaml"
    lines = [f"playwright: {version}", "tools:", *(f"  - method: {m}" for m in methods)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def _gen(out: Path, allowlist: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return _run("--out", str(out), "--allowlist", str(allowlist), *extra)


@pytest.fixture(scope="module")
def lists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("lists")
    return {
        "a": _allowlist(folder, "a", ["page.title", "page.url", "page.content"]),
        "b": _allowlist(folder, "b", ["page.title", "page.reload", "keyboard.press"]),
    }


@pytest.fixture(scope="module")
def references(
    lists: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, bytes]]:
    """The tree each allowlist produces on its own, into an empty directory."""
    trees = {}
    for key, allowlist in lists.items():
        out = tmp_path_factory.mktemp(f"ref-{key}") / "out"
        done = _gen(out, allowlist)
        assert done.returncode == 0, done.stderr
        trees[key] = read_tree(out)
    assert trees["a"] != trees["b"]
    return trees


# --- concurrency ------------------------------------------------------------------------------


def test_a_second_run_that_cannot_wait_names_the_holder(
    lists: dict[str, Path], references: dict[str, dict[str, bytes]], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first = PausedRun("locked", ["--out", str(out), "--allowlist", str(lists["a"])], tmp_path)
    first.wait_until_held()
    second = _gen(out, lists["b"], "--lock-timeout", "0")
    first.release()
    status, _, err = first.wait()
    assert status == 0, err
    assert second.returncode == 4
    assert f"is in use by pid {first.process.pid} " in second.stderr
    assert "--lock-timeout" in second.stderr and "Traceback" not in second.stderr
    assert read_tree(out) == references["a"]


def test_a_second_run_waits_and_the_tree_is_wholly_its_own(
    lists: dict[str, Path], references: dict[str, dict[str, bytes]], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first = PausedRun("staged", ["--out", str(out), "--allowlist", str(lists["a"])], tmp_path)
    first.wait_until_held()
    second = subprocess.Popen(
        [sys.executable, "-m", "generator", "--out", str(out), "--allowlist", str(lists["b"])],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # The second run announces that it waits before the first one is let go.
    assert second.stderr is not None
    announced = second.stderr.readline()
    assert "waiting for pid" in announced, announced
    first.release()
    assert first.wait()[0] == 0
    assert second.wait(timeout=300) == 0
    assert read_tree(out) == references["b"]
    assert _gen(out, lists["b"], "--check").returncode == 0
    assert _gen(out, lists["a"], "--check").returncode == 1


@pytest.mark.parametrize("trial", range(RACE_TRIALS))
def test_racing_runs_leave_exactly_one_runs_tree(
    trial: int, lists: dict[str, Path], references: dict[str, dict[str, bytes]], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    if trial % 2:  # half the trials start from the other allowlist's tree
        assert _gen(out, lists["a"]).returncode == 0
    racers = [
        subprocess.Popen(
            [sys.executable, "-m", "generator", "--out", str(out), "--allowlist", str(lists[k])],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in (("a", "b") if trial % 4 < 2 else ("b", "a"))
    ]
    for racer in racers:
        _, err = racer.communicate(timeout=300)
        assert racer.returncode == 0 and "Traceback" not in err, err
    tree = read_tree(out)
    winners = [k for k, ref in references.items() if tree == ref]
    assert len(winners) == 1, "the tree is no single run's output"
    checks = {k: _gen(out, lists[k], "--check").returncode for k in lists}
    assert checks == {k: 0 if k == winners[0] else 1 for k in lists}


# --- never touching what the generator did not write ------------------------------------------


@pytest.fixture
def tree(lists: dict[str, Path], tmp_path: Path) -> Path:
    out = tmp_path / "out"
    assert _gen(out, lists["a"]).returncode == 0
    return out


def _forge_ledger(out: Path, extra: list[tuple[str, bytes]]) -> None:
    """Append entries and recompute the ledger's own checksum, as a deliberate forger would."""
    lines = (out / LEDGER).read_text().split("\n")
    body = "\n".join(lines[2:]) + "".join(
        f"{hashlib.sha256(data).hexdigest()}  {rel}\n" for rel, data in extra
    )
    checksum = hashlib.sha256(body.encode()).hexdigest()
    (out / LEDGER).write_text(f"{lines[0]}\n# sha256:{checksum}\n{body}")


@pytest.mark.parametrize("forged", [False, True], ids=["appended", "forged-checksum"])
@pytest.mark.parametrize("where", ["absolute", "parent", "dotdot-inside"])
def test_ledger_entries_outside_out_are_never_removed(
    where: str, forged: bool, tree: Path, lists: dict[str, Path], tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    rel = {
        "absolute": str(victim),
        "parent": "../victim.txt",
        "dotdot-inside": "tools/../../victim.txt",
    }[where]
    if forged:
        _forge_ledger(tree, [(rel, b"precious\n")])
    else:
        with open(tree / LEDGER, "a") as handle:
            handle.write(f"{hashlib.sha256(b'precious').hexdigest()}  {rel}\n")
    done = _gen(tree, lists["b"])
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "precious\n"
    if forged:
        assert "refused" in done.stderr and rel in done.stderr


def test_a_planted_journal_removes_nothing_that_is_not_the_generators(
    tree: Path, lists: dict[str, Path], tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    mine = tree / "tools" / "mine.txt"
    mine.write_text("the user's\n")
    (mine.parent / ("notes.txt" + TMP_SUFFIX)).write_text("user's temp\n")
    sha = hashlib.sha256(b"precious\n").hexdigest()
    journal = {
        "format": 1,
        "renames": ["tools/notes.txt", "../victim.txt"],
        "removals": [[str(victim), sha], ["../victim.txt", sha], ["tools/mine.txt", "0" * 64]],
    }
    (tree / JOURNAL).write_text(json.dumps(journal))
    done = _gen(tree, lists["a"])
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "precious\n"
    assert mine.read_text() == "the user's\n"
    assert not (tree / JOURNAL).exists()


def test_temporary_files_the_run_did_not_stage_are_left_alone(
    lists: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    hooks = out / "hooks"
    hooks.mkdir(parents=True)
    theirs = hooks / ("pre-commit" + TMP_SUFFIX)
    theirs.write_text("#!/bin/sh\n")
    (out / INTENT).write_text(json.dumps(["../elsewhere", "/etc/passwd"]))
    assert _gen(out, lists["a"]).returncode == 0
    assert theirs.read_text() == "#!/bin/sh\n"
    assert not (out / INTENT).exists()


def test_a_users_manifest_is_never_overwritten(lists: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text('{"mine": true}\n')
    done = _gen(out, lists["a"])
    assert done.returncode == 4
    assert f"{out / 'manifest.json'} exists and was not written by the generator" in done.stderr
    assert read_tree(out) == {"manifest.json": b'{"mine": true}\n'}


def test_a_deleted_ledger_is_rebuilt_and_stale_tools_still_go(
    tree: Path, lists: dict[str, Path], references: dict[str, dict[str, bytes]]
) -> None:
    (tree / LEDGER).unlink()
    assert _gen(tree, lists["a"], "--check").returncode == 1, "a tree without its ledger is stale"
    done = _gen(tree, lists["b"])
    assert done.returncode == 0, done.stderr
    assert read_tree(tree) == references["b"]


def test_a_generated_file_edited_by_hand_is_not_removed(tree: Path, lists: dict[str, Path]) -> None:
    edited = tree / "tools" / "web_url.tool.yaml"
    edited.write_text("my notes\n")
    done = _gen(tree, lists["b"])
    assert done.returncode == 0, done.stderr
    assert edited.read_text() == "my notes\n"
    assert "no longer generated, but changed since; left alone" in done.stderr


def test_a_ledger_entry_through_a_symlink_is_not_followed(
    tree: Path, lists: dict[str, Path], tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "file.py").write_text('"""Generated by `python -m generator` (planted)."""\n')
    (tree / "link").symlink_to(elsewhere)
    _forge_ledger(tree, [("link/file.py", (elsewhere / "file.py").read_bytes())])
    assert _gen(tree, lists["b"]).returncode == 0
    assert (elsewhere / "file.py").exists()


# --- output directories that must be refused ---------------------------------------------------


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("", "--out is empty"),
        ("   ", "--out is empty"),
        (".", "is the root of a repository"),
        ("..", "holds the allowlist"),
        ("/", "is the file system's root"),
        (".git/generated", "is inside a .git folder"),
    ],
    ids=["empty", "blank", "repo-root", "parent", "fs-root", "in-git"],
)
def test_bad_output_directories_are_refused(out: str, message: str) -> None:
    before = sorted(os.listdir(REPO))
    done = _run("--out", out, "--lock-timeout", "0")
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert sorted(os.listdir(REPO)) == before


def test_the_allowlists_own_folder_is_refused(tmp_path: Path) -> None:
    allowlist = tmp_path / "allowlist.yaml"
    shutil.copy(REPO / "allowlist.yaml", allowlist)
    done = _run("--out", str(tmp_path), "--allowlist", str(allowlist))
    assert done.returncode == 2
    assert "holds the allowlist" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["allowlist.yaml"]
