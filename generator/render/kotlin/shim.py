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
an `Optional` is an `OrNull` (absent, null or a value). A union of values that JSON tells apart
(`String` / `String[]`, `SelectOption` / `SelectOption[]`) is a `JsonElement` whose `jsonShape`
picks the Java overload (or setter) of its member. What none of this covers (an object with no
such constructor, members that look alike, a primitive positional argument left out) is refused,
by name and reason, rather than emitted as code that might not compile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from generator.model.ir import JavaArgument, JavaObject, Tool, ToolParam
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
    describe,
)
from generator.render.kotlin.settings import KEYWORDS, KotlinSettings
from generator.shared.diagnostics import ExitCode, GeneratorError

JAVA_OPTIONS_PACKAGE = "com.microsoft.playwright.options"

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_SCALARS = {"string": "String", "integer": "Int", "number": "Double", "boolean": "Boolean"}
# Java parameter types of plain values: among overloads of equal length, the shim calls the one
# taking the most of them (`locator(String, ...)` rather than `locator(Locator, ...)`).
_PLAIN = frozenset({"String", "int", "double", "boolean", "Map<String, String>", "List<String>"})
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
    escaped = escaped.replace("\n", "\\n")
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
# How a union's member is told apart in JSON (`jsonShape` in GeneratedJson.kt says which).
_SHAPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}
# Java parameter types (as a signature spells them) a Kotlin scalar is handed to as it is.
_JAVA_SCALARS = {
    "string": ("String",),
    "integer": ("int", "Integer"),
    "number": ("double", "Double"),
    "boolean": ("boolean", "Boolean"),
}


class _Types:
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
            case OneOf(options) if all(_is_string(o) for o in options):
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
                    raise _Refused(f"{where}: enum {name} has values that are no Kotlin names")
                if len(set(entries)) != len(entries):
                    raise _Refused(f"{where}: enum {name} has values that differ only in case")
                self._claim(name, node, where)
                return name
            case ObjectOf(name, fields):
                if not _IDENTIFIER.match(name):
                    raise _Refused(f"{where}: the object {name} has no Kotlin name")
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
                shown = ", ".join(_shown(o) for o in options)
                raise _Refused(f"{where}: a union ({shown}) inside another value")
            case _:
                raise _Refused(f"{where}: {_shown(node)} has no Kotlin conversion to Java")

    def _claim(self, name: str, node: EnumOf | ObjectOf, where: str) -> bool:
        """Registers a nested class; whether it is new. One name, one class."""
        known = self.enums.get(name) or self.objects.get(name)
        if known is not None:
            if known != node:
                raise _Refused(f"{where}: two different types are named {name}")
            return False
        if name in _TAKEN:
            raise _Refused(f"{where}: the type {name} would hide the name {name} the shim uses")
        if isinstance(node, EnumOf):
            self.enums[name] = node
        else:
            self.objects[name] = node
        return True


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


def _described(param: ToolParam | Field, indent: str) -> str:
    """A field's annotations: koog's `@param:LLMDescription` of its description (what Trailblaze
    shows a model), and for the JSON escape hatch a KDoc saying what it holds."""
    hatch = ""
    if isinstance(param.type, AnyJson):
        hatch = _kdoc(
            "Any JSON value (a JsonElement): `jsonToJava` hands it to Java as plain values.", indent
        )
    return hatch + _llm_description(param.description, indent, "param:")


def _llm_description(text: str, indent: str, target: str = "") -> str:
    """koog's `@LLMDescription` of `text` on its own line (nothing when `text` is blank)."""
    text = text.strip()
    if not text:
        return ""
    return f"{indent}@{target}LLMDescription({string_literal(text)})\n"


def _declared(node: TypeNode, kotlin_type: str, required: bool) -> str:
    """A property's type and default: an optional argument Java keeps as an `Optional` is an
    `OrNull` (absent, null, or a value: three cases a nullable type cannot tell apart)."""
    if isinstance(node, Nullable):
        return f"{kotlin_type}?" if required else f"OrNull<{kotlin_type}> = OrNull.UNSET"
    return kotlin_type if required else f"{kotlin_type}? = null"


def _java_class_of(java_type: str) -> tuple[str, bool]:
    """`List<Cookie>` -> ("Cookie", False); `Cookie[]` -> ("Cookie", True)."""
    if java_type.endswith("[]"):
        return java_type[:-2], True
    if java_type.startswith("List<") and java_type.endswith(">"):
        return java_type[5:-1], False
    return "", False


