"""The one error type the host reports to callers: a code a program can branch on, a message a model can read."""

from __future__ import annotations

from host.shared.jsontypes import JsonValue


class HostError(Exception):
    """A tool call that failed for a reason the caller can act on.

    Guarantees: `code` is a short machine-readable word (`unknown_tool`, `invalid_argument`,
    `too_many_sessions`, `dialog_open`, `tab_crashed`, `browser_crashed`, `timeout`,
    `result_too_large`, `playwright_error`, ...); `message` is one or two sentences that say what
    happened and what to do next, and never contains a credential. Transports turn it into content
    (`isError: true` over MCP, `success: false` over the scripting callback), never into a protocol
    error.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        tool: str = "",
        path: str = "",
        details: dict[str, JsonValue] | None = None,
    ) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.tool = tool
        self.path = path
        self.details = details
        """Structured fields the tool reports beside the error (they replace `error` in results)."""

    def to_json(self) -> dict[str, JsonValue]:
        """The error as a JSON object: `{tool, code, path, message}`."""
        return {"tool": self.tool, "code": self.code, "path": self.path, "message": self.message}
