"""TypeScript syntax for the neutral type tree, and JSDoc that no description can break."""

from __future__ import annotations

import json
import re
from typing import assert_never

from generator.model.type_tree import (
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


class TypeScriptWriter:
    """TypeScript type expressions; object types are referred to by their interface name."""

    def write(self, node: TypeNode) -> str:
        match node:
            case Scalar(kind):
                return _SCALARS[kind]
            case AnyJson():
                return "JsonValue"
            case Null():
                return "null"
            case LocatorSelector() | Base64Bytes():
                return "string"
            case ListOf(item):
                text = self.write(item)
                return f"({text})[]" if "|" in text else f"{text}[]"
            case MapOf(value):
                return f"Record<string, {self.write(value)}>"
            case EnumOf(_, values):
                return " | ".join(json.dumps(v) for v in values)
            case OneOf(options):
                return " | ".join(self.write(o) for o in options)
            case Nullable(inner):
                return f"{self.write(inner)} | null"
            case ObjectOf(name):
                return name
            case _:
                assert_never(node)


WRITER = TypeScriptWriter()


def type_expression(node: TypeNode) -> str:
    return WRITER.write(node)


def property_key(name: str) -> str:
    """A property name as written in an object type: bare when an identifier, quoted otherwise."""
    return name if _IDENTIFIER.match(name) else json.dumps(name)


# Control characters but tab and newline: each becomes a space in a comment.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f]")


def jsdoc(text: str, indent: str) -> str:
    """A `/** ... */` block for `text`, or "" for no text. `*/` inside the text is neutralised."""
    text = text.strip()
    if not text:
        return ""
    safe = _CONTROL.sub(" ", text.replace("*/", "*\\/"))
    lines = safe.splitlines()
    body = "\n".join(f"{indent} *{' ' + line if line else ''}" for line in lines)
    return f"{indent}/**\n{body}\n{indent} */\n"
