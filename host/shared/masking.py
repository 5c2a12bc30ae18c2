"""Showing secret values as their names: the one rule the host's `--secrets` masking and
`host replay` share.

Guarantees: `mask` replaces every occurrence of every value by its name in one pass from the
left, the longest value first where values overlap (so the outcome does not depend on the order
they were given in), and never looks into a name it put in (a value that occurs inside another's
`${NAME}` cannot garble it). `spelled` adds every spelling a value takes on its way back from a
page (`spellings`: percent-encoded in a URL or a form, quoted in a cookie, escaped in JSON, in
markup or in a Python repr), so that `mask` with it shows the name wherever the value would
appear, in whatever spelling. `too_short` refuses a value shorter than `MIN_SECRET_CHARS`.
"""

from __future__ import annotations

import heapq
import json
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from http.cookies import SimpleCookie

MIN_SECRET_CHARS = 4
"""The shortest value masked. A shorter one occurs by chance in ordinary text (`e` in every other
word, `id`, `the`, a two-digit number): masking it garbles every result, and the marks it leaves
show exactly where the value stood, so they give the value away. Four is the shortest real secret
in common use (a PIN); such values are refused at start, naming them, rather than half masked."""


def too_short(name: str, value: str) -> str | None:
    """Why `value` cannot be masked as secret `name` (None when it can)."""
    if len(value) >= MIN_SECRET_CHARS:
        return None
    return (
        f"{name} is {len(value)} character{'s' if len(value) != 1 else ''} long; a secret "
        f"shorter than {MIN_SECRET_CHARS} characters cannot be masked (it occurs by chance in "
        "ordinary text, so masking it would garble every result and show where it stands); "
        f"give a value of {MIN_SECRET_CHARS} characters or more"
    )


def mask(text: str, names: Mapping[str, str]) -> str:
    """`text` with every value of `names` (value -> what shows instead) replaced by its name.

    From the left: the value that occurs first wins, the longest where several start at the same
    place. Each value's next occurrence is found by `str.find` from where masking stands, so the
    text is scanned once per value and never again behind a mask: time linear in the text for a
    given set of values, plus a heap step per mask. With a `Spelled` map, a value's spellings are
    looked for only in a text that holds what every one of them holds (`Spelled.candidates`)."""
    if not names or not text:
        return text
    candidates: Iterable[str] = names
    if isinstance(names, Spelled):
        candidates = names.candidates(text)
    heap: list[tuple[int, int, str]] = []
    for value in candidates:
        found = text.find(value) if value else -1
        if found >= 0:
            heap.append((found, -len(value), value))
    if not heap:
        return text
    heapq.heapify(heap)
    parts: list[str] = []
    at = 0
    while heap:
        found, negative_length, value = heap[0]
        if found < at:  # it starts inside a mask just put in: its next occurrence from here
            again = text.find(value, at)
            if again < 0:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (again, negative_length, value))
            continue
        parts.append(text[at:found])
        parts.append(names[value])
        at = found + len(value)
        again = text.find(value, at)
        if again < 0:
            heapq.heappop(heap)
        else:
            heapq.heapreplace(heap, (again, negative_length, value))
    parts.append(text[at:])
    return "".join(parts)


# -- the spellings of a value -------------------------------------------------------------------
# Every encoder below keeps ASCII letters and digits as they are and changes other characters
# one at a time, so a value's spelling is a substring wherever the encoded text holds the value:
# masking the spelling where it stands is exact, and it is never shorter than the value.

_PRINTABLE = "".join(chr(code) for code in range(0x21, 0x7F))


def _all_but(encoded: str) -> str:
    """The printable ASCII characters a URL parser leaves as they are, all but `encoded`."""
    return "".join(char for char in _PRINTABLE if char not in encoded)


def _percent(kept: str, plus: bool = False) -> Callable[[str, str], str]:
    """A percent-encoder: ASCII letters, digits and `kept` as they are, a space as `+` when
    `plus`, any other character as its UTF-8 bytes, each `%XX` in the hex format given."""
    keep = frozenset(string.ascii_letters + string.digits + kept)

    def encode(value: str, hex_format: str) -> str:
        parts: list[str] = []
        for char in value:
            if char in keep:
                parts.append(char)
            elif plus and char == " ":
                parts.append("+")
            else:  # surrogatepass: a value from the environment may hold an undecodable byte
                for byte in char.encode("utf-8", "surrogatepass"):
                    parts.append("%" + format(byte, hex_format))
        return "".join(parts)

    return encode


_URL_ENCODERS = (
    _percent("-_.!~*'()"),  # JavaScript's encodeURIComponent
    _percent("-_.!~*'();,/?:@&=+$#"),  # JavaScript's encodeURI
    _percent("_.-~/"),  # Python's quote
    _percent("_.-~"),  # quote(safe=""), PHP's rawurlencode
    _percent("_.-~", plus=True),  # Python's quote_plus and urlencode
    _percent("*-._", plus=True),  # a form's fields in a URL or a body, URLSearchParams
    _percent("-_.", plus=True),  # PHP's urlencode
    # What a browser's URL parser encodes in a URL given as it was typed (a page that builds a
    # link from a field without encoding it): the query, the path, the fragment, the user info.
    _percent(_all_but(" \"#<>'")),
    _percent(_all_but(' "#<>?`{}')),
    _percent(_all_but(' "<>`')),
    _percent(_all_but(' "#<>?`{}/:;=@[\\]^|')),
)

