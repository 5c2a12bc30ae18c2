"""The service's log: one JSON object per line on stderr, every line scrubbed of secrets."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import IO

from host.executor.redaction import SECRETS, SecretRegistry
from host.shared.jsontypes import JsonValue

log = logging.getLogger("host.executor")
EVENT_ATTR = "executor_event"


class JsonFormatter(logging.Formatter):
    """Formats any record (the service's events, uvicorn's, Playwright's, exceptions) as one JSON line.

    Guarantees: one line per record (newlines inside are escaped by JSON); the message, the
    event's fields and any exception text are scrubbed with the secret registry before encoding,
    and the encoded line is scrubbed again, so no form of an active secret can be written.
    """

    def __init__(self, registry: SecretRegistry = SECRETS) -> None:
        super().__init__()
        self.registry = registry

    def format(self, record: logging.LogRecord) -> str:
        scrub = self.registry.scrub
        fields = getattr(record, EVENT_ATTR, None)
        line: dict[str, JsonValue] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        if isinstance(fields, dict):
            line.update({k: _scrub_value(v, scrub) for k, v in fields.items()})
        else:
            line["message"] = scrub(record.getMessage())
        if record.exc_info:
            # Only the exception's type and message: a traceback is for a debugger, not a log
            # shipped off the machine, and frames may show values.
            kind, error, _ = record.exc_info
            line["error"] = scrub(f"{kind.__name__ if kind else 'Error'}: {error}")[:2000]
        return scrub(json.dumps(line, ensure_ascii=False, default=str))


def _scrub_value(value: object, scrub: object) -> JsonValue:
    assert callable(scrub)
    if isinstance(value, str):
        return str(scrub(value))
    if isinstance(value, list | tuple):
        return [_scrub_value(v, scrub) for v in value]
    if isinstance(value, dict):
        return {str(k): _scrub_value(v, scrub) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(scrub(str(value)))


def configure(level: str = "info", stream: IO[str] | None = None) -> None:
    """Route every logger of the process to one JSON handler (uvicorn's too: it gets no config)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # Playwright's asyncio internals are chatty at debug and say nothing a planner needs.
    logging.getLogger("asyncio").setLevel(logging.WARNING)


def event(name: str, /, **fields: JsonValue) -> None:
    """Log a structured event: `{"event": name, ...fields}` (values scrubbed by the formatter)."""
    log.info(name, extra={EVENT_ATTR: {"event": name, **fields}})


def now_ms() -> int:
    return int(time.monotonic() * 1000)
