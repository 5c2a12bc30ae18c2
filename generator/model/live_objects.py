"""Live browser objects as tool results: which come back as a selector handle, which as a JSON
summary, and which as nothing.

A tool result must be JSON, so a method returning a `Locator` or a `Page` cannot hand the object
over. A Locator or FrameLocator is a query, not a thing: it comes back as its selector handle, a
string that every `selector` parameter accepts, so locators chain across calls (`HANDLES`). The
`SUMMARIES` types return a small summary read from Python *properties* (never methods, so the
sync and async shims read them alike); every other live type returns nothing, and the descriptor
says so. The binder checks each summary attribute against the installed Python package.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.type_tree import Field, ObjectOf, Scalar, TypeNode
from generator.shared.targets import JAVA_PACKAGE

_STRING, _INTEGER, _BOOLEAN = Scalar("string"), Scalar("integer"), Scalar("boolean")


@dataclass(frozen=True)
class SummaryField:
    """One summary property: its JSON name, type, and the Python property it is read from."""

    wire_name: str
    type: TypeNode
    python_attribute: str


@dataclass(frozen=True)
class LiveSummary:
    """The JSON summary of one live type; `python_class` is its class in the Python API."""

    python_class: str
    fields: tuple[SummaryField, ...]

    @property
    def type(self) -> ObjectOf:
        name = f"{self.python_class}Summary"
        return ObjectOf(name, tuple(Field(f.wire_name, f.type, True) for f in self.fields))


def _summary(python_class: str, *fields: tuple[str, TypeNode, str]) -> tuple[str, LiveSummary]:
    java = f"{JAVA_PACKAGE}.{python_class}"
    return java, LiveSummary(python_class, tuple(SummaryField(*f) for f in fields))


HANDLES: frozenset[str] = frozenset(
    f"{JAVA_PACKAGE}.{name}" for name in ("Locator", "FrameLocator")
)

# What a tool's descriptor says of a handle result: a model or a script must know where it goes.
HANDLE_NOTE = (
    "Returns a selector handle (a string) for the {what}; pass it as `selector` to any"
    " web_locator_* tool, where it can be narrowed further."
)
HANDLES_NOTE = (
    "Returns a selector handle (a string) per matching element, in page order; pass one as"
    " `selector` to any web_locator_* tool."
)

SUMMARIES: dict[str, LiveSummary] = dict(
    [
        _summary("Page", ("url", _STRING, "url")),
        _summary("Frame", ("name", _STRING, "name"), ("url", _STRING, "url")),
        _summary(
            "Response",
            ("url", _STRING, "url"),
            ("status", _INTEGER, "status"),
            ("statusText", _STRING, "status_text"),
            ("ok", _BOOLEAN, "ok"),
        ),
        _summary(
            "Request",
            ("url", _STRING, "url"),
            ("method", _STRING, "method"),
            ("resourceType", _STRING, "resource_type"),
        ),
        _summary("ConsoleMessage", ("type", _STRING, "type"), ("text", _STRING, "text")),
        _summary(
            "Download",
            ("url", _STRING, "url"),
            ("suggestedFilename", _STRING, "suggested_filename"),
        ),
        _summary("Worker", ("url", _STRING, "url")),
        _summary("WebSocket", ("url", _STRING, "url")),
    ]
)
