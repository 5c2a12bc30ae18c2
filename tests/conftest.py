"""Shared fixtures: the real Playwright JAR and surfaces, generation into temp dirs, a page server."""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lanes import LANE_FIXTURES, SLOW_MARKER_LANES, ProcessWatch, in_check_lane
from local_server import serve

from generator.commands.cli import main as run_generator
from generator.read.allowlist import load_allowlist
from generator.read.jar_resolver import ResolvedJar, resolve_jar
from generator.read.java_model import JavaSurface
from generator.read.java_surface import build_surface
from generator.read.python_api import PythonSurface, read_python_surface
from generator.shared.targets import TARGETS

REPO = Path(__file__).resolve().parent.parent
# The Playwright version the project pins: tests name it through this, so a bump changes one file.
PINNED = load_allowlist(REPO / "allowlist.yaml").playwright_version
CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium: what the host, the executor and `replay` launch unless told otherwise."""
HEADLESS_CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
"""Debian's build of the same Chromium release for headless use only (scripts/setup.sh installs
both): the browser Playwright itself launches for headless Chromium. The binary, not
/usr/bin/chromium-headless-shell: that script runs it without `exec`, so a signal to the browser
Playwright started would reach the script and leave the browser running. A page costs a third
of the CPU it costs in CHROMIUM (0.24 against 0.82 CPU-s for a context, a page, a navigation and
a close; a launch 0.33 against 0.95), so the tests that drive a browser run this one, and the
tests of what a default or a typed command launches keep CHROMIUM."""
BROWSER_NAMES = frozenset({b"chromium", b"chromium-headless-shell"})
"""The file names of the two browsers' binaries, as a browser process's `argv[0]` ends."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# `make test` runs `-n 3 --dist loadfile`, which hands whole files to the workers in collection
# order: a long file collected last runs alone at the end while the other worker idles. So the
# longest files go first, longest first (wall seconds in `make test` on 2026-11-28, two workers,
# before the browser tests moved to the headless shell: e2e sync 395, async 374, kotlin 148, ...
# down to 47; with three workers on the shell, both cores stayed busy to the run's last 10 s),
# then every other slow-marked test, then the rest in collected order: the short files even the
# workers out at the end.
LONGEST_FIRST = (
    "tests/test_e2e_sync.py",
    "tests/test_e2e_async.py",
    "tests/test_kotlin.py",
    "tests/host_tests/test_hostile_runtime.py",
    "tests/test_build_step.py",
    "tests/test_hostile_cache.py",
    "tests/host_tests/test_early_answers.py",
    "tests/host_executor/test_service.py",
    "tests/test_python_layout.py",
    "tests/host_tests/test_peer_tools.py",
    "tests/host_agent/test_peer_behaviours.py",
    "tests/host_tests/test_trails.py",
    "tests/test_jar_resolution.py",
    "tests/host_tests/test_host_reliability.py",
    "tests/host_tests/test_host_options.py",
    "tests/host_tests/test_hostile_round5_files.py",
    "tests/host_tests/test_hostile_round4.py",
    "tests/test_maven_example.py",
    "tests/host_tests/test_docs_run_host.py",
    "tests/test_hostile_text.py",
    "tests/host_agent/test_settle.py",
    "tests/host_tests/test_host_endpoints.py",
)
SLOW_MARKERS = tuple(SLOW_MARKER_LANES)


def _run_order(item: pytest.Item) -> int:
    rank = _LONGEST_RANK.get(item.nodeid.split("::", 1)[0])
    if rank is not None:
        return rank
    slow = any(item.get_closest_marker(m) for m in SLOW_MARKERS)
    return len(LONGEST_FIRST) + (0 if slow else 1)


