"""The target-neutral type tree that Java types lower into and every target writer reads.

Each node is frozen and hashable; two nodes are equal exactly when they describe the same set of
JSON values, so overload merging can compare them with `==`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, assert_never


@dataclass(frozen=True)
class Scalar:
    """A JSON scalar. `integer` excludes booleans and fractions; `number` accepts any finite number."""

    kind: Literal["string", "integer", "number", "boolean"]


@dataclass(frozen=True)
class AnyJson:
    """Any JSON value (Java `Object`): what `evaluate` accepts and returns."""


@dataclass(frozen=True)
class Null:
    """Only `null`: the result of a method that returns nothing a caller can use."""


@dataclass(frozen=True)
class Base64Bytes:
    """Binary data (`byte[]`) carried as a base64 string."""


@dataclass(frozen=True)
class ListOf:
    """A JSON array whose items all have type `item`."""

    item: TypeNode


@dataclass(frozen=True)
class MapOf:
    """A JSON object with arbitrary string keys and values of type `value` (`Map<String, T>`)."""

    value: TypeNode


@dataclass(frozen=True)
class EnumOf:
    """One of `values`, which are Playwright's wire strings (never Java constant names)."""

    name: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Field:
    """A property of an ObjectOf or a tool's parameter list: the wire name is what JSON carries."""

    wire_name: str
    type: TypeNode
    required: bool
    description: str = ""


@dataclass(frozen=True)
class ObjectOf:
    """A JSON object with exactly these properties (an option class such as `Geolocation`).

    `name` is a valid identifier in Python and TypeScript, unique among the objects of one run.
    """

    name: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class LocatorSelector:
    """A Java `Locator` argument, carried as a selector string; the shim passes `page.locator(it)`.

    It appears only as a tool parameter's type or as the item type of one, never deeper.
    """


@dataclass(frozen=True)
class OneOf:
    """Any one of `options` (Java overloads `String` / `String[]`); options are distinct and none is a OneOf."""

    options: tuple[TypeNode, ...]


@dataclass(frozen=True)
class Nullable:
    """`inner` or `null`: Java `Optional<T>`, or a result Python may return as None."""

    inner: TypeNode


TypeNode = (
    Scalar
    | AnyJson
    | Null
    | Base64Bytes
    | LocatorSelector
    | ListOf
    | MapOf
    | EnumOf
    | ObjectOf
    | OneOf
    | Nullable
)


def walk(node: TypeNode) -> list[TypeNode]:
    """`node` and every node under it, depth first, parents before children."""
    found: list[TypeNode] = [node]
    if isinstance(node, ListOf):
        found += walk(node.item)
    elif isinstance(node, MapOf):
        found += walk(node.value)
    elif isinstance(node, ObjectOf):
        for f in node.fields:
            found += walk(f.type)
    elif isinstance(node, OneOf):
        for option in node.options:
            found += walk(option)
    elif isinstance(node, Nullable):
        found += walk(node.inner)
    return found


def describe(node: TypeNode) -> str:
    """Words for `node` in a message to the user, free of any target language's syntax."""
    match node:
        case Scalar(kind):
            return kind
        case AnyJson():
            return "any JSON value"
        case Null():
            return "null"
        case Base64Bytes():
            return "base64 text"
        case LocatorSelector():
            return "selector"
        case ListOf(item):
            return f"list of {describe(item)}"
        case MapOf(value):
            return f"map of {describe(value)}"
        case EnumOf(name) | ObjectOf(name):
            return name
        case OneOf(options):
            return " or ".join(describe(o) for o in options)
        case Nullable(inner):
            return f"{describe(inner)} or null"
        case _:
            assert_never(node)
