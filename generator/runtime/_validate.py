"""Checks tool arguments against a tool's JSON Schema before anything touches the browser. It
understands every keyword the generator and the host's own descriptors use: `type`, `enum`,
`properties`, `required`, `additionalProperties`, `items`, `anyOf`, `contentEncoding` (base64),
`minimum`, `maximum`, `minItems`, `maxItems`, `minLength` and `maxLength` (annotations such as
`description` and `title` check nothing).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import cast

from playwright_tools._types import JsonValue

_TYPES = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
    "null": (type(None),),
}


class ToolError(Exception):
    """A tool call that failed; `code` is machine-readable, `path` locates the bad argument."""

    def __init__(self, tool: str, code: str, message: str, path: str = "") -> None:
        where = f" at '{path}'" if path else ""
        super().__init__(f"{tool}: {message}{where}")
        self.tool = tool
        self.code = code
        self.path = path
        self.detail = message

    def to_json(self) -> dict[str, JsonValue]:
        return {"tool": self.tool, "code": self.code, "path": self.path, "message": self.detail}


def _type_ok(value: object, expected: str) -> bool:
    if isinstance(value, bool) and expected in ("integer", "number"):
        return False
    if expected == "integer" and isinstance(value, float):
        return value.is_integer()
    if expected == "number" and isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    return isinstance(value, _TYPES[expected])


def check(tool: str, value: object, schema: Mapping[str, JsonValue], path: str) -> None:
    """Raise ToolError (code `invalid_argument`) naming `path` if `value` does not match `schema`."""
    options = schema.get("anyOf")
    if isinstance(options, list):
        _check_any_of(tool, value, cast(list[dict[str, JsonValue]], options), path)
        return
    expected = schema.get("type")
    if isinstance(expected, str) and not _type_ok(value, expected):
        raise ToolError(
            tool, "invalid_argument", f"expected {expected}, got {type(value).__name__}", path
        )
    if schema.get("contentEncoding") == "base64" and isinstance(value, str):
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ToolError(tool, "invalid_argument", "expected base64 text", path) from None
    allowed = schema.get("enum")
    if isinstance(allowed, list) and value not in allowed:
        raise ToolError(tool, "invalid_argument", f"expected one of {allowed}, got {value!r}", path)
    _check_bounds(tool, value, schema, path)
    if isinstance(value, dict):
        _check_object(tool, value, schema, path)
    items = schema.get("items")
    if isinstance(value, list | tuple) and isinstance(items, dict):
        for index, item in enumerate(value):
            check(tool, item, items, f"{path}[{index}]")


def _check_bounds(tool: str, value: object, schema: Mapping[str, JsonValue], path: str) -> None:
    """`minimum`/`maximum` of numbers, `minItems`/`maxItems` of lists, `minLength`/`maxLength`
    of text; the message names the bound."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        if isinstance(low, int | float) and value < low:
            raise ToolError(tool, "invalid_argument", f"must be at least {low}, got {value}", path)
        if isinstance(high, int | float) and value > high:
            raise ToolError(tool, "invalid_argument", f"must be at most {high}, got {value}", path)
    elif isinstance(value, list | tuple):
        _check_size(tool, len(value), schema, "minItems", "maxItems", "items", path)
    elif isinstance(value, str):
        _check_size(tool, len(value), schema, "minLength", "maxLength", "characters", path)


def _check_size(
    tool: str,
    size: int,
    schema: Mapping[str, JsonValue],
    low_key: str,
    high_key: str,
    unit: str,
    path: str,
) -> None:
    low, high = schema.get(low_key), schema.get(high_key)
    if isinstance(low, int) and size < low:
        raise ToolError(tool, "invalid_argument", f"needs at least {low} {unit}, got {size}", path)
    if isinstance(high, int) and size > high:
        raise ToolError(tool, "invalid_argument", f"takes at most {high} {unit}, got {size}", path)


def matches(value: object, schema: Mapping[str, object]) -> bool:
    """Whether `value` passes `schema` (used to pick the member of an anyOf)."""
    try:
        check("", value, cast(Mapping[str, JsonValue], schema), "")
    except ToolError:
        return False
    return True


def _check_any_of(tool: str, value: object, options: list[dict[str, JsonValue]], path: str) -> None:
    errors = []
    for option in options:
        try:
            check(tool, value, option, path)
            return
        except ToolError as error:
            errors.append(error)
    # The member that got furthest into the value names the real problem (files[1].buffer).
    deepest = max(errors, key=lambda e: len(e.path))
    if deepest.path != path:
        raise deepest
    details = "; ".join(e.detail for e in errors)
    raise ToolError(tool, "invalid_argument", f"matches none of: {details}", path)


def _check_object(
    tool: str, value: dict[object, object], schema: Mapping[str, JsonValue], path: str
) -> None:
    properties = cast(dict[str, dict[str, JsonValue]], schema.get("properties", {}))
    required = cast(list[str], schema.get("required", []))
    extra = schema.get("additionalProperties", True)
    prefix = f"{path}." if path else ""
    for name in required:
        if name not in value:
            raise ToolError(tool, "missing_argument", "required argument is missing", prefix + name)
    for key, item in value.items():
        if not isinstance(key, str):
            raise ToolError(tool, "invalid_argument", "object keys must be strings", path)
        if key in properties:
            check(tool, item, properties[key], prefix + key)
        elif extra is False:
            raise ToolError(tool, "unknown_argument", "unknown argument", prefix + key)
        elif isinstance(extra, dict):
            check(tool, item, extra, prefix + key)
