"""`pip install .` (not editable) gives a working `python -m generator` that finds its templates,
and a `playwright-tool-host` console script that serves the packaged tools."""

from __future__ import annotations

import asyncio
import configparser
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO
from mcp import Client, StdioServerParameters

pytestmark = pytest.mark.jvm


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wheels = tmp_path_factory.mktemp("wheels")
    # Built from a copy without setuptools' `build/`: a checkout's leftover `build/lib` would put
    # files deleted or renamed since into the wheel (a clean CI checkout has none).
    source = tmp_path_factory.mktemp("source") / "repo"
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "node_modules", "build", "*.egg-info", "__pycache__", ".session-notes"
        ),
    )
    build = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        str(source),
        "--no-deps",
        "--no-build-isolation",
        "-q",
    ]
    done = subprocess.run([*build, "-w", str(wheels)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (built,) = wheels.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed on its own (`--target`, no dependencies: those come from .venv)."""
    site = tmp_path_factory.mktemp("site")
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
    done = subprocess.run(install, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return site


def test_installed_generator_renders_the_same_tree(
    wheel: Path, installed: Path, tmp_path: Path, generated_tree: Path
) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    templates = sorted(
        n for n in names if n.startswith("generator/templates/") and n.endswith(".j2")
    )
    assert [Path(n).name for n in templates] == sorted(
        p.name for p in (REPO / "templates").glob("*.j2")
    )

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
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    for path in generated_tree.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            assert (out / path.relative_to(generated_tree)).read_bytes() == path.read_bytes(), path


def test_wheel_declares_the_host_console_script_and_ships_the_tools(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    (entry_points_name,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    entry_points = configparser.ConfigParser()
    entry_points.read_string(archive.read(entry_points_name).decode())
    scripts = dict(entry_points["console_scripts"])
    assert scripts["playwright-tool-host"] == "host.commands.entry:main"
    assert scripts["playwright-tool-generator"] == "generator.commands.cli:main"
    # The generated package the host serves, its registry and one shim per generated descriptor.
    assert "playwright_tools/registry.py" in names
    assert "playwright_tools/py.typed" in names
    shims = {n for n in names if n.startswith("playwright_tools/tools/") and n.endswith(".py")}
    descriptors = list((REPO / "generated" / "tools").glob("*.tool.yaml"))
    assert len(shims) > len(descriptors) / 2 > 50
    # The host's own tools, as code and as descriptors, and its toolsets.
    assert (
        "host/tools/browser_navigate.py" in names
        and "host/tools/browser_navigate.tool.yaml" in names
    )
    assert "host/toolsets/web_agent.toolset.yaml" in names
    # Every generated descriptor and toolset, byte for byte: an installed host describes the
    # tools exactly as a checkout does.
    shipped = [*descriptors, *(REPO / "generated" / "toolsets").glob("*.yaml")]
    for path in shipped:
        name = f"playwright_tools/descriptors/{path.relative_to(REPO / 'generated').as_posix()}"
        assert archive.read(name) == path.read_bytes(), name


def test_installed_console_script_serves_the_packaged_tools(
    installed: Path, tmp_path: Path
) -> None:
    """The script pip wrote for the wheel starts the host from the installed copy only: from a
    directory without the repository, the tools come from the wheel's files."""
    script = installed / "bin" / "playwright-tool-host"
    assert script.is_file()
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {**os.environ, "PYTHONPATH": str(installed), "HOME": str(tmp_path)}
    shown = subprocess.run(
        [str(script), "serve", "--help"], cwd=workdir, env=env, capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    assert "--stdio" in shown.stdout and "--executable-path" in shown.stdout

    # A tools/list over stdio through the SDK client: what is listed comes from this copy.
    params = StdioServerParameters(
        command=str(script), args=["serve", "--stdio"], cwd=str(workdir), env=env
    )

    async def list_tools() -> list[str]:
        async with Client(params) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    names = asyncio.run(list_tools())
    assert len(names) > 10, names
    # The toolset report of the installed copy, checked from elsewhere: the same descriptions,
    # so the same costs as the checkout's REPORT.md.
    report = subprocess.run(
        [str(script), "report", "--check"], cwd=workdir, env=env, capture_output=True, text=True
    )
    assert report.returncode == 0, report.stdout + report.stderr
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import host, playwright_tools; print(host.__file__, playwright_tools.__file__)",
        ],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert all(Path(f).is_relative_to(installed) for f in loaded.stdout.split()), loaded.stdout


def test_project_environment_has_the_console_script() -> None:
    """`scripts/setup.sh` installs the project (editable) into .venv: the script is beside python."""
    script = Path(sys.executable).parent / "playwright-tool-host"
    assert script.is_file(), "rerun scripts/setup.sh: .venv predates the console script"
    shown = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=False)
    assert shown.returncode == 0, shown.stderr
    assert "serve" in shown.stdout
