"""black's layout for the Python our built-in templates emit, without running black.

The templates write every logical line on one physical line, already spaced as black spaces it.
What black would still change is done here, by the rules black (the pinned version) follows for
these shapes: string quotes, class and module docstrings, and lines too long for 100 columns or
holding a magic trailing comma (split at the last bracket, collections exploded one item per
line). A line of a shape these rules do not cover raises `NotLaidOut`; the caller then formats the
module with black, which stays the judge: a test runs black over every generated file and fails
on any change.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from dataclasses import dataclass, field

LINE_LENGTH = 100
_INDENT = "    "


class NotLaidOut(Exception):
    """A line these rules cannot lay out as black would; the module goes to black instead."""


# --- one logical line as a tree of brackets ----------------------------------------------------

_PREFIX = "rRbBuUfF"
_TOKEN = re.compile(
    r"""(?P<string>[rRbBuUfF]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'))"""
    r"""|(?P<comment>#.*)|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<comma>,)|(?P<other>[^'"()\[\]{},#]+)"""
)
_CLOSES = {"(": ")", "[": "]", "{": "}"}
# Words after which a bracket opens a display or a parenthesized expression, not a call.
_NOT_TRAILERS = (" in", " not", " return", " await", " else", " if", " and", " or", " yield")


class Str(str):
    """A string literal among a line's parts (its text never holds brackets or operators)."""

    __slots__ = ()


@dataclass
class Group:
    """A bracket pair and what it holds; a `trailer` follows a name or a bracket (a call or a
    subscript); a `display` is a dict, list or set literal, which black explodes one item per
    line once it is split."""

    opening: str
    parts: list[Part] = field(default_factory=list)
    trailer: bool = False

    @property
    def closing(self) -> str:
        return _CLOSES[self.opening]

    @property
    def display(self) -> bool:
        return self.opening != "(" and not self.trailer

    @functools.cached_property
    def text(self) -> str:
        """The group on one line (a group is never changed once parsed)."""
        return self.opening + _flat(self.parts) + self.closing


Part = str | Group


def _flat(parts: list[Part]) -> str:
    return "".join(
        p if isinstance(p, str) else p.opening + _flat(p.parts) + p.closing for p in parts
    )


def _parse(line: str) -> list[Part]:
    stack: list[list[Part]] = [[]]
    groups: list[Group] = []
    ends = [""]  # the last characters of each open level's text, to tell a trailer's bracket
    covered = 0
    for match in _TOKEN.finditer(line):
        kind, text = match.lastgroup, match.group()
        if match.start() != covered:
            raise NotLaidOut("an unknown token")
        covered = match.end()
        if kind == "string":
            stack[-1].append(Str(normalize_quotes(text)))
            ends[-1] = '""'
        elif kind == "open":
            before = ends[-1].rstrip()
            trailer = bool(before) and (before[-1].isalnum() or before[-1] in "_)]")
            if (" " + before).endswith(_NOT_TRAILERS):
                trailer = False
            group = Group(text, trailer=trailer)
            stack[-1].append(group)
            groups.append(group)
            stack.append(group.parts)
            ends.append("")
        elif kind == "close":
            if len(stack) == 1 or groups[-1].closing != text:
                raise NotLaidOut("unbalanced brackets")
            groups.pop()
            stack.pop()
            ends.pop()
            ends[-1] = ")"
        else:
            if not stack[-1] and len(stack) > 1:
                text = text.lstrip()  # a line joined after an opening bracket
            if line[match.end() : match.end() + 1] in (")", "]", "}"):
                text = text.rstrip()  # ... or before a closing one
            if text:
                stack[-1].append(text)
                ends[-1] = (ends[-1] + text)[-12:]
    if len(stack) != 1 or covered != len(line):
        raise NotLaidOut("unbalanced brackets or an unknown token")
    return stack[0]