def _convert(node: TypeNode, value: str, java_type: str, kotlin_type: str) -> str:
    """The Kotlin expression that hands the non-null Kotlin `value` of `node` to a Java parameter
    of `java_type`; refused when the two do not meet (the compile check holds the rest)."""
    mismatch = _Refused(f"Java {java_type} cannot be given a Kotlin {kotlin_type} as generated")
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
        case OneOf(options) if all(_is_string(o) for o in options):
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


def _or_null(node: TypeNode, value: str, java_type: str, kotlin_type: str) -> str:
    """`_convert` of a value that may be null (null is handed over as null)."""
    converted = _convert(node, "v", java_type, kotlin_type)
    if converted == "v":
        return value
    if converted == "jsonToJava(v)":
        return f"jsonToJava({value})"
    if converted == "v.toJava()":
        return f"{value}?.toJava()"
    return f"{value}?.let {{ v -> {converted} }}"


def _bare(node: TypeNode) -> TypeNode:
    return node.inner if isinstance(node, Nullable) else node


def _shapes(options: tuple[TypeNode, ...], where: str) -> list[list[str]]:
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
                shapes = [f"array of {s}" for s in _shapes((item,), where)[0]]
                shapes += [] if "array" in seen else ["array"]
            case _:
                raise _Refused(f"{where}: {_shown(option)} cannot be told apart in a union")
        if seen & set(shapes):
            raise _Refused(f"{where}: two members of its union look alike in JSON")
        seen |= set(shapes)
        found.append(shapes)
    return found


def _decoded(kotlin_type: str, source: str = "it") -> str:
    """A union's member of `kotlin_type` read from the `JsonElement` `source`."""
    return f"Json.decodeFromJsonElement<{kotlin_type}>({source})"


def _setter_for(
    options: JavaObject, wire_name: str, node: TypeNode
) -> tuple[str, JavaArgument] | None:
    for setter in options.setters:
        if setter.argument.wire_name == wire_name and setter.argument.type == node:
            return setter.method, setter.argument
    return None


def _object(obj: ObjectOf, recipe: JavaObject | None, types: _Types) -> dict[str, Any]:
    """A nested data class of one object type, with the `toJava()` the IR's recipe spells."""
    where = f"the object {obj.name}"
    if recipe is None or recipe.constructor is None:
        raise _Refused(f"{where}: no public Java constructor takes exactly its required fields")
    fields = {f.wire_name: f for f in obj.fields}
    arguments = []
    for argument in recipe.constructor:
        f = fields.get(argument.wire_name)
        if f is None or not f.required or isinstance(f.type, Nullable):
            raise _Refused(
                f"{where}: its constructor takes {argument.wire_name}, no required field"
            )
        kotlin_type = types.write(f.type, where)
        name = f"this.{identifier(f.wire_name)}"
        arguments.append(_convert(f.type, name, argument.java_type, kotlin_type))
    taken = {a.wire_name for a in recipe.constructor}
    setters = []
    for f in obj.fields:
        if f.wire_name in taken:
            continue
        kotlin_type = types.write(f.type, where)
        found = _setter_for(recipe, f.wire_name, _bare(f.type))
        if found is None:
            raise _Refused(f"{where}: no public setter takes its field {f.wire_name}")
        method, argument = found
        name = f"this.{identifier(f.wire_name)}"
        setters.append(_set("made", method, f, name, argument.java_type, kotlin_type))
    return {
        "name": obj.name,
        "keyword": "data class" if obj.fields else "class",
        "java": recipe.java_class,
        "kdoc": _kdoc(
            f"`{obj.name}` as JSON; `toJava()` builds the {recipe.java_class} through its "
            "public constructor and setters.",
            "    ",
        ),
        "fields": [
            {
                "name": identifier(f.wire_name),
                "declared": _declared(f.type, types.write(f.type, where), f.required),
                "kdoc": _described(f, "        "),
            }
            for f in obj.fields
        ],
        "arguments": ", ".join(arguments),
        "setters": setters,
    }


def _set(
    target: str, method: str, param: ToolParam | Field, name: str, java_type: str, kotlin_type: str
) -> str:
    """The statement that sets an optional `param` on `target` when it is given."""
    if isinstance(param.type, Nullable):
        value = _or_null(param.type.inner, f"{name}.value", java_type, kotlin_type)
        if param.required:
            return f"{target}.{method}({_or_null(param.type.inner, name, java_type, kotlin_type)})"
        return f"if ({name}.given) {target}.{method}({value})"
    if param.required:
        return f"{target}.{method}({_present(param, name, java_type, kotlin_type)})"
    return f"{name}?.let {{ {target}.{method}({_present(param, 'it', java_type, kotlin_type)}) }}"


