"""The rules an allowlist's text values follow, each written once as a regular expression that
Python's `re` and a JSON Schema's ECMA-262 `pattern` read alike.

The allowlist reader and the command line check a value with `TextRule.problem`; the allowlist's
JSON Schema (`render/allowlist_schema.py`) carries `TextRule.schema()`, the same expression
anchored at both ends. So whatever a pattern can say, the editor and the generator say alike;
`tests/test_allowlist_agreement.py` runs every refusal case through both. What a pattern cannot
say (a key given twice, two parameters renamed to one wire name, whether a file exists) is the
generator's alone, and that test lists it.

The expressions use only what both dialects share: character classes, `{m,n}`, groups and
lookaheads; `[\\s\\S]` for "any character" (a `.` differs on line ends), never `\\s` or `\\w`
(their Unicode sets differ). A value is matched whole (`re.fullmatch` here, `^(?:...)$` there).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

MAX_NAME = 64
"""A tool or wire name becomes file names and identifiers; 64 characters keep every file name
far below the 255-byte limit of the file systems the project supports."""

MAX_PATH = 4095
"""The longest path a Linux system call takes (PATH_MAX less its NUL)."""

MAX_PATH_PART = 255
"""The longest file or folder name (NAME_MAX); checked in characters here, and the file system's
own refusal of a longer name in bytes is reported as one line too."""

MAX_PACKAGE = 255
"""A Kotlin package becomes nested folders of the Kotlin output; 255 characters in all keep the
deepest file within MAX_PATH."""

KOTLIN_KEYWORDS = frozenset(
    """as break class continue do else false for fun if in interface is null object package
    return super this throw true try typealias typeof val var when while""".split()  # noqa: SIM905
)
"""Kotlin's hard keywords: not usable as identifiers without backticks, nor in a package name."""

RESERVED_PACKAGE_ROOTS = ("java", "kotlin")
"""Package roots the platform keeps: the JVM refuses classes in `java.*`, and kotlinc refuses
declarations in `kotlin.*` outside its standard library."""

_BLANK = "\\t\\n\\x0b\\x0c\\r "  # the ASCII white space both dialects agree on
_NOT_BLANK = f"[\\s\\S]*[^{_BLANK}][\\s\\S]*"
# An identifier that is not only underscores (Kotlin reserves `_`, `__`, ...).
_IDENTIFIER = "(?!_+(?:\\.|$))[A-Za-z_][A-Za-z0-9_]*"


def _segment(reserved: Iterable[str]) -> str:
    words = "|".join(sorted(reserved))
    return f"(?!(?:{words})(?:\\.|$)){_IDENTIFIER}"


@dataclass(frozen=True)
class TextRule:
    """One rule on a text value: `body` is a regular expression the whole value must match, and
    `max_length` (when set) bounds its length in characters. `says` is what a fitting value is,
    for messages ("a release such as 1.63.0").

    Guarantees: `problem(value)` is None exactly when `re.fullmatch(body, value)` holds and the
    length is within bounds, and `schema()` is a JSON Schema that accepts exactly those strings
    (for the expressions this module writes, which both dialects read alike)."""

    body: str
    says: str
    max_length: int | None = None

    @cached_property
    def _compiled(self) -> re.Pattern[str]:
        return re.compile(self.body)

    def matches(self, value: str) -> bool:
        if self.max_length is not None and len(value) > self.max_length:
            return False
        return self._compiled.fullmatch(value) is not None

    def problem(self, value: str) -> str | None:
        """Why `value` breaks the rule (a phrase to follow the value's name), or None."""
        if self.max_length is not None and len(value) > self.max_length:
            return f"is {len(value)} characters long; at most {self.max_length} are allowed"
        if self.matches(value):
            return None
        return f"must be {self.says}"

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string", "pattern": f"^(?:{self.body})$"}
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        return schema


VERSION = TextRule("[0-9]+\\.[0-9]+\\.[0-9]+", "a release such as 1.63.0", max_length=32)
TOOL_NAME = TextRule(
    "[A-Za-z][A-Za-z0-9_]*",
    "an identifier (ASCII letters, digits and '_', starting with a letter)",
    max_length=MAX_NAME,
)
WIRE_NAME = TextRule(
    _IDENTIFIER,
    "an identifier (ASCII letters, digits and '_', not '_' alone, which Kotlin reserves), for "
    "example 'script'",
    max_length=MAX_NAME,
)
DESCRIPTION = TextRule(_NOT_BLANK, "text with more than white space")
PATH = TextRule(
    # Some character that is not white space, no NUL, no name longer than MAX_PATH_PART.
    f"(?![\\s\\S]*[^/]{{{MAX_PATH_PART + 1}}})[^\\x00]*[^\\x00{_BLANK}][^\\x00]*",
    f"a path: not blank, no NUL character, no file or folder name over {MAX_PATH_PART} characters",
    max_length=MAX_PATH,
)
RELATIVE_PATH = TextRule(
    # PATH, and also neither absolute nor stepping up with `..`: a file under its folder.
    f"(?!/)(?![\\s\\S]*(?:^|/)\\.\\.(?:/|$)){PATH.body}",
    "a path relative to the allowlist's folder, inside it (no leading '/', no '..')",
    max_length=MAX_PATH,
)
_KOTLIN_SEGMENT = _segment(KOTLIN_KEYWORDS)
KOTLIN_PACKAGE = TextRule(
    f"(?!(?:{'|'.join(RESERVED_PACKAGE_ROOTS)})(?:\\.|$)){_KOTLIN_SEGMENT}(?:\\.{_KOTLIN_SEGMENT})*",
    "dot-separated identifiers that are not Kotlin keywords nor '_', under a root of your own "
    f"(not {' or '.join(RESERVED_PACKAGE_ROOTS)}), such as com.example.tools",
    max_length=MAX_PACKAGE,
)


def one_of(choices: Iterable[str], says: str) -> TextRule:
    """A rule accepting exactly the given words."""
    words = "|".join(re.escape(c) for c in choices)
    return TextRule(f"(?:{words})", says)


def word_list(words: Iterable[str], every: str, says: str) -> TextRule:
    """A rule for a comma-separated list of `words` (spaces allowed around each), or `every`
    alone (which means all of them)."""
    word = "(?:" + "|".join(re.escape(w) for w in words) + ")"
    return TextRule(f"[ ]*(?:{re.escape(every)}|{word}(?:[ ]*,[ ]*{word})*)[ ]*", says)
