"""What one tool call produced, in the form every transport renders from."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from host.errors import HostError
from host.jsontypes import JsonObject, JsonValue


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

    @classmethod
    def failure(cls, tool: str, error: HostError, extras: JsonObject | None = None) -> ToolOutcome:
        if not error.tool:
            error.tool = tool
        return cls(tool=tool, ok=False, error=error, extras=extras or {})

    def structured(self, value: JsonValue | None = None) -> JsonObject:
        """`{"result": ...}` or `{"error": {...}}`, with the extras beside it."""
        if self.error is not None:
            return {"error": self.error.to_json(), **self.extras}
        return {"result": self.value if value is None else value, **self.extras}

    def error_text(self) -> str:
        assert self.error is not None
        where = f" (at {self.error.path})" if self.error.path else ""
        return f"Error [{self.error.code}] {self.tool}: {self.error.message}{where}"

    def text(self) -> str:
        """The outcome for a reader: the result as JSON, or the error line; extras as JSON after."""
        if self.error is not None:
            extra = f"\n{json.dumps(self.extras, ensure_ascii=False)}" if self.extras else ""
            return self.error_text() + extra
        return json.dumps(self.structured(), ensure_ascii=False)
