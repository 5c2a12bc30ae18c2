"""Secret field values kept out of everything the service emits: responses and log lines."""

from __future__ import annotations

import html
import json
import re
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from urllib.parse import quote, quote_plus

from host.jsontypes import JsonValue

REDACTED = "REDACTED"


def variants(secret: str) -> set[str]:
    """The forms a value takes on its way out: as typed, URL-encoded (a GET form puts it in the
    final URL), HTML-escaped (the page echoes it) and JSON-escaped."""
    forms = {
        secret,
        quote(secret, safe=""),
        quote(secret, safe="*"),
        quote_plus(secret),
        quote_plus(secret, safe="*"),
        html.escape(secret, quote=True),
        html.escape(secret, quote=False),
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
    }
    return {form for form in forms if form}


def _flexible(form: str) -> str:
    """`form` as a pattern that also matches it with its whitespace collapsed or changed: HTML
    text, a document title and the excerpt all fold runs of whitespace into one space."""
    return r"\s+".join(re.escape(part) for part in form.split())


def _pattern(secrets: Iterable[str]) -> re.Pattern[str] | None:
    forms = {form for secret in secrets if secret for form in variants(secret) if form.split()}
    if not forms:
        return None
    # Longest first, so that a secret containing another is replaced whole.
    ordered = sorted(forms, key=lambda f: (-len(f), f))
    return re.compile("|".join(_flexible(f) for f in ordered))


# The shortest start of a secret that is removed from the end of a text cut short: a cut can
# fall inside a secret, and what is left of it must not show either.
_MIN_CUT_PREFIX = 2


class Redactor:
    """Replaces every form (see `variants`) of a set of secret values by `REDACTED`.

    Guarantees: after `scrub`, no form of any secret occurs in the text, also with its whitespace
    collapsed or changed; `scrub_cut` also removes a secret's start from the end of a text cut
    inside it; `scrub_json` does the same
    to every string (keys included) of a JSON value. An empty secret redacts nothing. Very short
    secrets are redacted wherever they occur, at the cost of readability: the guarantee wins.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = tuple(sorted({s for s in secrets if s}))
        self._pattern = _pattern(self.secrets)

    def scrub(self, text: str) -> str:
        if self._pattern is None:
            return text
        # Applied until stable: replacing one occurrence can join text into a new one.
        for _ in range(4):
            cleaned = self._pattern.sub(REDACTED, text)
            if cleaned == text:
                break
            text = cleaned
        return text

    def scrub_cut(self, text: str) -> str:
        """`scrub` for a text that was cut short: a trailing start of a secret (in any of its
        forms, at least two characters) is also replaced, since the cut may fall inside one."""
        text = self.scrub(text)
        for secret in self.secrets:
            for form in sorted(variants(secret), key=len, reverse=True):
                for size in range(min(len(form) - 1, len(text)), _MIN_CUT_PREFIX - 1, -1):
                    if text.endswith(form[:size]):
                        return text[:-size] + REDACTED
        return text

    def scrub_json(self, value: JsonValue) -> JsonValue:
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_json(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub(k): self.scrub_json(v) for k, v in value.items()}
        return value


class SecretRegistry:
    """The secrets of the actions running now (and of those finished within `linger` seconds).

    The log formatter scrubs every line with it, so that no log line, whoever writes it (the
    service, Playwright, uvicorn, an exception's text), can carry a secret of an action in flight.
    Guarantees: thread-safe; at most `limit` retired secrets are kept, each for `linger` seconds.
    """

    def __init__(self, linger: float = 120.0, limit: int = 4096) -> None:
        self._lock = threading.Lock()
        self._active: dict[int, tuple[str, ...]] = {}
        self._retired: list[tuple[float, tuple[str, ...]]] = []
        self._linger = linger
        self._limit = limit
        self._redactor = Redactor()

    @contextmanager
    def holding(self, redactor: Redactor) -> Iterator[None]:
        if not redactor.secrets:
            yield
            return
        token = id(redactor)
        with self._lock:
            self._active[token] = redactor.secrets
            self._rebuild()
        try:
            yield
        finally:
            with self._lock:
                self._active.pop(token, None)
                self._retired.append((time.monotonic(), redactor.secrets))
                self._rebuild()

    def _rebuild(self) -> None:
        now = time.monotonic()
        self._retired = [(t, s) for t, s in self._retired if now - t < self._linger][-self._limit :]
        every = {s for group in self._active.values() for s in group}
        every.update(s for _, group in self._retired for s in group)
        self._redactor = Redactor(every)

    def scrub(self, text: str) -> str:
        with self._lock:
            redactor = self._redactor
            if self._retired and time.monotonic() - self._retired[0][0] >= self._linger:
                self._rebuild()
                redactor = self._redactor
        return redactor.scrub(text)


SECRETS = SecretRegistry()
"""The process's registry, read by `logs.JsonFormatter`."""
