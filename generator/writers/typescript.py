"""TypeScript syntax for the neutral type tree, and JSDoc that no description can break."""

from __future__ import annotations

import json
import re

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

_SCALARS = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}
_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def type_expression(node: TypeNode) -> str:
    if isinstance(node, Scalar):
        return _SCALARS[node.kind]
    if isinstance(node, AnyJson):
        return "JsonValue"
    if isinstance(node, Null):
        return "null"
    if isinstance(node, LocatorSelector):
        return "string"
    if isinstance(node, Base64Bytes):
        return "string"
    if isinstance(node, ListOf):
        item = type_expression(node.item)
        return f"({item})[]" if "|" in item else f"{item}[]"
    if isinstance(node, MapOf):
        return f"Record<string, {type_expression(node.value)}>"
    if isinstance(node, EnumOf):
        return " | ".join(json.dumps(v) for v in node.values)
    if isinstance(node, OneOf):
        return " | ".join(type_expression(o) for o in node.options)
    if isinstance(node, Nullable):
        return f"{type_expression(node.inner)} | null"
    assert isinstance(node, ObjectOf)
    return node.name


def property_key(name: str) -> str:
    """A property name as written in an object type: bare when an identifier, quoted otherwise."""
    return name if _IDENTIFIER.match(name) else json.dumps(name)


def jsdoc(text: str, indent: str) -> str:
    """A `/** ... */` block for `text`, or "" for no text. `*/` inside the text is neutralised."""
    text = text.strip()
    if not text:
        return ""
    safe = text.replace("*/", "*\\/")
    safe = "".join(ch if ch in "\n\t" or ord(ch) >= 0x20 else " " for ch in safe)
    lines = safe.splitlines()
    body = "\n".join(f"{indent} *{' ' + line if line else ''}" for line in lines)
    return f"{indent}/**\n{body}\n{indent} */\n"
