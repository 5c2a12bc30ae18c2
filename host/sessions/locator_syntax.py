"""Playwright's locator code as a target: `getByRole('button', { name: 'Submit' })`,
`getByTestId('main').getByRole('button')`, `locator('#list').first()`, with or without `page.`.

@playwright/mcp takes such code wherever it takes a selector (its `target`), so a model used to
it writes targets this way. `selector_of_code` turns the code into the Playwright selector the
same locator uses (Playwright's `internal:` engines); text that is not locator code is left to the
caller (None), and text that starts like locator code but cannot be read is refused, naming what
went wrong. Nothing is evaluated: the code is read by a small parser that knows only the calls
below, their string, regular expression, number and option arguments.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from host.shared.errors import HostError

_TEXT_ENGINES = {
    "getByText": "internal:text={}",
    "getByLabel": "internal:label={}",
    "getByPlaceholder": "internal:attr=[placeholder={}]",
    "getByAltText": "internal:attr=[alt={}]",
    "getByTitle": "internal:attr=[title={}]",
}
_ROLE_OPTIONS = ("checked", "disabled", "expanded", "includeHidden", "level", "pressed", "selected")
CALLS = frozenset(
    [*_TEXT_ENGINES, "getByRole", "getByTestId", "locator", "frameLocator", "contentFrame"]
).union(["first", "last", "nth"])
"""The calls read: Playwright's locator methods that name elements, and those that pick one."""
_STARTS = re.compile(r"^\s*(?:page\s*\.\s*)?([A-Za-z]+)\s*\(")
MAX_CODE = 2000
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}
_HEX = re.compile(r"[0-9A-Fa-f]+")
_HEX2 = re.compile(r"[0-9A-Fa-f]{2}")
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


@dataclass(frozen=True)
class _Regex:
    source: str
    flags: str


Value = str | float | bool | _Regex | dict[str, "Value"]


def selector_of_code(text: str, test_id_attribute: str) -> str | None:
    """The selector for locator code, None when `text` does not start with one of `CALLS`
    (a selector, then); a HostError (`invalid_argument` at `target`) when it does but cannot be
    read."""
    start = _STARTS.match(text)
    if not start or start.group(1) not in CALLS:
        return None
    if len(text) > MAX_CODE:
        raise _refused(f"locator code is longer than {MAX_CODE} characters")
    parser = _Parser(text)
    try:
        calls = parser.chain()
        return " >> ".join(_selector(name, args, test_id_attribute) for name, args in calls)
    except ValueError as error:
        raise _refused(str(error)) from None


def _lone(place: int) -> ValueError:
    return ValueError(
        f"the escape at character {place} is half a surrogate pair (a lone surrogate is no "
        "character); write the pair (\\uD83D\\uDE00) or the code point (\\u{1F600})"
    )


def _refused(why: str) -> HostError:
    return HostError(
        "invalid_argument",
        f"{why}; locator code as Playwright writes it, such as getByRole('button', "
        "{ name: 'Submit' }) or getByTestId('main').getByText('Hi'), or a selector",
        path="target",
    )


def _quoted(value: Value, exact: bool) -> str:
    """Text as Playwright's text engines take it: "text"i (substring, any case) or "text"s."""
    if isinstance(value, _Regex):
        if ">>" in value.source:
            raise ValueError("a regular expression with '>>' is not supported in a target")
        return f"/{value.source}/{value.flags}"
    if not isinstance(value, str):
        raise ValueError(f"expected a string or a regular expression, got {value!r}")
    return json.dumps(value, ensure_ascii=False) + ("s" if exact else "i")


