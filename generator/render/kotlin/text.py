"""Kotlin text: identifiers, string literals, KDoc and koog's `@LLMDescription`, each safe for
any value (a keyword is backticked, `$` and comment ends are escaped)."""

from __future__ import annotations

from generator.model.ir import Tool, ToolParam
from generator.model.type_tree import AnyJson, Field
from generator.render.kotlin.settings import KEYWORDS


def identifier(name: str) -> str:
    """`name` as a Kotlin identifier: a keyword in backticks (`` `object` ``)."""
    return f"`{name}`" if name in KEYWORDS else name


def class_name(tool: Tool) -> str:
    """`web_context_setOffline` -> `GeneratedContextSetOfflineTool`."""
    return class_name_of(tool.name.value)


def class_name_of(tool_name: str) -> str:
    """The shim class of a tool named `tool_name` (see `class_name`)."""
    stem = tool_name.removeprefix("web_")
    return "Generated" + "".join(p[:1].upper() + p[1:] for p in stem.split("_") if p) + "Tool"


def string_literal(text: str) -> str:
    """A Kotlin string literal of `text` (no templates: `$` is escaped)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
    escaped = escaped.replace("\n", "\\n")
    escaped = "".join(ch if ord(ch) >= 0x20 else f"\\u{ord(ch):04x}" for ch in escaped)
    return f'"{escaped}"'


def kdoc(text: str, indent: str) -> str:
    """A KDoc block of `text` at `indent` (nothing when `text` is blank); a comment's start or
    end inside it, or a control character, cannot end or break it."""
    text = text.strip()
    if not text:
        return ""
    safe = text.replace("*/", "*\\/").replace("/*", "/\\*")
    safe = "".join(ch if ch in "\n" or ord(ch) >= 0x20 else " " for ch in safe)
    body = "\n".join(f"{indent} *{' ' + line if line else ''}" for line in safe.splitlines())
    return f"{indent}/**\n{body}\n{indent} */\n"


def field_annotations(
    param: ToolParam | Field, indent: str, json_text_note: str = "", target: str = "param:"
) -> str:
    """A field's annotations: koog's `@param:LLMDescription` of its description (what Trailblaze
    shows a model: on the constructor parameter for a tool's own arguments, which Trailblaze reads
    from the primary constructor, and on the property for an object's fields, which it reads from
    the class's properties), for the JSON escape hatch a KDoc saying what it holds, and for a property
    declared as JSON text the note saying so (in the description) and its serializer."""
    hatch = ""
    if isinstance(param.type, AnyJson) and not json_text_note:
        hatch = kdoc(
            "Any JSON value (a JsonElement): `jsonToJava` hands it to Java as plain values.", indent
        )
    description = " ".join(t for t in (param.description.strip(), json_text_note) if t)
    serializer = (
        f"{indent}@Serializable(with = JsonTextSerializer::class)\n" if json_text_note else ""
    )
    return hatch + llm_description(description, indent, target) + serializer


def llm_description(text: str, indent: str, target: str = "") -> str:
    """koog's `@LLMDescription` of `text` on its own line (nothing when `text` is blank)."""
    text = text.strip()
    if not text:
        return ""
    return f"{indent}@{target}LLMDescription({string_literal(text)})\n"


def simple(qualified: str) -> str:
    """`a.b.C` -> `C`."""
    return qualified.rsplit(".", 1)[-1]
