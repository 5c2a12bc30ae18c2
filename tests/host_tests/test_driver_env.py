"""The environment of Playwright's driver (host/browsers/driver_env.py): Node's compile cache only in a
folder of this user's that nobody else can write to, a variable the user set left alone, and
extra variables that reach the one driver started with them, never `os.environ`."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from host.browsers.driver_env import compile_cache_env, compile_cache_folder, driver_env

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
