"""The Java calls of a shim's `execute`: the overloads taking the most arguments, one call per
member of a union argument (chosen by its `jsonShape`), the positional arguments a call passes,
and the statements that fill the `*Options` through its recorded setters. Java signatures are
read as the IR spells them (`...#check(String, Page.CheckOptions)`)."""

from __future__ import annotations

from typing import Any

from generator.model.ir import JavaObject, Tool, ToolParam
from generator.model.type_tree import EnumOf, LocatorSelector, Nullable, OneOf, TypeNode, describe
from generator.render.kotlin.java_values import (
    convert,
    decode_member,
    or_null,
    set_statement,
    setter_for,
    shapes_of,
)
from generator.render.kotlin.text import string_literal
from generator.render.kotlin.types import KotlinTypes, Refused, is_string, non_null, shown_type


def parameters(signature: str) -> list[str]:
    """`...#check(String, Page.CheckOptions)` -> ["String", "Page.CheckOptions"]."""
    inner = signature[signature.index("(") + 1 : signature.rindex(")")]
    parts, depth, current = [], 0, ""
    for ch in inner:
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def bare_params(params: list[str]) -> list[str]:
    return params[:-1] if has_options(params) else params


def has_options(params: list[str]) -> bool:
    return bool(params) and params[-1].endswith("Options")


def full_overloads(tool: Tool) -> list[str]:
    """The overloads taking the most arguments (their Options aside); those with Options first."""
    bare = [len(bare_params(parameters(s))) for s in tool.java_signatures]
    full = [s for s, n in zip(tool.java_signatures, bare, strict=True) if n == max(bare)]
    return sorted(full, key=lambda s: not has_options(parameters(s)))


def is_union(node: TypeNode) -> bool:
    return isinstance(node, OneOf) and not all(is_string(o) for o in node.options)


def positional_arguments(
    tool: Tool,
    params: list[ToolParam],
    java_params: list[str],
    kotlin_types: dict[str, str],
    types: KotlinTypes,
) -> list[str]:
    """The positional arguments of one Java call, `this.`-prefixed conversions of the fields."""
    values = []
    for index, (param, java_type) in enumerate(zip(params, java_params, strict=False)):
        kotlin_type = kotlin_types[param.wire_name]
        name = types.value_of(param.type, param.wire_name, param.required)
        if param.required:
            if isinstance(param.type, Nullable):
                values.append(or_null(param.type.inner, name, java_type, kotlin_type))
            else:
                values.append(convert(param.type, name, java_type, kotlin_type))
            continue
        # Playwright's overload without a trailing argument passes null for it, so an optional
        # field is passed as it is (null when absent).
        bare = bare_params(java_params)
        without = [bare[:index], [*bare[:index], *java_params[len(bare) :]]]
        shorter = any(parameters(s) in without for s in tool.java_signatures)
        if not shorter:
            raise Refused(
                f"argument {param.wire_name} is optional but positional in Java, and no "
                "overload goes without it"
            )
        if isinstance(param.type, LocatorSelector) and java_type == "Locator":
            raise Refused(
                f"argument {param.wire_name} is optional but positional in Java, and a "
                "selector is handed over as a Locator, which null cannot stand for"
            )
        if java_type in ("int", "double", "boolean"):
            raise Refused(
                f"argument {param.wire_name} is optional but positional in Java, of the "
                f"primitive type {java_type}, which cannot be given null"
            )
        values.append(or_null(non_null(param.type), name, java_type, kotlin_type))
    return values


