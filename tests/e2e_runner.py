"""Runs one Case against a fresh browser context, sync or async; shared by both e2e modules."""

from __future__ import annotations

import json
from typing import Any

from conftest import PageServer
from e2e_cases import AFTER_HTML, Case
from playwright.async_api import Browser as AsyncBrowser
from playwright.sync_api import Browser as SyncBrowser

# Every case that must succeed does so in milliseconds on a quiet machine; the bound is generous
# so a loaded one (two test workers, a busy CI host) does not turn a slow action into a failure.
CASE_TIMEOUT_MS = 30000


def _prepare(case: Case, server: PageServer) -> tuple[str, str]:
    start, after = f"/case/{case.id}", f"/after/{case.id}"
    server.pages[start] = case.html
    server.pages[after] = AFTER_HTML
    return server.url(start), server.url(after)


def _with_origin(args: dict[str, object], server: PageServer, previous: object = None) -> object:
    """Arguments with `{origin}` replaced by the page server's origin (its port is chosen at run
    time) and `{previous}` by the previous step's result, a string."""
    text = json.dumps(args).replace("{origin}", server.origin)
    if isinstance(previous, str):
        text = text.replace("{previous}", json.dumps(previous)[1:-1])
    return json.loads(text)


# Every element a locator finds, as markup: what two locators are compared by.
_FOUND = "elements => elements.map(e => e.outerHTML)"


def _handles_to_compare(case: Case, page: Any, result: object) -> list[tuple[Any, Any]]:
    """(Playwright's own locator, the locator the tool's handle makes) for each handle returned,
    after checking each handle is the selector string Playwright's own Locator holds. A
    FrameLocator is compared by the document inside the frame."""
    assert case.same_as is not None
    expected = case.same_as(page)
    pairs = (
        list(zip(expected, result, strict=True))
        if isinstance(expected, list)
        else [(expected, result)]
    )
    compared = []
    for own, handle in pairs:
        assert isinstance(handle, str), f"{case.id}: returned {handle!r}, not a handle"
        if hasattr(own, "evaluate_all"):
            assert handle == own._impl_obj._selector, f"{case.id}: {handle!r}"
            compared.append((own, page.locator(handle)))
        else:
            compared.append((own.locator(":root"), page.locator(handle).locator(":root")))
    return compared if case.locates else []


def _check_result(case: Case, result: object) -> None:
    json.dumps(result)  # every result must be JSON, whatever the tool
    if case.check is not None:
        assert case.check(result), f"{case.id}: unexpected result {result!r}"
    else:
        assert result == case.returns, f"{case.id}: returned {result!r}"


def _check_raised(case: Case, registry: Any, raised: BaseException | None) -> None:
    """The last step failed as the case says: a ToolError with its code and text."""
    assert case.raises is not None
    code, text = case.raises
    assert isinstance(raised, registry.ToolError), f"{case.id}: did not fail ({raised!r})"
    assert raised.code == code and text in str(raised), f"{case.id}: failed with {raised!r}"


def _check_header(case: Case, server: PageServer, after: str, before: int) -> None:
    if case.header:
        name, value = case.header
        seen = server.headers_for(after)[before:]
        assert seen and seen[-1].get(name) == value, seen


# An effect may land a moment after the call returns (a module script runs after the tag is
# added): the observation is polled until it matches or the case's time is up, never taken once.
_OBSERVE_POLL_MS = 50


def _observe_sync(case: Case, page: Any) -> None:
    assert case.observe is not None
    seen = page.evaluate(case.observe)
    for _ in range(CASE_TIMEOUT_MS // _OBSERVE_POLL_MS):
        if seen == case.expected:
            return
        page.wait_for_timeout(_OBSERVE_POLL_MS)
        seen = page.evaluate(case.observe)
    assert seen == case.expected, f"{case.id}: observed {seen!r}"


async def _observe_async(case: Case, page: Any) -> None:
    assert case.observe is not None
    seen = await page.evaluate(case.observe)
    for _ in range(CASE_TIMEOUT_MS // _OBSERVE_POLL_MS):
        if seen == case.expected:
            return
        await page.wait_for_timeout(_OBSERVE_POLL_MS)
        seen = await page.evaluate(case.observe)
    assert seen == case.expected, f"{case.id}: observed {seen!r}"


def run_sync(case: Case, browser: SyncBrowser, server: PageServer, registry: Any) -> None:
    start, after = _prepare(case, server)
    context = browser.new_context(permissions=["geolocation"], has_touch=case.touch)
    context.set_default_timeout(CASE_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(start)
        result: object = None
        raised: BaseException | None = None
        for number, (tool, args) in enumerate(case.steps, 1):
            try:
                result = registry.dispatch(tool, _with_origin(args, server, result), page)
            except registry.ToolError as error:
                if case.raises is None or number < len(case.steps):
                    raise
                raised = error
        if case.raises is not None:
            _check_raised(case, registry, raised)
        elif case.same_as is not None:
            for own, made in _handles_to_compare(case, page, result):
                assert made.evaluate_all(_FOUND) == own.evaluate_all(_FOUND), case.id
        else:
            _check_result(case, result)
        if case.navigate:
            before = len(server.headers_for(after.removeprefix(server.origin)))
            page.goto(after)
            _check_header(case, server, after.removeprefix(server.origin), before)
        if case.observe:
            _observe_sync(case, page)
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
        raised: BaseException | None = None
        for number, (tool, args) in enumerate(case.steps, 1):
            try:
                result = await registry.adispatch(tool, _with_origin(args, server, result), page)
            except registry.ToolError as error:
                if case.raises is None or number < len(case.steps):
                    raise
                raised = error
        if case.raises is not None:
            _check_raised(case, registry, raised)
        elif case.same_as is not None:
            for own, made in _handles_to_compare(case, page, result):
                assert await made.evaluate_all(_FOUND) == await own.evaluate_all(_FOUND), case.id
        else:
            _check_result(case, result)
        if case.navigate:
            before = len(server.headers_for(after.removeprefix(server.origin)))
            await page.goto(after)
            _check_header(case, server, after.removeprefix(server.origin), before)
        if case.observe:
            await _observe_async(case, page)
    finally:
        await context.close()