_LONGEST_RANK = {path: rank for rank, path in enumerate(LONGEST_FIRST)}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test's lane markers (tests/lanes.py) added; then the longest files first, slow-marked
    tests next, everything else in its collected order (the sort is stable)."""
    for item in items:
        lanes = {LANE_FIXTURES[f] for f in getattr(item, "fixturenames", ()) if f in LANE_FIXTURES}
        lanes |= {lane for m, lane in SLOW_MARKER_LANES.items() if item.get_closest_marker(m)}
        for lane in sorted(lanes - {m.name for m in item.iter_markers()}):
            item.add_marker(lane)
    items.sort(key=_run_order)


_LANE_WATCH = pytest.StashKey[ProcessWatch]()


def pytest_configure(config: pytest.Config) -> None:
    if in_check_lane():
        config.stash[_LANE_WATCH] = ProcessWatch()


def pytest_unconfigure(config: pytest.Config) -> None:
    watch = config.stash.get(_LANE_WATCH, None)
    if watch is not None:
        watch.stop()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    watch = item.config.stash.get(_LANE_WATCH, None)
    # The watch's own tests start processes named like browsers on purpose.
    if watch is not None and item.path.name != "test_lanes.py":
        watch.start(item.nodeid)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In `make check`, a test that started a browser or a JVM fails after its teardown, naming
    the marker it lacks: the fast lane stays fast and a new slow test cannot hide in it."""
    outcome = yield
    watch = item.config.stash.get(_LANE_WATCH, None)
    if watch is None or call.when != "teardown":
        return
    lanes = watch.finish(item.nodeid) if watch.current == item.nodeid else set()
    if lanes:
        report = outcome.get_result()  # type: ignore[attr-defined]
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} started {' and '.join(sorted(lanes))} processes but runs in `make "
            f"check`: mark it ({', '.join(f'pytest.mark.{lane}' for lane in sorted(lanes))}, "
            "e.g. a module's `pytestmark`) or add the fixture that starts them to LANE_FIXTURES "
            "in tests/lanes.py"
        )


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test session starts from an empty generator cache of its own."""
    root = tmp_path_factory.mktemp("generator-cache")
    previous = os.environ.get("PLAYWRIGHT_TOOL_GENERATOR_CACHE")
    os.environ["PLAYWRIGHT_TOOL_GENERATOR_CACHE"] = str(root)
    yield root
    if previous is None:
        del os.environ["PLAYWRIGHT_TOOL_GENERATOR_CACHE"]
    else:
        os.environ["PLAYWRIGHT_TOOL_GENERATOR_CACHE"] = previous


@pytest.fixture(scope="session")
def pinned_version() -> str:
    return PINNED


@pytest.fixture(scope="session")
def real_jar(pinned_version: str) -> ResolvedJar:
    return resolve_jar(pinned_version, None)


_SEED_LIMIT = 512 * 1024 * 1024


@pytest.fixture(scope="session")
def maven_without_playwright(
    real_jar: ResolvedJar, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The Maven repository this session resolved the JAR through, copied without any
    com.microsoft.playwright artifact: mvn's own plugins are present, so a test of a missing version
    spends its time on the lookup instead of downloading maven-dependency-plugin again. A repository
    too big to copy quickly gives an empty seed (the test is then only slower)."""
    # Depending on real_jar makes mvn run (and fetch its plugins) before the copy is taken.
    source = Path(os.environ.get("MAVEN_REPO_LOCAL") or Path.home() / ".m2" / "repository")
    seed = tmp_path_factory.mktemp("maven-seed") / "repository"
    if not source.is_dir() or _size(source) > _SEED_LIMIT:
        seed.mkdir()
        return seed
    shutil.copytree(source, seed, ignore=_skip_playwright(source))
    return seed


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _skip_playwright(root: Path) -> Callable[[str, list[str]], list[str]]:
    playwright = root / "com" / "microsoft" / "playwright"

    def ignore(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if Path(folder, n) == playwright]

    return ignore


def seeded_maven(seed: Path, target: Path) -> Path:
    """A private copy of `seed` at `target`: mvn writes into it, so no two tests share one."""
    shutil.copytree(seed, target, dirs_exist_ok=True)
    return target


@pytest.fixture(scope="session")
def java_surface(real_jar: ResolvedJar, pinned_version: str) -> JavaSurface:
    interfaces = sorted(t.java_class for t in TARGETS.values())
    return build_surface(real_jar.jar, real_jar.sources, interfaces, pinned_version)


@pytest.fixture(scope="session")
def python_surface() -> PythonSurface:
    return read_python_surface()


def generate(out: Path, allowlist: Path | None = None, *extra: str) -> int:
    """Run the generator in-process (the JVM is shared by the test session)."""
    args = [
        "--allowlist",
        str(allowlist or REPO / "allowlist.yaml"),
        "--out",
        str(out),
        "-q",
        *extra,
    ]
    return run_generator(args)


@pytest.fixture(scope="session")
def generated_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh generation of the repository's allowlist, made once per session."""
    out = tmp_path_factory.mktemp("generated")
    assert generate(out) == 0
    return out


@pytest.fixture(scope="session")
def generated_package(generated_tree: Path) -> Iterator[Path]:
    """Make the freshly generated `playwright_tools` importable."""
    path = str(generated_tree / "python")
    sys.path.insert(0, path)
    for name in [m for m in sys.modules if m.startswith("playwright_tools")]:
        del sys.modules[name]
    yield generated_tree / "python"
    sys.path.remove(path)


# A resource the page server answers only after a while: a page that loads it stays loading (or
# changes) that long, so a browser case can tell a wait that waited from one that returned early.
# Only a wrong wait depends on the length; a right one passes however slow the machine is.
SLOW_PATH, SLOW_S = "/slow", 1.0


@dataclass
class PageServer:
    """An HTTP server on 127.0.0.1 that serves `pages` and records the headers of every request;
    SLOW_PATH is answered ("ok") after SLOW_S seconds."""

    pages: dict[str, str] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    origin: str = ""

    def url(self, path: str) -> str:
        return self.origin + path

    def headers_for(self, path: str) -> list[dict[str, str]]:
        return [headers for p, headers in self.requests if p == path]


@pytest.fixture(scope="session")
def page_server() -> Iterator[PageServer]:
    state = PageServer()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            path = self.path.split("?")[0]
            if path == SLOW_PATH:
                time.sleep(SLOW_S)
            body = state.pages.get(path, "ok").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = serve(Handler)
    state.origin = server.origin
    yield state
    server.stop()


_CACHES = {"__pycache__", ".mypy_cache", ".ruff_cache"}


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by relative path (caches that tools drop beside sources excepted)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not _CACHES & set(p.relative_to(root).parts)
    }


def require_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"'{name}' is not installed; .ci/run installs it")
    return path


def run_checked(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
