"""Cache keys cover the code that produces each entry: after a change to a formatting constant in a
copy of the generator, a warm-cache run writes exactly what a `--no-cache` run writes, and
`--check` finds the tree made before the change stale. The up-to-date fast path computes no code
digest and imports neither Jinja nor black."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, read_tree

from generator.code_digest import closure, code_digest


def _copy_project(root: Path) -> Path:
    """The generator, its templates and the allowlist, runnable with `python -m generator` from `root`."""
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "generator", root / "generator", ignore=skip)
    shutil.copytree(REPO / "templates", root / "templates", ignore=skip)
    shutil.copy(REPO / "allowlist.yaml", root / "allowlist.yaml")
    return root


def _run(project: Path, out: Path, cache: Path | None, *extra: str) -> int:
    caching = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    command = [sys.executable, "-m", "generator", "--out", str(out), "-q", *caching, *extra]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


@pytest.mark.parametrize(
    ("module", "before", "after"),
    [
        ("yaml_text.py", "WIDTH = 100\n", "WIDTH = 40\n"),
        ("python_format.py", "LINE_LENGTH = 100\n", "LINE_LENGTH = 60\n"),
    ],
)
def test_a_code_change_never_reads_old_cache_entries(
    tmp_path: Path, module: str, before: str, after: str
) -> None:
    project = _copy_project(tmp_path / "project")
    cache, old = tmp_path / "cache", tmp_path / "old"
    assert _run(project, old, cache) == 0
    source = project / "generator" / module
    text = source.read_text(encoding="utf-8")
    assert text.count(before) == 1, f"{module} no longer defines {before.strip()}"
    source.write_text(text.replace(before, after), encoding="utf-8")

    assert _run(project, old, cache, "--check") == 1
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    assert _run(project, warm, cache) == 0
    assert _run(project, cold, None) == 0
    assert read_tree(warm) == read_tree(cold)
    assert read_tree(warm) != read_tree(old)


def test_the_closure_follows_imports_inside_functions_and_through_modules() -> None:
    found = closure("generator.pipeline")
    # pipeline imports java_surface only inside a function; java_surface imports javadoc.
    assert {"generator.java_surface", "generator.javadoc", "generator.render"} <= set(found)
    assert "generator.cli" not in found
    assert closure("generator.python_format") == (
        "generator",
        "generator.cache",
        "generator.checkpoints",
        "generator.code_digest",
        "generator.diagnostics",
        "generator.dist_version",
        "generator.python_format",
    )


def test_digests_differ_by_code() -> None:
    assert code_digest("generator.python_format") != code_digest("generator.yaml_text")


def test_the_up_to_date_path_digests_no_code_and_imports_no_renderer(tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert _run(REPO, out, cache) == 0
    probe = (
        "import json, sys\n"
        "from generator.cli import main\n"
        "from generator.code_digest import code_digest\n"
        f"status = main(['--out', {str(out)!r}, '--cache-dir', {str(cache)!r}, '-q'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'jinja2', 'black'})\n"
        "print(json.dumps([status, heavy, code_digest.cache_info().currsize]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True
    )
    status, heavy, digests = json.loads(done.stdout.splitlines()[-1])
    assert "is up to date" in done.stdout
    assert (status, heavy, digests) == (0, [], 0)
