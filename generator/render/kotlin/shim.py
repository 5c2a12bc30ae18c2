"""Kotlin shims for Trailblaze: a `@Serializable` data class of one tool's arguments whose `execute`
calls the Playwright Java method itself.

`kotlin_tool` gives the template context of one tool's file, or a `Refusal` saying why the tool
cannot be called from Kotlin as generated. A shim is only emitted when every argument reaches Java
through a conversion this module knows to compile (`scripts/kotlin-check.sh` compiles them all
against the real JAR): String, int, double, boolean, `Map<String, String>`, lists and arrays of
those, and Playwright enums (`com.microsoft.playwright.options.*`) as they are; a selector handed
to Java as a `Locator` (`page.locator(it)`, or a list of them); base64 text as `byte[]`; any JSON
value (Java `Object`, `evaluate`'s argument) as the plan's escape hatch, a `JsonElement` turned
into plain Java values by `jsonToJava` (the package's `GeneratedJson.kt`).

Objects (`Position`, `Cookie`, a list of them) are nested `@Serializable` data classes whose
`toJava()` calls the public constructor and setters the IR recorded from the JAR (`JavaObject`);
the `*Options` argument is filled through its recorded setters. An optional argument Java keeps as
an `Optional` is a nullable enum with an added `null` entry (absent, back to the default, a
value); Playwright's enums are enum classes whose entries are its wire strings. A union of values that JSON tells apart
(`String` / `String[]`, `SelectOption` / `SelectOption[]`) is a `JsonElement` whose `jsonShape`
picks the Java overload (or setter) of its member. What none of this covers (an object with no
such constructor, members that look alike, a primitive positional argument left out) is refused,
by name and reason, rather than emitted as code that might not compile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from generator.model.ir import Tool
from generator.render.kotlin.calls import (
    bare_params,
    full_overloads,
    has_options,
    is_union,
    java_call,
    options_statements,
    parameters,
    positional_arguments,
    union_calls,
)
from generator.render.kotlin.face import apply_face
from generator.render.kotlin.objects import nested_object
from generator.render.kotlin.settings import KotlinSettings
from generator.render.kotlin.text import (
    class_name,
    field_annotations,
    identifier,
    llm_description,
    simple,
    string_literal,
)
from generator.render.kotlin.types import (
    ENUM_SERIALIZER,
    JSON_ELEMENT,
    RESET_ENTRY,
    KotlinTypes,
    Refused,
    entry_name,
)

JAVA_OPTIONS_PACKAGE = "com.microsoft.playwright.options"


# Java parameter types of plain values: among overloads of equal length, the shim calls the one
# taking the most of them (`locator(String, ...)` rather than `locator(Locator, ...)`).
_PLAIN = frozenset({"String", "int", "double", "boolean", "Map<String, String>", "List<String>"})


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


def kotlin_tool(tool: Tool, settings: KotlinSettings) -> dict[str, Any] | Refusal:
    """The template context of `tool`'s Kotlin shim, or why it cannot have one."""
    try:
        return _context(tool, settings)
    except Refused as refused:
        return Refusal(tool.name.value, tool.java_reference, str(refused))


