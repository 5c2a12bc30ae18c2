"""Stable locators for a trail, and the same locators as Playwright code.

A snapshot ref (`e12`) dies with its snapshot, so a recorded call never holds one: the element the
ref names is handed to Playwright's own selector generator (`Locator.normalize`, what codegen
uses: test id, then role and accessible name, label, placeholder, alt text, title, text, and a CSS
path only when nothing else is unique), and the selector it gives is checked to match exactly one
element. Selectors are written in the agent's spelling where that spelling is an exact inverse
(`label=Email`, `testid=go`, `placeholder=Name`); other parts stay as Playwright wrote them
(`internal:role=button[name="Save"i]`).

`as_code` turns a selector into a locator expression, as Playwright's `asLocator` does, for the
Python and TypeScript exports and `--codegen`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from playwright.async_api import Locator

from host.sessions.targets import split_chain, test_id_attribute, to_selector
from host.shared.errors import HostError
from host.trails.render import method_call

_QUOTED = r'"((?:[^"\\]|\\.)*)"([is]?)'
_ROLE = re.compile(r"^internal:role=([a-z]+)((?:\[[^\]]*\])*)$")
_ROLE_ATTR = re.compile(r"\[([a-z-]+)(?:=(?:" + _QUOTED + r"|([a-z0-9-]+)))?\]")
_TEXT = re.compile(r"^internal:(text|label)=" + _QUOTED + "$")
_ATTR = re.compile(r"^internal:attr=\[(placeholder|alt|title)=" + _QUOTED + r"\]$")
# Playwright's test id selector names the attribute in use (`--test-id-attribute`), so the
# inverse forms (`testid=`, `getByTestId`) hold only for that attribute.
_TESTID = re.compile(r"^internal:testid=\[([A-Za-z_:][-\w:.]*)=" + _QUOTED + r"\]$")
_NTH = re.compile(r"^nth=(-?\d+)$")
_BY_ATTRIBUTE = {"placeholder": "getByPlaceholder", "alt": "getByAltText", "title": "getByTitle"}
_FRIENDLY = {"label": "label", "placeholder": "placeholder", "alt": "alt", "title": "title"}


async def stable_selector(locator: Locator) -> str:
    """The selector Playwright's generator gives for the element of `locator` (a ref), checked to
    match exactly that one element; raises HostError otherwise."""
    normalized = await locator.normalize()
    impl: Any = getattr(normalized, "_impl_obj", normalized)
    selector = str(impl._selector)
    count = await locator.page.locator(selector).count()
    if count != 1:
        raise HostError(
            "not_recordable",
            f"the stable locator {selector!r} matches {count} elements, not exactly one",
        )
    return friendly(selector)


def friendly(selector: str) -> str:
    """Parts of a Playwright selector in the agent's spelling where it is an exact inverse."""
    parts = []
    for part in split_chain(selector):
        parts.append(_friendly_part(part))
    return " >> ".join(parts)


def _unquote(body: str) -> str:
    return str(json.loads(f'"{body}"'))


def _agent_text(body: str, flag: str) -> str | None:
    """`Email` for `"Email"i`, `"Email"` for `"Email"s` (targets._text_argument's inverse)."""
    text = _unquote(body)
    if (
        flag == "i"
        and text == text.strip()
        and text
        and not (text[0] in "\"'" and text[-1] == text[0])
    ):
        return text
    if flag == "s" and '"' not in text:
        return f'"{text}"'
    return None


def _friendly_part(part: str) -> str:
    if part == "internal:control=enter-frame":
        return "enter-frame"
    found = _TEXT.match(part)
    if found and found.group(1) == "label":
        text = _agent_text(found.group(2), found.group(3))
        return f"label={text}" if text is not None else part
    found = _ATTR.match(part)
    if found:
        text = _agent_text(found.group(2), found.group(3))
        return f"{_FRIENDLY[found.group(1)]}={text}" if text is not None else part
    found = _TESTID.match(part)
    if found and found.group(1) == test_id_attribute() and found.group(3) == "s":
        value = _unquote(found.group(2))
        if value == value.strip() and "'" not in value and '"' not in value and ">>" not in value:
            return f"testid={value}"
    return part


# -- as code ------------------------------------------------------------------------------------


def _literal(value: object, language: str) -> str:
    if isinstance(value, bool):
        return ("True" if value else "False") if language == "python" else json.dumps(value)
    return json.dumps(value, ensure_ascii=False)


def _call(method: str, args: list[str], options: Mapping[str, object], language: str) -> str:
    return method_call(method, args, options, language, _literal)


def as_code(target: str, language: str, root: str = "page") -> str:
    """A locator expression for `target` (a selector in the agent's or Playwright's spelling):
    `page.get_by_role("button", name="Save")` / `page.getByRole('button', { name: 'Save' })`."""
    code = root
    for part in split_chain(to_selector(target)):
        code += _part_code(part, language)
    return code


def _part_code(part: str, language: str) -> str:

    def quote(text: str) -> str:
        return _literal(text, language)

    if part == "internal:control=enter-frame":
        return ".content_frame" if language == "python" else ".contentFrame()"
    nth = _NTH.match(part)
    if nth:
        return _call("nth", [nth.group(1)], {}, language)
    found = _ROLE.match(part)
    if found:
        options: dict[str, object] = {}
        for attr in _ROLE_ATTR.finditer(found.group(2)):
            name, body, flag, bare = attr.group(1), attr.group(2), attr.group(3), attr.group(4)
            if name == "name" and body is not None:
                options["name"] = _unquote(body)
                if flag == "s":
                    options["exact"] = True
            elif name == "include-hidden":
                options["includeHidden"] = True
            elif bare is not None and bare in ("true", "false"):
                options[name] = bare == "true"
            elif bare is not None and bare.isdigit():
                options[name] = int(bare)
            else:
                return _call("locator", [quote(part)], {}, language)
        return _call("getByRole", [quote(found.group(1))], options, language)
    found = _TEXT.match(part)
    if found:
        method = "getByText" if found.group(1) == "text" else "getByLabel"
        exact = {"exact": True} if found.group(3) == "s" else {}
        return _call(method, [quote(_unquote(found.group(2)))], exact, language)
    found = _ATTR.match(part)
    if found:
        exact = {"exact": True} if found.group(3) == "s" else {}
        by = _BY_ATTRIBUTE[found.group(1)]
        return _call(by, [quote(_unquote(found.group(2)))], exact, language)
    found = _TESTID.match(part)
    if found and found.group(1) == test_id_attribute():
        return _call("getByTestId", [quote(_unquote(found.group(2)))], {}, language)
    return _call("locator", [quote(part)], {}, language)
