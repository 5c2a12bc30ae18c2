"""Secret field values kept out of everything the service emits: responses and log lines.

A value typed into a page comes back in many spellings: as typed; in a URL, percent-encoded as a
form submission encodes it (the URL standard's `application/x-www-form-urlencoded`: `~` is
`%7E`, a space `+`), in UTF-8 or in the page's legacy charset (`é` is `%E9` on a windows-1252
page), a character that charset cannot hold sent as a numeric character reference
(`&#20013;`, percent-encoded as `%26%2320013%3B`); HTML-escaped or as character references in
markup; JSON-escaped. Each secret is matched by one pattern in which every character may take any
of its spellings, so a mix of them (a URL encoder that leaves `~` alone, lower-case hex) is
caught as well as each uniform one; so is a percent-encoding encoded again (`%257E`).
"""

from __future__ import annotations

import codecs
import functools
import html
import json
import re
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html.entities import codepoint2name

from host.jsontypes import JsonValue

REDACTED = "REDACTED"

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
    codecs.lookup(_charset)
codecs.lookup("utf-16-be")  # JSON escapes are built from UTF-16 code units

_ALNUM = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_FORM_SAFE = frozenset(b"*-._" + _ALNUM)
"""Bytes a form submission leaves as they are (the URL standard's urlencoded serializer)."""
_URL_SAFE = frozenset(b"-._~" + _ALNUM)
_COMPONENT_SAFE = frozenset(b"-._~!*'()" + _ALNUM)
"""What `encodeURIComponent` leaves as it is."""
_WHITESPACE_FORMS = (
    r"(?:\s|\+|%(?:25)*(?:20|09|0[aAdD]|2[bB])|&#0*(?:32|9|10|13);|&#[xX]0*(?:20|9|[aAdD]);|&nbsp;"
    r"|\\[ntr]|\\u00(?:20|0[9aAdD]))+"
)
"""A run of whitespace in a secret: one or more whitespace characters in any spelling (HTML
text, a title and the excerpt fold runs of whitespace into one space)."""
# The shortest start of a secret removed from the end of a text cut short: a cut can fall
# inside a secret, and what is left of it must not show either.
_MIN_CUT_PREFIX = 2


def _any_case(digits: str) -> str:
    """Hex digits as a pattern that takes either case of each letter."""
    return "".join(f"[{d}{d.lower()}]" if d.isalpha() else d for d in digits)


def _hex(byte: int) -> str:
    """`%XX`, either case, percent-encoded again any number of times (`%25XX`: a URL carried in
    another URL's query, as a redirect's `next=` parameter carries it)."""
    return "%(?:25)*" + _any_case(f"{byte:02X}")


def _encode(char: str, charset: str) -> bytes:
    """`char` in `charset` as a browser would send it: unencodable characters as `&#N;`."""
    return codecs.encode(char, charset, "xmlcharrefreplace")


@functools.lru_cache(maxsize=4096)
def _spellings(char: str, charsets: tuple[str, ...]) -> str:
    """A regular expression for one character in every spelling it may take on its way out
    (kept: every action's secrets are built from the same few characters)."""
    point = ord(char)
    forms = {re.escape(char)}
    # Markup: numeric references (decimal, hex with either case), named ones.
    forms.add(f"&#0*{point};")
    forms.add(f"&#[xX]0*{_any_case(f'{point:X}')};")
    name = codepoint2name.get(point)
    if name is not None:
        forms.add(f"&{name};")
    if char == "'":
        forms.add("&apos;")
    # JSON and JavaScript string escapes.
    if char in '"\\/':
        forms.add(re.escape("\\" + char))
    units = char.encode("utf-16-be")
    forms.add(
        "".join(
            r"\\u" + _any_case(f"{units[i]:02X}{units[i + 1]:02X}") for i in range(0, len(units), 2)
        )
    )
    # Percent-encoded bytes in each charset (a form's space is also `+`); a character a charset
    # cannot hold is sent as its numeric reference, itself percent-encoded.
    for charset in charsets:
        try:
            data = _encode(char, charset)
        except (LookupError, UnicodeError):
            continue
        forms.add("".join(_hex(b) for b in data))
        forms.add("".join(re.escape(chr(b)) if b in _FORM_SAFE else _hex(b) for b in data))
    return "(?:" + "|".join(sorted(forms, key=lambda f: (-len(f), f))) + ")"


def secret_pattern(secret: str, charsets: Iterable[str] = CHARSETS) -> str:
    """A regular expression matching `secret` in any mix of its spellings (see the module)."""
    listed = tuple(charsets)
    parts: list[str] = []
    previous_space = False
    for char in secret:
        if char.isspace():
            if not previous_space:
                parts.append(_WHITESPACE_FORMS)
            previous_space = True
            continue
        previous_space = False
        parts.append(_spellings(char, listed))
    return "".join(parts)