def _split_commas(parts: list[Part]) -> tuple[list[list[Part]], bool]:
    """The items between top-level commas (each stripped), and whether a trailing comma ends them."""
    items: list[list[Part]] = [[]]
    for part in parts:
        if part == ",":
            items.append([])
        else:
            items[-1].append(part)
    trailing = len(items) > 1 and not _flat(items[-1]).strip()
    if trailing:
        items.pop()
    return [_strip(item) for item in items], trailing


def _strip(parts: list[Part]) -> list[Part]:
    parts = list(parts)
    if parts and isinstance(parts[0], str) and not isinstance(parts[0], Str):
        parts[0] = parts[0].lstrip()
    if parts and isinstance(parts[-1], str) and not isinstance(parts[-1], Str):
        parts[-1] = parts[-1].rstrip()
    return [p for p in parts if p != ""]


def _magic(parts: list[Part]) -> bool:
    """Whether a group anywhere in `parts` ends with a trailing comma (black explodes it)."""
    for part in parts:
        if isinstance(part, Group):
            items, trailing = _split_commas(part.parts)
            one_tuple = part.opening == "(" and not part.trailer and len(items) == 1
            one_subscript = part.opening == "[" and part.trailer and len(items) == 1
            if (trailing and not one_tuple and not one_subscript) or _magic(part.parts):
                return True
    return False


def _width(text: str) -> int:
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def _fits(indent: str, text: str) -> bool:
    return _width(indent + text) <= LINE_LENGTH


# Statement heads before the bracket a too-long line is split at, whose split black makes at that
# bracket (no optional parentheses): a call chain, optionally returned, awaited or assigned.
_HEAD = re.compile(
    r"(return |raise |(\w+(: [\w.()| ]+)? = )?(await )?)?[\w.()]*$"  # `x: T = await a.f(b).c(` / `return f(`
    r"|\w+: ([\w.()| ]+ = )?[\w.]*$"  # `parameters: ClassVar[...] = {` / `role: Literal[`
    r"|(\*\*|\w+=|\"\": |else )?[\w.()]*$"  # inside brackets: `name=f(`, `"key": {`, `**f(`, `else {`
)
_TERNARY = re.compile(r" if | else ")
_PLAIN_VALUE = re.compile(r'(\w+=|"": )?([\w.]+|"")$')  # a name or a string, maybe keyed


def _lay(parts: list[Part], indent: str, inside: bool) -> list[str]:
    """The physical lines for one logical line (`inside` brackets: an item, maybe with its comma)."""
    flat = _flat(parts)
    if _fits(indent, flat) and not _magic(parts):
        return [indent + flat]
    if not inside and re.match(r"(async )?def \w+$", _top_text(parts[:1])) and len(parts) > 1:
        return _lay_def(parts, indent)
    if not inside and _top_text(parts).startswith("return "):
        value = _flat(parts).removeprefix("return ")
        if " if " in _top_text(parts) and " else " in _top_text(parts):
            return _parenthesized_conditional("return ", value, "", indent)
    if "#" in _top_text(parts):
        raise NotLaidOut("a comment on a line too long")
    if inside:
        items, trailing = _split_commas(parts)
        name = re.match(r"\w+=", flat)
        top = _top_text(parts)
        if len(items) == 1 and name and " if " in top and " else " in top:
            return _parenthesized_conditional(name.group(), flat[name.end() :], flat, indent)
        if len(items) > 1:
            lines: list[str] = []
            for item in items:
                lines += _lay([*item, ","], indent, inside=True)
            return lines
        if top.count(" for ") == 1 and " if " not in top and not trailing:
            # A comprehension: split before its `for`.
            at_for = _positions_in_flat(parts, (top.find(" for "), 0))[0]
            element, loop = flat[:at_for], flat[at_for + 1 :]
            return [*_lay(_parse(element), indent, inside=True), *_lay(_parse(loop), indent, True)]
    last = next((i for i in range(len(parts) - 1, -1, -1) if isinstance(parts[i], Group)), None)
    tail = _flat(parts[last + 1 :]) if last is not None else ""
    if last is None or tail.strip() not in ("", ","):
        return _unsplittable(parts, indent, inside)
    group = parts[last]
    assert isinstance(group, Group)
    head = _flat(parts[:last])
    if _TERNARY.search(_top_text(parts[:last])) or not _HEAD.match(_top_text(parts[:last])):
        raise NotLaidOut(f"a head black may split elsewhere: {head!r}")
    if not _fits(indent, head + group.opening):
        raise NotLaidOut("the head of a split is too long")
    return [
        indent + head + group.opening,
        *_body(group, indent + _INDENT),
        indent + group.closing + tail.strip(),
    ]