def _present(param: ToolParam | Field, value: str, java_type: str, kotlin_type: str) -> str:
    """`_convert` of a value a setter needs: JSON null made into Java is no value there, and a
    setter Playwright marks non-null (JSpecify, from 1.63) takes no Kotlin `Any?`."""
    converted = _convert(param.type, value, java_type, kotlin_type)
    if isinstance(param.type, AnyJson):
        refusal = f'"{param.wire_name}: null is not a value here"'
        return f"({converted} ?: throw IllegalArgumentException({refusal}))"
    return converted


def kotlin_tool(tool: Tool, settings: KotlinSettings) -> dict[str, Any] | Refusal:
    """The template context of `tool`'s Kotlin shim, or why it cannot have one."""
    try:
        return _context(tool, settings)
    except _Refused as refused:
        return Refusal(tool.name.value, tool.java_reference, str(refused))


def _full_overloads(tool: Tool) -> list[str]:
    """The overloads taking the most arguments (their Options aside); those with Options first."""
    bare = [len(_bare_params(_parameters(s))) for s in tool.java_signatures]
    full = [s for s, n in zip(tool.java_signatures, bare, strict=True) if n == max(bare)]
    return sorted(full, key=lambda s: not _has_options(_parameters(s)))


def _context(tool: Tool, settings: KotlinSettings) -> dict[str, Any]:
    full = _full_overloads(tool)
    params = list(tool.params)
    if tool.target.selector_param:
        params = params[1:]  # `selector`: the locator is made of it, not passed
    types = _Types()
    kotlin_types = {
        p.wire_name: types.write(p.type, f"argument {p.wire_name}", union=True) for p in tool.params
    }
    fields: list[dict[str, Any]] = [
        {
            "name": identifier(p.wire_name),
            "type": kotlin_types[p.wire_name],
            "declared": _declared(p.type, kotlin_types[p.wire_name], p.required),
            "kdoc": _described(p, "    "),
        }
        for p in tool.params
    ]
    arity = len(_bare_params(_parameters(full[0])))
    if len(params) < arity:
        raise _Refused(f"{full[0]} takes more arguments than the tool has")
    positional, rest = params[:arity], params[arity:]
    unions = [i for i, p in enumerate(positional) if _is_union(p.type)]
    if len(unions) > 1:
        raise _Refused("more than one argument is a union, each needing a Java overload per member")
    if unions:
        calls, dispatch = _union_calls(tool, positional, unions[0], full, kotlin_types, types)
    else:
        overload = max(full, key=lambda s: sum(p in _PLAIN for p in _parameters(s)))
        arguments = _positional(tool, positional, _parameters(overload), kotlin_types)
        calls, dispatch = [_call([], overload, arguments)], None
    options_class = None
    if any(_has_options(_parameters(c["overload"])) for c in calls):
        options_class = tool.java_options
    options = _options(tool, rest, options_class, kotlin_types, types)
    for call in calls:
        with_options = ["options"] if _has_options(_parameters(call["overload"])) else []
        call["arguments"] = ", ".join([*call["arguments"], *with_options])
    objects = []
    recipes = {o.name: o for o in tool.java_objects}
    done: set[str] = set()
    while len(done) < len(types.objects):  # an object's fields may add objects
        name = sorted(set(types.objects) - done)[0]
        done.add(name)
        objects.append(_object(types.objects[name], recipes.get(name), types))
    objects.sort(key=lambda o: o["name"])
    java_names = _java_names(tool)
    enums = [
        {
            "name": name,
            # An enum no Java member takes (`polling: "raf"`, Python's name for Java's default)
            # only checks the value, and has no Java constant to become.
            "java": f"{JAVA_OPTIONS_PACKAGE}.{name}" if name in java_names else None,
            "entries": [
                (string_literal(v), re.sub(r"[^A-Za-z0-9]", "", v).upper()) for v in node.values
            ],
        }
        for name, node in sorted(types.enums.items())
    ]
    all_fields = [*fields, *(f for o in objects for f in o["fields"])]
    described = bool(tool.description.strip()) or any(
        "LLMDescription(" in f["kdoc"] for f in all_fields
    )
    uses_json = any(JSON_ELEMENT in f["declared"] for f in all_fields)
    decodes = dispatch is not None or any(o["branches"] for o in options)
    api = settings.api
    return {
        "package": settings.package,
        "package_path": settings.package.replace(".", "/"),
        "class_name": class_name(tool),
        "tool": tool.name.value,
        "tool_name": string_literal(tool.name.value),
        "kdoc": _llm_description(tool.description, ""),
        "java": tool.java_reference,
        "overload": " | ".join(c["overload"] for c in calls),
        "surface_to_llm": "true" if tool.surface_to_llm else "false",
        "is_recordable": "true" if tool.is_recordable else "false",
        "interface": _simple(api.tool_interface),
        "annotation": _simple(api.annotation),
        "llm_flag": api.llm_flag,
        "tools_dir": api.tools_dir,
        "member": api.member,
        "context_class": _simple(api.context),
        "result_class": _simple(api.result),
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
            | ({"kotlinx.serialization.SerialName"} if enums else set())
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
        "objects": objects,
        "receiver": RECEIVERS[tool.target.prefix],
        "method": tool.java_method,
        "options_class": options_class.java_class if options_class is not None else None,
        "options": options,
        "dispatch": dispatch,
        "calls": calls,
    }


