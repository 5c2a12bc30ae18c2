"""The two test lanes: `make check` runs every test that starts no browser and no JVM, `make test`
runs them all. A test is in the slow lane when it carries the `browser` or `jvm` marker;
tests/conftest.py adds those from what a test uses (LANE_FIXTURES, the slow markers) and from a
module's own `pytestmark`. tests/test_lanes.py checks statically that a module which starts a
browser or a JVM itself is marked, and the `ProcessWatch` below checks at run time, in `make
check`, that no selected test starts one: a test that slipped through fails there, naming itself.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

# Fixtures that start a browser or a JVM (or a host that starts one for each session), by the
# lane they put a test in. A test using one is marked whatever its module says.
LANE_FIXTURES = {
    # tests/conftest.py: a generation reflects on the JAR through JPype.
    "java_surface": "jvm",
    "generated_tree": "jvm",
    "generated_package": "jvm",
    # tests/host_tests/conftest.py, tests/host_agent/conftest.py, tests/peer_suite/conftest.py,
    # tests/host_executor/conftest.py: a served host or executor and the browsers it launches.
    "served": "browser",
    "agent_host": "browser",
    "host": "browser",
    "service": "browser",
}

# The slow markers of pyproject.toml, each in the lane of what it starts.
SLOW_MARKER_LANES = {
    "kotlin": "jvm",
    "build": "jvm",
    "grid": "browser",
    "scaleout": "browser",
    "container": "browser",
}

# Set by `make check`: the run is the fast lane, and the watch below is on.
CHECK_LANE_ENV = "PLAYWRIGHT_TOOL_TEST_LANE"

# Process names (/proc/<pid>/comm) of a browser or a JVM started below a test worker.
_LANE_OF_PROCESS = {
    "chromium": "browser",
    "chrome": "browser",
    "headless_shell": "browser",
    "chromium-headle": "browser",  # Debian's chromium-headless-shell, cut to comm's 15 characters
    "java": "jvm",
}


def in_check_lane() -> bool:
    return os.environ.get(CHECK_LANE_ENV) == "check"


def _processes() -> dict[int, tuple[int, str]]:
    """Every process as pid -> (parent pid, name), read from /proc (Linux only)."""
    found: dict[int, tuple[int, str]] = {}
    if not os.path.isdir("/proc"):  # no /proc to read: the static check of test_lanes.py remains
        return found
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        found[int(entry.name)] = (int(stat[stat.rindex(")") + 2 :].split()[1]), name)
    return found


def _has_jvm(pid: int) -> bool:
    """Whether process `pid` has loaded a JVM (libjvm.so, as JPype does)."""
    try:
        with open(f"/proc/{pid}/maps", "rb") as maps:
            return any(b"/libjvm.so" in line for line in maps)
    except OSError:  # gone meanwhile, or not ours to read
        return False


def descendants_in_lanes(root: int) -> set[str]:
    """The lanes of the browsers and JVMs running below process `root`."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    lanes: set[str] = set()
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        name = processes[pid][1]
        lane = _LANE_OF_PROCESS.get(name)
        if lane:
            lanes.add(lane)
        elif name.startswith("python") and _has_jvm(pid):
            lanes.add("jvm")  # `python -m generator` and the like: JPype's JVM runs inside
        stack.extend(children.get(pid, []))
    return lanes


def jvm_in_process() -> bool:
    """Whether this process started JPype's JVM (only asked when jpype is already imported)."""
    jpype = sys.modules.get("jpype")
    return bool(jpype is not None and jpype.isJVMStarted())


class ProcessWatch:
    """Looks every `interval` seconds for a browser or a JVM below this process and charges it to
    the test running then. A process that lives shorter than the interval can escape it, and so
    can JPype's JVM when an earlier test of the worker started it (a process has one, for good);
    the static check of tests/test_lanes.py covers what a module names."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.current: str | None = None
        self._jvm_before = False
        self.seen: dict[str, set[str]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lane-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        me = os.getpid()
        while not self._stop.wait(self.interval):
            test = self.current
            if test is None:
                continue
            lanes = descendants_in_lanes(me)
            if lanes:
                self.seen.setdefault(test, set()).update(lanes)

    def start(self, test: str) -> None:
        self._jvm_before = jvm_in_process()
        self.current = test

    def finish(self, test: str) -> set[str]:
        """The lanes seen while `test` ran (one last look included), forgotten afterwards."""
        lanes = self.seen.pop(test, set()) | descendants_in_lanes(os.getpid())
        if jvm_in_process() and not self._jvm_before:
            lanes.add("jvm")
        self.current = None
        return lanes

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
