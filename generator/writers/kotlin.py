"""Kotlin shims for Trailblaze: a `@Serializable` data class of one tool's arguments whose `execute`
calls the Playwright Java method itself.

`kotlin_tool` gives the template context of one tool's file, or a `Refusal` saying why the tool
cannot be called from Kotlin as generated. A shim is only emitted when every argument reaches Java
through a conversion this module knows to compile (`scripts/kotlin-check.sh` compiles them all
against the real JAR): String, int, double, boolean, `Map<String, String>`, `List<String>` and
Playwright enums (`com.microsoft.playwright.options.*`, or lists of them) as they are; a selector
handed to Java as a `Locator` (`page.locator(it)`, or a list of them); any JSON value (Java
`Object`, `evaluate`'s argument) as the plan's escape hatch, a `JsonElement` turned into plain Java
values by `jsonToJava` (the package's `GeneratedJson.kt`); a union whose every member is a string
on the wire, as a String. Everything else (objects such as `Position`, base64 bytes, other unions,
`Optional` options, an optional positional argument that picks an overload) is refused, by name
and reason, rather than emitted as code that might not compile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from generator.ir import Tool, ToolParam
from generator.kotlin_settings import KEYWORDS, KotlinSettings
from generator.type_tree import (
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

JAVA_OPTIONS_PACKAGE = "com.microsoft.playwright.options"

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_SCALARS = {"string": "String", "integer": "Int", "number": "Double", "boolean": "Boolean"}
# Java parameter types (as the signature spells them) a positional argument may have, with the
# Kotlin type the argument must then have: the value is passed as is.
_POSITIONAL = {
    "String": "String",
    "int": "Int",
    "double": "Double",
    "boolean": "Boolean",
    "Map<String, String>": "Map<String, String>",
    "List<String>": "List<String>",
}
_PASSED_AS_IS = frozenset(_POSITIONAL.values())
JSON_ELEMENT = "JsonElement"

# The receiver of the Java call, by target prefix, in terms of `execute`'s `page`.
RECEIVERS = {
    "page": "page",
    "context": "page.context()",
    "keyboard": "page.keyboard()",
    "mouse": "page.mouse()",
    "locator": "page.locator(this.selector)",
}


@dataclass(frozen=True)
class Refusal:
    """A tool left out of the Kotlin output: its name, its Java method and why."""

    tool: str
    java_reference: str
    reason: str


def identifier(name: str) -> str:
    """`name` as a Kotlin identifier: a keyword in backticks (`` `object` ``)."""
    return f"`{name}`" if name in KEYWORDS else name


def class_name(tool: Tool) -> str:
    """`web_context_setOffline` -> `GeneratedContextSetOfflineTool`."""
    stem = tool.name.value.removeprefix("web_")
    return "Generated" + "".join(p[:1].upper() + p[1:] for p in stem.split("_") if p) + "Tool"


def string_literal(text: str) -> str:
    """A Kotlin string literal of `text` (no templates: `$` is escaped)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
    escaped = "".join(ch if ord(ch) >= 0x20 else f"\\u{ord(ch):04x}" for ch in escaped)
    return f'"{escaped}"'


def _kdoc(text: str, indent: str) -> str:
    text = text.strip()
    if not text:
        return ""
    safe = text.replace("*/", "*\\/").replace("/*", "/\\*")
    safe = "".join(ch if ch in "\n" or ord(ch) >= 0x20 else " " for ch in safe)
    body = "\n".join(f"{indent} *{' ' + line if line else ''}" for line in safe.splitlines())
    return f"{indent}/**\n{body}\n{indent} */\n"


def _parameters(signature: str) -> list[str]:
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


class _Refused(Exception):
    pass


class _Types:
    """Kotlin types of the IR's type nodes for one file; enums become nested enum classes."""

    def __init__(self) -> None:
        self.enums: dict[str, EnumOf] = {}

    def write(self, node: TypeNode, where: str) -> str:
        match node:
            case Scalar(kind):
                return _SCALARS[kind]
            case LocatorSelector():
                return "String"
            case ListOf(LocatorSelector()):
                return "List<String>"
            case OneOf(options) if all(_is_string(o) for o in options):
                return "String"
            case AnyJson():
                return JSON_ELEMENT
            case MapOf(Scalar("string")):
                return "Map<String, String>"
            case ListOf(Scalar("string")):
                return "List<String>"
            case ListOf(EnumOf() as item):
                return f"List<{self.write(item, where)}>"
            case EnumOf(name, values):
                entries = [re.sub(r"[^A-Za-z0-9]", "", v).upper() for v in values]
                if not _IDENTIFIER.match(name) or not all(_IDENTIFIER.match(e) for e in entries):
                    raise _Refused(f"{where}: enum {name} has values that are no Kotlin names")
                if len(set(entries)) != len(entries):
                    raise _Refused(f"{where}: enum {name} has values that differ only in case")
                known = self.enums.setdefault(name, node)
                if known != node:
                    raise _Refused(f"{where}: two different enums are named {name}")
                return name
            case OneOf(options):
                # Each member is a different Java overload; the shim calls one overload only.
                shown = ", ".join(_shown(o) for o in options)
                raise _Refused(f"{where}: a union ({shown}) needs a Java overload per member")
            case _:
                raise _Refused(f"{where}: {_shown(node)} has no Kotlin conversion to Java")


