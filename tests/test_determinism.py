"""Two generations in separate processes, under different hash seeds, are byte-identical."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, read_tree

pytestmark = pytest.mark.jvm


def _generate(out: Path, seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    command = [sys.executable, "-m", "generator", "--out", str(out), "-q", "--no-cache"]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return read_tree(out)


def test_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    first = _generate(tmp_path / "a", "1")
    second = _generate(tmp_path / "b", "4242")
    assert len(first) > 10
    assert first == second


def test_no_host_details_in_output(generated_tree: Path) -> None:
    for path in generated_tree.rglob("*"):
        if path.is_file():
            text = path.read_text()
            for leak in (str(Path.home()), str(generated_tree), "/usr/lib/jvm", ".m2/repository"):
                assert leak not in text, f"{path} mentions {leak}"