def _selector(name: str, args: list[Value], test_id_attribute: str) -> str:
    options = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    exact = options.get("exact") is True
    first = args[0] if args else None
    if name in _TEXT_ENGINES:
        _arity(name, args, 1, 2)
        return _TEXT_ENGINES[name].format(_quoted(args[0], exact))
    if name == "getByRole":
        _arity(name, args, 1, 2)
        if not isinstance(first, str) or not re.fullmatch(r"[a-z]+", first):
            raise ValueError(f"getByRole takes an ARIA role such as 'button', got {first!r}")
        parts = [f"internal:role={first}"]
        if "name" in options:
            parts.append(f"[name={_quoted(options['name'], exact)}]")
        for option in _ROLE_OPTIONS:
            if option in options:
                value = options[option]
                if isinstance(value, bool):
                    parts.append(f"[{option}={str(value).lower()}]")
                elif isinstance(value, float) and value.is_integer():
                    parts.append(f"[{option}={int(value)}]")
                else:
                    raise ValueError(f"getByRole's {option} takes a boolean or a number")
        unknown = set(options) - {"name", "exact", *_ROLE_OPTIONS}
        if unknown:
            raise ValueError(f"getByRole has no option {sorted(unknown)[0]!r}")
        return "".join(parts)
    if name == "getByTestId":
        _arity(name, args, 1, 1)
        if isinstance(first, _Regex):
            return f"internal:testid=[{test_id_attribute}={_quoted(first, False)}]"
        if not isinstance(first, str):
            raise ValueError("getByTestId takes a string or a regular expression")
        return f"internal:testid=[{test_id_attribute}={json.dumps(first, ensure_ascii=False)}s]"
    if name in ("locator", "frameLocator"):
        _arity(name, args, 1, 1)
        if not isinstance(first, str) or not first.strip():
            raise ValueError(f"{name} takes a selector string")
        return first if name == "locator" else f"{first} >> internal:control=enter-frame"
    if name == "contentFrame":
        _arity(name, args, 0, 0)
        return "internal:control=enter-frame"
    if name in ("first", "last"):
        _arity(name, args, 0, 0)
        return "nth=0" if name == "first" else "nth=-1"
    _arity(name, args, 1, 1)  # nth
    if not isinstance(first, float) or not first.is_integer():
        raise ValueError("nth takes a whole number")
    return f"nth={int(first)}"


def _arity(name: str, args: list[Value], least: int, most: int) -> None:
    if not least <= len(args) <= most:
        raise ValueError(f"{name} takes {least}-{most} arguments, got {len(args)}")