def _is_string(node: TypeNode) -> bool:
    return node == Scalar("string") or isinstance(node, LocatorSelector)


def _shown(node: TypeNode) -> str:
    """A type as a refusal names it."""
    match node:
        case ObjectOf(name):
            return f"the object {name}"
        case ListOf(item):
            return f"a list of {_shown(item)}"
        case Nullable(inner):
            return f"{_shown(inner)} or null (Java Optional)"
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


def _described(param: ToolParam) -> str:
    """A field's KDoc: the parameter's description, and for the JSON escape hatch what it holds."""
    if not isinstance(param.type, AnyJson):
        return param.description
    hatch = "Any JSON value (a JsonElement): `jsonToJava` hands it to Java as plain values."
    return f"{param.description.strip()}\n\n{hatch}".strip()


def _argument(param: ToolParam, kotlin_type: str, types: _Types) -> str:
    """The Kotlin expression that hands `param`'s (non-null) value `it` to Java."""
    if isinstance(param.type, LocatorSelector):
        return "page.locator(it)"
    if param.type == ListOf(LocatorSelector()):
        return "it.map { s -> page.locator(s) }"
    if kotlin_type == JSON_ELEMENT:
        return "jsonToJava(it)"
    if kotlin_type in _PASSED_AS_IS:
        return "it"
    if kotlin_type in types.enums:
        return "it.toJava()"
    if kotlin_type.startswith("List<") and kotlin_type[5:-1] in types.enums:
        return "it.map { e -> e.toJava() }"
    raise _Refused(f"argument {param.wire_name}: no conversion for {kotlin_type}")


def kotlin_tool(tool: Tool, settings: KotlinSettings) -> dict[str, Any] | Refusal:
    """The template context of `tool`'s Kotlin shim, or why it cannot have one."""
    try:
        return _context(tool, settings)
    except _Refused as refused:
        return Refusal(tool.name.value, tool.java_reference, str(refused))