def uniform_forms(secret: str, charsets: Iterable[str] = CHARSETS) -> set[str]:
    """The secret spelled wholly one way (as typed, form-encoded per charset, every byte
    percent-encoded, HTML-escaped, JSON-escaped): the forms whose starts a cut may leave."""
    forms = {secret, html.escape(secret, quote=True), json.dumps(secret)[1:-1]}
    forms.add(json.dumps(secret, ensure_ascii=False)[1:-1])
    for charset in charsets:
        try:
            data = codecs.encode(secret, charset, "xmlcharrefreplace")
        except (LookupError, UnicodeError):
            continue
        forms.add(
            "".join(chr(b) if b in _FORM_SAFE else ("+" if b == 32 else f"%{b:02X}") for b in data)
        )
        for safe in (_FORM_SAFE, _URL_SAFE, _COMPONENT_SAFE, frozenset()):
            forms.add("".join(chr(b) if b in safe else f"%{b:02X}" for b in data))
    return {f for f in forms if f}


class Redactor:
    """Replaces every spelling of a set of secret values by `REDACTED`.

    Guarantees: after `scrub`, no spelling of any secret occurs in the text (any mix of the
    spellings the module lists, whitespace collapsed or changed included); `scrub_cut` also
    removes a secret's start (two characters or more, in any uniform spelling) from the end of a
    text cut inside it; `scrub_json` does the same to every string (keys included) of a JSON
    value. The pattern is built once, when the redactor is made. An empty secret redacts nothing;
    very short secrets are redacted wherever they occur: the guarantee wins over readability.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = tuple(sorted({s for s in secrets if s and s.strip()}))
        ordered = sorted(self.secrets, key=lambda s: (-len(s), s))
        self._pattern = (
            re.compile("|".join(f"(?:{secret_pattern(s)})" for s in ordered)) if ordered else None
        )
        self._cut_forms = sorted(
            {form for s in self.secrets for form in uniform_forms(s)}, key=len, reverse=True
        )

    def scrub(self, text: str) -> str:
        if self._pattern is None:
            return text
        # Applied until stable: replacing one occurrence can join text into a new one.
        for _ in range(4):
            cleaned = self._pattern.sub(REDACTED, text)
            if cleaned == text:
                break
            text = cleaned
        return text

    def scrub_cut(self, text: str) -> str:
        """`scrub` for a text that was cut short: a trailing start of a secret (in any uniform
        spelling, at least two characters) is also replaced, since the cut may fall inside one."""
        text = self.scrub(text)
        for form in self._cut_forms:
            for size in range(min(len(form) - 1, len(text)), _MIN_CUT_PREFIX - 1, -1):
                if text.endswith(form[:size]):
                    return text[:-size] + REDACTED
        return text

    def scrub_json(self, value: JsonValue) -> JsonValue:
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_json(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub(k): self.scrub_json(v) for k, v in value.items()}
        return value


class SecretRegistry:
    """The redactors of the actions running now, and of at most `limit` finished within `linger`
    seconds.

    The log formatter scrubs every line with it, so that no log line, whoever writes it (the
    service, Playwright, uvicorn, an exception's text), can carry a secret of an action in
    flight. Guarantees: thread-safe; scrubbing a line costs one pass per redactor held, and at
    most `limit` finished actions are held, so the cost never grows with the number of past
    requests; nothing is rebuilt when an action starts or ends.
    """

    def __init__(self, linger: float = 120.0, limit: int = 64) -> None:
        self._lock = threading.Lock()
        self._active: dict[int, Redactor] = {}
        self._retired: deque[tuple[float, Redactor]] = deque(maxlen=limit)
        self._linger = linger

    @contextmanager
    def holding(self, redactor: Redactor) -> Iterator[None]:
        if not redactor.secrets:
            yield
            return
        token = id(redactor)
        with self._lock:
            self._active[token] = redactor
        try:
            yield
        finally:
            with self._lock:
                self._active.pop(token, None)
                self._retired.append((time.monotonic(), redactor))

    def _held(self) -> list[Redactor]:
        now = time.monotonic()
        with self._lock:
            while self._retired and now - self._retired[0][0] >= self._linger:
                self._retired.popleft()
            return [*self._active.values(), *(r for _, r in self._retired)]

    def scrub(self, text: str) -> str:
        for redactor in self._held():
            text = redactor.scrub(text)
        return text


SECRETS = SecretRegistry()
"""The process's registry, read by `logs.JsonFormatter`."""