class _Parser:
    """A recursive descent reader of `[page.]call(args)(.call(args))*`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def chain(self) -> list[tuple[str, list[Value]]]:
        self._space()
        if self.text.startswith("page", self.at) and re.match(r"page\s*\.", self.text[self.at :]):
            self.at += 4
            self._space()
            self._expect(".")
        calls = [self._call()]
        while True:
            self._space()
            if self.at == len(self.text):
                return calls
            self._expect(".")
            calls.append(self._call())

    def _call(self) -> tuple[str, list[Value]]:
        self._space()
        found = re.compile(r"[A-Za-z]+").match(self.text, self.at)
        if not found or found.group(0) not in CALLS:
            raise ValueError(f"unknown locator call at character {self.at + 1}")
        self.at = found.end()
        self._space()
        self._expect("(")
        args: list[Value] = []
        self._space()
        if self._peek() != ")":
            args.append(self._value())
            self._space()
            while self._peek() == ",":
                self.at += 1
                self._space()
                args.append(self._value())
                self._space()
        self._expect(")")
        return found.group(0), args

    def _value(self, options: bool = True) -> Value:
        """A string, regular expression, number or boolean; with `options`, also an object of
        those (one level: option values are never objects, so nesting cannot recurse deep)."""
        char = self._peek()
        if char in "'\"`":
            return self._string()
        if char == "/":
            return self._regex()
        if char == "{" and options:
            return self._object()
        found = re.compile(r"-?\d+(?:\.\d+)?|true|false").match(self.text, self.at)
        if not found:
            raise ValueError(f"unexpected {char!r} at character {self.at + 1}")
        self.at = found.end()
        word = found.group(0)
        return word == "true" if word in ("true", "false") else float(word)

    def _string(self) -> str:
        """A string literal read as JavaScript reads it (strict mode, as in a module): every
        escape (`\\n \\t \\r \\b \\f \\v \\0`, `\\xXX`, `\\uXXXX`, `\\u{X...}`, a line continuation,
        an identity escape such as `\\'`), a surrogate pair written as two escapes; a raw line
        break only in a template string. An escape JavaScript refuses (`\\x4`, `\\u{110000}`, an
        octal `\\1`) and a lone surrogate are refused naming the character where they start."""
        quote = self.text[self.at]
        self.at += 1
        out: list[str] = []
        high: tuple[int, int] | None = None  # a high surrogate escape waiting for its low half
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\":
                place = self.at + 1
                unit = self._escape(out)
                if high is not None:
                    if unit is None or not 0xDC00 <= unit <= 0xDFFF:
                        raise _lone(high[1])
                    out.append(chr(0x10000 + ((high[0] - 0xD800) << 10) + unit - 0xDC00))
                    high = None
                elif unit is not None and 0xD800 <= unit <= 0xDBFF:
                    high = (unit, place)
                elif unit is not None and 0xDC00 <= unit <= 0xDFFF:
                    raise _lone(place)
                elif unit is not None:
                    out.append(chr(unit))
                continue
            if high is not None:
                raise _lone(high[1])
            if char == quote:
                self.at += 1
                return "".join(out)
            if quote == "`" and self.text.startswith("${", self.at):
                raise ValueError("template strings with ${...} are not supported")
            if quote != "`" and char in "\n\r":
                raise ValueError(
                    f"a string is not closed before the end of its line at character {self.at + 1}"
                    " (a line break in a string is written \\n)"
                )
            if quote == "`" and char == "\r":  # a template's CR and CRLF are LF, as in JavaScript
                self.at += 2 if self.text.startswith("\r\n", self.at) else 1
                out.append("\n")
                continue
            out.append(char)
            self.at += 1
        raise ValueError("a string is not closed")

    def _escape(self, out: list[str]) -> int | None:
        """Read the escape at `self.at` (its backslash): the code unit of a `\\u` escape, which
        may be half a surrogate pair, else None after putting what it stands for in `out`."""
        place = self.at + 1
        if self.at + 1 >= len(self.text):
            raise ValueError("a string is not closed")
        char = self.text[self.at + 1]
        self.at += 2
        if char in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[char])
        elif char == "0" and not self._peek().isdigit():
            out.append("\0")
        elif char in "0123456789":
            raise ValueError(
                f"the escape \\{char} at character {place} is an octal or a digit escape, which "
                "JavaScript's strict mode refuses; write \\xXX or \\uXXXX"
            )
        elif char == "x":
            digits = self.text[self.at : self.at + 2]
            if not _HEX2.fullmatch(digits):
                raise ValueError(
                    f"the escape \\x at character {place} needs two hex digits (\\x41 is A)"
                )
            self.at += 2
            out.append(chr(int(digits, 16)))
        elif char == "u":
            return self._unicode_escape(place, out)
        elif char == "\r":  # a line continuation: the backslash and the line break vanish
            if self._peek() == "\n":
                self.at += 1
        elif char in "\n\u2028\u2029":
            pass
        else:
            out.append(char)  # an identity escape: \' \" \\ \` \/ and any other character
        return None

    def _unicode_escape(self, place: str | int, out: list[str]) -> int | None:
        if self._peek() == "{":
            close = self.text.find("}", self.at)
            digits = self.text[self.at + 1 : close] if close > 0 else ""
            if not _HEX.fullmatch(digits) or int(digits, 16) > 0x10FFFF:
                raise ValueError(
                    f"the escape \\u{{...}} at character {place} needs hex digits of a code "
                    "point up to 10FFFF, then } (\\u{1F600})"
                )
            self.at = close + 1
            point = int(digits, 16)
            if point > 0xFFFF:
                out.append(chr(point))
                return None
            return point
        digits = self.text[self.at : self.at + 4]
        if not _HEX4.fullmatch(digits):
            raise ValueError(
                f"the escape \\u at character {place} needs four hex digits (\\u00e9) or "
                "braces (\\u{e9})"
            )
        self.at += 4
        return int(digits, 16)

    def _regex(self) -> _Regex:
        start = self.at + 1
        at, in_class = start, False
        while at < len(self.text):
            char = self.text[at]
            if char == "\\":
                at += 2
                continue
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            elif char == "/" and not in_class:
                flags = re.compile(r"[dgimsuy]*").match(self.text, at + 1)
                assert flags is not None
                self.at = flags.end()
                return _Regex(self.text[start:at], flags.group(0))
            at += 1
        raise ValueError("a regular expression is not closed")

    def _object(self) -> dict[str, Value]:
        self.at += 1
        entries: dict[str, Value] = {}
        self._space()
        while self._peek() != "}":
            found = re.compile(r"[A-Za-z]+|'[A-Za-z]+'|\"[A-Za-z]+\"").match(self.text, self.at)
            if not found:
                raise ValueError(f"expected an option name at character {self.at + 1}")
            self.at = found.end()
            self._space()
            self._expect(":")
            self._space()
            entries[found.group(0).strip("'\"")] = self._value(options=False)
            self._space()
            if self._peek() == ",":
                self.at += 1
                self._space()
            elif self._peek() != "}":
                raise ValueError(f"expected ',' or '}}' at character {self.at + 1}")
        self.at += 1
        return entries

    def _space(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def _peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def _expect(self, char: str) -> None:
        if self._peek() != char:
            found = repr(self._peek()) if self._peek() else "the end"
            raise ValueError(f"expected {char!r} at character {self.at + 1}, found {found}")
        self.at += 1
