"""Results too large to carry are refused in the page, before they leave it.

A page can make any result huge (`'x'.repeat(1e8)`, 200,000 nodes of markup); carried whole it
would cross the browser, Playwright's driver and the host before the host's size limit refused
it, holding up every other session meanwhile. Two guards stop it where it is made:

- Code a caller runs in the page (`evaluate` and its kin) is wrapped: the wrapper runs the code
  exactly as Playwright would (the text is evaluated; if that gives a function, it is called with
  the arguments) and measures the value it returns, walking it without recursion, before
  Playwright serialises it. Past `max_chars` or `max_depth` it throws instead, and the host
  answers `result_too_large`.
- Tools that return a page's text or markup (`content`, `innerHTML`, `innerText`, ...) first ask
  the page how long that text is (a number crosses, not the text) and are refused above the limit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject

MAX_RESULT_DEPTH = 100
"""Levels of nesting a result may have (deeper ones are refused in the page)."""
MARKER = "__host_result_too_large__"
"""What the wrapper's error message starts with (the host turns it into `result_too_large`)."""

EVALUATED = {
    "web_evaluate": "script",
    "web_locator_evaluate": "expression",
    "web_locator_evaluateAll": "expression",
    "web_evalOnSelector": "expression",
    "web_evalOnSelectorAll": "expression",
}
"""Generated tools whose argument runs in the page and whose result is any JSON."""

_MEASURE = """
  const seen = new Set(), stack = [[value, 0]];
  let size = 0;
  while (stack.length) {
    const [item, depth] = stack.pop();
    if (depth > maxDepth) throw new Error(marker + ' depth ' + maxDepth);
    if (typeof item === 'string') size += item.length + 2;
    else if (item === null || typeof item !== 'object') size += 8;
    else if (!seen.has(item)) {
      seen.add(item);
      if (ArrayBuffer.isView(item)) size += Math.ceil(item.byteLength * 4 / 3);
      else if (typeof Node !== 'undefined' && item instanceof Node) size += 16;
      else if (item instanceof Map || item instanceof Set) {
        size += 2;
        for (const entry of item) stack.push([entry, depth + 1]);
      } else if (Array.isArray(item)) {
        size += 2 + item.length;
        for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], depth + 1]);
      } else {
        size += 2;
        for (const key of Object.keys(item)) {
          size += key.length + 4;
          stack.push([item[key], depth + 1]);
        }
      }
    }
    if (size > maxChars) throw new Error(marker + ' size ' + maxChars);
  }
"""


_FUNCTION = re.compile(r"^(async)?\s*function(\s|\()")


def bounded_expression(source: str, max_chars: int, max_depth: int) -> str:
    """`source` (an expression or a function, as Playwright takes it) wrapped so that a result of
    more than `max_chars` characters or `max_depth` levels is refused in the page."""
    source = source.strip()
    if _FUNCTION.match(source):
        source = f"({source})"  # as Playwright does: a function expression, not a statement
    return (
        "async (...args) => {\n"
        f"  const marker = {json.dumps(MARKER)}, maxChars = {int(max_chars)}, "
        f"maxDepth = {int(max_depth)};\n"
        f"  let value = (0, eval)({json.dumps(source)});\n"
        "  if (typeof value === 'function') value = value(...args);\n"
        "  value = await value;\n"
        f"{_MEASURE}"
        "  return value;\n"
        "}"
    )


def bound_arguments(tool: str, args: object, max_chars: int, max_depth: int) -> object:
    """`args` of `tool` with its page code wrapped by `bounded_expression` (others unchanged)."""
    name = EVALUATED.get(tool)
    if name is None or not isinstance(args, dict) or not isinstance(args.get(name), str):
        return args
    return {**args, name: bounded_expression(str(args[name]), max_chars, max_depth)}


def refused(error: BaseException, max_chars: int) -> HostError | None:
    """The `result_too_large` error a wrapped evaluation's failure stands for, if it does."""
    text = str(getattr(error, "message", None) or getattr(error, "detail", None) or error)
    at = text.find(MARKER)
    if at < 0:
        return None
    if text[at + len(MARKER) :].strip().startswith("depth"):
        return HostError(
            "result_too_large",
            "the result nests too deeply to return (measured in the page; nothing was sent); "
            "return a flatter value",
        )
    return HostError(
        "result_too_large",
        f"the result is larger than {max_chars} characters (measured in the page; nothing was "
        "sent); return less: a slice of the text, fewer elements, a count",
    )


# -- text and markup ---------------------------------------------------------------------------

_PAGE = "page"
_ELEMENTS = "elements"
_PROBES: dict[str, tuple[str, str]] = {
    "web_content": (
        _PAGE,
        "() => (document.documentElement ? document.documentElement.outerHTML.length : 0)",
    ),
    "web_title": (_PAGE, "() => document.title.length"),
    "web_innerHTML": (_ELEMENTS, "e => e.innerHTML.length"),
    "web_locator_innerHTML": (_ELEMENTS, "e => e.innerHTML.length"),
    "web_innerText": (_ELEMENTS, "e => (e.innerText || '').length"),
    "web_locator_innerText": (_ELEMENTS, "e => (e.innerText || '').length"),
    "web_locator_allInnerTexts": (_ELEMENTS, "e => (e.innerText || '').length"),
    "web_textContent": (_ELEMENTS, "e => (e.textContent || '').length"),
    "web_locator_textContent": (_ELEMENTS, "e => (e.textContent || '').length"),
    "web_locator_allTextContents": (_ELEMENTS, "e => (e.textContent || '').length"),
    "web_inputValue": (_ELEMENTS, "e => ('value' in e ? String(e.value) : '').length"),
    "web_locator_inputValue": (_ELEMENTS, "e => ('value' in e ? String(e.value) : '').length"),
    "web_getAttribute": (_ELEMENTS, "(e, name) => (e.getAttribute(name) || '').length"),
    "web_locator_getAttribute": (_ELEMENTS, "(e, name) => (e.getAttribute(name) || '').length"),
}
"""Generated tools that return a page's text, and how to measure that text in the page."""


Runner = Callable[[Any], Awaitable[object]]


def guarded(tool: str, args: object, run: Runner, max_chars: int) -> Runner:
    """`run`, preceded by a measurement in the page when `tool` returns a page's text."""
    probe = _PROBES.get(tool)
    if probe is None:
        return run
    kind, measure = probe
    arguments: JsonObject = args if isinstance(args, dict) else {}

    async def measured(call: Any) -> object:
        size = await _measure(call.tab.page, kind, measure, arguments)
        if size is not None and size > max_chars:
            raise HostError(
                "result_too_large",
                f"the text this returns has {size} characters, more than the host's limit of "
                f"{max_chars} (measured in the page; nothing was sent); ask for a smaller part "
                "(a narrower selector)",
            )
        return await run(call)

    return measured


async def _measure(page: Any, kind: str, measure: str, args: JsonObject) -> int | None:
    """The length of the text the tool would return; None when it cannot be told (the tool then
    runs and reports its own error, such as a selector that matches nothing)."""
    try:
        if kind == _PAGE:
            value = await page.evaluate(measure)
        else:
            selector = args.get("selector")
            if not isinstance(selector, str):
                return None
            total = f"(elements, arg) => elements.reduce((n, e) => n + ({measure})(e, arg), 0)"
            value = await page.locator(selector).evaluate_all(total, args.get("name"))
    except Exception:
        return None
    return int(value) if isinstance(value, int | float) else None
