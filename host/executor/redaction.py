"""Secret field values kept out of everything the service emits: responses and log lines.

A value comes back in many spellings (`spellings` lists them); the text is decoded into a few
views in which every spelling of a value shows as the value itself, and one Aho-Corasick
automaton over every value (`automaton`) finds them all in one pass over each view. Scrubbing
therefore costs time linear in the text, whatever the number of values and of their spellings;
building the automaton costs time linear in the values' length, once per set of values.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from host.executor.automaton import Automaton
from host.executor.spellings import CHARSETS, canonical, charsets_for, partial_escape, views
from host.shared.jsontypes import JsonValue

REDACTED = "REDACTED"

MAX_SECRET_CHARS = 4096
"""The longest value redaction takes (`ExecutorSettings.max_redact_chars`): a password, a card
number or a token, not a document. A longer one is refused with the field's path."""
# The shortest start of a secret removed from the end of a text cut short: a cut can fall
# inside a secret, and what is left of it must not show either.
_MIN_CUT_PREFIX = 2
_PASSES = 4


def whitespace_only(value: str) -> bool:
    """A value made only of whitespace (or `+`, a form's space): it cannot be redacted without
    redacting every space (HTML text folds any whitespace into one), so it is refused where it
    is configured."""
    return bool(value) and canonical(value) == " "


def _spans(
    automata: Sequence[Automaton], text: str, charsets: tuple[str, ...]
) -> list[tuple[int, int]]:
    """The disjoint, sorted spans of `text` that spell some value of the automata."""
    reach: list[int] | None = None
    for view in views(text, charsets):
        for automaton in automata:
            for end, length in automaton.scan(view.text).matches:
                start, stop = view.starts[end - length], view.ends[end - 1]
                if reach is None:
                    reach = [0] * (len(text) + 1)
                if stop > reach[start]:
                    reach[start] = stop
    if reach is None:
        return []
    spans: list[tuple[int, int]] = []
    open_at, open_until = -1, -1
    for index, stop in enumerate(reach):
        if index >= open_until and open_at >= 0:
            spans.append((open_at, open_until))
            open_at = -1
        if stop > index:
            if open_at < 0:
                open_at, open_until = index, stop
            else:
                open_until = max(open_until, stop)
    if open_at >= 0:
        spans.append((open_at, open_until))
    return spans


def scrub_with(
    automata: Sequence[Automaton], text: str, charsets: tuple[str, ...] = CHARSETS
) -> str:
    """`text` with every span that spells a value of `automata` replaced by `REDACTED`
    (percent-escapes decoded in `charsets`: `spellings.charsets_for` the values)."""
    if not automata:
        return text
    # Applied until stable: replacing one occurrence can join text into a new one.
    for _ in range(_PASSES):
        spans = _spans(automata, text, charsets)
        if not spans:
            break
        parts: list[str] = []
        at = 0
        for start, stop in spans:
            parts += (text[at:start], REDACTED)
            at = stop
        parts.append(text[at:])
        text = "".join(parts)
    return text


