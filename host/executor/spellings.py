"""The decoded views of a text in which a secret value shows as itself, whatever its spelling.

A value typed into a page comes back in many spellings: as typed; in a URL, percent-encoded as a
form submission encodes it (`~` is `%7E`, a space `+`), in UTF-8 or in the page's legacy charset
(`é` is `%E9` on a windows-1252 page), a character that charset cannot hold sent as a numeric
character reference (`&#20013;`, percent-encoded as `%26%2320013%3B`), percent-encoded again
(`%257E`: a URL in another URL's query); HTML-escaped or as character references in markup;
JSON-escaped; backslash-escaped as a Python repr or a cookie quoted by Python's http.cookies
(`\\xa0`, octal `\\351`); one escape inside another (markup in JSON, JSON in JSON); with runs
of whitespace folded into one space. Instead of a pattern per spelling, the text is decoded: each
view undoes one combination of those encodings over the whole text, every escape on its own (so
a mix of spellings in one value decodes as well as a uniform one), and keeps, for each character
it holds, the span of the text it came from. A value then shows as itself in at least one view,
where one automaton over every value finds it. Every spelling host/shared/masking.py's
`spellings` lists (what the host's `--secrets` masking covers) is one of these.

The views: the text as it is; markup and backslash escapes decoded (once, and again where that
left an escape); percent-escapes decoded (any number of `%25` levels at once, or exactly one
level, so that a value holding `%41` is still found) in each charset, each with and without
markup decoded after. Whitespace and `+` fold to one space in every view, and in the values
(`canonical`). Each view costs one pass over the text; views that decode to the same text are
kept once, so a text without `%`, `&` or a backslash has one view, and only percent-encoded
bytes above 0x7F make the charsets differ.

The one spelling not decoded: a value whose characters are percent-encoded each in a different
charset (no encoder produces it; the single pattern this replaces also matched that).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.entities import name2codepoint

CHARSETS = (
    "utf-8",
    "windows-1252",
    "iso-8859-2",
    "windows-1250",
    "windows-1251",
    "koi8-r",
    "iso-8859-7",
    "windows-1253",
    "iso-8859-8",
    "windows-1255",
    "windows-1256",
    "windows-1254",
    "windows-1257",
    "windows-1258",
    "cp874",  # windows-874
    "shift_jis",
    "euc-jp",
    "gbk",
    "gb18030",
    "big5",
    "euc-kr",
)
"""The encodings a form or URL may be sent in: UTF-8 and the web's legacy ones."""
for _charset in CHARSETS:
    # Loaded now: a codec is imported on first use, and after the service dropped root the
    # interpreter's library may no longer be readable.
    codecs.getincrementaldecoder(_charset)

