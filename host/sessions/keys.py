"""Session keys: which caller a browser session belongs to, as a value no caller can forge.

A key is a tuple of parts, never a string a caller's text is pasted into: the transport that
created it (`mcp`, `stdio`, `script`, `executor`, `process`), the caller's own id on that
transport (an MCP session id, a scripting `session_id`, ...) and, for a webBrowser agent, the
agent's id. Two keys are equal only when every part is, so no string a caller chooses (`victim/
agent:default`, `mcp:...`) can name another transport's session, or another caller's agent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class SessionKey:
    """The owner of one browser session.

    Guarantees: immutable and hashable; `transport` and `caller` are whatever the transport
    says, compared whole; `agent` is set only for a sub-session (a webBrowser agent) and its
    parent is the key without it. `str()` is for logs only, never parsed back.
    """

    transport: str
    caller: str
    agent: str | None = None

    def sub(self, agent: str) -> SessionKey:
        """The key of the caller's sub-session `agent` (a webBrowser `agentId`)."""
        return SessionKey(self.transport, self.caller, agent)

    @property
    def parent(self) -> SessionKey:
        """The caller's own key (itself when it is not a sub-session)."""
        return SessionKey(self.transport, self.caller)

    def __str__(self) -> str:
        agent = "" if self.agent is None else f" agent {self.agent!r}"
        return f"{self.transport} {self.caller!r}{agent}"


def key_of(key: SessionKey | str) -> SessionKey:
    """A key from what an in-process caller passed: a `SessionKey`, or any string (its own id)."""
    return key if isinstance(key, SessionKey) else SessionKey("process", key)
