"""The environment of Playwright's driver (host/browsers/driver_env.py): Node's compile cache only in a
folder of this user's that nobody else can write to, a variable the user set left alone, and
extra variables that reach the one driver started with them, never `os.environ`. And the driver
started early (host/browsers/early_driver.py): the pool's driver start takes it when it is the
one Playwright would start, starts its own otherwise, and none is left running or unreaped."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright

from host.browsers import early_driver
from host.browsers.browser import BrowserPool
from host.browsers.driver_env import compile_cache_env, compile_cache_folder, driver_env
from host_tests.host_helpers import host_config, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _no_user_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NODE_COMPILE_CACHE", raising=False)


def test_the_folder_follows_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compile_cache_folder() == tmp_path / "playwright-tool-host" / "node-compile-cache"


def test_a_missing_folder_is_made_private(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "node-compile-cache"
    assert compile_cache_env(folder) == {"NODE_COMPILE_CACHE": str(folder)}
    assert folder.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("mode", [0o770, 0o757, 0o777])
def test_a_folder_others_can_write_to_is_not_used(tmp_path: Path, mode: int) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(mode)
    assert compile_cache_env(folder) == {}


def test_a_symlink_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert compile_cache_env(tmp_path / "link") == {}


def test_a_file_in_its_place_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert compile_cache_env(tmp_path / "file") == {}


def test_the_users_own_setting_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(tmp_path / "theirs"))
    assert compile_cache_env(tmp_path / "ours") == {}
    assert not (tmp_path / "ours").exists()


def test_the_driver_started_inside_fills_the_cache_and_os_environ_is_unchanged(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cache"

    async def start_and_stop() -> None:
        with driver_env(compile_cache_env(folder)):
            manager = async_playwright()
            driver = asyncio.ensure_future(manager.start())
        await driver
        await manager.__aexit__(None, None, None)

    asyncio.run(start_and_stop())
    assert "NODE_COMPILE_CACHE" not in os.environ
    # Node keeps its compiled code in a folder named by its version, written when it exits.
    kept = [p for p in folder.iterdir() if p.is_dir()]
    assert kept and any(f.is_file() for p in kept for f in p.rglob("*"))


def test_a_driver_started_outside_gets_no_cache(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with driver_env(compile_cache_env(folder)):
        pass

    async def start_and_stop() -> None:
        async with async_playwright():
            pass

    asyncio.run(start_and_stop())
    assert list(folder.iterdir()) == []


# -- the driver started early (host/browsers/early_driver.py) ----------------------------------


@pytest.fixture
def early() -> Iterator[None]:
    """A test's early driver is gone after it, adopted or not."""
    yield
    early_driver.discard()


def _reaped(pid: int) -> bool:
    """Whether `pid`, a child of this process, has exited and been waited for (no zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _state(pid: int) -> str:
    """A process's state letter (R, S, Z, ...) from /proc."""
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()[0]


def _pool_driver_pid(pool: BrowserPool) -> int:
    playwright: Any = pool._playwright
    return int(playwright._impl_obj._connection._transport._proc.pid)


async def _title_through(pool: BrowserPool) -> tuple[int, str]:
    """The pid of the pool's driver, and a page's title read through it; the pool closed."""
    try:
        browser = await pool.browser(60)
        page = await browser.new_page()
        await page.set_content("<title>through the early driver</title>")
        return _pool_driver_pid(pool), await page.title()
    finally:
        await pool.close()