_FORM_SAFE = frozenset("*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
"""Characters a form submission leaves as they are: a byte of a multi-byte character may be one."""
_MAX_CHAR_BYTES = 4

_PERCENT_ALL_LEVELS = re.compile(r"%(?:25)*([0-9A-Fa-f]{2})")
_PERCENT_ONE_LEVEL = re.compile(r"%([0-9A-Fa-f]{2})")
_HIGH_BYTE = re.compile(r"%(?:25)*[89A-Fa-f][0-9A-Fa-f]")
_MARKUP_SOURCE = (
    r"&#0*([0-9]{1,7});|&#[xX]0*([0-9A-Fa-f]{1,6});|&([A-Za-z][A-Za-z0-9]{1,31});"
    r"|\\u([dD][89abAB][0-9A-Fa-f]{2})\\u([dD][c-fC-F][0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})"
    r"|\\x([0-9A-Fa-f]{2})|\\U([0-9A-Fa-f]{8})|\\([0-7]{3})"
    r'|\\(["\'/bfnrt%s])'
)
"""Markup's character references, JSON's escapes, and the backslash escapes of a Python repr and
of a cookie as Python's http.cookies quotes it (`\\xa0`, `\\U0001f600`, octal `\\351`, `\\'`)."""
_MARKUP = re.compile(_MARKUP_SOURCE % r"\\")
_MARKUP_BUT_BACKSLASH = re.compile(_MARKUP_SOURCE % "")
"""Also used where a backslash is followed by an escape: a backslash typed as it is then reads
as one, and the escape after it as itself."""
_NAMED = {**name2codepoint, "apos": ord("'")}
_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r"}
_JSON_ESCAPES["'"] = "'"  # a Python repr's
_JSON_ESCAPES["t"] = "\t"
_WHITESPACE = re.compile(r"[\s+]+")
_PARTIAL_ESCAPE = re.compile(
    r"(?:%(?:25)*[0-9A-Fa-f]?|&#?[xX]?[0-9A-Za-z]{0,31}"
    r"|\\(?:u[0-9A-Fa-f]{0,3}|x[0-9A-Fa-f]?|U[0-9A-Fa-f]{0,7}|[0-7]{1,2})?)\Z"
)
"""The start of an escape at the very end of a text, cut before the escape was complete."""


def canonical(value: str) -> str:
    """`value` as the views show it: every run of whitespace or `+` one space."""
    return _WHITESPACE.sub(" ", value)


def partial_escape(text: str) -> int:
    """Where an escape cut short at the end of `text` starts (`len(text)` if none does)."""
    match = _PARTIAL_ESCAPE.search(text, max(0, len(text) - 64))
    return match.start() if match is not None and match.start() < len(text) else len(text)


@dataclass(frozen=True)
class View:
    """A decoded text: character `i` of `text` came from `source[starts[i]:ends[i]]`; `covers`
    is how much of the source the view holds (less than all when it ends inside a multi-byte
    character whose last bytes were cut off)."""

    text: str
    starts: list[int]
    ends: list[int]
    covers: int


def _whole(text: str) -> View:
    return View(text, list(range(len(text))), list(range(1, len(text) + 1)), len(text))


class _Builder:
    """A view under construction: copied stretches and decoded characters, with their spans."""

    def __init__(self, view: View) -> None:
        self.source = view
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.at = 0

    def copy_to(self, index: int) -> None:
        view = self.source
        self.parts.append(view.text[self.at : index])
        self.starts.extend(view.starts[self.at : index])
        self.ends.extend(view.ends[self.at : index])
        self.at = index

    def decoded(self, chars: str, start: int, end: int) -> None:
        """`chars` stand for the view's characters `start:end`."""
        self.copy_to(start)
        self.parts.append(chars)
        self.starts.extend([self.source.starts[start]] * len(chars))
        self.ends.extend([self.source.ends[end - 1]] * len(chars))
        self.at = end

    def done(self, covers: int | None = None) -> View:
        self.copy_to(len(self.source.text))
        return View(
            "".join(self.parts),
            self.starts,
            self.ends,
            self.source.covers if covers is None else covers,
        )


def _substitute(
    view: View, pattern: re.Pattern[str], decode: Callable[[re.Match[str]], str]
) -> View:
    builder = _Builder(view)
    for match in pattern.finditer(view.text):
        chars = decode(match)
        if chars:
            builder.decoded(chars, match.start(), match.end())
    return builder.done()


def _markup_char(match: re.Match[str]) -> str:
    decimal, hexadecimal, name, high, low, unit, byte, wide, octal, escape = match.groups()
    if escape is not None:
        return _JSON_ESCAPES[escape]
    if octal is not None:
        return chr(int(octal, 8))
    if high is not None:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    if name is not None:
        point = _NAMED.get(name)
        return "" if point is None else chr(point)
    point = int(decimal) if decimal is not None else int(hexadecimal or unit or byte or wide, 16)
    return chr(point) if point <= 0x10FFFF else ""


def _percent(view: View, pattern: re.Pattern[str], charset: str) -> View:
    """Percent-escapes decoded; the bytes of one character (escaped, or form-safe characters
    between escapes) decoded together in `charset`."""
    text = view.text
    builder = _Builder(view)
    covers: int | None = None
    match = pattern.search(text)
    while match is not None:
        start, end = match.span()
        byte = int(match[1], 16)
        if byte < 0x80:
            builder.decoded(chr(byte), start, end)
        else:
            decoder = codecs.getincrementaldecoder(charset)("replace")
            chars = decoder.decode(bytes((byte,)))
            count = 1
            while not chars and count < _MAX_CHAR_BYTES and end < len(text):
                more = pattern.match(text, end)
                if more is not None:
                    chars, end = decoder.decode(bytes((int(more[1], 16),))), more.end()
                elif text[end] in _FORM_SAFE:
                    chars, end = decoder.decode(text[end].encode("ascii")), end + 1
                else:
                    break
                count += 1
            if not chars and end == len(text):
                # The text ends inside the character: the view holds the text before it.
                builder.copy_to(start)
                builder.at = len(text)
                covers = view.starts[start] if start < len(view.starts) else view.covers
                break
            chars = chars or decoder.decode(b"", final=True) or "\ufffd"
            builder.decoded(chars, start, end)
        match = pattern.search(text, end)
    return builder.done(covers)


def _fold(view: View) -> View:
    if not _WHITESPACE.search(view.text):
        return view
    return _substitute(view, _WHITESPACE, lambda _match: " ")


def charsets_for(values: Iterable[str]) -> tuple[str, ...]:
    """The charsets whose views can show `values`: one for each different way their non-ASCII
    characters are encoded (values in ASCII decode alike in every charset: UTF-8 stands for all).
    Time linear in the values' length."""
    wide = sorted({c for value in values for c in value if ord(c) >= 0x80})
    kept: dict[tuple[bytes | None, ...], str] = {}
    for charset in CHARSETS:
        forms: list[bytes | None] = []
        for char in wide:
            try:
                forms.append(char.encode(charset))
            except UnicodeEncodeError:
                forms.append(None)  # sent as `&#N;`: ASCII, alike in every charset
        if any(f is not None for f in forms):
            kept.setdefault(tuple(forms), charset)
    return tuple(c for c in CHARSETS if c in kept.values()) or CHARSETS[:1]


def views(text: str, charsets: tuple[str, ...] = CHARSETS) -> list[View]:
    """The distinct views of `text` (see the module), percent-escapes decoded in `charsets`
    (`charsets_for` the values sought); the first is the text itself, folded."""
    whole = _whole(text)
    decoded = [whole]
    if "%" in text:
        if not _HIGH_BYTE.search(text):
            charsets = CHARSETS[:1]  # only ASCII bytes: every charset decodes them alike
        patterns = [_PERCENT_ALL_LEVELS]
        if "%25" in text:
            patterns.append(_PERCENT_ONE_LEVEL)
        seen = {text}
        for pattern in patterns:
            for charset in charsets:
                view = _percent(whole, pattern, charset)
                if view.text not in seen:
                    seen.add(view.text)
                    decoded.append(view)
    result: list[View] = []
    seen_folded: set[str] = set()
    for view in decoded:
        candidates = [view]
        if "&" in view.text or "\\" in view.text:
            once = _substitute(view, _MARKUP, _markup_char)
            candidates.append(once)
            if once.text != view.text and ("&" in once.text or "\\" in once.text):
                # An escape inside another: markup in JSON (Go's `\u0026amp;`), JSON in JSON.
                candidates.append(_substitute(once, _MARKUP, _markup_char))
        if "\\\\" in view.text:
            candidates.append(_substitute(view, _MARKUP_BUT_BACKSLASH, _markup_char))
        for candidate in candidates:
            folded = _fold(candidate)
            if folded.text not in seen_folded:
                seen_folded.add(folded.text)
                result.append(folded)
    return result
