"""Converts between JSON and what Playwright's Python API takes or returns where the two differ:
base64 strings marked `contentEncoding: base64` in a tool's schema become bytes on the way in,
JavaScript values that Python playwright decodes into non-JSON objects become JSON on the way out,
and a Locator or FrameLocator result becomes its selector handle.
"""

from __future__ import annotations

import base64
import datetime
import math
from collections.abc import Mapping
from typing import Any
from urllib.parse import ParseResult

from playwright_tools._types import JsonValue
from playwright_tools._validate import ToolError, matches


def decode_base64(value: object, parameters: Mapping[str, object], name: str) -> object:
    """`value` of argument `name`, with every base64 string the schema marks decoded to bytes."""
    properties = parameters.get("properties")
    assert isinstance(properties, Mapping)
    return _decode(value, properties[name])


def to_json(value: object) -> JsonValue:
    """A value from `evaluate` and the like as JSON, by the rules of JavaScript's JSON.stringify:
    a Date becomes its ISO string, a URL its href, NaN and the infinities null; an Error becomes
    {name, message}."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime.datetime):
        utc = value.astimezone(datetime.UTC) if value.tzinfo else value
        return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
    if isinstance(value, ParseResult):
        return value.geturl()
    if isinstance(value, BaseException):
        return {"name": type(value).__name__, "message": str(value)}
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return str(value)


# Playwright's own spelling (playwright._impl._locator.ANY_FRAME_SELECTOR, 1.63 on): copied, since
# the shims import nothing private from playwright.
_ANY_FRAME = "internal:control=any-frame"


def selector_handle(value: object) -> str:
    """The selector string a Locator or FrameLocator stands for, which `page.locator()` turns back
    into the same locator: what a tool returns in place of the live object, so that every
    `selector` parameter accepts it and locators chain across calls.

    Both are read from Playwright's implementation object (the same under the sync and the async
    API): a Locator keeps its whole chain in `_selector`; a FrameLocator keeps the frame's
    selector, which is entered with Playwright's `internal:control=enter-frame` step, as its own
    `locator()` does. A frame locator made without a selector (any frame on the page, from
    1.63) has no frame element to enter: its `locator()` chains onto the any-frame step alone,
    and so does its handle (Playwright refuses a chain that enters a frame from there)."""
    impl = getattr(value, "_impl_obj", value)
    frame_selector = getattr(impl, "_frame_selector", None)
    if isinstance(frame_selector, str):
        if frame_selector == _ANY_FRAME:
            return frame_selector
        return f"{frame_selector} >> internal:control=enter-frame"
    selector = getattr(impl, "_selector", None)
    if isinstance(selector, str):
        return selector
    # Only a Playwright release that renamed these fields gets here; the browser rows catch it.
    raise TypeError(f"{type(value).__name__} has no selector: unsupported Playwright version")


def _decode(value: object, schema: object) -> object:
    if not isinstance(schema, Mapping):
        return value
    if schema.get("contentEncoding") == "base64" and isinstance(value, str):
        return base64.b64decode(value, validate=True)
    options = schema.get("anyOf")
    if isinstance(options, list):
        chosen = next((o for o in options if isinstance(o, Mapping) and matches(value, o)), None)
        return _decode(value, chosen)
    items = schema.get("items")
    if isinstance(value, list) and items is not None:
        return [_decode(item, items) for item in value]
    properties = schema.get("properties")
    if isinstance(value, dict) and isinstance(properties, Mapping):
        return {key: _decode(item, properties.get(key)) for key, item in value.items()}
    return value


def spread(
    tool: str, name: str, value: object, plain: str, keys: Mapping[str, str]
) -> dict[str, Any]:
    """Keyword arguments for argument `name`, which is a value, an object, or a list of either:
    each object gives its one key's value to that key's keyword (`keys`), other values go to the
    keyword `plain`; a list collects a list per keyword.

    Raises ToolError (`invalid_argument`) for an object without exactly one key: Playwright matches
    every key of one object together, which its Python keywords cannot say.
    """
    items = value if isinstance(value, list) else [value]
    found: dict[str, list[object]] = {}
    for index, item in enumerate(items):
        if isinstance(item, Mapping):
            if len(item) != 1:
                path = f"{name}[{index}]" if isinstance(value, list) else name
                one_of = ", ".join(keys)
                raise ToolError(tool, "invalid_argument", f"give exactly one of {one_of}", path)
            ((key, item),) = item.items()
            found.setdefault(keys[key], []).append(item)
        else:
            found.setdefault(plain, []).append(item)
    if isinstance(value, list):
        return dict(found)
    return {keyword: values[0] for keyword, values in found.items()}
