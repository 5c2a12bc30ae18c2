"""Why a Java method is not a tool, as a value: the surface report groups refusals by `kind`
and prints `detail`; nothing downstream reads the words to find out what happened."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from generator.shared.diagnostics import Diagnostics


class RefusalKind(enum.Enum):
    """The report's categories; the value is the label SURFACE.md and manifest.json print."""

    EVENT = "event"  # registers a listener (on*, off*, once*)
    CALLBACK = "callback"  # every overload takes a function
    INTERACTIVE = "interactive"  # waits for a person at the browser
    JAVA_ONLY = "Java only"  # Python has no such method, or lacks a required parameter
    OTHER = "other"  # no JSON form for its arguments or result, or a clash with the target


@dataclass(frozen=True)
class Refusal:
    """One method refused: `detail` says why in words that follow the method's name, `hint` how
    to fix the allowlist. A refusal is reported exactly once, by `refuse`."""

    kind: RefusalKind
    detail: str
    hint: str = ""


def refuse(
    diagnostics: Diagnostics,
    location: str,
    member: str,
    refusal: Refusal,
    separator: str = ": ",
) -> Refusal:
    """Report `refusal` as an error at `location` (`<member><separator><detail>`) and return it.

    `separator` is " " where the detail continues a sentence (`Page#pause opens the Inspector...`).
    """
    diagnostics.error(location, f"{member}{separator}{refusal.detail}", refusal.hint)
    return refusal