def test_the_installed_transport_has_the_shape_the_early_driver_mirrors() -> None:
    """What early_driver relies on of Playwright's `PipeTransport`: if this fails, read the new
    transport and update early_driver (and its MIRRORED_VERSION) to match it."""
    from playwright._impl import _driver, _transport
    from playwright._repo_version import version

    assert version == early_driver.MIRRORED_VERSION
    connect = inspect.unwrap(_transport.PipeTransport.connect)
    assert inspect.iscoroutinefunction(connect)
    assert list(inspect.signature(connect).parameters) == ["self"]
    source = inspect.getsource(connect)
    for piece in (
        "env = get_driver_env()",
        "executable_path, entrypoint_path = compute_driver_executable()",
        "asyncio.create_subprocess_exec(\n                executable_path,\n"
        '                entrypoint_path,\n                "run-driver",',
        "stdin=asyncio.subprocess.PIPE",
        "stdout=asyncio.subprocess.PIPE",
        "stderr=_get_stderr_fileno()",
        f"limit={early_driver.READ_LIMIT}",
        "env=env",
        "self._stopped_future: asyncio.Future = asyncio.Future()",
        "self._output = self._proc.stdin",
    ):
        assert piece in source, piece
    # Of the process, the transport uses its input, its output and communicate(), nothing else.
    used = set(re.findall(r"self\._proc\.(\w+)", inspect.getsource(_transport.PipeTransport)))
    assert used == {"stdin", "stdout", "communicate"}, used
    # The driver and its environment, as early_driver spells them without importing _driver.
    node, cli = _driver.compute_driver_executable()
    folder = Path(_driver.__file__).parent.parent / "driver"
    assert (node, cli) == (str(folder / "node"), str(folder / "package" / "cli.js"))
    added = {k: v for k, v in _driver.get_driver_env().items() if os.environ.get(k) != v}
    assert set(added) == {"PW_LANG_NAME", "PW_LANG_NAME_VERSION", "PW_CLI_DISPLAY_VERSION"}


def test_the_pools_driver_is_the_one_started_early(early: None) -> None:
    early_driver.spawn()
    spawned = early_driver.spawned_pid()
    assert spawned is not None
    pid, title = asyncio.run(_title_through(BrowserPool(host_config())))
    assert (pid, title) == (spawned, "through the early driver")
    assert early_driver.adopted_pid() == spawned and early_driver.spawned_pid() is None
    # Stopping Playwright stopped and reaped it, as a driver of its own.
    assert _reaped(spawned)


@pytest.mark.parametrize("change", ["environment", "exited"])
def test_a_driver_started_early_that_differs_is_killed_and_playwright_starts_its_own(
    early: None, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    early_driver.spawn()
    spawned = early_driver.spawned_pid()
    assert spawned is not None
    if change == "environment":
        monkeypatch.setenv("EARLY_DRIVER_TEST", "changed after the spawn")
    else:
        os.kill(spawned, signal.SIGKILL)
        wait_until(lambda: _state(spawned) == "Z", "the killed driver to be a zombie")
    pid, title = asyncio.run(_title_through(BrowserPool(host_config())))
    assert title == "through the early driver"
    assert pid != spawned and early_driver.spawned_pid() is None
    assert _reaped(spawned)


def test_a_driver_start_outside_adopting_leaves_the_early_driver_to_discard(early: None) -> None:
    early_driver.spawn()
    spawned = early_driver.spawned_pid()
    assert spawned is not None

    async def start_and_stop() -> int:
        async with async_playwright() as playwright:
            return int(playwright._impl_obj._connection._transport._proc.pid)  # type: ignore[attr-defined]

    assert asyncio.run(start_and_stop()) != spawned
    assert early_driver.spawned_pid() == spawned and not _reaped(spawned)
    early_driver.discard()
    assert early_driver.spawned_pid() is None and _reaped(spawned)


def test_a_pool_whose_early_driver_died_starts_a_driver_of_its_own(early: None) -> None:
    """The adopted process is watched as Playwright's own: its death is seen, it is reaped, and
    the next launch starts a new driver."""
    early_driver.spawn()
    spawned = early_driver.spawned_pid()
    assert spawned is not None

    async def kill_and_relaunch() -> tuple[int, int, str | None]:
        pool = BrowserPool(host_config())
        try:
            await pool.browser(60)
            first = _pool_driver_pid(pool)
            os.kill(first, signal.SIGKILL)
            give_up = asyncio.get_running_loop().time() + 30
            while pool.loss() is None and asyncio.get_running_loop().time() < give_up:
                await asyncio.sleep(0.05)
            loss = pool.loss()
            page = await (await pool.browser(60)).new_page()
            await page.close()
            return first, _pool_driver_pid(pool), loss
        finally:
            await pool.close()

    first, second, loss = asyncio.run(kill_and_relaunch())
    assert first == spawned and second != spawned
    assert loss == "Playwright's driver exited"
    assert _reaped(spawned)