def union_calls(
    tool: Tool,
    positional: list[ToolParam],
    index: int,
    full: list[str],
    kotlin_types: dict[str, str],
    types: KotlinTypes,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One Java call per member of the union argument `positional[index]`, each to the overload
    that takes that member; an optional union left out calls the overload without it."""
    param = positional[index]
    assert isinstance(param.type, OneOf)
    where = f"argument {param.wire_name}"
    others = [p for p in positional if p is not param]
    # Each branch but "null" has a value, which an optional field's type does not know.
    source = types.value_of(param.type, param.wire_name, param.required) + (
        "" if param.required else "!!"
    )
    calls = []
    for option, shapes in zip(
        param.type.options, shapes_of(param.type.options, where), strict=True
    ):
        kotlin_type = types.write(option, where)
        found = None
        for signature in full:
            java_params = parameters(signature)
            try:
                decoded = decode_member(kotlin_type, source)
                value = convert(option, decoded, java_params[index], kotlin_type)
            except Refused:
                continue
            found = (signature, value, java_params[:index] + java_params[index + 1 :])
            break
        if found is None:
            raise Refused(f"{where}: no Java overload takes {shown_type(option)}")
        signature, value, rest = found
        arguments = positional_arguments(tool, others, rest, kotlin_types, types)
        arguments.insert(index, value)
        calls.append(java_call(shapes, signature, arguments))
    if not param.required:
        before = bare_params(parameters(full[0]))[:index]
        shorter = [s for s in tool.java_signatures if bare_params(parameters(s)) == before]
        if index != len(positional) - 1 or not shorter:
            raise Refused(
                f"{where} is optional but positional in Java, and no overload goes without it"
            )
        shorter.sort(key=lambda s: not has_options(parameters(s)))
        arguments = positional_arguments(tool, positional[:index], before, kotlin_types, types)
        calls.insert(0, java_call(["null"], shorter[0], arguments))
    dispatch = {
        "field": types.value_of(param.type, param.wire_name, param.required),
        "error": string_literal(
            f"argument {param.wire_name}: expected {describe(param.type)}, got "
        ),
    }
    return calls, dispatch


def java_call(shapes: list[str], signature: str, arguments: list[str]) -> dict[str, Any]:
    """One Java call of `execute`: the `jsonShape`s that choose it, its overload, its arguments."""
    return {
        "shapes": ", ".join(string_literal(s) for s in shapes),
        "overload": signature,
        "arguments": arguments,
    }


def options_statements(
    tool: Tool,
    params: list[ToolParam],
    options: JavaObject | None,
    kotlin_types: dict[str, str],
    types: KotlinTypes,
) -> list[dict[str, Any]]:
    """The statements that set the given optional arguments on the Java `*Options`, through the
    setters the IR records; a union argument sets the setter of its member's type (a member no
    setter takes, Python's name for Java's default such as `polling: "raf"`, sets nothing)."""
    found = []
    for param in params:
        if options is None or param.required:
            raise Refused(
                f"argument {param.wire_name} is neither a Java parameter of "
                f"{full_overloads(tool)[0]} nor an optional field of its Options"
            )
        where = f"argument {param.wire_name}"
        name = types.value_of(param.type, param.wire_name, param.required)
        kotlin_type = kotlin_types[param.wire_name]
        if is_union(param.type):
            assert isinstance(param.type, OneOf)
            branches = []
            members = param.type.options
            for option, shapes in zip(members, shapes_of(members, where), strict=True):
                member_type = types.write(option, where)
                setter = setter_for(options, param.wire_name, option)
                if setter is None and not isinstance(option, EnumOf):
                    raise Refused(
                        f"{where}: no setter of {options.name} takes {shown_type(option)}"
                    )
                decoded = decode_member(member_type)
                statement = (
                    f"{decoded} // Java's default: nothing to set"
                    if setter is None
                    else f"options.{setter[0]}("
                    f"{convert(option, decoded, setter[1].java_type, member_type)})"
                )
                shown = ", ".join(string_literal(s) for s in shapes)
                branches.append({"shapes": shown, "statement": statement})
            found.append(
                {
                    "field": name,
                    "branches": branches,
                    "statement": "",
                    "error": string_literal(f"{where}: expected {describe(param.type)}, got "),
                }
            )
            continue
        setter = setter_for(options, param.wire_name, non_null(param.type))
        if setter is None:
            raise Refused(f"{where}: no setter of {options.name} takes {shown_type(param.type)}")
        method, argument = setter
        statement = set_statement("options", method, param, name, argument.java_type, kotlin_type)
        found.append({"field": name, "branches": [], "statement": statement, "error": ""})
    return found
