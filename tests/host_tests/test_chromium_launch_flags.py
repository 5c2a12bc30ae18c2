"""The Chromium features a launch turns off, in a real Chromium launched by the host's pool: no
omnibox WebUI page in a new context's window (where a Chromium launched without the flag has
one), and Playwright's own features still off (the executor's extra feature, the spare renderer,
is checked on its arguments in test_chromium_features.py and measured by executor_bench)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS
from playwright.async_api import Browser, async_playwright

from host.browsers.browser import BrowserPool
from host.browsers.chromium_features import (
    FLAG,
    NO_SPARE_RENDERER,
    PLAYWRIGHT_DISABLED_FEATURES,
    UNSHOWN_UI,
)
from host.settings.config import HostConfig

pytestmark = pytest.mark.browser


def _process_args(pid: int) -> list[str]:
    """A process's arguments ([] once it exited: Chromium's helpers come and go)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    # Chromium's helpers rewrite their title into one string: split on spaces too.
    return raw.decode().replace("\0", " ").split()


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found.update(int(child) for child in (task / "children").read_text().split())
    except OSError:
        return found  # exited meanwhile
    for child in list(found):
        found |= _descendants(child)
    return found


def _browsers() -> dict[int, list[str]]:
    """The Chromium browser processes this test process started (a worker may hold others, of
    earlier tests), by pid."""
    found = {pid: _process_args(pid) for pid in _descendants(os.getpid())}
    return {
        pid: args
        for pid, args in found.items()
        if "--remote-debugging-pipe" in args and not any(a.startswith("--type=") for a in args)
    }


def _chromium_features(browser: int) -> tuple[list[str], set[str]]:
    """The `--disable-features` flags of the Chromium `browser`, and the features its helper
    processes were told are off (what Chromium made of those flags)."""
    flags = [a for a in _process_args(browser) if a.startswith(FLAG)]
    helpers = [_process_args(pid) for pid in _descendants(browser)]
    applied = {
        name
        for args in helpers
        if any(a.startswith("--type=") for a in args)
        for a in args
        if a.startswith(FLAG)
        for name in a[len(FLAG) :].split(",")
    }
    return flags, applied


async def _omnibox_pages(browser: Browser) -> list[str]:
    """The omnibox WebUI pages once a new context's first page is open (a new window's popup
    is made with the window, before `new_page` returns)."""
    context = await browser.new_context()
    try:
        await context.new_page()
        session = await browser.new_browser_cdp_session()
        targets = (await session.send("Target.getTargets"))["targetInfos"]
        await session.detach()
        return [t["url"] for t in targets if "omnibox" in t["url"]]
    finally:
        await context.close()


async def _plain_and_hosts() -> tuple[list[str], list[str], tuple[list[str], set[str]]]:
    """The omnibox pages of a Chromium launched by Playwright alone, then of the host's."""
    async with async_playwright() as playwright:
        plain = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        control = await _omnibox_pages(plain)
        await plain.close()
    before = set(_browsers())
    pool = BrowserPool(HostConfig())
    try:
        browser = await pool.browser()
        (launched,) = set(_browsers()) - before
        return control, await _omnibox_pages(browser), _chromium_features(launched)
    finally:
        await pool.close()


def test_a_hosts_chromium_has_no_omnibox_page_and_keeps_playwrights_features() -> None:
    control, omnibox, (flags, applied) = asyncio.run(_plain_and_hosts())
    assert control, "Chromium without the flag made no omnibox page: the check would prove nothing"
    assert omnibox == []
    # Playwright's flag first, the host's last: the one Chromium reads.
    assert flags[-1] == FLAG + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, *UNSHOWN_UI))
    assert {*PLAYWRIGHT_DISABLED_FEATURES, *UNSHOWN_UI} <= applied
    assert NO_SPARE_RENDERER[0] not in applied
