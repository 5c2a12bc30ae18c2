"""The DOM excerpt returned to a planner: an allow-list of elements and attributes, so that no
script, handler, input value or script-bearing URL survives in any spelling.

Only listed elements are kept; a listed element keeps only listed attributes. Elements that carry
code or another document (`script`, `style`, `svg`, `math`, `iframe`, `object`, `template`, ...)
are dropped with everything inside them; any other unlisted element is dropped but its text and
listed children are kept. A URL attribute (`href`, `src`, `action`) is kept only when, read as
a browser reads it (entities decoded, leading controls and spaces stripped, tabs and newlines
removed), it is relative or uses http, https, mailto or tel.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

# Dropped with everything inside them: they carry code, styles or other documents.
DROPPED = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "object",
        "embed",
        "applet",
        "iframe",
        "frame",
        "frameset",
        "svg",
        "math",
        "canvas",
        "head",
        "xmp",
        "plaintext",
        "noembed",
        "noframes",
    }
)
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
ELEMENTS = frozenset(
    {
        "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "blockquote", "body",
        "br", "button", "caption", "cite", "code", "col", "colgroup", "data", "dd", "del",
        "details", "dfn", "dialog", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html",
        "i", "img", "input", "ins", "kbd", "label", "legend", "li", "main", "mark", "menu",
        "meter", "nav", "ol", "optgroup", "option", "output", "p", "picture", "pre", "progress",
        "q", "s", "samp", "search", "section", "select", "small", "span", "strong", "sub",
        "summary", "sup", "table", "tbody", "td", "textarea", "tfoot", "th", "thead", "time",
        "tr", "u", "ul", "var", "wbr",
    }
)  # fmt: skip
"""Elements kept (with their listed attributes)."""
ATTRIBUTES = frozenset(
    {
        "id", "class", "name", "type", "for", "role", "title", "alt", "placeholder", "lang",
        "dir", "tabindex", "colspan", "rowspan", "scope", "headers", "width", "height",
        "maxlength", "minlength", "min", "max", "step", "size", "multiple", "checked",
        "selected", "disabled", "readonly", "required", "hidden", "autocomplete", "label",
        "method", "target", "rel", "open", "datetime", "href", "src", "action",
        "data-testid", "data-test-id", "data-test", "data-qa", "data-cy",
    }
)  # fmt: skip
"""Attributes kept on kept elements (and every `aria-*`)."""
URL_ATTRIBUTES = frozenset({"href", "src", "action"})
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "tel"})
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_SPACE = re.compile(r"\s+")
_ENTITY_TAIL = re.compile(r"&[#a-zA-Z0-9]*$")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def safe_url(value: str) -> bool:
    """Whether a URL attribute's value (entities already decoded) opens nothing but a page: the
    browser strips leading and trailing controls and spaces and removes tabs and newlines before
    it reads the scheme, so the same is done here."""
    cleaned = _TAB_OR_NEWLINE.sub("", value.strip(_C0_AND_SPACE))
    found = _SCHEME.match(cleaned)
    return found is None or found.group(1).lower() in SAFE_SCHEMES


def _attribute_kept(name: str) -> bool:
    return name in ATTRIBUTES or (name.startswith("aria-") and name[5:].isalpha())


@dataclass(frozen=True)
class Excerpt:
    """Sanitised HTML. Guarantees: only `ELEMENTS` and, on them, only `ATTRIBUTES` (and
    `aria-*`) appear; no `DROPPED` element or its content, no `textarea` text, no comment; every
    kept URL attribute passes `safe_url`; at most `limit` characters (`truncated` says when it
    was cut)."""

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
        if tag not in ELEMENTS:
            self.removed += 1  # the tag goes; its text and kept children stay
            return
        kept = []
        for name, value in attrs:
            lowered = name.lower()
            if not _attribute_kept(lowered) or (
                lowered in URL_ATTRIBUTES and value is not None and not safe_url(value)
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
        if tag in DROPPED or tag in VOID or tag not in ELEMENTS:
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