def _lay_def(parts: list[Part], indent: str) -> list[str]:
    """A `def` too long for one line, split at its parameters' parentheses (black's left-hand
    split): the parameters on one line if they fit, else one per line."""
    params = parts[1]
    tail = _flat(parts[2:])
    if not isinstance(params, Group) or not re.fullmatch(r"( -> [\w\[\], .|\"']+)?:", tail):
        raise NotLaidOut("a def of an unknown shape")
    items, trailing = _split_commas(params.parts)
    if len(items) == 1 and not trailing:
        # black adds a trailing comma to a lone parameter, which then explodes the parentheses.
        params = Group("(", [*params.parts, ","], trailer=True)
    lines = [indent + _flat(parts[:1]) + "(", *_body(params, indent + _INDENT), indent + ")" + tail]
    if not all(_fits("", line) for line in (lines[0], lines[-1])):
        raise NotLaidOut("a def whose name or return annotation is too long")
    return lines


def _body(group: Group, indent: str) -> list[str]:
    items, trailing = _split_commas(group.parts)
    if not items or items == [[]]:
        raise NotLaidOut("an empty bracket pair on a line too long")
    explode = trailing or (group.display and len(items) > 1)
    body = _flat(_strip(group.parts))
    if not explode and _fits(indent, body) and not _magic(group.parts):
        return [indent + body]
    if len(items) == 1 and not trailing:
        return _lay(items[0], indent, inside=True)
    lines: list[str] = []
    for item in items:
        lines += _lay([*item, ","], indent, inside=True)
    return lines


def _top_text(parts: list[Part]) -> str:
    """The line's text outside brackets and strings (a group shown as `()`, a string as `""`)."""
    return "".join('""' if isinstance(p, Str) else p if isinstance(p, str) else "()" for p in parts)


def _unsplittable(parts: list[Part], indent: str, inside: bool) -> list[str]:
    """A line with no bracket to split at (or brackets before a tail): black leaves a plain value
    long, and wraps a keyword argument's conditional expression in parentheses."""
    flat = _flat(parts)
    item = flat.removesuffix(",")
    top = _top_text(parts).removesuffix(",")
    if inside and _PLAIN_VALUE.match(top):
        return [indent + flat]
    if inside:
        name = re.match(r"\w+=", item)
        if name and " if " in top and " else " in top:
            return _parenthesized_conditional(name.group(), flat[name.end() :], flat, indent)
    if not inside and re.fullmatch(r'[\w.]+ = ""', top):
        return [indent + flat]
    raise NotLaidOut(f"a long line of an unknown shape: {flat[:60]!r}")


def _parenthesized_conditional(prefix: str, value: str, flat: str, indent: str) -> list[str]:
    """`prefix` (`name=`, `return `) and a conditional expression too long for its line: black
    puts the expression in parentheses, on one line if it fits, else split before the outer `if`
    and `else` (a conditional nested in the `else` branch stays there)."""
    inner = indent + _INDENT
    comma = "," if flat.endswith(",") else ""
    value = value.removesuffix(",") if comma else value
    if _fits(inner, value) and not _magic(_parse(value)):
        return [indent + prefix + "(", inner + value, indent + ")" + comma]
    parts = _parse(value)
    top = _top_text(parts)
    at_if = top.find(" if ")
    at_else = top.find(" else ", at_if + 1)
    if at_if < 0 or at_else < 0:
        raise NotLaidOut("a conditional expression of an unknown shape")
    at_if, at_else = _positions_in_flat(parts, (at_if, at_else))
    pieces = [value[:at_if], value[at_if + 1 : at_else], value[at_else + 1 :]]
    lines = [indent + prefix + "("]
    for piece in pieces:
        lines += _lay(_parse(piece), inner, inside=True)
    return [*lines, indent + ")" + comma]


