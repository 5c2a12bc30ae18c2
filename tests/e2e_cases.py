"""The hand-kept table of browser cases. Every generated tool must appear in at least one row.

A row loads its own page (`html`, served from 127.0.0.1 at /case/<id>), dispatches one or more tools
by name through the generated registry, then checks the last result (`returns` exactly, or the
`check` predicate) and, optionally, an effect observed in the page (`observe`, a JavaScript function
whose result must equal `expected`) or at the server (`header`). Arguments are written by hand and
never derived from the generator's output. Rows live in one module per target group.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT_HTML = """<!doctype html><title>start</title>
<h1 id="title">Hello</h1>
<input id="name" value="initial">
<button id="go" onclick="this.textContent = 'clicked'">Go</button>
<p class="item">one</p><p class="item">two</p>"""
AFTER_HTML = "<!doctype html><title>after</title><p>after</p>"


@dataclass(frozen=True)
class Case:
    """One browser check. `steps` are (tool name, JSON arguments) dispatched in order; `{origin}` in
    an argument stands for the page server's origin, `{previous}` for the previous step's result
    (a selector handle, so that steps chain).

    `same_as` builds, with Playwright's own Python API on the case's page, the Locator (or
    FrameLocator, or list of Locators) a handle-returning tool stands for: the handle must be the
    selector that Locator holds, and must locate the same elements (unless `locates` is False: a
    query Playwright itself refuses to run, such as role attributes the role does not support).

    `raises` is (code, text): the last step must fail with a ToolError of that code whose message
    contains the text (a call Playwright itself refuses), instead of returning; `observe` then
    shows what the failed call left in the page."""

    id: str
    steps: tuple[tuple[str, dict[str, object]], ...]
    html: str = DEFAULT_HTML
    returns: object = None
    check: Callable[[object], bool] | None = None
    observe: str | None = None
    expected: object = None
    navigate: bool = False
    header: tuple[str, str] | None = None
    touch: bool = False  # the context emulates a touch screen (tap needs one)
    same_as: Callable[[Any], Any] | None = None
    locates: bool = True
    raises: tuple[str, str] | None = None


def all_cases() -> tuple[Case, ...]:
    from cases_context_input import CASES as CONTEXT_INPUT
    from cases_locator import CASES as LOCATOR
    from cases_page import CASES as PAGE

    cases = (*PAGE, *LOCATOR, *CONTEXT_INPUT)
    ids = [c.id for c in cases]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"duplicate case ids: {duplicates}"
    return cases


CASES = all_cases()
