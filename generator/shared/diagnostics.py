"""Diagnostics: problems the user can fix, each with a level and a location.

Stages report through a `Diagnostics` collector instead of raising, so one bad
entry never hides the others. `GeneratorError` is reserved for conditions that
stop the run (no JAR, unreadable allowlist); it carries its exit status.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field


class Level(enum.IntEnum):
    """Severity, ordered so that `level >= Level.WARNING` reads naturally."""

    INFO = 10
    WARNING = 20
    ERROR = 30


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding. `location` is human-navigable: `allowlist.yaml:12:3` or a Java member
    such as `com.microsoft.playwright.Page#route(String, Consumer)`; `hint` says how to fix it."""

    location: str
    level: Level
    message: str
    hint: str = ""

    def render(self) -> str:
        text = f"{self.location}: {self.level.name.lower()}: {self.message}"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


@dataclass
class Diagnostics:
    """An ordered collection of diagnostics; `sorted()` gives the deterministic report order."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, level: Level, location: str, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(location, level, message, hint))

    def info(self, location: str, message: str, hint: str = "") -> None:
        self.add(Level.INFO, location, message, hint)

    def warning(self, location: str, message: str, hint: str = "") -> None:
        self.add(Level.WARNING, location, message, hint)

    def error(self, location: str, message: str, hint: str = "") -> None:
        self.add(Level.ERROR, location, message, hint)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(sorted(set(self.items), key=lambda d: (d.location, -d.level, d.message)))

    def at_least(self, level: Level) -> list[Diagnostic]:
        return [d for d in self if d.level >= level]


class ExitCode(enum.IntEnum):
    """Process exit statuses; documented in docs/generator.md ("Command line")."""

    OK = 0
    STALE = 1  # --check found generated/ out of date
    USER_INPUT = 2  # allowlist or command line is wrong
    ENVIRONMENT = 3  # Java, Maven, the JAR or Python playwright is missing or broken
    OUTPUT = 4  # generated/ cannot be written


class GeneratorError(Exception):
    """A condition that stops the run; its message is one paragraph for the user."""

    def __init__(self, message: str, exit_code: ExitCode = ExitCode.USER_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code
