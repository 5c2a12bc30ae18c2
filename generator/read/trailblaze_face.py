"""An allowlist entry's `trailblaze:` mapping: how its tool looks inside Trailblaze when it takes
the place of one of Trailblaze's hand-written tools (docs/generator.md, "Graduating Trailblaze's
hand-written tools").

    trailblaze:
      replace: web_wait                 # the built-in it takes the place of, and its name there
      reasoning: true                   # Trailblaze's optional `reasoning` argument
      parameters:
        timeout: {name: seconds, type: integer, default: 1, clamp: [1, 30], scale: 1000}
      result: "Waited {seconds} seconds."
      error: "Wait failed: {message}"

Only the Trailblaze output reads it: the Python, TypeScript and YAML outputs keep Playwright's
own tool. What the mapping names of the tool (a parameter, a placeholder) is checked where the
tool is known (`generator.render.kotlin.face`); this module checks its form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from generator.read.yaml_nodes import boolean, known_keys, scalar, string, where
from generator.shared import allowlist_rules as rules
from generator.shared.diagnostics import GeneratorError

FACE_KEYS = (
    "replace",
    "description",
    "reasoning",
    "parameters",
    "result",
    "error",
    "belowMinimum",
    "surfaceToLlm",
    "isRecordable",
)
PARAM_KEYS = ("name", "type", "description", "default", "minimum", "clamp", "scale")
PARAM_TYPES = ("integer", "regex")
# What a message may name besides the tool's arguments (by their Trailblaze names).
RESULT_NAMES = ("result", "page.url")
ERROR_NAMES = ("message", "page.url")
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[a-z]+)?)\}|[{}]")
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_STR = "tag:yaml.org,2002:str"


@dataclass(frozen=True)
class Template:
    """A message with `{name}` placeholders (`{{` and `}}` are literal braces). `parts`
    alternates literal text (even indexes) and placeholder names (odd indexes), so the text is
    rebuilt exactly; `where` is the `file:line:col` of the value."""

    text: str
    parts: tuple[str, ...]
    where: str

    @property
    def names(self) -> tuple[str, ...]:
        return self.parts[1::2]


@dataclass(frozen=True)
class FaceParam:
    """How one Playwright parameter (`playwright`, by the name `wireNames` knows it by) looks in
    Trailblaze: its argument name there, `integer` (a whole number, turned into Playwright's type)
    or `regex` (text compiled as a `java.util.regex.Pattern`, calling Playwright's Pattern
    overload), a description replacing Playwright's, a default making it optional, a minimum
    checked before any call, a clamp and a scale (applied in that order) on the way to
    Playwright. Values are as YAML typed them; `where` is the entry's `file:line:col`."""

    playwright: str
    where: str
    name: str | None = None
    type: str | None = None
    description: str | None = None
    default: int | float | str | bool | None = None
    minimum: int | None = None
    clamp: tuple[int, int] | None = None
    scale: int | None = None


@dataclass(frozen=True)
class TrailblazeFace:
    """The `trailblaze:` mapping of one entry, its form checked. `replace` names the Trailblaze
    built-in the tool takes the place of (and so its name in Trailblaze); None keeps the tool's
    name. `description` replaces the tool's for Trailblaze's model. `reasoning` adds Trailblaze's optional `reasoning` argument. `result` and `error` are
    the messages of a success and a failure (default: the Java result as text; `<tool> failed:
    <message>`); `below_minimum` the failure when an argument is under its `minimum`. The flags,
    when given, replace the entry's for the Trailblaze output only."""

    where: str
    replace: str | None = None
    description: str | None = None
    reasoning: bool = False
    params: tuple[FaceParam, ...] = ()
    result: Template | None = None
    error: Template | None = None
    below_minimum: Template | None = None
    surface_to_llm: bool | None = None
    is_recordable: bool | None = None


def read_face(path: str, node: yaml.MappingNode) -> TrailblazeFace:
    """The `trailblaze:` mapping at `node`; any error is one line naming its place and a fix."""
    fields = known_keys(path, node, FACE_KEYS)
    if not fields:
        raise GeneratorError(
            f"{where(path, node)}: 'trailblaze' is an empty mapping; give it keys such as "
            "'replace: web_wait', or write 'trailblaze: skip' or 'trailblaze: replace'."
        )
    replace = (
        string(path, fields["replace"], "replace", rules.TOOL_NAME) if "replace" in fields else None
    )
    templates = {
        key: _template(path, fields[key], key)
        for key in ("result", "error", "belowMinimum")
        if key in fields
    }
    params = _params(path, fields["parameters"]) if "parameters" in fields else ()
    if "belowMinimum" in templates and not any(p.minimum is not None for p in params):
        raise GeneratorError(
            f"{where(path, fields['belowMinimum'])}: 'belowMinimum' is the message for an argument "
            "under its minimum, but no parameter has a 'minimum'; add one, or leave the message out."
        )
    flags = {
        key: boolean(path, fields[key], key)
        for key in ("reasoning", "surfaceToLlm", "isRecordable")
        if key in fields
    }
    return TrailblazeFace(
        where=where(path, node),
        replace=replace,
        description=string(path, fields["description"], "description", rules.DESCRIPTION)
        if "description" in fields
        else None,
        reasoning=flags.get("reasoning", False),
        params=params,
        result=templates.get("result"),
        error=templates.get("error"),
        below_minimum=templates.get("belowMinimum"),
        surface_to_llm=flags.get("surfaceToLlm"),
        is_recordable=flags.get("isRecordable"),
    )


def _template(path: str, node: yaml.Node, key: str) -> Template:
    text = string(path, node, key)
    parts: list[str] = [""]
    position = 0
    for match in _PLACEHOLDER.finditer(text):
        parts[-1] += text[position : match.start()]
        position = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            parts[-1] += token[0]
        elif match.group(1) is None:
            raise GeneratorError(
                f"{where(path, node)}: '{key}' has a lone '{token}' at character {match.start() + 1}; "
                "write {name} for an argument's value, or {{ and }} for a brace."
            )
        else:
            parts += [match.group(1), ""]
    parts[-1] += text[position:]
    return Template(text, tuple(parts), where(path, node))


def _params(path: str, node: yaml.Node) -> tuple[FaceParam, ...]:
    if not isinstance(node, yaml.MappingNode) or not node.value:
        raise GeneratorError(
            f"{where(path, node)}: 'parameters' must map Playwright parameter names to how "
            "Trailblaze takes them, for example 'parameters: {timeout: {name: seconds, type: integer}}'."
        )
    found: list[FaceParam] = []
    for key_node, value_node in node.value:
        name = scalar(path, key_node, "a parameter name")
        if any(p.playwright == name for p in found):
            raise GeneratorError(
                f"{where(path, key_node)}: parameters.{name} is given twice; keep one."
            )
        if not isinstance(value_node, yaml.MappingNode) or not value_node.value:
            raise GeneratorError(
                f"{where(path, value_node)}: parameters.{name} must be a mapping with keys among "
                f"{', '.join(PARAM_KEYS)}, for example '{{name: seconds, type: integer}}'."
            )
        found.append(_param(path, name, value_node))
    return tuple(found)


def _param(path: str, name: str, node: yaml.MappingNode) -> FaceParam:
    fields = known_keys(path, node, PARAM_KEYS)
    at = f"parameters.{name}"
    kind = string(path, fields["type"], f"{at}.type") if "type" in fields else None
    if kind is not None and kind not in PARAM_TYPES:
        raise GeneratorError(
            f"{where(path, fields['type'])}: {at}.type must be integer (a whole number) or regex "
            "(text compiled as a Java Pattern)."
        )
    numeric = {
        key: _whole(path, fields[key], f"{at}.{key}")
        for key in ("minimum", "scale")
        if key in fields
    }
    if numeric.get("scale", 1) < 1:
        raise GeneratorError(f"{where(path, fields['scale'])}: {at}.scale must be 1 or more.")
    clamp = _clamp(path, fields["clamp"], f"{at}.clamp") if "clamp" in fields else None
    if kind == "regex" and (clamp or "scale" in numeric or "minimum" in numeric):
        raise GeneratorError(
            f"{where(path, node)}: {at} is a regex; clamp, scale and minimum are for numbers."
        )
    default = _default(path, fields["default"], f"{at}.default") if "default" in fields else None
    if (
        kind == "integer"
        and default is not None
        and (isinstance(default, bool) or not isinstance(default, int))
    ):
        raise GeneratorError(
            f"{where(path, fields['default'])}: {at}.default must be a whole number, as its type is integer."
        )
    return FaceParam(
        playwright=name,
        where=where(path, node),
        name=string(path, fields["name"], f"{at}.name", rules.WIRE_NAME)
        if "name" in fields
        else None,
        type=kind,
        description=string(path, fields["description"], f"{at}.description")
        if "description" in fields
        else None,
        default=default,
        minimum=numeric.get("minimum"),
        clamp=clamp,
        scale=numeric.get("scale"),
    )


def _whole(path: str, node: yaml.Node, key: str) -> int:
    if not isinstance(node, yaml.ScalarNode) or node.tag != _INT:
        raise GeneratorError(f"{where(path, node)}: '{key}' must be a whole number.")
    value: int = yaml.safe_load(yaml.serialize(node))
    return value


def _clamp(path: str, node: yaml.Node, key: str) -> tuple[int, int]:
    if not isinstance(node, yaml.SequenceNode) or len(node.value) != 2:
        raise GeneratorError(
            f"{where(path, node)}: '{key}' must be [lowest, highest], for example [1, 30]."
        )
    low, high = (_whole(path, n, key) for n in node.value)
    if low > high:
        raise GeneratorError(
            f"{where(path, node)}: '{key}' is [{low}, {high}]; the lowest comes first."
        )
    return low, high


def _default(path: str, node: yaml.Node, key: str) -> int | float | str | bool:
    if not isinstance(node, yaml.ScalarNode) or node.tag not in (_INT, _FLOAT, _BOOL, _STR):
        raise GeneratorError(f"{where(path, node)}: '{key}' must be a number, true, false or text.")
    value: int | float | str | bool = yaml.safe_load(yaml.serialize(node))
    return value
