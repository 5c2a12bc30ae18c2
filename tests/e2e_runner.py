"""Runs one Case against a fresh browser context, sync or async; shared by both e2e modules."""

from __future__ import annotations

import json
from typing import Any

from conftest import PageServer
from e2e_cases import AFTER_HTML, Case
from playwright.async_api import Browser as AsyncBrowser
from playwright.sync_api import Browser as SyncBrowser

CASE_TIMEOUT_MS = 5000


def _prepare(case: Case, server: PageServer) -> tuple[str, str]:
    start, after = f"/case/{case.id}", f"/after/{case.id}"
    server.pages[start] = case.html
    server.pages[after] = AFTER_HTML
    return server.url(start), server.url(after)


def _with_origin(args: dict[str, object], server: PageServer) -> object:
    """Arguments with `{origin}` replaced by the page server's origin (its port is chosen at run time)."""
    return json.loads(json.dumps(args).replace("{origin}", server.origin))


def _check_result(case: Case, result: object) -> None:
    json.dumps(result)  # every result must be JSON, whatever the tool
    if case.check is not None:
        assert case.check(result), f"{case.id}: unexpected result {result!r}"
    else:
        assert result == case.returns, f"{case.id}: returned {result!r}"


def _check_header(case: Case, server: PageServer, after: str, before: int) -> None:
    if case.header:
        name, value = case.header
        seen = server.headers_for(after)[before:]
        assert seen and seen[-1].get(name) == value, seen


def run_sync(case: Case, browser: SyncBrowser, server: PageServer, registry: Any) -> None:
    start, after = _prepare(case, server)
    context = browser.new_context(permissions=["geolocation"], has_touch=case.touch)
    context.set_default_timeout(CASE_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(start)
        result: object = None
        for tool, args in case.steps:
            result = registry.dispatch(tool, _with_origin(args, server), page)
        _check_result(case, result)
        if case.navigate:
            before = len(server.headers_for(after.removeprefix(server.origin)))
            page.goto(after)
            _check_header(case, server, after.removeprefix(server.origin), before)
        if case.observe:
            assert page.evaluate(case.observe) == case.expected
    finally:
        context.close()


async def run_async(case: Case, browser: AsyncBrowser, server: PageServer, registry: Any) -> None:
    start, after = _prepare(case, server)
    context = await browser.new_context(permissions=["geolocation"], has_touch=case.touch)
    context.set_default_timeout(CASE_TIMEOUT_MS)
    try:
        page = await context.new_page()
        await page.goto(start)
        result: object = None
        for tool, args in case.steps:
            result = await registry.adispatch(tool, _with_origin(args, server), page)
        _check_result(case, result)
        if case.navigate:
            before = len(server.headers_for(after.removeprefix(server.origin)))
            await page.goto(after)
            _check_header(case, server, after.removeprefix(server.origin), before)
        if case.observe:
            assert await page.evaluate(case.observe) == case.expected
    finally:
        await context.close()
