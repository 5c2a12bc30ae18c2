"""The one way tests run tsc: the TypeScript package.json pins (installed by `npm ci`), strict,
over a tsconfig written for the files under test."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
TS_DIR = REPO / "tests" / "ts"
TSC = REPO / "node_modules" / ".bin" / "tsc"


def require_pinned_tsc() -> str:
    """npx's path; fails (not skips) unless node_modules holds the TypeScript package.json pins."""
    if not TSC.exists():
        pytest.fail(f"{TSC.relative_to(REPO)} is missing: run `npm ci` at the repository root")
    pinned = json.loads((REPO / "package.json").read_text())["devDependencies"]["typescript"]
    installed_manifest = REPO / "node_modules" / "typescript" / "package.json"
    installed = json.loads(installed_manifest.read_text())["version"]
    if installed != pinned:
        pytest.fail(
            f"node_modules has typescript {installed}, package.json pins {pinned}: "
            "run `npm ci` at the repository root"
        )
    npx = shutil.which("npx")
    if npx is None:
        pytest.fail(
            "npx is not installed: install Node.js 20 and run `npm ci` at the repository root"
        )
    return npx


def compiler_options(paths: dict[str, list[str]]) -> dict[str, Any]:
    """tests/ts/tsconfig.json's options, with module `paths` pointing where the test says."""
    options: dict[str, Any] = json.loads((TS_DIR / "tsconfig.json").read_text())["compilerOptions"]
    options["paths"] = paths
    return options


def run_tsc(
    workdir: Path, files: list[Path], options: dict[str, Any]
) -> subprocess.CompletedProcess[str]:
    """`tsc --strict --noEmit` over `files`, through a tsconfig written into `workdir`."""
    npx = require_pinned_tsc()
    tsconfig = workdir / "tsconfig.json"
    tsconfig.write_text(
        json.dumps({"compilerOptions": options, "files": [str(f) for f in files]}, indent=2)
    )
    command = [npx, "--no-install", "tsc", "--strict", "--noEmit", "--pretty", "false"]
    return subprocess.run(
        [*command, "-p", str(tsconfig)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
