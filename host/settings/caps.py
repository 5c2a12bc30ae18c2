"""Opt-in capabilities (`--caps`): tools a host lists only when asked for them.

Guarantees: `parse_caps` accepts exactly the names of `CAPS` (comma-separated, repeatable,
case-sensitive) and refuses any other with the known names; a tool named in `CAPS` is listed and
callable only on a host started with its capability.
"""

from __future__ import annotations

from collections.abc import Iterable

CAPS: dict[str, tuple[str, ...]] = {
    "network": ("browser_network_state_set",),
    "pdf": ("browser_pdf_save",),
    "storage": (
        "browser_cookie_list",
        "browser_cookie_get",
        "browser_cookie_set",
        "browser_cookie_delete",
        "browser_cookie_clear",
        "browser_localstorage_list",
        "browser_localstorage_get",
        "browser_localstorage_set",
        "browser_localstorage_delete",
        "browser_localstorage_clear",
        "browser_sessionstorage_list",
        "browser_sessionstorage_get",
        "browser_sessionstorage_set",
        "browser_sessionstorage_delete",
        "browser_sessionstorage_clear",
        "browser_storage_state",
        "browser_set_storage_state",
    ),
    "testing": (
        "browser_verify_element_visible",
        "browser_verify_text_visible",
        "browser_verify_list_visible",
        "browser_verify_value",
        "browser_generate_locator",
    ),
    "tracing": ("browser_start_tracing", "browser_stop_tracing"),
    "vision": (
        "browser_mouse_click_xy",
        "browser_mouse_move_xy",
        "browser_mouse_drag_xy",
        "browser_mouse_down",
        "browser_mouse_up",
        "browser_mouse_wheel",
    ),
}
"""Each capability and the tools it adds (the host's `caps` toolset holds them all), as
`@playwright/mcp` 0.0.83 gates them (its `network` capability also holds the route tools, which
this host lists by default)."""

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


def summary(cap: str) -> str:
    """The tools of `cap` in a few words: a family of five or more sharing `browser_<family>_`
    is written `browser_<family>_*`."""
    families: dict[str, list[str]] = {}
    for tool in CAPS[cap]:
        families.setdefault(tool.rsplit("_", 1)[0], []).append(tool)
    names: list[str] = []
    for family, tools in families.items():
        names += [f"{family}_*"] if len(tools) >= 5 else tools
    return ", ".join(names)
