"""The visible text of an element, read and cut in the page (never carried whole)."""

from __future__ import annotations

from playwright.async_api import Locator

TEXT_LIMIT = 10_000


def cut_text(text: str, limit: int = TEXT_LIMIT) -> tuple[str, bool]:
    return (text, False) if len(text) <= limit else (text[:limit], True)


# The text is cut in the page: only what is returned crosses to the host.
_TEXT_JS = "(e, limit) => { const t = e.innerText || ''; return [t.slice(0, limit), t.length] }"


async def visible_text(locator: Locator, limit: int = TEXT_LIMIT) -> tuple[str, bool]:
    """An element's visible text, at most `limit` characters, and whether it was cut."""
    found = await locator.evaluate(_TEXT_JS, limit)
    text, length = found if isinstance(found, list) and len(found) == 2 else ["", 0]
    return str(text), isinstance(length, int) and length > limit
