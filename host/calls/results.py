"""What one tool call produced, in the form every transport renders from."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from host.settings.limits import json_safe
from host.shared.descriptors import ToolDescriptor
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


class Rendered(dict):  # type: ignore[type-arg]
    """A tool's JSON object result plus `text`, the way a model should read it (MCP text content).

    Guarantees: the dict is the structured result (JSON); `text` says the same in a few lines.
    With `spread`, the dict's keys stand at the top of the structured content (no `result`
    wrapper): `playwright_execute`'s `{success, result, stdout, stderr, error}`.
    """

    def __init__(self, value: JsonObject, text: str, *, spread: bool = False) -> None:
        super().__init__(value)
        self.text = text
        self.spread = spread


class Image(str):
    """A base64 image result; transports show it as image content of type `mime`."""

    mime = "image/png"

    def __new__(cls, data: str, mime: str = "image/png") -> Image:
        image = super().__new__(cls, data)
        image.mime = mime
        return image


@dataclass
class ToolOutcome:
    """The outcome of one call: a value or an error, plus what happened around it.

    Guarantees: exactly one of `error` and success (`ok`); `extras` holds session news a caller
    must not miss (`session` restarted or ended, `dialogs` still open, `notes` such as tabs opened,
    tabs crashed, dialogs answered by policy, `interrupted` when a dialog cut the call short); the
    whole outcome is JSON and within the host's result size limit.
    """

    tool: str
    ok: bool
    value: JsonValue = None
    error: HostError | None = None
    extras: JsonObject = field(default_factory=dict)
    image_mime: str | None = None
    """Set when `value` is a base64 image (screenshots): transports may show it as an image."""
    display: str | None = None
    """How a model should read a successful result (MCP text), when the tool says so."""
    spread: bool = False
    """The value's keys (or, on failure, `details`) are the structured content's top level."""
    details: JsonObject | None = None
    """On failure, the structured fields a tool reports beside its error (playwright_execute)."""

    @classmethod
    def failure(cls, tool: str, error: HostError, extras: JsonObject | None = None) -> ToolOutcome:
        if not error.tool:
            error.tool = tool
        return cls(tool=tool, ok=False, error=error, extras=extras or {}, details=error.details)

    def structured(self, value: JsonValue | None = None) -> JsonObject:
        """`{"result": ...}` or `{"error": {...}}`, with the extras beside it."""
        if self.error is not None:
            if self.details is not None:
                return {**self.details, "code": self.error.code, **self.extras}
            return {"error": self.error.to_json(), **self.extras}
        if self.spread and isinstance(self.value, dict) and value is None:
            return {**self.value, **self.extras}
        return {"result": self.value if value is None else value, **self.extras}

    def error_text(self) -> str:
        assert self.error is not None
        where = f" (at {self.error.path})" if self.error.path else ""
        return f"Error [{self.error.code}] {self.tool}: {self.error.message}{where}"

    def text(self) -> str:
        """The outcome for a reader: the result as JSON, or the error line; extras as JSON after."""
        extra = f"\n{json.dumps(self.extras, ensure_ascii=False)}" if self.extras else ""
        if self.error is not None:
            return self.error_text() + extra
        if self.display is not None:
            return self.display + extra
        return json.dumps(self.structured(), ensure_ascii=False)


def success(descriptor: ToolDescriptor, value: object, args: object, limit: int) -> ToolOutcome:
    """The successful outcome of a call of `descriptor` that returned `value`: JSON, shown as an
    image when it is one; a `HostError` (`result_too_large`) past `limit` bytes."""
    if isinstance(value, str):
        size = len(value)
    elif isinstance(value, dict | list):
        size = len(json.dumps(value, ensure_ascii=False, default=str))
    else:
        size = 0
    if size > limit:
        raise HostError(
            "result_too_large",
            f"the result has {size} bytes, more than the host's limit of {limit}; ask for less "
            "(a selector, a clip, a smaller page)",
        )
    json_value = json_safe(value)
    if isinstance(value, Rendered) and isinstance(json_value, dict):
        json_value = Rendered(json_value, json_safe(value.text), spread=value.spread)  # type: ignore[arg-type]
    outcome = ToolOutcome(tool=descriptor.name, ok=True, value=json_value)
    if isinstance(json_value, Rendered):
        outcome.display = json_value.text
        outcome.spread = json_value.spread
    if isinstance(value, Image):
        outcome.value = value
        outcome.image_mime = value.mime
        return outcome
    schema = descriptor.returns.get("schema")
    if (
        isinstance(value, str)
        and isinstance(schema, dict)
        and schema.get("contentEncoding") == "base64"
        and "screenshot" in descriptor.name.lower()
    ):
        kind = args.get("type") if isinstance(args, dict) else None
        outcome.image_mime = "image/jpeg" if kind == "jpeg" else "image/png"
    return outcome
