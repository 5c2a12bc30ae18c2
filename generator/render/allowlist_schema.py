"""A JSON Schema (draft 2020-12) for the allowlist, made from the reflected surface, so an editor
(yaml-language-server) completes and checks an allowlist before the generator runs.

Guarantees: every method the surface report says can be a tool (a tool now, or "not listed") is
one `const` of `method`, with its description (the tool's, else why it is not listed yet);
methods that can never be tools (events, callbacks, refusals) are not offered; the entry flags,
the `playwright:` pin and the `generate:` block (its keys and output kinds) are described by the
same names `allowlist.py` reads, and every text value by the same rule the generator checks it
with (`shared/allowlist_rules.py`); `wireNames` of a method that is a tool now may name only its
parameters. The text is deterministic: keys sorted, methods in report order.
"""

from __future__ import annotations

from typing import Any

from generator.model.ir import Tool
from generator.model.surface_report import SurfaceReport
from generator.read.allowlist import GENERATE_KEYS, GENERATE_RULES, TRAILBLAZE_CHOICES
from generator.read.trailblaze_face import PARAM_TYPES
from generator.render.kotlin.trailblaze_api import APIS
from generator.shared import allowlist_rules as rules
from generator.shared.allowlist_rules import TextRule
from generator.shared.json_text import dumps_indented
from generator.shared.targets import TARGETS

_PREFIX = {target.java_interface: target.prefix for target in TARGETS.values()}
# A description in an editor's completion list: its first paragraph, kept short.
_SHOWN = 300


def _short(text: str) -> str:
    first = text.strip().split("\n\n", 1)[0].replace("\n", " ")
    return first if len(first) <= _SHOWN else first[: _SHOWN - 3].rstrip() + "..."


def _methods(report: SurfaceReport, tools: list[Tool]) -> list[dict[str, str]]:
    described = {(t.target.java_interface, t.java_method): t.description for t in tools}
    choices = []
    for row in report.rows:
        if row.status == "refused" or row.interface not in _PREFIX:
            continue
        description = described.get((row.interface, row.method)) or row.reason
        choices.append(
            {"const": f"{_PREFIX[row.interface]}.{row.method}", "description": _short(description)}
        )
    return choices


def _face_schema() -> dict[str, Any]:
    """The `trailblaze:` mapping, as `read.trailblaze_face` reads it."""
    template = {"type": "string", "minLength": 1}
    whole = {"type": "integer"}
    param = {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": False,
        "properties": {
            "name": rules.WIRE_NAME.schema(),
            "type": {"enum": list(PARAM_TYPES)},
            "description": {"type": "string", "minLength": 1},
            "default": {"type": ["number", "string", "boolean"]},
            "minimum": whole,
            "clamp": {"type": "array", "items": whole, "minItems": 2, "maxItems": 2},
            "scale": {"type": "integer", "minimum": 1},
        },
    }
    flag = {"type": "boolean"}
    return {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": False,
        "properties": {
            "replace": {
                "description": "the Trailblaze built-in tool this one takes the place of",
                **rules.TOOL_NAME.schema(),
            },
            "description": rules.DESCRIPTION.schema(),
            "reasoning": flag,
            "surfaceToLlm": flag,
            "isRecordable": flag,
            "parameters": {"type": "object", "minProperties": 1, "additionalProperties": param},
            "result": template,
            "error": template,
            "belowMinimum": template,
        },
    }


def _described(rule: TextRule, description: str) -> dict[str, Any]:
    return {"description": description, **rule.schema()}


def _wire_names_of_tools(tools: list[Tool]) -> list[dict[str, Any]]:
    """For each tool, the parameters `wireNames` may name (not the locator's `selector`)."""
    clauses = []
    for tool in sorted(tools, key=lambda t: (t.target.prefix, t.java_method)):
        names = [
            n
            for n in tool.playwright_param_names
            if not (tool.target.selector_param and n == "selector")
        ]
        clauses.append(
            {
                "if": {
                    "properties": {"method": {"const": f"{tool.target.prefix}.{tool.java_method}"}},
                    "required": ["method", "wireNames"],
                },
                "then": {"properties": {"wireNames": {"propertyNames": {"enum": names}}}},
            }
        )
    return clauses


def allowlist_schema(
    report: SurfaceReport,
    tools: list[Tool],
    kinds: tuple[str, ...],
    kinds_rule: TextRule,
    generated_by: str,
) -> Any:
    """The schema as a JSON value; `kinds` are the output kinds `generate: outputs` may name and
    `kinds_rule` the rule its text follows, `generated_by` the generated-file notice (its
    `$comment`: JSON has no comment lines)."""
    method = {"description": "<target>.<javaMethod>, exactly as Java spells it"}
    method["oneOf"] = _methods(report, tools)  # type: ignore[assignment]
    entry = {
        "type": "object",
        "additionalProperties": False,
        "required": ["method"],
        "allOf": _wire_names_of_tools(tools),
        "properties": {
            "method": method,
            "name": _described(
                rules.TOOL_NAME, "the tool's name (default: the target's prefix and the method)"
            ),
            "description": _described(
                rules.DESCRIPTION, "the tool's description for models (default: the javadoc)"
            ),
            "surfaceToLlm": {
                "description": "offer the tool to models (Trailblaze's surfaceToLlm)",
                "type": "boolean",
            },
            "isRecordable": {
                "description": "record successful calls into a trail (Trailblaze's isRecordable)",
                "type": "boolean",
            },
            "trailblaze": {
                "description": "skip: no Trailblaze registration for this tool; replace: it takes "
                "the place of Trailblaze's built-in tool of the same name; a mapping: how the "
                "tool looks in Trailblaze (docs/generator.md, Graduating Trailblaze's "
                "hand-written tools)",
                "oneOf": [{"enum": list(TRAILBLAZE_CHOICES)}, _face_schema()],
            },
            "wireNames": {
                "description": "a parameter's JSON key on the wire, by its Playwright name "
                "(wireNames: {expression: script})",
                "type": "object",
                "minProperties": 1,
                "additionalProperties": rules.WIRE_NAME.schema(),
            },
        },
    }
    values: dict[str, Any] = {key: rule.schema() for key, rule in GENERATE_RULES.items()}
    values["outputs"] = {
        "oneOf": [
            kinds_rule.schema(),
            {"const": ["all"]},
            {"type": "array", "minItems": 1, "items": {"enum": list(kinds)}},
        ]
    }
    values["trailblaze-api"] = {"enum": sorted(APIS)}
    generate = {
        "description": "the options that shape the output (the command line overrides each), "
        "or the path of a YAML file holding them",
        "oneOf": [
            rules.RELATIVE_PATH.schema(),
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {key: values[key] for key in GENERATE_KEYS},
            },
        ],
    }
    return {
        "$comment": generated_by,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "allowlist.yaml of the Playwright tool generator",
        "type": "object",
        "additionalProperties": False,
        "required": ["playwright", "tools"],
        "properties": {
            "playwright": _described(
                rules.VERSION, "the Playwright release the tools are generated for"
            ),
            "generate": generate,
            "tools": {
                "type": "array",
                "items": {"oneOf": [method, entry]},
            },
        },
    }


def schema_text(
    report: SurfaceReport,
    tools: list[Tool],
    kinds: tuple[str, ...],
    kinds_rule: TextRule,
    generated_by: str,
) -> str:
    schema = allowlist_schema(report, tools, kinds, kinds_rule, generated_by)
    return dumps_indented(schema, 1) + "\n"
