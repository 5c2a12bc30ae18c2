"""The generated Python package type-checks under `mypy --strict` against the installed playwright,
and imports with nothing but playwright available."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_mypy_strict(generated_tree: Path, tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "mypy", "--strict", "--no-incremental",
        "--cache-dir", str(tmp_path / "cache"), "-p", "playwright_tools",
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=generated_tree / "python", capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_imports_with_only_playwright(generated_tree: Path) -> None:
    # -I isolates from the user's site customisations and this repository; -S would drop playwright.
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import playwright_tools as t; "
        "mods = sorted(m.split('.')[0] for m in sys.modules); "
        "assert 'generator' not in mods and 'jinja2' not in mods and 'yaml' not in mods, mods; "
        "print(len(t.TOOLS))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, str(generated_tree / "python")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(list((generated_tree / "tools").glob("*.tool.yaml"))))