class Redactor:
    """Replaces every spelling of a set of secret values by `REDACTED`.

    Guarantees: after `scrub`, no spelling of any secret occurs in the text (any mix of the
    spellings `spellings` decodes, whitespace collapsed or changed included); `scrub_cut` also
    removes a secret's start (two characters or more of the text, in any spelling, an escape cut
    in the middle included) from the end of a text cut inside it; `scrub_json` does the same to
    every string (keys included) of a JSON value. The automaton is built once, when the redactor
    is made, in time linear in the values' length; a scrub costs time linear in the text. An
    empty secret redacts nothing; one made only of whitespace is refused (ValueError); very short
    secrets are redacted wherever they occur: the guarantee wins over readability.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        values = {s for s in secrets if s}
        if any(whitespace_only(s) for s in values):
            raise ValueError("a secret made only of whitespace cannot be redacted")
        self.secrets = tuple(sorted(values))
        self.canonical = tuple(sorted({canonical(s) for s in self.secrets}))
        self.automaton = Automaton(self.canonical) if self.secrets else None
        self.charsets = charsets_for(self.secrets)
        self._automata = [self.automaton] if self.automaton is not None else []

    def scrub(self, text: str) -> str:
        return scrub_with(self._automata, text, self.charsets)

    def scrub_cut(self, text: str) -> str:
        """`scrub` for a text that was cut short: a trailing start of a secret (in any spelling,
        at least two characters of the text) is also replaced, since the cut may fall inside
        one; so is an escape cut in the middle (`%25`, `%C3`, `&#x4`)."""
        text = self.scrub(text)
        if self.automaton is None:
            return text
        head = partial_escape(text)
        start = head
        for view in views(text[:head], self.charsets):
            tail = self.automaton.scan(view.text).tail
            start = min(start, view.starts[len(view.text) - tail] if tail else view.covers)
        if len(text) - start >= _MIN_CUT_PREFIX:
            return text[:start] + REDACTED
        return text

    def scrub_json(self, value: JsonValue) -> JsonValue:
        if self.automaton is None:
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_json(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub(k): self.scrub_json(v) for k, v in value.items()}
        return value


class _Group:
    """Redactors held together under one automaton over all their values."""

    def __init__(self, members: tuple[tuple[int, Redactor], ...]) -> None:
        self.members = members
        self.automaton = Automaton(s for _, r in members for s in r.canonical)
        self.charsets = {c for _, r in members for c in r.charsets}


class SecretRegistry:
    """The redactors of the actions running now, and of at most `limit` finished within `linger`
    seconds.

    The log formatter scrubs every line with it, so that no log line, whoever writes it (the
    service, Playwright, uvicorn, an exception's text), can carry a secret of an action in
    flight. Guarantees: thread-safe; the values held are kept in groups, each under one
    automaton, merged as a binary counter merges (a new redactor is a group of one; two groups
    of as many redactors become one), so scrubbing a line costs one pass per group, at most
    about log2 of the redactors held (`groups`), whatever their number and their values' length,
    and each value is built into an automaton at most that many times; at most `limit` finished
    actions are held (a group that lost most of its members is rebuilt without them), so the
    cost never grows with the number of past requests.
    """

    def __init__(self, linger: float = 120.0, limit: int = 64) -> None:
        self._lock = threading.Lock()
        self._serial = 0
        self._active: dict[int, Redactor] = {}
        self._retired: deque[tuple[float, int]] = deque(maxlen=limit)
        self._linger = linger
        self._groups: list[_Group] = []

    @contextmanager
    def holding(self, redactor: Redactor) -> Iterator[None]:
        if not redactor.secrets:
            yield
            return
        with self._lock:
            self._serial += 1
            token = self._serial
            self._active[token] = redactor
            groups = self._groups
            groups.append(_Group(((token, redactor),)))
            while len(groups) >= 2 and len(groups[-1].members) >= len(groups[-2].members):
                live = self._live()
                merged = tuple(m for g in groups[-2:] for m in g.members if m[0] in live)
                groups[-2:] = [_Group(merged)]
        try:
            yield
        finally:
            with self._lock:
                self._active.pop(token, None)
                self._retired.append((time.monotonic(), token))

    def _live(self) -> set[int]:
        """The tokens of the redactors held now (the lock is held)."""
        now = time.monotonic()
        while self._retired and now - self._retired[0][0] >= self._linger:
            self._retired.popleft()
        return {*self._active, *(token for _, token in self._retired)}

    def _prune(self) -> list[_Group]:
        """The groups with a member still held (the lock is held)."""
        live = self._live()
        kept: list[_Group] = []
        for group in self._groups:
            members = tuple(m for m in group.members if m[0] in live)
            if not members:
                continue
            if 2 * len(members) < len(group.members):
                group = _Group(members)
            kept.append(group)
        self._groups = kept
        return kept

    def groups(self) -> list[tuple[Redactor, ...]]:
        """The redactors held, group by group: one pass over a scrubbed line per group."""
        with self._lock:
            return [tuple(r for _, r in g.members) for g in self._prune()]

    def _automata(self) -> tuple[list[Automaton], tuple[str, ...]]:
        with self._lock:
            groups = self._prune()
        held = {c for g in groups for c in g.charsets}
        return [g.automaton for g in groups], tuple(c for c in CHARSETS if c in held)

    def scrub(self, text: str) -> str:
        automata, charsets = self._automata()
        return scrub_with(automata, text, charsets)


SECRETS = SecretRegistry()
"""The process's registry, read by `logs.JsonFormatter`."""
