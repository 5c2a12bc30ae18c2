"""Validation of the action payload: a strict parse into frozen values, or the exact field at fault."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from host.executor.errors import ExecutorError
from host.executor.redaction import whitespace_only
from host.executor.settings import ExecutorSettings

SubmitKind = Literal["click", "submit"]


@dataclass(frozen=True)
class FieldSpec:
    """One field to fill like `locator.fill`; with `redact`, `value` is never emitted."""

    selector: str
    value: str
    redact: bool = False


@dataclass(frozen=True)
class SubmitSpec:
    """How to submit: click `selector`, or call `requestSubmit()` on the form it references."""

    selector: str
    kind: SubmitKind = "click"
    wait_after_ms: int = 0


@dataclass(frozen=True)
class Action:
    """A validated action. Guarantees: every string is within the settings' limits and holds no
    NUL character; `url` is not yet checked against the URL policy (`urlpolicy` does that)."""

    url: str
    fields: tuple[FieldSpec, ...] = ()
    submit: SubmitSpec | None = None
    snapshot_selector: str | None = None
    timeout_ms: int = 30_000

    @property
    def secrets(self) -> list[str]:
        return [f.value for f in self.fields if f.redact and f.value]


class PayloadError(ExecutorError):
    """`invalid_payload` at `path` (`$` is the whole body); the message never quotes a value."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__("invalid_payload", message, path=path)


def _reject_constant(name: str) -> object:
    raise PayloadError("$", f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    # A duplicate key is refused: with two `redact` keys, which one wins would be a parser detail.
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise PayloadError("$", f"the key {json.dumps(key[:64])} appears twice in one object")
        result[key] = value
    return result


def decode_json(body: bytes) -> object:
    """The body as JSON; anything else is `invalid_payload` at `$`."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise PayloadError("$", "the body is not UTF-8") from None
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except PayloadError:
        raise
    except RecursionError:
        raise PayloadError("$", "the body nests too deeply") from None
    except ValueError as error:
        line = getattr(error, "lineno", "?")
        column = getattr(error, "colno", "?")
        raise PayloadError(
            "$", f"the body is not valid JSON (line {line}, column {column})"
        ) from None


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class _Reader:
    def __init__(self, settings: ExecutorSettings) -> None:
        self.s = settings

    def obj(self, value: object, path: str, allowed: tuple[str, ...]) -> dict[str, object]:
        if not isinstance(value, dict):
            raise PayloadError(path, f"expected an object, got {_type_name(value)}")
        for key in value:
            if key not in allowed:
                where = f"{path}.{key}" if path != "$" else key
                raise PayloadError(where, f"unknown field; allowed: {', '.join(allowed)}")
        return value

    def string(self, value: object, path: str, limit: int, *, empty: bool = False) -> str:
        if not isinstance(value, str):
            raise PayloadError(path, f"expected a string, got {_type_name(value)}")
        if not value and not empty:
            raise PayloadError(path, "must not be empty")
        if len(value) > limit:
            raise PayloadError(path, f"longer than {limit} characters")
        if "\x00" in value:
            raise PayloadError(path, "contains a NUL character")
        return value

    def integer(self, value: object, path: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PayloadError(path, f"expected an integer, got {_type_name(value)}")
        if isinstance(value, float) and not value.is_integer():
            raise PayloadError(path, "expected an integer")
        if not low <= value <= high:
            raise PayloadError(path, f"must be between {low} and {high}")
        return int(value)

    def boolean(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            raise PayloadError(path, f"expected true or false, got {_type_name(value)}")
        return value


def parse_action(body: bytes, settings: ExecutorSettings) -> Action:
    """Decode and validate a payload; raises `PayloadError` naming the first field at fault."""
    if len(body) > settings.max_body_bytes:
        raise ExecutorError(
            "payload_too_large", f"the body is larger than {settings.max_body_bytes} bytes"
        )
    return validate_action(decode_json(body), settings)


def validate_action(data: object, settings: ExecutorSettings) -> Action:
    """Validate decoded JSON (see `parse_action`)."""
    r = _Reader(settings)
    root = r.obj(data, "$", ("url", "fields", "submit", "snapshot_selector", "timeout_ms"))
    if "url" not in root:
        raise PayloadError("url", "required")
    url = r.string(root["url"], "url", settings.max_url_chars)

    fields: list[FieldSpec] = []
    raw_fields = root.get("fields", [])
    if not isinstance(raw_fields, list):
        raise PayloadError("fields", f"expected an array, got {_type_name(raw_fields)}")
    if len(raw_fields) > settings.max_fields:
        raise PayloadError("fields", f"more than {settings.max_fields} fields")
    for index, raw in enumerate(raw_fields):
        path = f"fields[{index}]"
        item = r.obj(raw, path, ("selector", "value", "redact"))
        for key in ("selector", "value"):
            if key not in item:
                raise PayloadError(f"{path}.{key}", "required")
        selector = r.string(item["selector"], f"{path}.selector", settings.max_selector_chars)
        value = r.string(item["value"], f"{path}.value", settings.max_value_chars, empty=True)
        redact = r.boolean(item["redact"], f"{path}.redact") if "redact" in item else False
        if redact and len(value) > settings.max_redact_chars:
            raise PayloadError(
                f"{path}.value",
                f"a redacted value may be at most {settings.max_redact_chars} characters long"
                " (every spelling of it is searched for in what the service returns and logs);"
                " send a shorter value, or leave redact off",
            )
        if redact and whitespace_only(value):
            raise PayloadError(
                f"{path}.value",
                "a redacted value made only of whitespace (or of +, a form's space) cannot be"
                " redacted without redacting every space (pages fold any whitespace into one);"
                " send the value without redact, or a value with other characters",
            )
        fields.append(FieldSpec(selector=selector, value=value, redact=redact))

    submit: SubmitSpec | None = None
    raw_submit = root.get("submit")
    if raw_submit is not None:
        item = r.obj(raw_submit, "submit", ("selector", "kind", "wait_after_ms"))
        if "selector" not in item:
            raise PayloadError("submit.selector", "required")
        kind = item.get("kind", "click")
        if kind not in ("click", "submit"):
            raise PayloadError("submit.kind", 'must be "click" or "submit"')
        submit = SubmitSpec(
            selector=r.string(item["selector"], "submit.selector", settings.max_selector_chars),
            kind="submit" if kind == "submit" else "click",
            wait_after_ms=r.integer(
                item.get("wait_after_ms", 0), "submit.wait_after_ms", 0, settings.max_wait_after_ms
            ),
        )

    snapshot: str | None = None
    if root.get("snapshot_selector") is not None:
        snapshot = r.string(
            root["snapshot_selector"], "snapshot_selector", settings.max_selector_chars
        )
    timeout_ms = settings.default_timeout_ms
    if "timeout_ms" in root:
        timeout_ms = r.integer(root["timeout_ms"], "timeout_ms", 500, settings.max_timeout_ms)
    return Action(
        url=url,
        fields=tuple(fields),
        submit=submit,
        snapshot_selector=snapshot,
        timeout_ms=timeout_ms,
    )
