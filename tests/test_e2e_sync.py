"""Every generated tool, dispatched by name through the registry (sync API), in headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM_ARGS, HEADLESS_CHROMIUM, PageServer
from e2e_cases import AFTER_HTML, CASES, Case
from e2e_runner import run_sync
from playwright.sync_api import Browser, sync_playwright

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=HEADLESS_CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def registry(generated_package: Path) -> Any:
    import playwright_tools

    return playwright_tools


def test_every_tool_has_a_case(registry: Any) -> None:
    covered = {tool for case in CASES for tool, _ in case.steps}
    missing = sorted(set(registry.TOOLS) - covered)
    assert missing == [], "add rows to the tests/cases_*.py modules for these tools"


def test_every_tool_has_a_case_with_only_its_required_arguments(registry: Any) -> None:
    """Each tool is called at least once with exactly the arguments its schema requires, so the
    absence of every optional parameter is exercised (a shim that mishandles a missing optional
    argument fails here rather than in a caller's hands)."""
    required = {
        name: set(shim.parameters.get("required") or []) for name, shim in registry.TOOLS.items()
    }
    bare = {tool for case in CASES for tool, args in case.steps if set(args) == required[tool]}
    missing = sorted(set(registry.TOOLS) - bare)
    assert missing == [], (
        "add rows to the tests/cases_*.py modules calling these tools with exactly their required "
        f"arguments: {missing}"
    )


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_tool_in_browser(
    case: Case, browser: Browser, page_server: PageServer, registry: Any
) -> None:
    run_sync(case, browser, page_server, registry)


def test_headers_are_absent_without_the_tool(browser: Browser, page_server: PageServer) -> None:
    """The header case above is not vacuous: a plain navigation does not carry the header."""
    page_server.pages["/after"] = AFTER_HTML
    context = browser.new_context()
    try:
        before = len(page_server.headers_for("/after"))
        context.new_page().goto(page_server.url("/after"))
        assert "x-tool-test" not in page_server.headers_for("/after")[before:][-1]
    finally:
        context.close()


BAD_CALLS = [
    ("no_such_tool", {}, "unknown_tool", ""),
    ("web_setExtraHTTPHeaders", {}, "missing_argument", "headers"),
    ("web_setExtraHTTPHeaders", {"headers": {"a": "1"}, "extra": 1}, "unknown_argument", "extra"),
    ("web_setExtraHTTPHeaders", {"headers": {"a": 1}}, "invalid_argument", "headers.a"),
    ("web_setExtraHTTPHeaders", {"headers": ["a"]}, "invalid_argument", "headers"),
    ("web_setViewportSize", {"width": "640", "height": 480}, "invalid_argument", "width"),
    ("web_setViewportSize", {"width": 640.5, "height": 480}, "invalid_argument", "width"),
    ("web_setViewportSize", {"width": True, "height": 480}, "invalid_argument", "width"),
    (
        "web_setGeolocation",
        {"geolocation": {"latitude": 1}},
        "missing_argument",
        "geolocation.longitude",
    ),
    (
        "web_setGeolocation",
        {"geolocation": {"latitude": 1, "longitude": 2, "altitude": 3}},
        "unknown_argument",
        "geolocation.altitude",
    ),
    ("web_setOfflineMode", {"offline": "yes"}, "invalid_argument", "offline"),
    ("web_waitForFunction", {"expression": "1", "polling": "often"}, "invalid_argument", "polling"),
    ("web_setGeolocation", {}, "missing_argument", "geolocation"),
    ("web_evaluate", "6 * 7", "invalid_argument", ""),
]


@pytest.mark.parametrize(("tool", "args", "code", "path"), BAD_CALLS)
def test_bad_arguments_are_rejected_before_the_browser(
    tool: str, args: object, code: str, path: str, registry: Any
) -> None:
    # page=None: if validation did not come first, the shim would fail on None instead.
    with pytest.raises(registry.ToolError) as raised:
        registry.dispatch(tool, args, None)
    assert (raised.value.code, raised.value.path) == (code, path)
    assert raised.value.to_json()["tool"] == tool


def test_playwright_error_is_a_tool_error(browser: Browser, registry: Any) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        with pytest.raises(registry.ToolError) as raised:
            registry.dispatch(
                "web_evaluate", {"script": "() => { throw new Error('boom 17') }"}, page
            )
        assert raised.value.code == "playwright_error"
        assert "boom 17" in str(raised.value)
        assert registry.dispatch("web_evaluate", {"script": "1 + 1"}, page) == 2  # session survives
    finally:
        context.close()


def test_failure_outside_playwright_is_a_tool_error(browser: Browser, registry: Any) -> None:
    """A value the schema cannot constrain (Java types DropPayload.files as Object) that Playwright's
    Python code rejects with a plain TypeError still comes back as a structured ToolError."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<div id='zone'>drop here</div>")
        with pytest.raises(registry.ToolError) as raised:
            registry.dispatch(
                "web_locator_drop", {"selector": "#zone", "payload": {"files": 42}}, page
            )
        assert raised.value.code == "call_failed"
        assert raised.value.to_json()["tool"] == "web_locator_drop"
        assert registry.dispatch("web_evaluate", {"script": "1 + 2"}, page) == 3  # session survives
    finally:
        context.close()


def test_polling_reaches_playwright(browser: Browser, registry: Any) -> None:
    """Playwright itself refuses a non-positive polling interval: the argument is passed on."""
    context = browser.new_context()
    try:
        page = context.new_page()
        with pytest.raises(registry.ToolError) as raised:
            registry.dispatch("web_waitForFunction", {"expression": "1", "polling": -5}, page)
        assert raised.value.code == "playwright_error"
        assert "non-positive interval: -5" in str(raised.value)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("values", "path"),
    [([{"value": "r", "label": "Red"}], "values[0]"), ({}, "values")],
)
def test_select_option_object_needs_exactly_one_key(
    browser: Browser, registry: Any, values: object, path: str
) -> None:
    """Playwright matches all keys of one object together; Python's keywords cannot say that, so
    such an object is refused before the page changes."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(
            "<select id=s><option value=r>Red</option><option value=g>Green</option></select>"
        )
        page.select_option("#s", "g")
        with pytest.raises(registry.ToolError) as raised:
            registry.dispatch("web_selectOption", {"selector": "#s", "values": values}, page)
        assert (raised.value.code, raised.value.path) == ("invalid_argument", path)
        assert "give exactly one of index, label, value" in str(raised.value)
        assert page.eval_on_selector("#s", "s => s.value") == "g"
    finally:
        context.close()