_QUOTES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_MARKUP_ESCAPES = (
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\xa0": "&nbsp;"},  # text, as a browser writes it
    {"&": "&amp;", '"': "&quot;", "\xa0": "&nbsp;"},  # an attribute, as a browser writes it
    {**_QUOTES, "\xa0": "&nbsp;"},  # an attribute, as newer browsers write it
    {**_QUOTES, "'": "&#x27;"},  # Python's html.escape
    {**_QUOTES, "'": "&#39;"},
    {**_QUOTES, "'": "&#039;"},  # PHP's htmlspecialchars
    {**_QUOTES, '"': "&#34;", "'": "&#39;"},  # Jinja's markupsafe
)
_MARKUP_TABLES = tuple(str.maketrans(table) for table in _MARKUP_ESCAPES)

_JSON_UNICODE = re.compile(r"(\\\\)|\\u([0-9a-f]{4})")
_HTML_SAFE_JSON = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def _json_escapes(value: str) -> list[str]:
    """`value` inside a JSON string: as json.dumps writes it with and without ensure_ascii
    (without is also JavaScript's JSON.stringify), `\\uXXXX` in upper-case hex, `/` as `\\/`
    (PHP's json_encode), `<`, `>` and `&` as `\\u003c` ... (Go's encoding/json)."""
    readable = json.dumps(value, ensure_ascii=False)[1:-1]
    ascii_only = json.dumps(value)[1:-1]
    upper = _JSON_UNICODE.sub(lambda found: found[1] or "\\u" + found[2].upper(), ascii_only)
    return [
        readable,
        ascii_only,
        upper,
        readable.replace("/", "\\/"),
        ascii_only.replace("/", "\\/"),
        readable.translate(_HTML_SAFE_JSON),
    ]


def _cookie(value: str) -> str:
    """`value` as Python's http.cookies quotes a cookie's value (the quotes left off)."""
    quoted = SimpleCookie().value_encode(value)[1]
    return quoted[1:-1] if quoted != value else quoted


def spellings(value: str) -> list[str]:
    """Every distinct spelling of `value` that a page, a browser or a server may show it in,
    `value` itself first: percent-encoded as each common URL and form encoder writes it (upper-
    and lower-case hex; a space as `+` in a form), as a browser's URL parser writes a URL typed
    as it is, quoted as a cookie, escaped in markup (each common set of entities, also for a
    URL in an attribute), as a Python repr, each of these inside a JSON string (see
    `_json_escapes`), and a JSON string's inside another. Each spelling holds every run of
    ASCII letters and digits of `value` as it is, and is at least as long as `value`."""
    found = dict.fromkeys([value])
    for encode in _URL_ENCODERS:
        found.setdefault(encode(value, "02X"))
        found.setdefault(encode(value, "02x"))
    in_urls = list(found)
    for table in _MARKUP_TABLES:
        for text in in_urls:  # the value, and a URL holding it, in markup (an `href`)
            found.setdefault(text.translate(table))
    found.setdefault(_cookie(value))
    found.setdefault(repr(value)[1:-1])
    for text in list(found):
        for escaped in _json_escapes(text):
            found.setdefault(escaped)
    # JSON in JSON: a page's JSON.stringify kept in web storage, written out by json.dumps.
    for once in _json_escapes(value)[:3]:
        for twice in _json_escapes(once)[:3]:
            found.setdefault(twice)
    return list(found)


_LETTERS_AND_DIGITS = re.compile(r"[A-Za-z0-9]+")


class Spelled(Mapping[str, str]):
    """What `spelled` returns: spelling -> what shows instead, for `mask`, which with it looks
    for a value's spellings only where they can be (`candidates`). Read-only, so that what
    `candidates` knows stays true of the map."""

    def __init__(self, items: dict[str, str], groups: list[tuple[str, list[str]]]) -> None:
        self._items = items
        self._groups = tuple((anchor, tuple(group)) for anchor, group in groups)
        # Per value: its longest run of ASCII letters and digits ('' if it has none) and its
        # spellings, every one of which holds that run (see `spellings`).

    def __getitem__(self, spelling: str) -> str:
        return self._items[spelling]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def candidates(self, text: str) -> list[str]:
        """The spellings that may occur in `text`: those of each value whose run `text` holds.
        One search per value: a value with many spellings costs a text that lacks it one scan,
        not one per spelling."""
        return list(
            dict.fromkeys(s for anchor, group in self._groups if anchor in text for s in group)
        )


def spelled(shown: Mapping[str, str]) -> Spelled:
    """`shown` (value -> what shows instead) with every spelling of every value (`spellings`)
    shown alike, for `mask`. Where two values have a spelling in common, a value as itself
    wins over another's encoding, then the value first in sorted order: the outcome does not
    depend on the order of `shown`."""
    ordered = sorted(shown)
    result = {value: shown[value] for value in ordered}
    groups: list[tuple[str, list[str]]] = []
    for value in ordered:
        group = spellings(value)
        for spelling in group:
            result.setdefault(spelling, shown[value])
        runs = _LETTERS_AND_DIGITS.findall(value)
        groups.append((max(runs, key=len) if runs else "", group))
    return Spelled(result, groups)


def secret_masks(values: Mapping[str, str]) -> Spelled:
    """For secrets `values` (name -> value): every spelling of each value -> its `${NAME}`,
    for `mask` (the map the host's `--secrets` and `host replay` scrub with)."""
    return spelled({value: "${" + name + "}" for name, value in values.items()})