def _context(tool: Tool, settings: KotlinSettings) -> dict[str, Any]:
    full = full_overloads(tool)
    params = list(tool.params)
    if tool.target.selector_param:
        params = params[1:]  # `selector`: the locator is made of it, not passed
    api = settings.api
    types = KotlinTypes(None if api.describes_json else api.name)
    kotlin_types = {
        p.wire_name: types.write(p.type, f"argument {p.wire_name}", union=True) for p in tool.params
    }
    fields: list[dict[str, Any]] = [
        {
            "name": identifier(p.wire_name),
            "type": kotlin_types[p.wire_name],
            "declared": types.declared(
                p.type, kotlin_types[p.wire_name], p.required, f"argument {p.wire_name}"
            ),
            "kdoc": field_annotations(p, "    ", types.json_text_note(p.type)),
        }
        for p in tool.params
    ]
    arity = len(bare_params(parameters(full[0])))
    if len(params) < arity:
        raise Refused(f"{full[0]} takes more arguments than the tool has")
    positional, rest = params[:arity], params[arity:]
    unions = [i for i, p in enumerate(positional) if is_union(p.type)]
    if len(unions) > 1:
        raise Refused("more than one argument is a union, each needing a Java overload per member")
    if unions:
        calls, dispatch = union_calls(tool, positional, unions[0], full, kotlin_types, types)
    else:
        overload = max(full, key=lambda s: sum(p in _PLAIN for p in parameters(s)))
        arguments = positional_arguments(
            tool, positional, parameters(overload), kotlin_types, types
        )
        calls, dispatch = [java_call([], overload, arguments)], None
    options_class = None
    if any(has_options(parameters(c["overload"])) for c in calls):
        options_class = tool.java_options
    options = options_statements(tool, rest, options_class, kotlin_types, types)
    for call in calls:
        with_options = ["options"] if has_options(parameters(call["overload"])) else []
        call["arguments"] = ", ".join([*call["arguments"], *with_options])
    objects = []
    recipes = {o.name: o for o in tool.java_objects}
    done: set[str] = set()
    while len(done) < len(types.objects):  # an object's fields may add objects
        name = sorted(set(types.objects) - done)[0]
        done.add(name)
        objects.append(nested_object(types.objects[name], recipes.get(name), types))
    objects.sort(key=lambda o: o["name"])
    java_names = _java_names(tool)
    enums = [
        {
            "name": name,
            # An enum no Java member takes (`polling: "raf"`, Python's name for Java's default)
            # only checks the value, and has no Java constant to become.
            "java": f"{JAVA_OPTIONS_PACKAGE}.{name}" if name in java_names else None,
            "entries": [entry_name(v) for v in node.values],
            "reset": entry_name(RESET_ENTRY) if name in types.resettable else None,
            "to_java": (
                (
                    f"if (this == {entry_name(RESET_ENTRY)}) null else "
                    if name in types.resettable
                    else ""
                )
                + f"{JAVA_OPTIONS_PACKAGE}.{name}.values()"
                + '.first { it.name.replace("_", "") == wireKey(name) }'
            ),
            "serial_name": string_literal(f"{settings.package}.{class_name(tool)}.{name}"),
        }
        for name, node in sorted(types.enums.items())
    ]
    all_fields = [*fields, *(f for o in objects for f in o["fields"])]
    described = bool(tool.description.strip()) or any(
        "LLMDescription(" in f["kdoc"] for f in all_fields
    )
    uses_json = any(JSON_ELEMENT in f["declared"] for f in all_fields)
    decodes = dispatch is not None or any(o["branches"] for o in options)
    context = {
        "package": settings.package,
        "package_path": settings.package.replace(".", "/"),
        "class_name": class_name(tool),
        "tool": tool.name.value,
        "source_tool": tool.name.value,
        "tool_name": string_literal(tool.name.value),
        "kdoc": llm_description(tool.description, ""),
        "java": tool.java_reference,
        "overload": " | ".join(c["overload"] for c in calls),
        "surface_to_llm": "true" if tool.surface_to_llm else "false",
        "is_recordable": "true" if tool.is_recordable else "false",
        "interface": simple(api.tool_interface),
        "annotation": simple(api.annotation),
        "llm_flag": api.llm_flag,
        "tools_dir": api.tools_dir,
        "member": api.member,
        "context_class": simple(api.context),
        "result_class": simple(api.result),
        "imports": sorted(
            {
                api.tool_interface,
                api.annotation,
                api.context,
                api.result,
                *([api.description] if described else []),
                "com.microsoft.playwright.Page",
                "kotlinx.serialization.Serializable",
            }
            | ({f"kotlinx.serialization.json.{JSON_ELEMENT}"} if uses_json else set())
            | (
                {
                    "kotlinx.serialization.json.Json",
                    "kotlinx.serialization.json.decodeFromJsonElement",
                }
                if decodes
                else set()
            )
        ),
        "fields": fields,
        "enums": enums,
        "enum_serializer": ENUM_SERIALIZER,
        "objects": objects,
        "receiver": RECEIVERS[tool.target.prefix],
        "method": tool.java_method,
        "options_class": options_class.java_class if options_class is not None else None,
        "options": options,
        "dispatch": dispatch,
        "calls": calls,
        "face": None,
    }
    apply_face(tool, context, settings)
    return context


def _java_names(tool: Tool) -> set[str]:
    """The class names in the Java types the tool's calls, constructors and setters take."""
    types = [p for s in tool.java_signatures for p in parameters(s)]
    for made in (*tool.java_objects, *([tool.java_options] if tool.java_options else [])):
        types += [a.java_type for a in made.constructor or ()]
        types += [s.argument.java_type for s in made.setters]
    return {name for t in types for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", t)}
