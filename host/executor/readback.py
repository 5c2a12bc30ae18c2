"""What an action reads back from its page: the title and an element's markup, in one evaluation.

One round trip to the page gives both (reading them apart cost three to five: the title is
measured before it is read, a locator is resolved, evaluated and released), and both then come
from one document, so a client-side redirect cannot pair one page's title with another's
markup. The page cuts both to a few times the sizes returned, so what crosses stays bounded;
what was cut is scrubbed as text cut inside a secret could be.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.executor.excerpt import sanitise
from host.executor.redaction import Redactor
from host.shared.jsontypes import JsonObject, JsonValue

TITLE_CHARS = 1000
"""Characters of the page's title returned; longer ones are cut."""
_MARGIN = 4
"""The page sends this many times the sizes returned: scripts, styles and attributes are taken
out of the markup afterwards, and a secret's spellings shrink to `REDACTED`."""

PAGE_JS = """
(limits) => {
  const body = document.body;
  return {
    title: String(document.title).slice(0, limits.title),
    html: body ? body.outerHTML.slice(0, limits.html) : null,
  };
}
"""
"""The title and `document.body`'s markup (null without a body: the caller then asks a locator)."""

ELEMENT_JS = """
(el, limits) => ({
  title: window === window.top ? String(document.title).slice(0, limits.title) : null,
  html: el.outerHTML.slice(0, limits.html),
})
"""
"""The title (null when the element is in a child frame, whose title is not the page's) and the
element's markup."""


def limits(excerpt_chars: int) -> JsonObject:
    """The sizes the page cuts the title and the markup to."""
    return {"title": TITLE_CHARS * _MARGIN, "html": excerpt_chars * _MARGIN}


@dataclass(frozen=True)
class PageRead:
    """What one evaluation brought back: `title` None if it could not be read there."""

    title: str | None
    html: str | None

    @classmethod
    def from_json(cls, value: JsonValue) -> PageRead:
        if not isinstance(value, dict):
            return cls(None, None)
        title, html = value.get("title"), value.get("html")
        return cls(
            title if isinstance(title, str) else None, html if isinstance(html, str) else None
        )


def shown_title(raw: str, redactor: Redactor) -> str:
    """The title as answered: scrubbed before it is cut, so that a cut cannot leave part of a
    secret, and at most `TITLE_CHARS` characters."""
    cut = len(raw) >= TITLE_CHARS * _MARGIN
    text = redactor.scrub_cut(raw) if cut else redactor.scrub(raw)
    if len(text) > TITLE_CHARS:
        text = redactor.scrub_cut(text[:TITLE_CHARS])
    return text


def shown_excerpt(
    raw: str, limit: int, selector: str, fallback: bool, redactor: Redactor
) -> JsonObject:
    """The `excerpt` answered for markup `raw` (as the page cut it).

    Guarantees: sanitised (`excerpt.sanitise`), at most `limit` characters, and scrubbed both
    before it is sanitised and cut and after, so that no cut leaves part of a secret.
    """
    cut = len(raw) >= limit * _MARGIN
    markup = redactor.scrub_cut(raw) if cut else redactor.scrub(raw)
    excerpt = sanitise(markup, limit)
    return {
        "selector": selector,
        "fallback": fallback,
        "html": redactor.scrub_cut(excerpt.html)
        if excerpt.truncated
        else redactor.scrub(excerpt.html),
        "truncated": excerpt.truncated,
        "removed": excerpt.removed,
    }
