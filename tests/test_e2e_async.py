"""The same table as test_e2e_sync, through `adispatch` and Playwright's async API.

One event loop and one browser serve the whole module; each case gets its own context.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM_ARGS, HEADLESS_CHROMIUM, PageServer
from e2e_cases import CASES, Case
from e2e_runner import run_async
from playwright.async_api import Browser, async_playwright

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def registry(generated_package: Path) -> Any:
    import playwright_tools

    return playwright_tools


@pytest.fixture(scope="module")
def loop_and_browser() -> Iterator[tuple[asyncio.AbstractEventLoop, Browser]]:
    loop = asyncio.new_event_loop()
    manager = async_playwright()
    playwright = loop.run_until_complete(manager.__aenter__())
    browser = loop.run_until_complete(
        playwright.chromium.launch(executable_path=HEADLESS_CHROMIUM, args=CHROMIUM_ARGS)
    )
    yield loop, browser
    loop.run_until_complete(browser.close())
    loop.run_until_complete(manager.__aexit__(None, None, None))
    loop.close()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_tool_in_browser_async(
    case: Case,
    loop_and_browser: tuple[asyncio.AbstractEventLoop, Browser],
    page_server: PageServer,
    registry: Any,
) -> None:
    loop, browser = loop_and_browser
    loop.run_until_complete(run_async(case, browser, page_server, registry))


def test_async_rejects_before_browser(registry: Any) -> None:
    with pytest.raises(registry.ToolError) as raised:
        asyncio.run(registry.adispatch("web_setViewportSize", {"width": 1}, None))
    assert (raised.value.code, raised.value.path) == ("missing_argument", "height")
