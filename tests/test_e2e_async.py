"""The same table as test_e2e_sync, through `adispatch` and Playwright's async API."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, PageServer
from e2e_cases import AFTER_PAGE, CASES, START_PAGE, Case
from playwright.async_api import async_playwright


@pytest.fixture(scope="module")
def registry(generated_package: Path) -> Any:
    import playwright_tools

    return playwright_tools


async def _run_case(case: Case, server: PageServer, registry: Any) -> None:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = await browser.new_context(permissions=["geolocation"])
        page = await context.new_page()
        await page.goto(server.url("/start"))
        result: object = None
        for tool, args in case.steps:
            result = await registry.adispatch(tool, args, page)
        assert result == case.returns
        if case.navigate:
            before = len(server.headers_for("/after"))
            await page.goto(server.url("/after"))
            if case.header:
                name, value = case.header
                assert server.headers_for("/after")[before:][-1].get(name) == value
        if case.observe:
            assert await page.evaluate(case.observe) == case.expected
        await browser.close()


def test_all_cases_async(page_server: PageServer, registry: Any) -> None:
    page_server.pages.update({"/start": START_PAGE, "/after": AFTER_PAGE})
    for case in CASES:
        asyncio.run(_run_case(case, page_server, registry))


def test_async_rejects_before_browser(registry: Any) -> None:
    with pytest.raises(registry.ToolError) as raised:
        asyncio.run(registry.adispatch("web_setViewportSize", {"width": 1}, None))
    assert (raised.value.code, raised.value.path) == ("missing_argument", "height")
