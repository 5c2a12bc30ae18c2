"""Kotlin values handed to Java: the expression that gives a Kotlin value of a type node to a Java
parameter (a selector as `page.locator(it)`, base64 as `byte[]`, JSON as `jsonToJava`, an object
through its `toJava()`), null-aware and setter forms of it, and how a union's members are told
apart in JSON (`jsonShape`). Where the two sides do not meet it is `Refused`; the compile check
(`scripts/kotlin-check.sh`) holds the rest."""

from __future__ import annotations

from generator.model.ir import JavaArgument, JavaObject, ToolParam
from generator.model.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    Field,
    ListOf,
    LocatorSelector,
    MapOf,
    Nullable,
    ObjectOf,
    OneOf,
    Scalar,
    TypeNode,
)
from generator.render.kotlin.types import Refused, is_string, shown_type

# How a union's member is told apart in JSON (`jsonShape` in GeneratedJson.kt says which).
_SHAPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}


# Java parameter types (as a signature spells them) a Kotlin scalar is handed to as it is.
_JAVA_SCALARS = {
    "string": ("String",),
    "integer": ("int", "Integer"),
    "number": ("double", "Double"),
    "boolean": ("boolean", "Boolean"),
}


def _java_class_of(java_type: str) -> tuple[str, bool]:
    """`List<Cookie>` -> ("Cookie", False); `Cookie[]` -> ("Cookie", True)."""
    if java_type.endswith("[]"):
        return java_type[:-2], True
    if java_type.startswith("List<") and java_type.endswith(">"):
        return java_type[5:-1], False
    return "", False


def convert(node: TypeNode, value: str, java_type: str, kotlin_type: str) -> str:
    """The Kotlin expression that hands the non-null Kotlin `value` of `node` to a Java parameter
    of `java_type`; refused when the two do not meet (the compile check holds the rest)."""
    mismatch = Refused(f"Java {java_type} cannot be given a Kotlin {kotlin_type} as generated")
    match node:
        case Scalar(kind):
            if java_type not in _JAVA_SCALARS[kind]:
                raise mismatch
            return value
        case LocatorSelector():
            if java_type == "Locator":
                return f"page.locator({value})"
            if java_type == "String":
                return value
            raise mismatch
        case OneOf(options) if all(is_string(o) for o in options):
            if java_type != "String":
                raise mismatch
            return value
        case AnyJson():
            if java_type != "Object":
                raise mismatch
            return f"jsonToJava({value})"
        case Base64Bytes():
            if java_type != "byte[]":
                raise mismatch
            return f"java.util.Base64.getDecoder().decode({value})"
        case MapOf(Scalar("string")):
            if java_type != "Map<String, String>":
                raise mismatch
            return value
        case EnumOf(name) | ObjectOf(name):
            if java_type != name:
                raise mismatch
            return f"{value}.toJava()"
        case ListOf(item):
            element, array = _java_class_of(java_type)
            if not element:
                raise mismatch
            if isinstance(item, LocatorSelector) and element == "Locator":
                items = f"{value}.map {{ s -> page.locator(s) }}"
            elif element in _JAVA_SCALARS.get(_scalar_kind(item), ()):
                items = value  # a list of selectors Java takes as strings is one too
            elif isinstance(item, EnumOf | ObjectOf) and element == item.name:
                items = f"{value}.map {{ e -> e.toJava() }}"
            else:
                raise mismatch
            return f"{items}.toTypedArray()" if array else items
        case _:
            raise mismatch


def _scalar_kind(node: TypeNode) -> str:
    """The scalar kind of a node a Kotlin value of which Java takes as it is ("" if none)."""
    if isinstance(node, LocatorSelector):
        return "string"
    return node.kind if isinstance(node, Scalar) else ""


def or_null(node: TypeNode, value: str, java_type: str, kotlin_type: str) -> str:
    """`convert` of a value that may be null (null is handed over as null)."""
    converted = convert(node, "v", java_type, kotlin_type)
    if converted == "v":
        return value
    if converted == "jsonToJava(v)":
        return f"jsonToJava({value})"
    if converted == "v.toJava()":
        return f"{value}?.toJava()"
    return f"{value}?.let {{ v -> {converted} }}"


def shapes_of(options: tuple[TypeNode, ...], where: str) -> list[list[str]]:
    """For each member of a union, the `jsonShape`s that pick it; an empty array picks the first
    list. Refused when two members look alike in JSON."""
    found: list[list[str]] = []
    seen: set[str] = set()
    for option in options:
        match option:
            case Scalar(kind):
                shapes = [_SHAPES[kind]]
            case EnumOf() | LocatorSelector():
                shapes = ["string"]
            case ObjectOf() | MapOf():
                shapes = ["object"]
            case ListOf(item):
                shapes = [f"array of {s}" for s in shapes_of((item,), where)[0]]
                shapes += [] if "array" in seen else ["array"]
            case _:
                raise Refused(f"{where}: {shown_type(option)} cannot be told apart in a union")
        if seen & set(shapes):
            raise Refused(f"{where}: two members of its union look alike in JSON")
        seen |= set(shapes)
        found.append(shapes)
    return found


def decode_member(kotlin_type: str, source: str = "it") -> str:
    """A union's member of `kotlin_type` read from the `JsonElement` `source`."""
    return f"Json.decodeFromJsonElement<{kotlin_type}>({source})"


def setter_for(
    options: JavaObject, wire_name: str, node: TypeNode
) -> tuple[str, JavaArgument] | None:
    for setter in options.setters:
        if setter.argument.wire_name == wire_name and setter.argument.type == node:
            return setter.method, setter.argument
    return None


def set_statement(
    target: str, method: str, param: ToolParam | Field, name: str, java_type: str, kotlin_type: str
) -> str:
    """The statement that sets an optional `param` on `target` when it is given."""
    if isinstance(param.type, Nullable):
        if param.required:
            return f"{target}.{method}({or_null(param.type.inner, name, java_type, kotlin_type)})"
        # An enum with the `null` entry: its `toJava()` is null for it, Playwright's "reset".
        value = convert(param.type.inner, "it", java_type, kotlin_type)
        return f"{name}?.let {{ {target}.{method}({value}) }}"
    if param.required:
        return f"{target}.{method}({present(param, name, java_type, kotlin_type)})"
    return f"{name}?.let {{ {target}.{method}({present(param, 'it', java_type, kotlin_type)}) }}"


def present(param: ToolParam | Field, value: str, java_type: str, kotlin_type: str) -> str:
    """`convert` of a value a setter needs: JSON null made into Java is no value there, and a
    setter Playwright marks non-null (JSpecify, from 1.63) takes no Kotlin `Any?`."""
    converted = convert(param.type, value, java_type, kotlin_type)
    if isinstance(param.type, AnyJson):
        refusal = f'"{param.wire_name}: null is not a value here"'
        return f"({converted} ?: throw IllegalArgumentException({refusal}))"
    return converted
