"""`pip install .` (not editable) gives a working `python -m generator` that finds its templates."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO


def test_installed_generator_renders_the_same_tree(tmp_path: Path, generated_tree: Path) -> None:
    wheels = tmp_path / "wheels"
    build = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        str(REPO),
        "--no-deps",
        "--no-build-isolation",
        "-q",
    ]
    done = subprocess.run([*build, "-w", str(wheels)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (wheel,) = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    templates = sorted(
        n for n in names if n.startswith("generator/templates/") and n.endswith(".j2")
    )
    assert [Path(n).name for n in templates] == sorted(
        p.name for p in (REPO / "templates").glob("*.j2")
    )

    site = tmp_path / "site"
    install = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "-q",
        "--target",
        str(site),
        str(wheel),
    ]
    assert subprocess.run(install, capture_output=True, check=False).returncode == 0
    out = tmp_path / "out"
    # Run from a directory without templates/ or generator/, so only the installed copy can serve.
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    command = [
        sys.executable,
        "-m",
        "generator",
        "--allowlist",
        str(REPO / "allowlist.yaml"),
        "--out",
        str(out),
        "-q",
    ]
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    for path in generated_tree.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            assert (out / path.relative_to(generated_tree)).read_bytes() == path.read_bytes(), path
