"""The lanes of tests/lanes.py: a module that starts a browser or a JVM itself is marked so, and
`make check`'s watch fails a test that starts one without the marker."""

from __future__ import annotations

import ast
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from lanes import CHECK_LANE_ENV, LANE_FIXTURES, SLOW_MARKER_LANES, descendants_in_lanes

TESTS = Path(__file__).resolve().parent

# Names whose use in a test module starts a browser or a JVM: Playwright itself, the helpers that
# start a host or an executor (each launches browsers), the in-process host (`Host`), the generator (it
# reflects on the JAR through JPype, in process or as `python -m generator`) and the Java tools.
LAUNCHERS = {
    "browser": {
        "sync_playwright",
        "async_playwright",
        "serve_host",
        "ExecutorProcess",
        "remote_debugging_chromium",
        "run_server",
        "Host",
    },
    "jvm": {"run_generator", "generate", "build_surface", "build_fixture_jar", "JavaReflector"},
}

# `[sys.executable, "-m", "generator", ...]`: a generator run in a subprocess.
_RUN_GENERATOR = ["-m", "generator"]


def _module_lanes(tree: ast.Module) -> set[str]:
    """The lanes a module's `pytestmark` puts every test of it in."""
    lanes: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Attribute) and sub.attr in LAUNCHERS:
                    lanes.add(sub.attr)
                elif isinstance(sub, ast.Attribute) and sub.attr in SLOW_MARKER_LANES:
                    lanes.add(SLOW_MARKER_LANES[sub.attr])
    return lanes


def _unmarked_launches(tree: ast.Module) -> dict[str, set[str]]:
    """Each lane whose launchers the module names outside the fixtures LANE_FIXTURES lists, with
    the names, unless its `pytestmark` covers that lane."""
    marked = _module_lanes(tree)
    inside_lane_fixtures = {
        id(sub)
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in LANE_FIXTURES
        for sub in ast.walk(node)
    }
    found: dict[str, set[str]] = {}
    for sub in ast.walk(tree):
        if id(sub) in inside_lane_fixtures:
            continue
        name = (
            sub.id
            if isinstance(sub, ast.Name)
            else sub.attr
            if isinstance(sub, ast.Attribute)
            else None
        )
        for lane, names in LAUNCHERS.items():
            if name in names and lane not in marked:
                found.setdefault(lane, set()).add(name)
        if isinstance(sub, ast.List | ast.Tuple) and "jvm" not in marked:
            words = [e.value for e in sub.elts if isinstance(e, ast.Constant)]
            if any(words[i : i + 2] == _RUN_GENERATOR for i in range(len(words))):
                found.setdefault("jvm", set()).add("-m generator")
    return found


def test_modules_that_start_browsers_or_jvms_are_marked() -> None:
    unmarked = {
        path.relative_to(TESTS).as_posix(): found
        for path in sorted(TESTS.rglob("test_*.py"))
        if "fixtures" not in path.parts
        and path.name != Path(__file__).name
        and (found := _unmarked_launches(ast.parse(path.read_text(), str(path))))
    }
    assert unmarked == {}, (
        "these modules start a browser or a JVM but `make check` would run them: give each a "
        "`pytestmark = [pytest.mark.<lane>]` (or start it in a fixture named in LANE_FIXTURES)"
    )


def test_the_static_check_sees_an_unmarked_launch() -> None:
    unmarked = ast.parse(
        "from playwright.sync_api import sync_playwright\ndef test_x(): sync_playwright()\n"
    )
    marked = ast.parse("import pytest\npytestmark = [pytest.mark.browser]\nsync_playwright()\n")
    assert _unmarked_launches(unmarked) == {"browser": {"sync_playwright"}}
    assert _unmarked_launches(marked) == {}


def _named(tmp_path: Path, name: str) -> Path:
    """A copy of `sleep` called `name`: a process the watch takes for a browser or a JVM."""
    sleep = shutil.which("sleep")
    assert sleep is not None
    copy = tmp_path / name
    shutil.copy(sleep, copy)
    return copy


@pytest.mark.parametrize(("name", "lane"), [("chromium", "browser"), ("java", "jvm")])
def test_a_process_below_is_seen_in_its_lane(tmp_path: Path, name: str, lane: str) -> None:
    # Below a shell of its own: in `make test` the worker has browsers of other modules below it
    # too, which are not this test's to count. (`; wait` keeps the shell from exec'ing the child.)
    named = _named(tmp_path, name)
    shell = subprocess.Popen(["sh", "-c", f"'{named}' 30 & wait"], start_new_session=True)
    try:
        wait_until(lambda: descendants_in_lanes(shell.pid) == {lane})
    finally:
        os.killpg(shell.pid, signal.SIGKILL)
        shell.wait()
    assert descendants_in_lanes(shell.pid) == set()


def wait_until(condition: Callable[[], bool], deadline_s: float = 30.0) -> None:
    """Poll `condition` until it holds (the shell starts its child in its own time)."""
    give_up = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < give_up, "the condition did not hold in time"
        time.sleep(0.05)


def test_check_lane_fails_a_test_that_starts_a_browser(tmp_path: Path) -> None:
    """The watch run as `make check` runs it: an unmarked test whose child is a "chromium" errs
    at its teardown with the marker to add; the same test marked `browser` is deselected."""
    fake = _named(tmp_path, "chromium")
    (tmp_path / "test_slips.py").write_text(
        "import subprocess, time\n"
        "import pytest\n"
        "def start():\n"
        f"    child = subprocess.Popen([{str(fake)!r}, '30'])\n"
        "    time.sleep(1)\n"
        "    child.kill(); child.wait()\n"
        "def test_slips():\n"
        "    start()\n"
        "@pytest.mark.browser\n"
        "def test_marked():\n"
        "    start()\n"
        "def test_fast():\n"
        "    assert True\n"
    )
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    command += ["--rootdir", str(tmp_path), "-c", os.devnull, "-p", "conftest", "-m"]
    command += ["not browser and not jvm", str(tmp_path / "test_slips.py")]
    env = {**os.environ, CHECK_LANE_ENV: "check", "PYTHONPATH": str(TESTS)}
    run = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        "ERROR test_slips.py::test_slips - test_slips.py::test_slips started browser" in run.stdout
    )
    assert "pytest.mark.browser" in run.stdout
    summary = run.stdout.splitlines()[-1]
    assert all(part in summary for part in ("2 passed", "1 deselected", "1 error")), summary


def test_the_longest_first_order_names_test_files_that_exist() -> None:
    """conftest's LONGEST_FIRST is matched against node ids: a renamed or moved file would fall
    silently back to the collected order, and its worker would again end the run alone."""
    from conftest import LONGEST_FIRST

    repo = TESTS.parent
    missing = [path for path in LONGEST_FIRST if not (repo / path).is_file()]
    assert missing == [], "rename these in tests/conftest.py's LONGEST_FIRST"
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
