"""Kotlin types of the type tree, for one shim file: scalars, strings, lists and maps as Kotlin
spells them, enums and objects as nested classes (one name, one class), a union as a
`JsonElement` where the caller dispatches on it. What has no Kotlin conversion to Java is
`Refused`, with where and why."""

from __future__ import annotations

import re

from generator.model.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    ListOf,
    LocatorSelector,
    MapOf,
    Nullable,
    ObjectOf,
    OneOf,
    Scalar,
    TypeNode,
)

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_SCALARS = {"string": "String", "integer": "Int", "number": "Double", "boolean": "Boolean"}

JSON_ELEMENT = "JsonElement"


class Refused(Exception):
    """Why a tool (or a part of it) cannot be written as Kotlin that compiles; the message names
    where (an argument, a field, an object) and why."""


# Names every shim file uses or imports; a nested class of the same name would hide them.
_TAKEN = frozenset(
    {"Page", "Serializable", "SerialName", "Json", JSON_ELEMENT, "OrNull", "Any", "String", "List"}
    # The Trailblaze and koog names every shim imports (those of every known API).
    | {
        "LLMDescription",
        "PlaywrightExecutableTool",
        "TrailblazeToolClass",
        "TrailblazeToolExecutionContext",
        "TrailblazeToolResult",
    }
)


class KotlinTypes:
    """Kotlin types of the IR's type nodes for one file; enums become nested enum classes and
    objects nested `@Serializable` data classes (each with `toJava()`)."""

    def __init__(self) -> None:
        self.enums: dict[str, EnumOf] = {}
        self.objects: dict[str, ObjectOf] = {}

    def write(self, node: TypeNode, where: str, union: bool = False) -> str:
        """`node`'s Kotlin type; a union (`OneOf` of different JSON kinds) is a `JsonElement`
        where `union` says the caller dispatches on it, and refused elsewhere."""
        match node:
            case Scalar(kind):
                return _SCALARS[kind]
            case LocatorSelector():
                return "String"
            case OneOf(options) if all(is_string(o) for o in options):
                return "String"
            case AnyJson():
                return JSON_ELEMENT
            case Base64Bytes():
                return "String"
            case MapOf(Scalar("string")):
                return "Map<String, String>"
            case ListOf(Scalar("string") | LocatorSelector() | EnumOf() | ObjectOf() as item):
                return f"List<{self.write(item, where)}>"
            case EnumOf(name, values):
                entries = [re.sub(r"[^A-Za-z0-9]", "", v).upper() for v in values]
                if not _IDENTIFIER.match(name) or not all(_IDENTIFIER.match(e) for e in entries):
                    raise Refused(f"{where}: enum {name} has values that are no Kotlin names")
                if len(set(entries)) != len(entries):
                    raise Refused(f"{where}: enum {name} has values that differ only in case")
                self._claim(name, node, where)
                return name
            case ObjectOf(name, fields):
                if not _IDENTIFIER.match(name):
                    raise Refused(f"{where}: the object {name} has no Kotlin name")
                if self._claim(name, node, where):
                    for f in fields:
                        self.write(f.type, f"{where}: field {f.wire_name}")
                return name
            case Nullable(inner) if not isinstance(inner, Nullable | OneOf):
                return self.write(inner, where)
            case OneOf(options) if union:
                for option in options:
                    self.write(option, where)
                return JSON_ELEMENT
            case OneOf(options):
                shown = ", ".join(shown_type(o) for o in options)
                raise Refused(f"{where}: a union ({shown}) inside another value")
            case _:
                raise Refused(f"{where}: {shown_type(node)} has no Kotlin conversion to Java")

    def _claim(self, name: str, node: EnumOf | ObjectOf, where: str) -> bool:
        """Registers a nested class; whether it is new. One name, one class."""
        known = self.enums.get(name) or self.objects.get(name)
        if known is not None:
            if known != node:
                raise Refused(f"{where}: two different types are named {name}")
            return False
        if name in _TAKEN:
            raise Refused(f"{where}: the type {name} would hide the name {name} the shim uses")
        if isinstance(node, EnumOf):
            self.enums[name] = node
        else:
            self.objects[name] = node
        return True


def is_string(node: TypeNode) -> bool:
    return node == Scalar("string") or isinstance(node, LocatorSelector)


def shown_type(node: TypeNode) -> str:
    """A type as a refusal names it."""
    match node:
        case ObjectOf(name):
            return f"the object {name}"
        case ListOf(item):
            return f"a list of {shown_type(item)}"
        case Nullable(inner):
            return f"{shown_type(inner)} or null (Java Optional)"
        case Base64Bytes():
            return "base64 bytes"
        case LocatorSelector():
            return "a selector"
        case Scalar(kind):
            return kind
        case EnumOf(name):
            return f"the enum {name}"
        case _:
            return type(node).__name__


def declared(node: TypeNode, kotlin_type: str, required: bool) -> str:
    """A property's type and default: an optional argument Java keeps as an `Optional` is an
    `OrNull` (absent, null, or a value: three cases a nullable type cannot tell apart)."""
    if isinstance(node, Nullable):
        return f"{kotlin_type}?" if required else f"OrNull<{kotlin_type}> = OrNull.UNSET"
    return kotlin_type if required else f"{kotlin_type}? = null"


def non_null(node: TypeNode) -> TypeNode:
    return node.inner if isinstance(node, Nullable) else node
