"""A call's last step: the outcome as the caller receives it.

The session's news joins the outcome (`extras`), an error names the elements in the caller's own
words, the outcome names the tool as the caller did (a former name too), and with `--secrets`
every secret value in it shows as its `${NAME}`.
"""

from __future__ import annotations

from typing import cast

from host.calls.call import Call
from host.calls.results import ToolOutcome
from host.settings.secrets_file import Secrets
from host.shared.jsontypes import JsonObject, JsonValue


def answer(call: Call, outcome: ToolOutcome, name: str, secrets: Secrets) -> ToolOutcome:
    """`outcome` with what the call gathered on its way, as the caller named the tool `name`."""
    if call.extras:
        outcome.extras.update(call.extras)
    described = call.described
    # the caller's words for the element, in an error of the session's work
    if described and outcome.error is not None and call.placed:
        names = "; ".join(f"{k} {v[:200]!r}" for k, v in described.items())
        outcome.error.message += f" ({names})"
    outcome.tool = name
    if secrets:
        _scrub(outcome, secrets)
    return outcome


def _scrub(outcome: ToolOutcome, secrets: Secrets) -> None:
    """Show every secret value in `outcome` as its `${NAME}` (what a transport, a log or a trail
    takes from it)."""
    outcome.value = cast(JsonValue, secrets.scrub_json(outcome.value))
    if outcome.display is not None:
        outcome.display = secrets.scrub(outcome.display)
    outcome.extras = cast(JsonObject, secrets.scrub_json(outcome.extras))
    if outcome.details is not None:
        outcome.details = cast(JsonObject, secrets.scrub_json(outcome.details))
    error = outcome.error
    if error is not None:
        error.message = secrets.scrub(error.message)
        if error.path is not None:
            error.path = secrets.scrub(error.path)
        if error.details is not None:
            error.details = cast(JsonObject, secrets.scrub_json(error.details))
