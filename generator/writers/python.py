"""Python syntax for the neutral type tree, and safe Python literals for text and JSON data."""

from __future__ import annotations

import keyword
from typing import Any

from generator.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    ListOf,
    LocatorSelector,
    MapOf,
    Null,
    Nullable,
    ObjectOf,
    OneOf,
    Scalar,
    TypeNode,
)

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def annotation(node: TypeNode) -> str:
    """The annotation for a value of `node`; object types are referred to by their TypedDict name."""
    if isinstance(node, Scalar):
        return _SCALARS[node.kind]
    if isinstance(node, AnyJson):
        return "JsonValue"
    if isinstance(node, Null):
        return "None"
    if isinstance(node, LocatorSelector):
        return "str"
    if isinstance(node, Base64Bytes):
        return "str"
    if isinstance(node, ListOf):
        return f"list[{annotation(node.item)}]"
    if isinstance(node, MapOf):
        return f"dict[str, {annotation(node.value)}]"
    if isinstance(node, EnumOf):
        return f"Literal[{', '.join(string_literal(v) for v in node.values)}]"
    if isinstance(node, OneOf):
        return " | ".join(annotation(o) for o in node.options)
    if isinstance(node, Nullable):
        return f"{annotation(node.inner)} | None"
    return node.name


def string_literal(text: str) -> str:
    """A one-line Python string literal for any text (`repr` escapes quotes and control characters)."""
    return repr(text)


def docstring(text: str) -> str:
    """A triple-quoted docstring literal whose value is exactly `text` (stripped of outer space).

    Backslashes, quotes and control characters are escaped, so no description can end the string
    early or change its meaning.
    """
    body = text.strip()
    out = []
    for ch in body:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch != "\n" and (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"""' + "".join(out) + '"""'


def literal(value: Any) -> str:
    """A Python expression equal to a JSON-like `value` (dict order preserved)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, str):
        return string_literal(value)
    return repr(value)


def typed_dict_is_functional(node: ObjectOf) -> bool:
    """Whether the class syntax cannot spell the keys (a key that is a keyword or not an identifier)."""
    return any(
        keyword.iskeyword(f.wire_name) or not f.wire_name.isidentifier() for f in node.fields
    )
