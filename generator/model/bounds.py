"""Bounds on numeric arguments, by name: what keeps one call from holding a page for days.

Playwright accepts any number where it takes a time or a count (`timeout: 2e9` waits 23 days,
`clickCount: 1e9` clicks a billion times); a tool is called by programs and models that send
such numbers by mistake or on purpose. Every top-level parameter named here, when it is a number,
gets these `minimum` and `maximum` in its JSON Schema, and the generated validator refuses a value
outside them before the browser is touched (`invalid_argument`, naming the bound).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TIMEOUT_MS = 300_000
"""The longest `timeout` a tool accepts: five minutes (hosts bound every call's deadline by it)."""


@dataclass(frozen=True)
class Bound:
    """An inclusive range for a numeric parameter, and why it is what it is."""

    minimum: float
    maximum: float
    why: str


BOUNDS: dict[str, Bound] = {
    "timeout": Bound(0, MAX_TIMEOUT_MS, "milliseconds; 0 waits until the caller's deadline"),
    "delay": Bound(0, 10_000, "milliseconds between key presses or mouse events"),
    "steps": Bound(1, 1_000, "intermediate mouse moves"),
    "clickCount": Bound(0, 10, "clicks in one call"),
    "width": Bound(1, 16_384, "pixels: Chromium's largest surface"),
    "height": Bound(1, 16_384, "pixels: Chromium's largest surface"),
    "quality": Bound(0, 100, "JPEG quality, as Playwright documents it"),
    "scale": Bound(0.1, 2, "the PDF scale Playwright accepts"),
}


def bounds_for(name: str, kind: str) -> dict[str, int | float]:
    """`{"minimum": ..., "maximum": ...}` for a top-level parameter `name` of JSON type `kind`."""
    bound = BOUNDS.get(name)
    if bound is None or kind not in ("number", "integer"):
        return {}
    return {"minimum": _number(bound.minimum), "maximum": _number(bound.maximum)}


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value
