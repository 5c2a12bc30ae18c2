"""No module of ours grows past 600 lines: a module that long holds more than one job (issue 57
split the last two, `generator/commands/cli.py` and `host/executor/runner.py`), and the house
keeps one job per module."""

from __future__ import annotations

from conftest import REPO

LIMIT = 600
PACKAGES = ("generator", "host", "scripts", "benchmarks")  # tests keep case tables long


def test_no_module_is_over_the_limit() -> None:
    sizes = {
        path.relative_to(REPO).as_posix(): len(path.read_bytes().splitlines())
        for package in PACKAGES
        for path in (REPO / package).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert len(sizes) > 100  # the walk found the tree
    assert {p: n for p, n in sizes.items() if n > LIMIT} == {}