def _simple(qualified: str) -> str:
    """`a.b.C` -> `C`."""
    return qualified.rsplit(".", 1)[-1]


def _java_names(tool: Tool) -> set[str]:
    """The class names in the Java types the tool's calls, constructors and setters take."""
    types = [p for s in tool.java_signatures for p in _parameters(s)]
    for made in (*tool.java_objects, *([tool.java_options] if tool.java_options else [])):
        types += [a.java_type for a in made.constructor or ()]
        types += [s.argument.java_type for s in made.setters]
    return {name for t in types for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", t)}


def _bare_params(params: list[str]) -> list[str]:
    return params[:-1] if _has_options(params) else params


def _has_options(params: list[str]) -> bool:
    return bool(params) and params[-1].endswith("Options")


def _is_union(node: TypeNode) -> bool:
    return isinstance(node, OneOf) and not all(_is_string(o) for o in node.options)


def _positional(
    tool: Tool,
    params: list[ToolParam],
    java_params: list[str],
    kotlin_types: dict[str, str],
) -> list[str]:
    """The positional arguments of one Java call, `this.`-prefixed conversions of the fields."""
    values = []
    for index, (param, java_type) in enumerate(zip(params, java_params, strict=False)):
        kotlin_type = kotlin_types[param.wire_name]
        name = f"this.{identifier(param.wire_name)}"
        if param.required:
            if isinstance(param.type, Nullable):
                values.append(_or_null(param.type.inner, name, java_type, kotlin_type))
            else:
                values.append(_convert(param.type, name, java_type, kotlin_type))
            continue
        # Playwright's overload without a trailing argument passes null for it, so an optional
        # field is passed as it is (null when absent).
        bare = _bare_params(java_params)
        without = [bare[:index], [*bare[:index], *java_params[len(bare) :]]]
        shorter = any(_parameters(s) in without for s in tool.java_signatures)
        if not shorter:
            raise _Refused(
                f"argument {param.wire_name} is optional but positional in Java, and no "
                "overload goes without it"
            )
        if isinstance(param.type, LocatorSelector) and java_type == "Locator":
            raise _Refused(
                f"argument {param.wire_name} is optional but positional in Java, and a "
                "selector is handed over as a Locator, which null cannot stand for"
            )
        if java_type in ("int", "double", "boolean"):
            raise _Refused(
                f"argument {param.wire_name} is optional but positional in Java, of the "
                f"primitive type {java_type}, which cannot be given null"
            )
        values.append(_or_null(_bare(param.type), name, java_type, kotlin_type))
    return values


def _union_calls(
    tool: Tool,
    positional: list[ToolParam],
    index: int,
    full: list[str],
    kotlin_types: dict[str, str],
    types: _Types,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One Java call per member of the union argument `positional[index]`, each to the overload
    that takes that member; an optional union left out calls the overload without it."""
    param = positional[index]
    assert isinstance(param.type, OneOf)
    where = f"argument {param.wire_name}"
    others = [p for p in positional if p is not param]
    # Each branch but "null" has a value, which an optional field's type does not know.
    source = f"this.{identifier(param.wire_name)}" + ("" if param.required else "!!")
    calls = []
    for option, shapes in zip(param.type.options, _shapes(param.type.options, where), strict=True):
        kotlin_type = types.write(option, where)
        found = None
        for signature in full:
            java_params = _parameters(signature)
            try:
                decoded = _decoded(kotlin_type, source)
                value = _convert(option, decoded, java_params[index], kotlin_type)
            except _Refused:
                continue
            found = (signature, value, java_params[:index] + java_params[index + 1 :])
            break
        if found is None:
            raise _Refused(f"{where}: no Java overload takes {_shown(option)}")
        signature, value, rest = found
        arguments = _positional(tool, others, rest, kotlin_types)
        arguments.insert(index, value)
        calls.append(_call(shapes, signature, arguments))
    if not param.required:
        before = _bare_params(_parameters(full[0]))[:index]
        shorter = [s for s in tool.java_signatures if _bare_params(_parameters(s)) == before]
        if index != len(positional) - 1 or not shorter:
            raise _Refused(
                f"{where} is optional but positional in Java, and no overload goes without it"
            )
        shorter.sort(key=lambda s: not _has_options(_parameters(s)))
        arguments = _positional(tool, positional[:index], before, kotlin_types)
        calls.insert(0, _call(["null"], shorter[0], arguments))
    dispatch = {
        "field": f"this.{identifier(param.wire_name)}",
        "error": string_literal(
            f"argument {param.wire_name}: expected {describe(param.type)}, got "
        ),
    }
    return calls, dispatch


def _call(shapes: list[str], signature: str, arguments: list[str]) -> dict[str, Any]:
    """One Java call of `execute`: the `jsonShape`s that choose it, its overload, its arguments."""
    return {
        "shapes": ", ".join(string_literal(s) for s in shapes),
        "overload": signature,
        "arguments": arguments,
    }


def _options(
    tool: Tool,
    params: list[ToolParam],
    options: JavaObject | None,
    kotlin_types: dict[str, str],
    types: _Types,
) -> list[dict[str, Any]]:
    """The statements that set the given optional arguments on the Java `*Options`, through the
    setters the IR records; a union argument sets the setter of its member's type (a member no
    setter takes, Python's name for Java's default such as `polling: "raf"`, sets nothing)."""
    found = []
    for param in params:
        if options is None or param.required:
            raise _Refused(
                f"argument {param.wire_name} is neither a Java parameter of "
                f"{_full_overloads(tool)[0]} nor an optional field of its Options"
            )
        where = f"argument {param.wire_name}"
        name = f"this.{identifier(param.wire_name)}"
        kotlin_type = kotlin_types[param.wire_name]
        if _is_union(param.type):
            assert isinstance(param.type, OneOf)
            branches = []
            members = param.type.options
            for option, shapes in zip(members, _shapes(members, where), strict=True):
                member_type = types.write(option, where)
                setter = _setter_for(options, param.wire_name, option)
                if setter is None and not isinstance(option, EnumOf):
                    raise _Refused(f"{where}: no setter of {options.name} takes {_shown(option)}")
                decoded = _decoded(member_type)
                statement = (
                    f"{decoded} // Java's default: nothing to set"
                    if setter is None
                    else f"options.{setter[0]}("
                    f"{_convert(option, decoded, setter[1].java_type, member_type)})"
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
        setter = _setter_for(options, param.wire_name, _bare(param.type))
        if setter is None:
            raise _Refused(f"{where}: no setter of {options.name} takes {_shown(param.type)}")
        method, argument = setter
        statement = _set("options", method, param, name, argument.java_type, kotlin_type)
        found.append({"field": name, "branches": [], "statement": statement, "error": ""})
    return found


def signature(context: dict[str, Any]) -> str:
    """What a Kotlin caller of one shim relies on: its class and constructor, as Kotlin spells
    them (`GeneratedPageClickTool(selector: String, timeout: Double? = null)`); the version-bump
    report calls any change of it breaking (a caller may construct it positionally)."""
    fields = ", ".join(f"{f['name']}: {f['declared']}" for f in context["fields"])
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


def trailblaze_shims(
    tools: tuple[Tool, ...], contexts: list[dict[str, Any]], settings: KotlinSettings
) -> list[dict[str, Any]]:
    """The shims Trailblaze is to register (a descriptor, a toolset entry and a TS entry each):
    all but those of tools the allowlist marks `trailblaze: skip`. A tool named like one of
    Trailblaze's own (at the targeted commit) is an input error unless marked `skip` (Trailblaze's
    tool serves the name) or `replace` (the generated tool takes its place, its class deleted)."""
    api = settings.api
    by_name = {t.name.value: t for t in tools}
    kept = []
    for context in contexts:
        tool = by_name[context["tool"]]
        if tool.trailblaze == "skip":
            continue
        if tool.name.value in api.builtins and tool.trailblaze != "replace":
            raise GeneratorError(
                f"{tool.source}: the tool {tool.name.value} ({tool.target.prefix}.{tool.java_method}) "
                f"has the name of a Trailblaze built-in tool (--trailblaze-api {api.name}); give "
                "its entry 'trailblaze: skip' to leave it out of the Trailblaze output, "
                "'trailblaze: replace' if it takes the built-in's place, or another 'name:'.",
                ExitCode.USER_INPUT,
            )
        kept.append(context)
    return kept
