"""`dispatch` and `adispatch` take a deadline: a call that would never return (a promise that never
settles, a script that loops forever, Playwright's `timeout: 0` on a selector that never appears)
ends with `deadline_exceeded`, and the same page answers the next call."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Iterator

import pytest
from conftest import CHROMIUM_ARGS, HEADLESS_CHROMIUM
from playwright.async_api import async_playwright
from playwright.sync_api import Page, Route, sync_playwright
from playwright_tools import ToolError, adispatch, dispatch, set_default_deadline

pytestmark = pytest.mark.browser

DEADLINE_S = 1.0
# Far above the deadline, so only a call that ignores its deadline can break it.
NEVER_S = 30.0

HANGS = {
    "never-settles": ("web_evaluate", {"script": "new Promise(() => {})"}),
    "loops-forever": ("web_evaluate", {"script": "(() => { while (true) {} })()"}),
    "timeout-zero": ("web_waitForSelector", {"selector": "#never-there", "timeout": 0}),
}


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=HEADLESS_CHROMIUM, args=CHROMIUM_ARGS)
        yield browser.new_page()
        browser.close()


@pytest.mark.parametrize("case", sorted(HANGS))
def test_sync_dispatch_keeps_its_deadline_and_the_page_stays_usable(case: str, page: Page) -> None:
    name, args = HANGS[case]
    started = time.monotonic()
    with pytest.raises(ToolError) as raised:
        dispatch(name, args, page, deadline_s=DEADLINE_S)
    elapsed = time.monotonic() - started
    assert raised.value.code == "deadline_exceeded"
    assert DEADLINE_S <= elapsed < NEVER_S
    assert dispatch("web_evaluate", {"script": "1 + 1"}, page, deadline_s=NEVER_S) == 2


@pytest.mark.parametrize("case", sorted(HANGS))
def test_async_dispatch_keeps_its_deadline_and_the_page_stays_usable(case: str) -> None:
    name, args = HANGS[case]

    async def scenario() -> tuple[str, float, object]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=HEADLESS_CHROMIUM, args=CHROMIUM_ARGS)
            page = await browser.new_page()
            started = time.monotonic()
            try:
                await adispatch(name, args, page, deadline_s=DEADLINE_S)
                code = "returned"
            except ToolError as error:
                code = error.code
            elapsed = time.monotonic() - started
            after = await adispatch("web_evaluate", {"script": "2 + 2"}, page)
            await browser.close()
            return code, elapsed, after

    # Its own thread: the module's sync Playwright keeps an event loop set on this one.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        code, elapsed, after = thread.submit(asyncio.run, scenario()).result()
    assert code == "deadline_exceeded"
    assert DEADLINE_S <= elapsed < NEVER_S
    assert after == 4


def test_the_default_deadline_is_the_callers_setting(page: Page) -> None:
    set_default_deadline(DEADLINE_S)
    try:
        with pytest.raises(ToolError) as raised:
            dispatch("web_evaluate", {"script": "new Promise(() => {})"}, page)
        assert raised.value.code == "deadline_exceeded"
    finally:
        set_default_deadline(120.0)
    with pytest.raises(ValueError):
        set_default_deadline(0)
    with pytest.raises(ValueError):
        dispatch("web_evaluate", {"script": "1"}, page, deadline_s=-1)


def test_only_the_calls_own_work_is_abandoned(page: Page) -> None:
    """Work the caller started on the same event loop (here a route handler that holds a
    request while the call waits for it) survives the call's deadline and can still finish."""
    held: list[Route] = []
    page.route("**/held", lambda route: held.append(route))
    try:
        with pytest.raises(ToolError) as raised:
            dispatch(
                "web_evaluate",
                {"script": "fetch('http://127.0.0.1:9/held').then(r => r.text())"},
                page,
                deadline_s=DEADLINE_S,
            )
        assert raised.value.code == "deadline_exceeded"
        # A loaded machine may deliver the request after the deadline; the handler still gets it.
        waited_until = time.monotonic() + 30
        while not held and time.monotonic() < waited_until:
            page.wait_for_timeout(50)
        assert len(held) == 1
        # Raised InvalidStateError when the deadline cancelled every task on the loop.
        held[0].fulfill(body="late", headers={"access-control-allow-origin": "*"})
        assert dispatch("web_evaluate", {"script": "1 + 1"}, page, deadline_s=NEVER_S) == 2
    finally:
        page.unroute("**/held")
