"""JSON Schema (draft 2020-12) for the neutral type tree. Objects are closed (`additionalProperties: false`)."""

from __future__ import annotations

from typing import Any, assert_never

from generator.model.bounds import bounds_for
from generator.model.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    Field,
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

DIALECT = "https://json-schema.org/draft/2020-12/schema"


class JsonSchemaWriter:
    """Schemas (draft 2020-12) for the neutral types; every object schema is closed."""

    def write(self, node: TypeNode) -> dict[str, Any]:
        match node:
            case Scalar(kind):
                return {"type": kind}
            case AnyJson():
                return {}
            case Null():
                return {"type": "null"}
            case LocatorSelector():
                return {"type": "string", "description": LOCATOR_SELECTOR}
            case Base64Bytes():
                return {"type": "string", "contentEncoding": "base64"}
            case ListOf(item):
                return {"type": "array", "items": self.write(item)}
            case MapOf(value):
                return {"type": "object", "additionalProperties": self.write(value)}
            case EnumOf(_, values):
                return {"type": "string", "enum": list(values)}
            case OneOf(options):
                return {"anyOf": [self.write(o) for o in options]}
            case Nullable(inner):
                return {"anyOf": [self.write(inner), {"type": "null"}]}
            case ObjectOf(name, fields):
                return object_schema(fields, title=name)
            case _:
                assert_never(node)


WRITER = JsonSchemaWriter()

LOCATOR_SELECTOR = "A selector or selector handle; the element(s) it locates are passed."


def schema(node: TypeNode) -> dict[str, Any]:
    return WRITER.write(node)


def object_schema(fields: tuple[Field, ...], title: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object"}
    if title:
        out["title"] = title
    properties = {}
    for f in fields:
        prop = schema(f.type)
        if f.description:
            # A Locator argument's javadoc speaks of a Locator object; say what to pass instead.
            extra = f" {LOCATOR_SELECTOR}" if isinstance(f.type, LocatorSelector) else ""
            prop = {**prop, "description": f.description + extra}
        properties[f.wire_name] = prop
    out["properties"] = properties
    out["required"] = [f.wire_name for f in fields if f.required]
    out["additionalProperties"] = False
    return out


def parameters_schema(fields: tuple[Field, ...]) -> dict[str, Any]:
    """The root schema of a tool's arguments; numeric parameters named in `generator.model.bounds`
    carry their `minimum` and `maximum`."""
    root = object_schema(fields)
    for name, prop in root["properties"].items():
        extra = bounds_for(name, str(prop.get("type", "")))
        if extra:
            description = prop.pop("description", None)
            prop.update(extra)
            if description is not None:
                prop["description"] = description
    return {"$schema": DIALECT, **root}
