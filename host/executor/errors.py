"""The executor's one error type: a code a planner can branch on, an HTTP status, a readable message."""

from __future__ import annotations

from host.shared.jsontypes import JsonObject, JsonValue

# Every code the service answers with, and its HTTP status. A code not listed is a 500.
STATUS: dict[str, int] = {
    "invalid_payload": 400,
    "url_refused": 400,
    "unauthorized": 401,
    "not_found": 404,
    "payload_too_large": 413,
    "SelectorsExhausted": 422,
    "action_failed": 422,
    "navigation_failed": 502,
    "browser_crashed": 502,
    "driver_crashed": 502,
    "browser_unavailable": 503,
    "busy": 503,
    "timeout": 504,
    "internal_error": 500,
}


class ExecutorError(Exception):
    """An action that failed for a reason the planner can act on.

    Guarantees: `code` is one of `STATUS` (`invalid_payload`, `url_refused`, `SelectorsExhausted`,
    `timeout`, `browser_crashed`, ...) and `status` its HTTP status; `path` names the payload field
    at fault (`fields[1].selector`) when there is one; `message` never quotes a field value (it may
    be a secret) and never holds a traceback; `details` are extra JSON fields of the error body.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        path: str | None = None,
        details: JsonObject | None = None,
    ) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.path = path
        self.details: JsonObject = details or {}

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 500)

    def to_json(self) -> JsonObject:
        body: dict[str, JsonValue] = {"code": self.code, "message": self.message}
        if self.path is not None:
            body["path"] = self.path
        body.update(self.details)
        return body
