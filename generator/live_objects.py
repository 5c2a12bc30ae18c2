"""Live browser objects as tool results: which come back as a JSON summary, and which as nothing.

A tool result must be JSON, so a method returning a `Response` or a `Page` cannot hand the object
over. The types below return a small summary read from Python *properties* (never methods, so the
sync and async shims read them alike); every other live type returns nothing, and the descriptor
says so. The binder checks each attribute against the installed Python package.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.targets import JAVA_PACKAGE
from generator.type_tree import Field, ObjectOf, Scalar, TypeNode

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
