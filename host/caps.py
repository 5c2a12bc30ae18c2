"""Opt-in capabilities (`--caps`): tools a host lists only when asked for them.

Guarantees: `parse_caps` accepts exactly the names of `CAPS` (comma-separated, repeatable,
case-sensitive) and refuses any other with the known names; a tool named in `CAPS` is listed and
callable only on a host started with its capability.
"""

from __future__ import annotations

from collections.abc import Iterable

CAPS: dict[str, tuple[str, ...]] = {
    "pdf": ("browser_pdf_save",),
    "vision": ("browser_mouse_click_xy", "browser_mouse_move_xy", "browser_mouse_drag_xy"),
    "tracing": ("browser_start_tracing", "browser_stop_tracing"),
}
"""Each capability and the tools it adds (the host's `caps` toolset holds them all)."""

CAP_OF: dict[str, str] = {tool: cap for cap, tools in CAPS.items() for tool in tools}
"""The capability each such tool comes with."""


def parse_caps(values: Iterable[str]) -> tuple[str, ...]:
    """The capabilities named in `values` (each `a,b,c`), sorted and without repeats; raises
    ValueError naming an unknown one and the known ones."""
    chosen: set[str] = set()
    for value in values:
        for name in (part.strip() for part in value.split(",")):
            if not name:
                continue
            if name not in CAPS:
                raise ValueError(f"unknown capability {name!r}; known: {', '.join(sorted(CAPS))}")
            chosen.add(name)
    return tuple(sorted(chosen))
