"""A session's console: the messages and page errors its pages log, kept bounded, and the new
ones an agent tool's feedback shows."""

from __future__ import annotations

from collections import deque

from playwright.async_api import ConsoleMessage, WebError

from host.sessions.page_guards import DROPPED_MARKER
from host.sessions.session_state import SessionState, clip
from host.settings.config import HostConfig
from host.shared.jsontypes import JsonObject

_LEVELS = {"error": 3, "warning": 2, "info": 1, "debug": 0}
_TYPE_LEVEL = {
    "error": "error",
    "assert": "error",
    "warning": "warning",
    "debug": "debug",
    "trace": "debug",
    "profile": "debug",
    "profileEnd": "debug",
}


def console_level(message_type: str) -> str:
    """The level (`error`, `warning`, `info`, `debug`) of a console message type."""
    return _TYPE_LEVEL.get(message_type, "info")


def level_at_least(level: str, minimum: str) -> bool:
    return _LEVELS.get(level, 1) >= _LEVELS.get(minimum, 0)


class ConsoleLog(SessionState):
    """The console part of a session: `console` (bounded by `buffer_limit`, `console_dropped`
    counting what it dropped), and the errors and messages not yet shown in feedback."""

    def _init_console(self, config: HostConfig) -> None:
        """The console's buffers, empty."""
        self.console: deque[JsonObject] = deque(maxlen=config.buffer_limit)
        self.console_read: deque[JsonObject] = deque(maxlen=config.buffer_limit)
        """Messages browser_console_messages already returned (its `all` returns them too)."""
        self.console_dropped = 0
        self.new_errors: deque[str] = deque(maxlen=20)
        """Console errors and page errors not yet shown in an agent tool's feedback."""
        self.new_console: deque[JsonObject] = deque(maxlen=10)
        """Console messages at or above `config.console_level` (page errors included) not yet
        shown in an agent tool's feedback: the latest 10, `{level, text}`."""
        self.new_console_dropped = 0

    def _push_console(self, entry: JsonObject) -> None:
        if len(self.console) == self.console.maxlen:
            self.console_dropped += 1
        self.console.append(entry)
        level = str(entry.get("level", "info"))
        line = clip(str(entry.get("text", "")).split("\n")[0], 300)
        if level == "error":
            self.new_errors.append(line)
        if level_at_least(level, self.config.console_level):
            if len(self.new_console) == self.new_console.maxlen:
                self.new_console_dropped += 1
            self.new_console.append({"level": level, "text": line})

    def take_new_errors(self) -> list[str]:
        """Errors logged since the last time this was called (at most the last 20)."""
        errors = list(self.new_errors)
        self.new_errors.clear()
        return errors

    def take_new_console(self) -> tuple[list[JsonObject], int]:
        """Messages at or above the console level since the last time this was called (the
        latest 10), and how many earlier ones were left out."""
        messages, dropped = list(self.new_console), self.new_console_dropped
        self.new_console.clear()
        self.new_console_dropped = 0
        return messages, dropped

    def _on_console(self, message: ConsoleMessage) -> None:
        if self._flooded("console"):
            return
        text = message.text
        if text.startswith(DROPPED_MARKER) and message.type == "warning":
            count = text[len(DROPPED_MARKER) :]
            if count.isdigit():
                self.console_dropped += int(count)
                return
        entry: JsonObject = {
            "level": console_level(message.type),
            "type": message.type,
            "text": clip(message.text, self.config.message_limit),
            "tab": self.index_of(message.page),
        }
        location = message.location
        if location and location.get("url"):
            entry["location"] = f"{location['url']}:{location.get('lineNumber', 0)}"
        self._push_console(entry)

    def _on_web_error(self, error: WebError) -> None:
        if self._flooded("pageerror"):
            return
        text = error.error.stack or error.error.message
        self._push_console(
            {
                "level": "error",
                "type": "pageerror",
                "text": clip(text, self.config.message_limit),
                "tab": self.index_of(error.page),
            }
        )
