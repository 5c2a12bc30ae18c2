"""A tool's Trailblaze face (the allowlist's `trailblaze:` mapping, `read.trailblaze_face`) applied
to its Kotlin shim: the name of the built-in it replaces, arguments renamed, whole numbers, regex
text, defaults, a minimum checked before any call, a clamp and a scale on the way to Playwright,
Trailblaze's optional `reasoning`, and the success and failure messages.

The shim's Java call is written for Playwright's parameters as they are; the face only adds, at
the top of `callPlaywright`, one local per changed parameter that turns the Trailblaze argument
into Playwright's value under Playwright's name (`val timeout: Double = (seconds.coerceIn(1L,
30L) * 1000L).toDouble()`). Whatever the face names that the tool does not have is an input error
naming the allowlist line.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from generator.model.ir import Tool, ToolParam
from generator.model.type_tree import Nullable, Scalar, TypeNode
from generator.read.trailblaze_face import (
    ERROR_NAMES,
    RESULT_NAMES,
    FaceParam,
    Template,
)
from generator.render.kotlin.calls import parameters
from generator.render.kotlin.settings import KotlinSettings
from generator.render.kotlin.text import (
    class_name_of,
    field_annotations,
    identifier,
    llm_description,
    simple,
    string_literal,
)
from generator.render.kotlin.trailblaze_api import APIS
from generator.shared.diagnostics import ExitCode, GeneratorError

PATTERN = "java.util.regex.Pattern"
_NUMBERS = {"Int": ".toInt()", "Double": ".toDouble()", "Long": ""}


def _refuse(where: str, text: str) -> GeneratorError:
    return GeneratorError(f"{where}: {text}", ExitCode.USER_INPUT)


def apply_face(tool: Tool, context: dict[str, Any], settings: KotlinSettings) -> None:
    """Change `context` (the shim's template context) to the tool's Trailblaze face, if it has one."""
    face = tool.trailblaze_face
    if face is None:
        return
    api = settings.api
    if face.replace is not None:
        # A built-in of a later release only (web_resize at 2026.05.19) clashes with nothing
        # there: the tool is added under that name. A name no release has is a mistake.
        if not any(face.replace in known.builtins for known in APIS.values()):
            raise _refuse(
                face.where,
                f"replace: {face.replace} is not a Trailblaze built-in tool (--trailblaze-api "
                f"{api.name}, nor any other this generator knows); name one of its tools, or "
                f"leave 'replace' out to keep the name {tool.name.value}.",
            )
        context["tool"] = face.replace
        context["tool_name"] = string_literal(face.replace)
        old, new = context["class_name"], class_name_of(face.replace)
        context["class_name"] = new
        for enum in context["enums"]:
            enum["serial_name"] = enum["serial_name"].replace(f".{old}.", f".{new}.")
    if face.description is not None:
        context["kdoc"] = llm_description(face.description, "")
    if face.surface_to_llm is not None:
        context["surface_to_llm"] = "true" if face.surface_to_llm else "false"
    if face.is_recordable is not None:
        context["is_recordable"] = "true" if face.is_recordable else "false"
    by_playwright = dict(zip(tool.playwright_param_names, tool.params, strict=True))
    values: dict[str, str] = {}  # Trailblaze argument name -> the Kotlin text of its value
    prologue: list[str] = []
    below: list[str] = []
    for field, param in zip(context["fields"], tool.params, strict=True):
        values[param.wire_name] = field["name"]
    for fp in face.params:
        if fp.playwright not in by_playwright:
            raise _refuse(
                fp.where,
                f"parameters.{fp.playwright}: {tool.java_reference} has no parameter of that "
                f"name; its parameters are {', '.join(tool.playwright_param_names) or 'none'}.",
            )
        param = by_playwright[fp.playwright]
        index = tool.params.index(param)
        field = context["fields"][index]
        nullable = field["declared"].split(" = ")[0].endswith("?") and fp.default is None
        local, statement = _field(tool, fp, param, field, context)
        values.pop(param.wire_name)
        values[fp.name or param.wire_name] = local
        if statement:
            prologue.append(statement)
            _use_local(context, identifier(param.wire_name))
        if fp.minimum is not None:
            name = identifier(fp.name or param.wire_name)
            guard = f"{name} < {fp.minimum}{_suffix(field['type'])}"
            below.append(f"({name} != null && {guard})" if nullable else guard)
    names = [f["name"] for f in context["fields"]]
    if face.reasoning:
        if "reasoning" in names:
            raise _refuse(face.where, "reasoning: the tool already has an argument 'reasoning'.")
        context["fields"].append(
            {
                "name": "reasoning",
                "type": "String",
                "declared": "String? = null",
                "kdoc": "",
                "override": True,
            }
        )
        context["interface"] += f", {simple(api.reasoning)}"
        context["imports"] = sorted({*context["imports"], api.reasoning})
        values["reasoning"] = "reasoning"
    if len(set(names)) != len(names):
        raise _refuse(face.where, f"two arguments of {context['tool']} would have one name.")
    if below and face.below_minimum is None:
        raise _refuse(
            face.where,
            "a parameter has a minimum; give 'belowMinimum', the message of a call under it.",
        )
    context["face"] = {
        "prologue": prologue,
        "guard": " || ".join(below),
        "below_minimum": _message(face.below_minimum, values, ("page.url",))
        if face.below_minimum
        else "",
        "uses_result": face.result is None or "result" in face.result.names,
        "success": _message(face.result, values, RESULT_NAMES)
        if face.result
        else "resultText(value)",
        "failure": _message(face.error, values, ERROR_NAMES)
        if face.error
        else string_literal(f"{context['tool']} failed: ").removesuffix('"') + '${e.message}"',
    }


def _field(
    tool: Tool, fp: FaceParam, param: ToolParam, field: dict[str, Any], context: dict[str, Any]
) -> tuple[str, str]:
    """Change `field` (a shim property) to `fp`; the Kotlin value of the argument in messages,
    and the statement giving Playwright's value under Playwright's name ("" when the property
    is Playwright's value as it is)."""
    where = f"{fp.where}: parameters.{fp.playwright}"
    playwright_type = field["declared"].split(" = ")[0]
    base = playwright_type.removesuffix("?")
    inner = param.type.inner if isinstance(param.type, Nullable) else param.type
    if fp.type == "integer":
        if not (isinstance(inner, Scalar) and inner.kind in ("integer", "number")):
            raise _refuse(where, f"type: integer is for a number; {param.wire_name} is not one.")
        base_new = "Long"
    elif fp.type == "regex":
        if not (isinstance(inner, Scalar) and inner.kind == "string"):
            raise _refuse(where, f"type: regex is for text; {param.wire_name} is not text.")
        base_new = "String"
    else:
        base_new = base
    if (fp.clamp or fp.scale or fp.minimum is not None) and base_new not in _NUMBERS:
        raise _refuse(where, "clamp, scale and minimum are for numbers; give it 'type: integer'.")
    if fp.scale and not fp.description:
        raise _refuse(
            where,
            "it has a scale, so Playwright's description (in Playwright's unit) would mislead; "
            f"give parameters.{fp.playwright}.description.",
        )
    name = identifier(fp.name or param.wire_name)
    if fp.default is not None:
        declared = f"{base_new} = {_literal(fp.default, base_new, where)}"
        nullable = False
    else:
        nullable = playwright_type.endswith("?")
        declared = (
            field["declared"].replace(base, base_new, 1) if base_new != base else field["declared"]
        )
    description = fp.description if fp.description is not None else param.description
    shown = dataclasses.replace(param, description=description, type=_shown_type(fp, param.type))
    field.update(name=name, type=base_new, declared=declared, kdoc=field_annotations(shown, "    "))
    value = f"this.{name}"
    changed = fp.name is not None and fp.name != param.wire_name
    steps = ""
    if fp.clamp:
        low, high = fp.clamp
        steps += f".coerceIn({low}{_suffix(base_new)}, {high}{_suffix(base_new)})"
    shown_value = f"{name}{steps}" if not nullable else f"{name}?{steps}"
    if fp.scale:
        steps = f"({'it' if nullable else value}{steps} * {fp.scale}{_suffix(base_new)})"
    elif steps:
        steps = f"{'it' if nullable else value}{steps}"
    if fp.type == "regex":
        steps = f"{PATTERN}.compile({'it' if nullable else value})"
        _pattern_overload(tool, param, context, where)
        playwright_type = PATTERN + ("?" if nullable else "")
    elif base_new != base:
        steps = f"{steps or ('it' if nullable else value)}{_NUMBERS[base]}"
    if not steps and not changed and fp.default is None:
        return shown_value, ""
    expression = steps or value
    if nullable and steps:
        expression = f"{value}?.let {{ {steps} }}"
    return shown_value, f"val {identifier(param.wire_name)}: {playwright_type} = {expression}"


def _shown_type(fp: FaceParam, node: TypeNode) -> TypeNode:
    return Scalar("integer") if fp.type == "integer" else node


def _suffix(kotlin_type: str) -> str:
    """What makes a whole number a literal of `kotlin_type` (`30L`, `30.0`, `30`)."""
    return "L" if kotlin_type == "Long" else (".0" if kotlin_type == "Double" else "")


def _literal(value: object, kotlin_type: str, where: str) -> str:
    if kotlin_type == "String" and isinstance(value, str):
        return string_literal(value)
    if kotlin_type == "Boolean" and isinstance(value, bool):
        return "true" if value else "false"
    if kotlin_type in ("Int", "Long") and isinstance(value, int) and not isinstance(value, bool):
        return f"{value}{_suffix(kotlin_type)}"
    if kotlin_type == "Double" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(float(value))
    raise _refuse(where, f"default: {value!r} is not a {kotlin_type}, the argument's type.")


def _pattern_overload(tool: Tool, param: ToolParam, context: dict[str, Any], where: str) -> None:
    """Point the call at the overload taking a Pattern where the String is (an input error if
    Playwright has none, or the shim picks among overloads by the JSON's shape)."""
    if context["dispatch"] is not None or len(context["calls"]) != 1:
        raise _refuse(where, "type: regex needs a tool with one Java call.")
    call = context["calls"][0]
    types = parameters(call["overload"])
    arguments = [a.strip() for a in call["arguments"].split(",")] if call["arguments"] else []
    reference = f"this.{identifier(param.wire_name)}"
    if reference not in arguments:
        raise _refuse(
            where, "type: regex is for an argument of the Java call itself, not an option."
        )
    index = arguments.index(reference)
    wanted = [*types[:index], "Pattern", *types[index + 1 :]]
    for signature in tool.java_pattern_overloads:
        if parameters(signature) == wanted:
            call["overload"] = signature
            context["overload"] = signature
            return
    raise _refuse(
        where,
        f"type: regex: {tool.java_reference} has no overload taking a Pattern there "
        f"({', '.join(tool.java_pattern_overloads) or 'none takes a Pattern'}).",
    )


def _use_local(context: dict[str, Any], name: str) -> None:
    """Make the Java call and the options read the local `name` (Playwright's value) where they
    read the property `this.name`."""
    reference = re.compile(rf"\bthis\.{re.escape(name)}\b")
    for call in context["calls"]:
        call["arguments"] = reference.sub(name, call["arguments"])
    for option in context["options"]:
        if "statement" in option:
            option["statement"] = reference.sub(name, option["statement"])
        for branch in option.get("branches") or ():
            branch["statement"] = reference.sub(name, branch["statement"])


def _message(template: Template, values: dict[str, str], extra: tuple[str, ...]) -> str:
    """The Kotlin string template of `template`: literal text escaped, each `{name}` the value."""
    known = {
        **values,
        "message": "e.message",
        "result": "resultText(value)",
        "page.url": "page.url()",
    }
    allowed = [*values, *extra]
    out = '"'
    for i, part in enumerate(template.parts):
        if i % 2 == 0:
            out += string_literal(part)[1:-1]
            continue
        if part not in allowed:
            raise _refuse(
                template.where,
                f"{{{part}}} is not something this message can name; it can name "
                + ", ".join("{" + a + "}" for a in allowed)
                + ".",
            )
        out += "${" + known[part] + "}"
    return out + '"'
