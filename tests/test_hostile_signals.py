"""Signals at the stages where a process could be left behind or a traceback printed: the JVM's
start and black's formatting workers (for custom templates). Each run is held at its checkpoint (tests/paused_run.py)
until the signal has been sent."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest
from conftest import REPO
from paused_run import PausedRun

pytestmark = pytest.mark.jvm

_ALLOWLIST = str(REPO / "allowlist.yaml")


@pytest.mark.parametrize("point", ["jvm-starting", "jvm-started"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["term", "int"])
def test_a_signal_around_the_jvm_start_ends_the_run_cleanly(
    point: str, signum: signal.Signals, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    args = ["--out", str(out), "--allowlist", _ALLOWLIST, "--no-cache"]
    run = PausedRun(point, args, tmp_path)
    run.wait_until_held()
    run.signal(signum)
    status, _, err = run.wait()
    assert status == (143 if signum == signal.SIGTERM else 130), err
    assert "Traceback" not in err
    assert ("terminated" if signum == signal.SIGTERM else "interrupted") in err
    assert not out.exists() or not any(out.iterdir())


def _children(pid: int) -> set[int]:
    """Every live descendant of `pid`, read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


# A bound on how long the kernel and the pool take to end the workers; gone sooner costs nothing.
_GONE_DEADLINE_S = 60.0


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.parametrize(
    "signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["int", "term", "kill"]
)
def test_no_formatting_worker_outlives_the_generator(
    signum: signal.Signals, tmp_path: Path
) -> None:
    import time

    out = tmp_path / "out"
    # A copy of the built-in templates is a custom folder: black formats every Python file,
    # on worker processes (the built-in templates need no black).
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates, ignore=shutil.ignore_patterns("__pycache__"))
    args = [
        "--out",
        str(out),
        "--allowlist",
        _ALLOWLIST,
        "--no-cache",
        "--templates",
        str(templates),
    ]
    # Held inside a worker's first task: the workers are busy, not idle at their queue.
    run = PausedRun("formatting-worker", args, tmp_path)
    run.wait_until_held()
    workers = _children(run.process.pid)
    assert len(workers) >= 2, "a cold run formats on worker processes"
    run.signal(signum)
    status, _, err = run.wait()
    assert status == {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGKILL: -9}[signum], err
    assert "Traceback" not in err
    deadline = time.monotonic() + _GONE_DEADLINE_S
    while _alive(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _alive(workers) == set(), "formatting workers outlived the generator"
