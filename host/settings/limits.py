"""Bounds on what a call carries in and out: argument size, depth and text, result JSON.

Arguments are checked before any schema or browser sees them, in one walk that never recurses
(a body nested 100,000 deep costs a loop, not the interpreter's stack). Results are made JSON as
`JSON.stringify` would make them (NaN and the infinities become null) with text that every JSON
encoder accepts (a lone surrogate, which a page can put in any string, becomes U+FFFD).
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from dataclasses import dataclass

from host.shared.errors import HostError
from host.shared.jsontypes import JsonValue

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_TOOL_NAME = 128


@dataclass(frozen=True)
class ArgumentLimits:
    """The largest arguments a call may carry; every one is refused above its bound.

    Guarantees: `check_arguments` raises `HostError` (`invalid_argument`, with the path of the
    first value over a bound) for nesting deeper than `depth`, a string longer than
    `string_chars`, an array or object with more than `items` members, more than `total_chars`
    of text and structure in all, a number JSON cannot carry (NaN, an infinity, a whole number
    past a double's range, which JavaScript reads as an infinity), or text that is not valid
    Unicode (a lone surrogate).
    """

    depth: int = 32
    string_chars: int = 2 * 1024 * 1024
    """Chromium's own limit on a URL's length; larger text is refused before it is sent anywhere."""
    items: int = 10_000
    total_chars: int = 4 * 1024 * 1024


@dataclass(frozen=True)
class HttpLimits:
    """What one HTTP server tolerates from its clients.

    Guarantees: every bound is finite; `max_connections` is kept below the process's descriptor
    limit by the server (`host.transports.http_server.effective_connections`).
    """

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_connections: int = 512
    max_body_bytes: int = 4 * 1024 * 1024
    max_depth: int = 64


def _escape(text: str, limit: int = 80) -> str:
    """`text` shown safely in a message: cut short, non-printable and lone surrogates escaped."""
    shown = text[:limit].encode("ascii", "backslashreplace").decode("ascii")
    return shown + ("..." if len(text) > limit else "")


def shown_name(name: object) -> str:
    """A tool name as an error message may quote it (escaped, cut at 80 characters)."""
    return repr(_escape(name)) if isinstance(name, str) else type(name).__name__


def check_tool_name(name: object) -> None:
    """Refuse a tool name that is not short, valid Unicode text (before any lookup quotes it)."""
    if not isinstance(name, str) or not name:
        raise HostError("invalid_argument", "the tool name must be a non-empty string")
    if len(name) > MAX_TOOL_NAME:
        raise HostError(
            "unknown_tool",
            f"there is no tool named {shown_name(name)} (tool names are at most "
            f"{MAX_TOOL_NAME} characters)",
        )
    if not name.isascii() and _SURROGATE.search(name):
        raise HostError(
            "invalid_argument",
            f"the tool name {shown_name(name)} is not valid Unicode (it holds a lone surrogate)",
        )


MAX_PATH_BYTES = 4096
"""Linux's PATH_MAX: the longest file path a system call takes."""
MAX_PATH_PART_BYTES = 255
"""Linux's NAME_MAX: the longest name of one file or folder."""


def check_path_text(raw: str, path: str) -> None:
    """Refuse a tool's file path argument `raw` (at argument `path`) that no system call can
    take: a NUL character (Python's `os` functions raise ValueError), more than
    `MAX_PATH_BYTES` bytes, or a part longer than `MAX_PATH_PART_BYTES` (they raise OSError
    ENAMETOOLONG). Checked before the path is used, so the caller hears which argument is wrong
    instead of Python's exception."""
    if "\x00" in raw:
        raise HostError(
            "invalid_argument",
            f"a file path cannot hold a NUL character (at character {raw.index(chr(0))}); give "
            "the file's name or path",
            path=path,
        )
    encoded = raw.encode("utf-8", "surrogatepass")
    if len(encoded) > MAX_PATH_BYTES:
        raise HostError(
            "invalid_argument",
            f"the file path has {len(encoded)} bytes; paths have at most {MAX_PATH_BYTES}",
            path=path,
        )
    longest = max(encoded.split(b"/"), key=len)
    if len(longest) > MAX_PATH_PART_BYTES:
        raise HostError(
            "invalid_argument",
            f"a name in the file path has {len(longest)} bytes; a file or folder name has at "
            f"most {MAX_PATH_PART_BYTES}",
            path=path,
        )


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def check_arguments(args: object, limits: ArgumentLimits) -> None:
    """Refuse `args` if any part of it passes a bound of `limits` (see `ArgumentLimits`)."""
    total = 0
    stack: list[tuple[object, str, int]] = [(args, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > limits.depth:
            raise HostError(
                "invalid_argument",
                f"the arguments are nested more than {limits.depth} levels deep",
                path=path,
            )
        if isinstance(value, str):
            total += len(value) + 2
            if len(value) > limits.string_chars:
                raise HostError(
                    "invalid_argument",
                    f"the text is {len(value)} characters long; at most {limits.string_chars} "
                    "are accepted",
                    path=path,
                )
            if not value.isascii():
                found = _SURROGATE.search(value)
                if found is not None:
                    raise HostError(
                        "invalid_argument",
                        f"the text is not valid Unicode: a lone surrogate "
                        f"({_escape(found.group())}) at character {found.start()}; send "
                        "well-formed text",
                        path=path,
                    )
        elif isinstance(value, dict):
            total += 2 + len(value)
            if len(value) > limits.items:
                raise HostError(
                    "invalid_argument",
                    f"the object has {len(value)} keys; at most {limits.items} are accepted",
                    path=path,
                )
            for key, item in value.items():
                if not isinstance(key, str):
                    raise HostError("invalid_argument", "object keys must be strings", path=path)
                total += len(key) + 3
                if not key.isascii() and _SURROGATE.search(key):
                    raise HostError(
                        "invalid_argument",
                        "a key is not valid Unicode (it holds a lone surrogate)",
                        path=path,
                    )
                stack.append((item, _join(path, key), depth + 1))
        elif isinstance(value, list | tuple):
            total += 2 + len(value)
            if len(value) > limits.items:
                raise HostError(
                    "invalid_argument",
                    f"the list has {len(value)} items; at most {limits.items} are accepted",
                    path=path,
                )
            for index, item in enumerate(value):
                stack.append((item, _join(path, index), depth + 1))
        elif isinstance(value, float):
            total += 8
            if not math.isfinite(value):
                raise HostError(
                    "invalid_argument",
                    f"{value} is not a number JSON can carry; send a finite number",
                    path=path,
                )
        elif isinstance(value, int) and not isinstance(value, bool):
            total += 8
            if abs(value) > sys.float_info.max:  # compared exactly, in time linear in digits
                digits = int(value.bit_length() * math.log10(2)) + 1  # str() may refuse it
                raise HostError(
                    "invalid_argument",
                    f"a whole number of about {digits} digits is past the range of "
                    "JSON numbers (JavaScript reads it as Infinity); send a number below 1.8e308",
                    path=path,
                )
        else:
            total += 8
        if total > limits.total_chars:
            raise HostError(
                "invalid_argument",
                f"the arguments hold more than {limits.total_chars} characters in all",
                path=path,
            )


def json_safe(value: object, max_depth: int = 256) -> JsonValue:
    """`value` as JSON every encoder accepts: NaN and the infinities become `null` (as
    `JSON.stringify` makes them), lone surrogates in text (and keys) become U+FFFD, tuples become
    lists, and anything nested deeper than `max_depth` becomes `null`. Values that need no change
    are returned as they are (no copy)."""
    if isinstance(value, str):
        return _clean_text(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if not isinstance(value, dict | list | tuple):
        return value  # type: ignore[return-value]
    if _clean(value, max_depth):
        return value  # type: ignore[return-value]
    return _rebuild(value, max_depth)


def _clean_text(text: str) -> str:
    if text.isascii():
        return text
    return _SURROGATE.sub("\ufffd", text)


def _clean(value: object, max_depth: int) -> bool:
    """Whether `value` needs no change (checked without recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return False
        elif isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            if depth >= max_depth:
                return False
            for key, member in item.items():
                if not isinstance(key, str) or (not key.isascii() and _SURROGATE.search(key)):
                    return False
                stack.append((member, depth + 1))
        elif isinstance(item, list):
            if depth >= max_depth:
                return False
            stack.extend((member, depth + 1) for member in item)
        elif isinstance(item, tuple):
            return False
    return True


def _rebuild(value: object, max_depth: int) -> JsonValue:
    """A cleaned copy of `value` (see `json_safe`), built without recursion."""
    root: list[JsonValue] = [None]
    # (value, the container to put the cleaned value in, the key or index there, depth)
    stack: list[tuple[object, object, object, int]] = [(value, root, 0, 0)]
    while stack:
        item, into, slot, depth = stack.pop()
        cleaned: JsonValue
        if isinstance(item, str):
            cleaned = _clean_text(item)
        elif isinstance(item, float):
            cleaned = item if math.isfinite(item) else None
        elif isinstance(item, dict):
            if depth >= max_depth:
                cleaned = None
            else:
                made: dict[str, JsonValue] = {}
                for key, member in item.items():
                    name = _clean_text(key) if isinstance(key, str) else str(key)
                    made[name] = None
                    stack.append((member, made, name, depth + 1))
                cleaned = made
        elif isinstance(item, list | tuple):
            if depth >= max_depth:
                cleaned = None
            else:
                members: list[JsonValue] = [None] * len(item)
                for index, member in enumerate(item):
                    stack.append((member, members, index, depth + 1))
                cleaned = members
        else:
            cleaned = item  # type: ignore[assignment]
        into[slot] = cleaned  # type: ignore[index]
    return root[0]


_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(data: bytes) -> int:
    """How deeply the arrays and objects of a JSON text nest, found without parsing it (a parser
    given 100,000 levels runs out of stack; this costs one pass over the bytes)."""
    brackets = _JSON_STRING.sub(b"", data).translate(None, delete=_NOT_BRACKETS)
    if not brackets:
        return 0
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)))


EXECUTE_DEFAULT_SEC = 60.0
EXECUTE_MAX_SEC = 300.0


def execute_timeout(args: object) -> float:
    """`playwright_execute`'s `timeout_sec`, clamped as the seed does so that a model cannot pass
    the cap: 60 when absent, not a number or below 1; at most 300."""
    value = args.get("timeout_sec") if isinstance(args, dict) else None
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 1:
        return EXECUTE_DEFAULT_SEC
    return min(float(value), EXECUTE_MAX_SEC)
