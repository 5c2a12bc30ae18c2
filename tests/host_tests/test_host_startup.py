"""The host's start (issue 23): a stdio host imports what stdio needs and no more, a generated
tool's module is imported when the tool is first called, and the browser starts in the background
while a launch that fails is still reported by the first call. Nothing here is timed: the start's
speed is measured by benchmarks/host_bench.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import queue
import stat
import subprocess
import textwrap
import threading
import time
import uuid
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from host.browsers.browser import BrowserPool
from host.calls.core import Host
from host.commands.cli import build_parser, subcommands
from host.commands.entry import NOT_EARLY, starts_driver_early
from host.sessions.keys import SessionKey
from host_tests.host_helpers import (
    CHROMIUM,
    PYTHON,
    REPO,
    LoopThread,
    drivers_below,
    host_config,
    marked_processes,
    wait_until,
)

pytestmark = pytest.mark.browser

STDIO = SessionKey("stdio", "stdio")
T = TypeVar("T")

# -- a stdio host spoken to in raw JSON-RPC ------------------------------------------------------


class RawStdio:
    """A stdio host process; one request at a time, answers read by a thread (never blocks)."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            command,
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr = b""
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.answers.put(json.loads(line))

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read()

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params or {}})
        while True:
            answer = self.answers.get(timeout=90)
            if answer.get("id") == self.next_id:
                assert "result" in answer, answer
                return answer["result"]  # type: ignore[no-any-return]

    def handshake(self) -> None:
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "startup-test", "version": "1"},
            },
        )
        self.send({"method": "notifications/initialized"})

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self) -> int:
        """Close stdin (the client is gone) and wait for the host to exit."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            return self.process.wait(60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(30)


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result["content"])


# What a stdio host runs as, writing the names of the modules it imported when it exits.
MODULES_AT_EXIT = textwrap.dedent(
    """
    import atexit, json, sys
    out = sys.argv[1]
    atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
    from host.commands.cli import main
    sys.exit(main(["serve", "--stdio", *sys.argv[2:]]))
    """
)


def family(modules: list[str], name: str) -> list[str]:
    return [m for m in modules if m == name or m.startswith(name + ".")]


def test_a_stdio_host_imports_only_what_stdio_needs(tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    host = RawStdio([PYTHON, "-c", MODULES_AT_EXIT, str(out), "--toolset", "all"])
    try:
        host.handshake()
        listed = host.request("tools/list")
        assert len(listed["tools"]) > 150
        title = host.call("web_title", {})
        assert not title["isError"], title
        blank = host.call("evaluate", {"expression": "() => 6 * 7"})
        assert not blank["isError"] and blank["structuredContent"]["result"] == 42, blank
    finally:
        assert host.close() == 0, host.stderr[-2000:]
    modules = json.loads(out.read_text())
    # Neither the SDK's client side (nor the HTTP client it brings), its high-level server, its
    # own stdio transport, nor the host's HTTP transport.
    for unwanted in (
        "mcp.client",
        "httpx",
        "mcp.server.mcpserver",
        "mcp.server.stdio",
        "host.transports.http_app",
        "host.transports.http_server",
        "jsonschema",
    ):
        assert not family(modules, unwanted), family(modules, unwanted)
    # One generated tool was called: its module alone was imported, not the registry of all.
    assert "playwright_tools.registry" not in modules
    tools = [m for m in modules if m.startswith("playwright_tools.tools.")]
    assert tools == ["playwright_tools.tools.web_title"]


LAZY_TOOLS = textwrap.dedent(
    """
    import json, sys
    from host.calls import generated
    from host.calls.registry import ToolRegistry

    def loaded():
        return sorted(m for m in sys.modules if m.startswith("playwright_tools.tools."))

    seen = {}
    registry = ToolRegistry()
    registry.select(["all"])
    seen["after_listing"] = loaded()
    registry.prepare(registry.lookup("web_title", None), {})
    seen["after_one"] = loaded()
    registry.prepare(registry.lookup("web_locator_click", None), {"selector": "#b"})
    seen["after_two"] = loaded()
    try:
        registry.prepare(registry.lookup("web_locator_click", None), {"selector": 1})
    except Exception as error:
        seen["refused"] = getattr(error, "code", repr(error))
    seen["registry_imported"] = "playwright_tools.registry" in sys.modules
    import playwright_tools  # the package's own names still work, its __init__ runs now
    seen["all_tools"] = len(playwright_tools.TOOLS)
    seen["same_class"] = playwright_tools.TOOLS["web_title"] is generated.shim_class("web_title")
    print(json.dumps(seen))
    """
)


def test_a_generated_tool_module_is_imported_when_the_tool_is_first_called() -> None:
    done = subprocess.run(
        [PYTHON, "-c", LAZY_TOOLS], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["after_listing"] == []
    assert seen["after_one"] == ["playwright_tools.tools.web_title"]
    assert seen["after_two"] == [
        "playwright_tools.tools.web_locator_click",
        "playwright_tools.tools.web_title",
    ]
    assert seen["refused"] == "invalid_argument"
    assert seen["registry_imported"] is False
    assert seen["all_tools"] > 150 and seen["same_class"] is True


# -- deferred package __init__ files -------------------------------------------------------------

DEFERRED = textwrap.dedent(
    """
    import json, sys
    import tracker
    from host.shared.lazy_packages import defer_init, is_deferred

    seen = {}
    seen["deferred"] = defer_init("pkg.sub")
    seen["both_deferred"] = is_deferred("pkg") and is_deferred("pkg.sub")
    import pkg.sub.leaf
    seen["leaf_alone"] = list(tracker.events)
    seen["dunder_probe"] = hasattr(pkg, "__wrapped__")
    seen["submodule_as_attribute"] = pkg.light.VALUE
    seen["still_alone"] = list(tracker.events)
    from pkg.sub import SUB_NAME
    seen["sub_init"] = [SUB_NAME, list(tracker.events), is_deferred("pkg"), is_deferred("pkg.sub")]
    from pkg import NAME
    seen["pkg_init"] = [NAME, list(tracker.events), is_deferred("pkg")]
    seen["again"] = defer_init("pkg")
    print(json.dumps(seen))
    """
)


def test_a_deferred_package_init_runs_when_one_of_its_names_is_asked_for(tmp_path: Path) -> None:
    files = {
        "tracker.py": "events = []\n",
        "pkg/__init__.py": "import tracker\ntracker.events.append('pkg')\nimport pkg.heavy\nNAME = 'pkg name'\n",
        "pkg/heavy.py": "import tracker\ntracker.events.append('heavy')\n",
        "pkg/light.py": "import tracker\ntracker.events.append('light')\nVALUE = 7\n",
        "pkg/sub/__init__.py": "import tracker\ntracker.events.append('sub')\nSUB_NAME = 'sub name'\n",
        "pkg/sub/leaf.py": "import tracker\ntracker.events.append('leaf')\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}"}
    done = subprocess.run(
        [PYTHON, "-c", DEFERRED], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["deferred"] is True and seen["both_deferred"] is True
    assert seen["leaf_alone"] == ["leaf"]
    assert seen["dunder_probe"] is False
    assert seen["submodule_as_attribute"] == 7
    assert seen["still_alone"] == ["leaf", "light"]
    assert seen["sub_init"] == ["sub name", ["leaf", "light", "sub"], True, False]
    assert seen["pkg_init"] == ["pkg name", ["leaf", "light", "sub", "pkg", "heavy"], False]
    assert seen["again"] is False


# -- the browser started in the background ------------------------------------------------------


@pytest.fixture
def failing_browser(tmp_path: Path) -> Path:
    """A "browser" that exits at once, as a missing or broken Chromium does."""
    path = tmp_path / "chromium"
    path.write_text("#!/bin/sh\necho 'this browser cannot start' >&2\nexit 1\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


async def _warmed(host: Host, key: SessionKey | None) -> None:
    await host.start()
    await host.warm(key)


def submit(loop: LoopThread, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
    """Start `coroutine` on the loop without waiting for it."""
    return asyncio.run_coroutine_threadsafe(coroutine, loop.loop)


def test_a_background_launch_that_failed_is_reported_by_the_first_call(
    loop: LoopThread, failing_browser: Path
) -> None:
    ahead = Host(host_config(executable_path=str(failing_browser)))
    on_demand = Host(host_config(executable_path=str(failing_browser)))
    try:
        loop.run(_warmed(ahead, STDIO))  # the launch has failed before any call
        loop.run(on_demand.start())
        first = loop.run(ahead.call(STDIO, "web_title", {}))
        expected = loop.run(on_demand.call(STDIO, "web_title", {}))
        assert first.error is not None and first.error.code == "browser_unavailable", first.text()
        assert expected.error is not None
        assert (first.error.code, first.error.message) == (
            expected.error.code,
            expected.error.message,
        )
        assert ahead.sessions.get(STDIO) is None
    finally:
        loop.run(ahead.close(), 60)
        loop.run(on_demand.close(), 60)


def test_a_call_that_arrives_during_a_background_launch_waits_for_it(
    loop: LoopThread, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    gate.touch()
    browser = tmp_path / "chromium"
    # Blocks until the test opens the gate, then fails: the call is in flight meanwhile.
    browser.write_text(
        f'#!/bin/sh\nwhile [ -e "{gate}" ]; do sleep 0.05; done\necho cannot start >&2\nexit 1\n'
    )
    browser.chmod(browser.stat().st_mode | stat.S_IEXEC)
    host = Host(host_config(executable_path=str(browser), launch_timeout=60.0))
    try:
        warming = submit(loop, _warmed(host, STDIO))
        call = submit(loop, host.call(STDIO, "web_title", {}))
        gate.unlink()
        outcome = call.result(120)
        assert outcome.error is not None and outcome.error.code == "browser_unavailable", (
            outcome.text()
        )
        warming.result(120)
        assert host.pool.launches == 0 and host.sessions.created == 0
    finally:
        loop.run(host.close(), 60)


def test_a_session_made_ahead_of_the_first_call_is_that_calls_session(loop: LoopThread) -> None:
    host = Host(host_config())
    try:
        loop.run(_warmed(host, STDIO))
        assert host.sessions.created == 1
        first = loop.run(host.call(STDIO, "web_title", {}))
        assert first.ok and "session" not in first.extras, first.text()
        assert host.sessions.created == 1
    finally:
        loop.run(host.close(), 60)


def test_a_session_made_ahead_and_closed_unused_is_no_news_to_the_first_call(
    loop: LoopThread,
) -> None:
    host = Host(host_config())
    later = time.monotonic() + 10**6
    try:
        loop.run(_warmed(host, STDIO))
        assert loop.run(host.sessions.reap_idle(now=later)) == 1  # idle, never used
        first = loop.run(host.call(STDIO, "web_title", {}))
        assert first.ok and "session" not in first.extras, first.text()
        # A session that a call used is news when it is closed for idleness, as before.
        assert loop.run(host.sessions.reap_idle(now=later)) == 1
        second = loop.run(host.call(STDIO, "web_title", {}))
        assert second.ok and second.extras["session"]["new"] is True, second.text()
        assert "idle" in second.extras["session"]["reason"]
    finally:
        loop.run(host.close(), 60)


def test_a_stdio_host_whose_browser_cannot_start_answers_the_first_call(
    failing_browser: Path,
) -> None:
    host = RawStdio(
        [PYTHON, "-m", "host", "serve", "--stdio", "--executable-path", str(failing_browser)]
    )
    try:
        host.handshake()
        for _ in range(2):  # the stored failure, or a new launch that fails again
            result = host.call("navigate", {"url": "about:blank"})
            assert result["isError"] is True, result
            assert text_of(result).startswith("Error [browser_unavailable]"), text_of(result)
    finally:
        assert host.close() == 0, host.stderr[-2000:]
    assert b"Traceback" not in host.stderr, host.stderr[-2000:]


def test_a_stdio_host_closed_while_its_browser_starts_exits_and_leaves_nothing() -> None:
    mark = f"host-startup-test-{uuid.uuid4().hex}"
    host = RawStdio(
        [PYTHON, "-m", "host", "serve", "--stdio", "--executable-path", CHROMIUM],
        env={**os.environ, "HOST_STARTUP_TEST_MARK": mark},
    )
    host.handshake()  # the browser is starting (or has started) in the background
    assert host.close() == 0, host.stderr[-2000:]
    wait_until(lambda: not marked_processes(mark), "the driver and the browser to exit", 60)
    assert b"Traceback" not in host.stderr, host.stderr[-2000:]


CLOSE_WHILE_STARTING = textwrap.dedent(
    """
    import asyncio, sys
    from host.browsers.browser import BrowserPool
    from host.settings.config import HostConfig

    async def main(turns):
        pool = BrowserPool(HostConfig())
        pool.launch_soon()
        launch = asyncio.ensure_future(pool.browser())
        for _ in range(turns):
            await asyncio.sleep(0)
        await pool.close()
        launch.cancel()
        await asyncio.gather(launch, return_exceptions=True)
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        print(len(left), pool._playwright is None or pool._driver is None)

    for turns in (0, 5, 50):
        asyncio.run(main(turns))  # returns: no task of Playwright's is left to wait for
    """
)


def test_a_pool_closed_while_its_driver_starts_leaves_no_task_behind() -> None:
    done = subprocess.run(
        [PYTHON, "-c", CLOSE_WHILE_STARTING],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True"] * 3, done.stdout


def test_a_host_made_after_its_pool_launched_guards_the_browsers_cdp_port(
    loop: LoopThread,
) -> None:
    config = host_config(enable_execute=True)
    pool = BrowserPool(config)

    async def launch_then_host() -> Host:
        await pool.browser()
        return Host(config, None, pool)

    host = loop.run(launch_then_host())
    try:
        assert pool.cdp_port is not None and pool.cdp_port in host.guard.ports
    finally:
        loop.run(host.close(), 60)


# -- the driver started first (host/commands/entry.py, host/browsers/early_driver.py) ----------


@pytest.mark.parametrize(
    ("command", "early"),
    [
        ("serve --stdio", True),
        ("serve --stdio --toolset all --headless --max-sessions 3", True),
        ("serve --http 127.0.0.1:0", False),
        ("report", False),
        ("serve --stdio --cdp-endpoint http://127.0.0.1:9222", False),
        ("serve --stdio --cdp=http://127.0.0.1:9222", False),
        ("serve --stdio --browser-endpoint selenium+http://hub:4444", False),
        ("serve --stdio --brow ws://127.0.0.1:3000/", False),
        ("serve --stdio --config host.yaml", False),
        ("serve --stdio --save-video", False),
        ("serve --stdio -h", False),
        ("serve --stdio --help", False),
    ],
)
def test_which_command_lines_start_the_driver_first(command: str, early: bool) -> None:
    assert starts_driver_early(command.split()) is early


def test_the_options_that_keep_the_driver_from_starting_first_are_serves() -> None:
    serve = subcommands(build_parser()).choices["serve"]
    known = {name for action in serve._actions for name in action.option_strings}
    assert set(NOT_EARLY) <= known, set(NOT_EARLY) - known


@pytest.mark.parametrize("ending", ["stdin closed", "SIGTERM"])
def test_a_stdio_host_uses_the_driver_it_started_first_and_leaves_nothing(ending: str) -> None:
    mark = f"host-startup-test-{uuid.uuid4().hex}"
    host = RawStdio(
        [PYTHON, "-m", "host", "serve", "--stdio", "--log-level", "info"],
        env={**os.environ, "HOST_STARTUP_TEST_MARK": mark},
    )
    try:
        host.handshake()
        result = host.call("navigate", {"url": "data:text/html,<title>early</title>"})
        assert not result["isError"], result
        (driver,) = drivers_below(host.process.pid)
        if ending == "SIGTERM":
            host.process.terminate()
    finally:
        code = host.close()
    assert code == 0, host.stderr[-2000:]
    assert f"the driver started early (pid {driver}) is adopted".encode() in host.stderr
    wait_until(lambda: not marked_processes(mark), "the driver and the browser to exit", 60)
    assert b"Traceback" not in host.stderr, host.stderr[-2000:]


def _browser_among(pids: list[int]) -> bool:
    """Whether one of `pids` is Chromium (by its process name)."""
    for pid in pids:
        try:
            with open(f"/proc/{pid}/comm") as handle:
                if handle.read().strip() in ("chromium", "chrome", "headless_shell"):
                    return True
        except OSError:
            continue
    return False


@pytest.mark.parametrize("moment", ["the driver started", "the browser started"])
def test_a_stdio_host_ended_by_sigterm_as_it_starts_leaves_nothing(moment: str) -> None:
    """SIGTERM is the host's to handle from its first line (`host.commands.entry`): one that
    comes while the host starts ends it with status 0, the driver it started first killed and
    reaped (before, -15 and Node's own start to wait out before it saw its input closed)."""
    mark = f"host-startup-test-{uuid.uuid4().hex}"
    host = RawStdio(
        [PYTHON, "-m", "host", "serve", "--stdio"],
        env={**os.environ, "HOST_STARTUP_TEST_MARK": mark},
    )
    wait_until(lambda: drivers_below(host.process.pid), "the driver to start")
    if moment == "the browser started":
        wait_until(lambda: _browser_among(marked_processes(mark)), "the browser to start")
    host.process.terminate()
    assert host.close() == 0, host.stderr[-2000:]
    wait_until(lambda: not marked_processes(mark), "the driver and the browser to exit", 60)
    assert b"Traceback" not in host.stderr, host.stderr[-2000:]


# The command line, run as `playwright-tool-host` runs it; what became of the driver it started
# first once it returned: still running or a zombie (not reaped), or gone and reaped.
ENTRY_RETURNS = textwrap.dedent(
    """
    import os, sys
    from host.browsers import early_driver
    from host.commands import entry

    spawned = []
    spawn = early_driver.spawn

    def recording_spawn():
        spawn()
        spawned.append(early_driver.spawned_pid())

    early_driver.spawn = recording_spawn
    sys.argv = ["playwright-tool-host", *sys.argv[1:]]
    try:
        code = entry.main()
    except SystemExit as exit:  # argparse's way out
        code = exit.code
    (pid,) = spawned
    try:
        os.waitpid(pid, os.WNOHANG)
        print(code, "left running or unreaped")
    except ChildProcessError:
        print(code, "reaped")
    """
)


@pytest.mark.parametrize(
    ("option", "value"), [("--max-sessions", "0"), ("--idle-timeout", "100000")]
)
def test_a_serve_refused_after_the_driver_started_first_kills_and_reaps_it(
    option: str, value: str
) -> None:
    done = subprocess.run(
        [PYTHON, "-c", ENTRY_RETURNS, "serve", "--stdio", option, value],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.split() == ["2", "reaped"], (done.stdout, done.stderr[-2000:])
    assert option in done.stderr
