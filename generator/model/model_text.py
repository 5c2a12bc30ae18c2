"""Descriptions rewritten for the reader a tool has: a model or a script author, not a Java programmer.

The javadoc speaks Java: `Page.setExtraHTTPHeaders()`, `**NOTE:**`, links into the Java docs, and an
introduction ("call it like this:") whose code sample the generator removed. `ModelText` rewrites
every description of every tool after all tools are bound, since a reference becomes the name of
the tool that the allowlist gives that method:

- a reference to a method that is a tool becomes the tool's name (`web_setExtraHTTPHeaders`); one
  that is not a tool becomes its Python name (`browser.new_context()`), an event listener
  (`Page.onPageError()`) the event (`the "pageerror" event`), an assertion
  (`LocatorAssertions.hasText()`) Python's `expect(locator).to_have_text()`; DOM members stay;
- `**NOTE:**` becomes `Note:`; a Markdown link becomes its text;
- a paragraph left ending in ":" with nothing after it that it could introduce ends in "." instead.

The same rules apply to Python-style references (`page.fill()`) in descriptions taken from the
Python API's docstrings.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from generator.shared.names import python_member, snake_case

T = TypeVar("T")

# Java interfaces as Python names their objects in its docs.
_RECEIVERS = {
    "Page": "page",
    "BrowserContext": "context",
    "Locator": "locator",
    "Keyboard": "keyboard",
    "Mouse": "mouse",
    "Browser": "browser",
    "FrameLocator": "frame_locator",
    "Frame": "frame",
    "Response": "response",
    "Request": "request",
    "Route": "route",
    "Credentials": "credentials",
    "ElementHandle": "element_handle",
}
# The page's own (DOM) objects: their members are JavaScript, named alike everywhere.
_DOM = frozenset({"Element", "HTMLElement", "Document", "Window", "Node", "EventTarget"})
# Event names are the listener's name in lower case (`onPageError`: "pageerror"), but for one.
_EVENTS = {"onConsoleMessage": "console"}
_ASSERTIONS = {"LocatorAssertions": "locator", "PageAssertions": "page"}

_JAVA_REF = re.compile(r"`([A-Z]\w*)\.(\w+)\(\)`")
_PYTHON_REF = re.compile(r"`([a-z_]+)\.([a-z_]+)\(\)`")
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^()\s]*\))*\)")
# A reference-style link whose target the docs never defined: "The [origin] to grant ...",
# "returns a [Promise]", "See [UIEvent.detail]."
_BARE_REFERENCE = re.compile(r"(?<=\s)\[([A-Za-z][\w .]*)\](?=[\s.,;])")
# Python's docstrings name an event by its listener call: `page.on('dialog')`.
_PYTHON_EVENT = re.compile(r"`(?:page|browser_context|context)\.on\(['\"](\w+)['\"]\)`(?: event)?")
_NOTE = re.compile(r"\*\*(?:NOTE|Note)\*\*:?|\*\*(?:NOTE|Note):\*\*")


class ModelText:
    """Rewrites descriptions; `tool_names` maps (Java interface, Java method) to the tool's name,
    `is_property` says whether a Python member (by class and name) is read rather than called.

    Guarantees: the result holds no `X.y()` reference to a Java method of a tool target, no
    `**NOTE`, no Markdown link, and no paragraph ending in ":" with nothing after it."""

    def __init__(
        self,
        tool_names: Mapping[tuple[str, str], str],
        is_property: Callable[[str, str], bool] = lambda interface, member: False,
    ) -> None:
        self._java = dict(tool_names)
        self._is_property = is_property
        self._rewritten: dict[str, str] = {}
        self._python = {
            (_RECEIVERS[iface], python_member(method)): name
            for (iface, method), name in tool_names.items()
            if iface in _RECEIVERS
        }
        # Python's docstrings call a context `browser_context` (`browser_context.clear_cookies()`).
        self._python.update(
            {
                ("browser_context", member): name
                for (receiver, member), name in self._python.items()
                if receiver == "context"
            }
        )

    def rewrite(self, text: str) -> str:
        # The same description recurs across tools (a `timeout` option's, say): rewritten once.
        done = self._rewritten.get(text)
        if done is None:
            done = self._rewritten[text] = self._rewrite(text)
        return done

    def _rewrite(self, text: str) -> str:
        text = _LINK.sub(lambda m: m.group(1), text)
        text = _BARE_REFERENCE.sub(lambda m: m.group(1), text)
        text = _NOTE.sub("Note:", text)
        text = _JAVA_REF.sub(self._java_reference, text)
        text = _PYTHON_EVENT.sub(lambda m: f'the "{m.group(1)}" event', text)
        text = _PYTHON_REF.sub(self._python_reference, text)
        return _no_dangling_colon(text)

    def _java_reference(self, match: re.Match[str]) -> str:
        interface, method = match.group(1), match.group(2)
        tool = self._java.get((interface, method))
        if tool is not None:
            return f"`{tool}`"
        if interface in _DOM:
            return match.group(0)
        if re.fullmatch(r"on[A-Z]\w*", method):
            return f'the "{_EVENTS.get(method, method[2:].lower())}" event'
        if interface in _ASSERTIONS:
            return f"`expect({_ASSERTIONS[interface]}).{_assertion(method)}()`"
        receiver = _RECEIVERS.get(interface, snake_case(interface))
        member = python_member(method)
        call = "" if self._is_property(interface, member) else "()"
        return f"`{receiver}.{member}{call}`"

    def _python_reference(self, match: re.Match[str]) -> str:
        tool = self._python.get((match.group(1), match.group(2)))
        return f"`{tool}`" if tool is not None else match.group(0)

    def apply(self, value: T) -> T:
        """`value` (a Tool, or any frozen dataclass holding descriptions) with every `description`
        and `result_note` inside it rewritten, however deeply nested (option fields included)."""
        rewritten: T = _map_texts(value, self.rewrite)
        return rewritten


def _assertion(method: str) -> str:
    """Java's assertion name as Python's: `hasText` -> `to_have_text`, `isChecked` -> `to_be_checked`."""
    for java, python in (("has", "to_have_"), ("is", "to_be_"), ("matches", "to_match_")):
        if method.startswith(java) and method[len(java) : len(java) + 1].isupper():
            return python + snake_case(method[len(java) :])
    return snake_case(method)


def _no_dangling_colon(text: str) -> str:
    """A paragraph ending in ":" must introduce what follows it (a list, the key names); when the
    example it introduced was a code sample that is gone, its ":" becomes "."."""
    paragraphs = text.split("\n\n")
    for index, paragraph in enumerate(paragraphs):
        following = paragraphs[index + 1] if index + 1 < len(paragraphs) else ""
        introduces = following.startswith(("- ", "`")) or bool(_NUMBERED.match(following))
        if paragraph.endswith(":") and not introduces:
            paragraphs[index] = paragraph[:-1] + "."
    return "\n\n".join(paragraphs)


_NUMBERED = re.compile(r"\d+\. ")
_TEXT_FIELDS = frozenset({"description", "result_note"})


_FIELDS: dict[type, tuple[tuple[str, bool], ...] | None] = {}


def _init_fields(kind: type) -> tuple[tuple[str, bool], ...] | None:
    """A dataclass's init fields, each with whether it is a text field; None for other types."""
    if kind not in _FIELDS:
        _FIELDS[kind] = (
            tuple((f.name, f.name in _TEXT_FIELDS) for f in dataclasses.fields(kind) if f.init)
            if dataclasses.is_dataclass(kind)
            else None
        )
    return _FIELDS[kind]


# Values that hold no description: returned as they are without a call per value (most of a
# tool's nodes are these).
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _map_texts(value: Any, rewrite: Callable[[str], str]) -> Any:
    """`value` with its descriptions rewritten; any part with nothing rewritten is returned as the
    same object, so an unchanged tool is not copied."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if isinstance(value, tuple):
        items = [item if type(item) in _LEAVES else _map_texts(item, rewrite) for item in value]
        for new, old in zip(items, value, strict=True):
            if new is not old:
                return tuple(items)
        return value if kind is tuple else tuple(items)
    fields = _init_fields(kind)
    if fields is None:
        return value
    changes = {}
    for name, is_text in fields:
        current = getattr(value, name)
        if is_text and isinstance(current, str):
            text = rewrite(current)
            if text != current:
                changes[name] = text
        elif type(current) not in _LEAVES:
            new = _map_texts(current, rewrite)
            if new is not current:
                changes[name] = new
    return dataclasses.replace(value, **changes) if changes else value