def _positions_in_flat(parts: list[Part], positions: tuple[int, int]) -> tuple[int, int]:
    """Map offsets in `_top_text(parts)` (groups shown as `()`) to offsets in `_flat(parts)`."""
    mapping: list[int] = []
    offset = 0
    for part in parts:
        if isinstance(part, str):
            mapping += range(offset, offset + len(part))
            offset += len(part)
        else:
            width = len(_flat([part]))
            mapping += [offset, offset + width - 1]
            offset += width
    mapping.append(offset)
    return mapping[positions[0]], mapping[positions[1]]


# --- strings ------------------------------------------------------------------------------------


def _sub_twice(pattern: str, replacement: str, text: str) -> str:
    # Twice: a match consumes the character before the quote, so adjacent quotes need a second pass.
    return re.sub(pattern, replacement, re.sub(pattern, replacement, text))


def normalize_quotes(literal: str) -> str:
    """A one-line string literal in black's quotes: double, unless that takes more escapes
    (escapes of the other quote that are not needed are dropped either way)."""
    if literal[0] == "'" and "\\" not in literal:  # the common case, decided without regexes
        return literal if '"' in literal else f'"{literal[1:-1]}"'
    if literal[0] == '"' and "\\" not in literal:
        return literal
    prefix = literal[: len(literal) - len(literal.lstrip(_PREFIX))]
    orig = literal[len(prefix)]
    new = "'" if orig == '"' else '"'
    body = literal[len(prefix) + 1 : -1]
    if "f" in prefix.lower() and "{" in body and orig == "'":
        raise NotLaidOut("an f-string in single quotes")  # black weighs the quotes inside it
    unescaped_new = rf"(([^\\]|^)(\\\\)*){new}"
    if "r" in prefix.lower():
        if re.search(unescaped_new, body):
            return literal
        new_body = body
    else:
        new_body = _sub_twice(rf"([^\\]|^)\\((?:\\\\)*){new}", rf"\1\2{new}", body)
        if new_body != body:
            body = new_body
            literal = f"{prefix}{orig}{body}{orig}"
        new_body = _sub_twice(rf"([^\\]|^)\\((?:\\\\)*){orig}", rf"\1\2{orig}", new_body)
        new_body = _sub_twice(unescaped_new, rf"\1\\{new}", new_body)
    if new_body.count("\\") > body.count("\\"):
        return literal
    if new_body.count("\\") == body.count("\\") and orig == '"':
        return literal
    return f"{prefix}{new}{new_body}{new}"


def _docstring(lines: list[str], indent: str) -> list[str]:
    """A class or module docstring as black writes it: lines re-indented, trailing spaces gone,
    the closing quotes on their own line when the last line has no room for them."""
    text = "\n".join(lines).strip()
    prefix = text[: len(text) - len(text.lstrip(_PREFIX))]
    if "\\\n" in text or re.search(r"\\\s*\n", text) or not text[len(prefix) :].startswith('"""'):
        raise NotLaidOut("a docstring black leaves alone or quotes differently")
    body = text[len(prefix) + 3 : -3]
    body = _fix_docstring(body, indent) if "\n" in body else body.strip()
    if body:
        if body[0] == '"':
            body = " " + body
        if body[-1] == '"':
            body += " "
        if body[-1] == "\\" and (len(body) - len(body.rstrip("\\"))) % 2:
            raise NotLaidOut("a docstring ending in a backslash")
    last = body.splitlines()[-1] if body and not body.endswith("\n") else ""
    if "\n" in body and len(last) + 3 > LINE_LENGTH and len(indent) + 3 <= LINE_LENGTH:
        closing = "\n" + indent + '"""'
    else:
        closing = '"""'
    return (indent + prefix + '"""' + body + closing).split("\n")


