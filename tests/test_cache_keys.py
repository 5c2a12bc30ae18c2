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

from generator.shared.code_digest import closure, code_digest

pytestmark = pytest.mark.jvm


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


@pytest.fixture(scope="module")
def before_the_change(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project, a warm cache filled by it and the tree it wrote: one cold run that
    every test below copies instead of repeating."""
    base = tmp_path_factory.mktemp("before")
    project = _copy_project(base / "project")
    assert _run(project, base / "old", base / "cache") == 0
    return base


def _private_copy(base: Path, root: Path) -> tuple[Path, Path, Path]:
    """The project, cache and old tree of `base`, copied to `root` for one test to change."""
    shutil.copytree(base, root, symlinks=True)
    return root / "project", root / "cache", root / "old"


@pytest.mark.parametrize(
    ("module", "before", "after"),
    [
        ("render/yaml_text.py", "WIDTH = 100\n", "WIDTH = 40\n"),
        ("render/writers/python_layout.py", "LINE_LENGTH = 100\n", "LINE_LENGTH = 60\n"),
    ],
)
def test_a_code_change_never_reads_old_cache_entries(
    before_the_change: Path, tmp_path: Path, module: str, before: str, after: str
) -> None:
    project, cache, old = _private_copy(before_the_change, tmp_path / "copy")
    assert _run(project, old, cache, "--check") == 0
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
    found = closure("generator.commands.pipeline")
    # pipeline imports java_surface only inside a function; java_surface imports javadoc.
    assert {
        "generator.read.java_surface",
        "generator.read.javadoc",
        "generator.render.rendering",
    } <= set(found)
    assert "generator.commands.cli" not in found
    assert closure("generator.render.python_format") == (
        "generator",
        "generator.render.python_format",
        "generator.shared",
        "generator.shared.cache",
        "generator.shared.checkpoints",
        "generator.shared.code_digest",
        "generator.shared.diagnostics",
        "generator.shared.dist_version",
    )


def test_digests_differ_by_code() -> None:
    assert code_digest("generator.render.python_format") != code_digest(
        "generator.render.yaml_text"
    )


def test_the_up_to_date_path_digests_no_code_and_imports_no_renderer(
    before_the_change: Path, tmp_path: Path
) -> None:
    project, cache, out = _private_copy(before_the_change, tmp_path / "copy")
    # Run records are kept per output path: one warm run records the copy as current.
    assert _run(project, out, cache) == 0
    probe = (
        "import json, sys\n"
        "from generator.commands.cli import main\n"
        "from generator.shared.code_digest import code_digest\n"
        f"status = main(['--out', {str(out)!r}, '--cache-dir', {str(cache)!r}, '-q'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'jinja2', 'black'})\n"
        "print(json.dumps([status, heavy, code_digest.cache_info().currsize]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=project, capture_output=True, text=True, check=True
    )
    status, heavy, digests = json.loads(done.stdout.splitlines()[-1])
    assert "is up to date" in done.stdout
    assert (status, heavy, digests) == (0, [], 0)
