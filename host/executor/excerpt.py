"""The DOM excerpt returned to a planner: HTML without scripts, styles, handlers or input values."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

# Elements dropped with everything inside them.
DROPPED = frozenset({"script", "style", "noscript", "template", "object", "embed"})
VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
_URL_ATTRS = frozenset({"href", "src", "action", "formaction", "xlink:href", "poster", "data"})
_DANGEROUS_URL = re.compile(r"^\s*(javascript|vbscript|data):", re.IGNORECASE)
# Attributes that hold what a user typed or chose, or markup run elsewhere.
_VALUE_ATTRS = frozenset({"value", "srcdoc", "style"})
_SPACE = re.compile(r"\s+")
_ENTITY_TAIL = re.compile(r"&[#a-zA-Z0-9]*$")


@dataclass(frozen=True)
class Excerpt:
    """Sanitised HTML. Guarantees: no `script`/`style`/`noscript`/`template`/`object`/`embed`
    element, no `on*` attribute, no `style` or `srcdoc` attribute, no `value` attribute, no
    `textarea` content, no `javascript:`/`data:` URL, no comment; at most `limit` characters
    (`truncated` says when it was cut)."""

    html: str
    truncated: bool
    removed: int
    """Elements and attributes taken out."""


class _Sanitiser(HTMLParser):
    def __init__(self, limit: int) -> None:
        super().__init__(convert_charrefs=True)
        self.limit = limit
        self.out: list[str] = []
        self.size = 0
        self.truncated = False
        self.removed = 0
        self.skip_depth = 0
        self.skip_tag = ""
        self.in_textarea = 0

    def _emit(self, text: str, *, divisible: bool = False) -> None:
        if self.truncated:
            return
        if self.size + len(text) > self.limit:
            self.truncated = True
            if (
                divisible
            ):  # text is cut where the limit falls (never inside an entity); tags are not
                self.out.append(_ENTITY_TAIL.sub("", text[: self.limit - self.size]))
            return
        self.out.append(text)
        self.size += len(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], *, closed: bool) -> None:
        if self.skip_depth:
            if tag == self.skip_tag and not closed:
                self.skip_depth += 1
            return
        if tag in DROPPED:
            self.removed += 1
            if not closed and tag not in VOID:
                self.skip_depth, self.skip_tag = 1, tag
            return
        kept = []
        for name, value in attrs:
            lowered = name.lower()
            if (
                lowered.startswith("on")
                or lowered in _VALUE_ATTRS
                or (lowered in _URL_ATTRS and value is not None and _DANGEROUS_URL.match(value))
            ):
                self.removed += 1
                continue
            kept.append(
                f" {lowered}" if value is None else f' {lowered}="{html.escape(value, quote=True)}"'
            )
        self._emit(f"<{tag}{''.join(kept)}>")
        if tag == "textarea" and not closed:
            self.in_textarea += 1

    def handle_endtag(self, tag: str) -> None:
        if self.skip_depth:
            if tag == self.skip_tag:
                self.skip_depth -= 1
            return
        if tag in DROPPED or tag in VOID:
            return
        if tag == "textarea" and self.in_textarea:
            self.in_textarea -= 1
        self._emit(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.in_textarea:
            if data.strip():
                self.removed += 1
            return
        text = _SPACE.sub(" ", data)
        if text:
            self._emit(html.escape(text, quote=False), divisible=True)

    def handle_comment(self, data: str) -> None:
        return

    def handle_decl(self, decl: str) -> None:
        return

    def handle_pi(self, data: str) -> None:
        return

    def unknown_decl(self, data: str) -> None:
        return


def sanitise(raw: str, limit: int) -> Excerpt:
    """Sanitise `raw` HTML (an element's `outerHTML`, perhaps cut short) into an `Excerpt`."""
    parser = _Sanitiser(limit)
    parser.feed(raw)
    parser.close()
    return Excerpt("".join(parser.out).strip(), parser.truncated, parser.removed)