def _fix_docstring(body: str, indent: str) -> str:
    lines = [line.expandtabs(4) if line[:1].isspace() else line for line in body.splitlines()]
    if body.endswith("\n"):
        lines.append("")
    common = sys.maxsize
    for line in lines[1:]:
        stripped = line.lstrip()
        if stripped:
            common = min(common, len(line) - len(stripped))
    trimmed = [lines[0].strip()]
    if common < sys.maxsize:
        last = len(lines) - 2
        for i, line in enumerate(lines[1:]):
            kept = line[common:].rstrip()
            trimmed.append(indent + kept if kept or i == last else "")
    return "\n".join(trimmed)


# --- a module -----------------------------------------------------------------------------------


def lay_out(module: str) -> str:
    """`module` as black would format it, for the shapes our templates emit; `NotLaidOut` else."""
    source = module.split("\n")
    out: list[str] = []
    i = 0
    block_start = True  # the next statement is the first of a module, class or function body
    while i < len(source):
        line = source[i]
        stripped = line.strip()
        if not stripped:
            out.append("")
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        if stripped.lstrip(_PREFIX).startswith(('"""', "'''")):
            end = i
            while not _closes_string(source[i : end + 1]):
                end += 1
                if end >= len(source):
                    raise NotLaidOut("an unterminated triple-quoted string")
            chunk = source[i : end + 1]
            out += _docstring(chunk, indent) if block_start else chunk
            block_start = False
            i = end + 1
            continue
        if stripped.startswith("#"):
            out.append(line.rstrip())
        elif _simple(stripped) and _fits(indent, stripped):
            # Fits, and holds no bracket left open, no trailing comma and no string that is not
            # plain: black changes nothing but the quotes of plain strings.
            out.append(indent + _STRINGS.sub(_plain_quotes, stripped))
        else:
            # A logical line the template wrote over several lines is joined, as black joins it.
            depth = _open_brackets(stripped)
            pieces = [stripped]
            while depth > 0 and i + 1 < len(source):
                i += 1
                pieces.append(source[i].strip())
                depth += _open_brackets(pieces[-1])
            stripped = " ".join(pieces)
            out += _lay(_parse(stripped), indent, inside=False)
        block_start = stripped.endswith(":") and not stripped.startswith("#")
        i += 1
    return "\n".join(out)


# A line without backslashes, string prefixes, comments or trailing commas, whose brackets are
# balanced within it (checked by `_open_brackets` being 0 only for lines that reach the fast path).
_SIMPLE = re.compile(r"""(?:[^'"\\#,]|,(?!\s*[)\]}])|"[^"\n]*"|'[^'\n]*')*""")
_STRINGS = re.compile(r"""'[^'"\n]*'|"[^"\n]*"|'[^'\n]*'""")
_PREFIXED = re.compile(r"""\w['"]""")


def _simple(line: str) -> bool:
    return bool(_SIMPLE.fullmatch(line)) and not _PREFIXED.search(line) and not _open_brackets(line)


def _plain_quotes(match: re.Match[str]) -> str:
    """A plain single-quoted string without double quotes in black's double quotes."""
    text = match.group()
    return f'"{text[1:-1]}"' if text[0] == "'" and '"' not in text else text


def _open_brackets(line: str) -> int:
    masked = re.sub(r"""[rRbBuU]{0,2}("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""", '""', line)
    return sum(masked.count(c) for c in "([{") - sum(masked.count(c) for c in ")]}")


def _closes_string(lines: list[str]) -> bool:
    text = "\n".join(lines).strip()
    body = text.lstrip(_PREFIX)[3:]
    return bool(re.search(r'(^|[^\\])(\\\\)*"""\s*$', body))
