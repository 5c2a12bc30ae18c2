"""JSON Schema (draft 2020-12) for the neutral type tree. Objects are closed (`additionalProperties: false`)."""

from __future__ import annotations

from typing import Any

from generator.type_tree import (
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


def schema(node: TypeNode) -> dict[str, Any]:
    if isinstance(node, Scalar):
        return {"type": node.kind}
    if isinstance(node, AnyJson):
        return {}
    if isinstance(node, Null):
        return {"type": "null"}
    if isinstance(node, LocatorSelector):
        return {
            "type": "string",
            "description": "A selector; the element(s) it locates are passed.",
        }
    if isinstance(node, Base64Bytes):
        return {"type": "string", "contentEncoding": "base64"}
    if isinstance(node, ListOf):
        return {"type": "array", "items": schema(node.item)}
    if isinstance(node, MapOf):
        return {"type": "object", "additionalProperties": schema(node.value)}
    if isinstance(node, EnumOf):
        return {"type": "string", "enum": list(node.values)}
    if isinstance(node, OneOf):
        return {"anyOf": [schema(o) for o in node.options]}
    if isinstance(node, Nullable):
        return {"anyOf": [schema(node.inner), {"type": "null"}]}
    assert isinstance(node, ObjectOf)
    return object_schema(node.fields, title=node.name)


def object_schema(fields: tuple[Field, ...], title: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object"}
    if title:
        out["title"] = title
    properties = {}
    for f in fields:
        prop = schema(f.type)
        if f.description:
            prop = {**prop, "description": f.description}
        properties[f.wire_name] = prop
    out["properties"] = properties
    out["required"] = [f.wire_name for f in fields if f.required]
    out["additionalProperties"] = False
    return out


def parameters_schema(fields: tuple[Field, ...]) -> dict[str, Any]:
    """The root schema of a tool's arguments."""
    return {"$schema": DIALECT, **object_schema(fields)}
