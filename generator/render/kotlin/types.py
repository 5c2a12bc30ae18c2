"""Kotlin types of the type tree, for one shim file: scalars, strings, lists and maps as Kotlin
spells them, enums and objects as nested classes (one name, one class), a union as a
`JsonElement` where the caller dispatches on it. What has no Kotlin conversion to Java is
`Refused`, with where and why.

An enum's entries are Playwright's wire strings themselves (`load`, `` `no-preference` ``), so
what Trailblaze's descriptor lists (entry names) is what Playwright documents and what a trail
stores; `WireEnumSerializer` (GeneratedJson.kt) also reads any casing and the upper-case names
earlier shims had (`NOPREFERENCE`)."""

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
from generator.render.kotlin.text import identifier
from generator.shared.allowlist_rules import KOTLIN_KEYWORDS

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# A wire string usable as an enum entry: a JVM name (none of `.;[]/<>:\\`) with no backticks,
# spaces or other punctuation to surprise a reader, backticked where it is no plain identifier.
_ENTRY = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]*$")
# The entry of an optional enum Java keeps as an `Optional`: "back to Playwright's default" (the
# value Playwright's Python API names `"null"`), while absent and JSON null leave it unset.
RESET_ENTRY = "null"
# The nested serializer object of every enum; no entry may take its name.
ENUM_SERIALIZER = "WireSerializer"

_SCALARS = {"string": "String", "integer": "Int", "number": "Double", "boolean": "Boolean"}

JSON_ELEMENT = "JsonElement"


class Refused(Exception):
    """Why a tool (or a part of it) cannot be written as Kotlin that compiles; the message names
    where (an argument, a field, an object) and why."""


# Names every shim file uses or imports; a nested class of the same name would hide them.
_TAKEN = frozenset(
    {"Page", "Serializable", "Json", JSON_ELEMENT, "WireEnumSerializer", "Any", "String", "List"}
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

    def __init__(self, json_text_for: str | None = None) -> None:
        # The Trailblaze release whose descriptor builder cannot describe `JsonElement` or `Map`,
        # for which JSON-valued arguments (any JSON, a map, a union) are declared as JSON text.
        self.json_text_for = json_text_for
        self.enums: dict[str, EnumOf] = {}
        self.objects: dict[str, ObjectOf] = {}
        # Enums some optional argument Java keeps as an `Optional` takes: they add RESET_ENTRY.
        self.resettable: set[str] = set()

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
                keys = [entry_key(v) for v in values]
                if not _IDENTIFIER.match(name) or not all(_ENTRY.match(v) for v in values):
                    raise Refused(f"{where}: enum {name} has values that are no Kotlin names")
                if len(set(keys)) != len(keys) or RESET_ENTRY.upper() in keys:
                    raise Refused(
                        f"{where}: enum {name} has values that differ only in case or "
                        "punctuation, or one named null"
                    )
                if ENUM_SERIALIZER in values:
                    raise Refused(f"{where}: enum {name} has a value named {ENUM_SERIALIZER}")
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

    def declared(self, node: TypeNode, kotlin_type: str, required: bool, where: str) -> str:
        """A property's type and default. An optional argument Java keeps as an `Optional` has
        three states (absent, back to the default, a value): for an enum, absent or JSON null
        leaves it unset and the enum's added entry `null` resets it, so every state has a type
        Trailblaze can describe; any other such type is refused."""
        if isinstance(node, Nullable) and not required:
            if not isinstance(node.inner, EnumOf):
                raise Refused(
                    f"{where}: {shown_type(node)} has three states (absent, null, a value) that "
                    "no type Trailblaze describes can tell apart"
                )
            self.resettable.add(node.inner.name)
        if self.is_json_text(node):
            kotlin_type = "String"
        if isinstance(node, Nullable) and required:
            return f"{kotlin_type}?"
        return kotlin_type if required else f"{kotlin_type}? = null"

    def is_json_text(self, node: TypeNode) -> bool:
        """Whether a property of `node` is declared as JSON text (see `json_text_for`)."""
        inner = non_null(node)
        union = isinstance(inner, OneOf) and not all(is_string(o) for o in inner.options)
        return bool(self.json_text_for) and (union or isinstance(inner, AnyJson | MapOf))

    def json_text_note(self, node: TypeNode) -> str:
        """What a model and a script author are told of a property declared as JSON text."""
        if not self.is_json_text(node):
            return ""
        return (
            f"Given as JSON text, or as the JSON value itself (Trailblaze {self.json_text_for} "
            "cannot describe this parameter's type); a text that is no JSON is the string itself."
        )

    def value_of(self, node: TypeNode, wire_name: str, required: bool) -> str:
        """The Kotlin expression of a property's value as the shim's code uses it: the property
        itself, or the JSON value (or map) its JSON text spells."""
        name = f"this.{identifier(wire_name)}"
        if not self.is_json_text(node):
            return name
        reader = "jsonTextStrings" if isinstance(non_null(node), MapOf) else "jsonText"
        return f"{reader}{'' if required and not isinstance(node, Nullable) else 'OrNull'}({name})"

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


def entry_key(value: str) -> str:
    """What an enum value is known by whatever its spelling: `no-preference`, `NO_PREFERENCE` and
    `NOPREFERENCE` are all `NOPREFERENCE` (Java's constant names, without their underscores)."""
    return re.sub(r"[^A-Za-z0-9]", "", value).upper()


def entry_name(value: str) -> str:
    """A wire string as an enum entry's Kotlin name (backticked where it is no identifier)."""
    plain = _IDENTIFIER.match(value) and value not in KOTLIN_KEYWORDS
    return value if plain else f"`{value}`"


def non_null(node: TypeNode) -> TypeNode:
    return node.inner if isinstance(node, Nullable) else node