def _context(tool: Tool, settings: KotlinSettings) -> dict[str, Any]:
    # The overload with every argument; among equals, the one taking the most plain values
    # (`locator(String, ...)` rather than `locator(Locator, ...)`).
    overload = max(
        tool.java_signatures,
        key=lambda s: (len(_parameters(s)), sum(p in _POSITIONAL for p in _parameters(s))),
    )
    java_params = _parameters(overload)
    options_class = None
    if java_params and java_params[-1].endswith("Options"):
        options_class = java_params.pop()
    params = list(tool.params)
    if tool.target.selector_param:
        params = params[1:]  # `selector`: the locator is made of it, not passed
    if len(params) < len(java_params):
        raise _Refused(f"{overload} takes more arguments than the tool has")
    types = _Types()
    fields: list[dict[str, Any]] = [
        {
            "name": identifier(p.wire_name),
            "type": types.write(p.type, f"argument {p.wire_name}"),
            "required": p.required,
            "kdoc": _kdoc(_described(p), "    "),
        }
        for p in tool.params
    ]
    by_name: dict[str, dict[str, Any]] = {
        p.wire_name: f for p, f in zip(tool.params, fields, strict=True)
    }
    positional = []
    for index, (param, java_type) in enumerate(zip(params, java_params, strict=False)):
        wanted = _POSITIONAL.get(java_type)
        kotlin_type = by_name[param.wire_name]["type"]
        name = f"this.{identifier(param.wire_name)}"
        # Playwright's overload without a trailing argument passes null for it, so an optional
        # field is passed as it is (an enum through `?.`).
        value = name
        as_locator = False
        if java_type in types.enums and kotlin_type == java_type:
            wanted, value = kotlin_type, f"{name}{'' if param.required else '?'}.toJava()"
        elif java_type == "Locator" and isinstance(param.type, LocatorSelector):
            wanted, value, as_locator = kotlin_type, f"page.locator({name})", True
        elif java_type == "Object" and kotlin_type == JSON_ELEMENT:
            wanted, value = kotlin_type, f"jsonToJava({name})"
        if wanted is None or wanted != kotlin_type:
            raise _Refused(
                f"argument {param.wire_name}: Java {java_type} cannot be given a Kotlin "
                f"{kotlin_type} as generated"
            )
        if not param.required:
            # An overload that stops before this argument (its Options aside).
            without = [java_params[:index], [*java_params[:index], options_class]]
            shorter = any(_parameters(s) in without for s in tool.java_signatures)
            if not shorter:
                raise _Refused(
                    f"argument {param.wire_name} is optional but positional in Java, and no "
                    "overload goes without it"
                )
            if as_locator:
                raise _Refused(
                    f"argument {param.wire_name} is optional but positional in Java, and a "
                    "selector is handed over as a Locator, which null cannot stand for"
                )
            if java_type in ("int", "double", "boolean"):
                raise _Refused(
                    f"argument {param.wire_name} is optional but positional in Java, of the "
                    f"primitive type {java_type}, which cannot be given null"
                )
        positional.append(value)
    options = []
    for param in params[len(java_params) :]:
        if options_class is None or param.required:
            raise _Refused(
                f"argument {param.wire_name} is neither a Java parameter of {overload} "
                "nor an optional field of its Options"
            )
        setter = "set" + param.wire_name[:1].upper() + param.wire_name[1:]
        value = _argument(param, by_name[param.wire_name]["type"], types)
        options.append(
            {"field": f"this.{identifier(param.wire_name)}", "setter": setter, "value": value}
        )
    if options_class is not None:
        positional.append("options")
    enums = [
        {
            "name": name,
            "java": f"{JAVA_OPTIONS_PACKAGE}.{name}",
            "entries": [
                (string_literal(v), re.sub(r"[^A-Za-z0-9]", "", v).upper()) for v in node.values
            ],
        }
        for name, node in sorted(types.enums.items())
    ]
    uses_json = any(f["type"] == JSON_ELEMENT for f in fields)
    interface = settings.tool_interface.rsplit(".", 1)
    annotation = settings.tool_annotation.rsplit(".", 1)
    return {
        "package": settings.package,
        "package_path": settings.package.replace(".", "/"),
        "class_name": class_name(tool),
        "tool": tool.name.value,
        "tool_name": string_literal(tool.name.value),
        "kdoc": _kdoc(tool.description, ""),
        "java": tool.java_reference,
        "overload": overload,
        "surface_to_llm": "true" if tool.surface_to_llm else "false",
        "is_recordable": "true" if tool.is_recordable else "false",
        "interface": interface[-1],
        "annotation": annotation[-1],
        "imports": sorted(
            {
                settings.tool_interface,
                settings.tool_annotation,
                "com.microsoft.playwright.Page",
                "kotlinx.serialization.Serializable",
            }
            | ({f"kotlinx.serialization.json.{JSON_ELEMENT}"} if uses_json else set())
            | ({"kotlinx.serialization.SerialName"} if enums else set())
        ),
        "fields": fields,
        "enums": enums,
        "receiver": RECEIVERS[tool.target.prefix],
        "method": tool.java_method,
        "options_class": (
            f"com.microsoft.playwright.{options_class}" if options_class is not None else None
        ),
        "options": options,
        "arguments": ", ".join(positional),
    }


def signature(context: dict[str, Any]) -> str:
    """What a Kotlin caller of one shim relies on: its class and constructor, as Kotlin spells
    them (`GeneratedPageClickTool(selector: String, timeout: Double? = null)`); the version-bump
    report calls any change of it breaking (a caller may construct it positionally)."""
    fields = ", ".join(
        f"{f['name']}: {f['type']}{'' if f['required'] else '? = null'}" for f in context["fields"]
    )
    return f"{context['class_name']}({fields})"


def surface(
    contexts: list[dict[str, Any]], refused: list[Refusal], settings: KotlinSettings
) -> dict[str, Any]:
    """The Kotlin output as the manifest records it: each shim's signature by tool name, and
    each refused tool's reason."""
    return {
        "package": settings.package,
        "shims": {c["tool"]: signature(c) for c in sorted(contexts, key=lambda c: c["tool"])},
        "refused": {r.tool: r.reason for r in sorted(refused, key=lambda r: r.tool)},
    }


def kotlin_files(
    tools: tuple[Tool, ...], settings: KotlinSettings
) -> tuple[list[dict[str, Any]], list[Refusal]]:
    """Every tool's shim context, and the tools refused; a class name that two tools would share
    (`web_a_b`, `web_aB`) is refused for the second."""
    contexts: list[dict[str, Any]] = []
    refused: list[Refusal] = []
    seen: dict[str, str] = {}
    for tool in tools:
        made = kotlin_tool(tool, settings)
        if isinstance(made, Refusal):
            refused.append(made)
            continue
        key = made["class_name"].lower()
        if key in seen:
            refused.append(
                Refusal(
                    tool.name.value,
                    tool.java_reference,
                    f"its class name is {seen[key]}'s, {made['class_name']}",
                )
            )
            continue
        seen[key] = tool.name.value
        contexts.append(made)
    return contexts, refused
