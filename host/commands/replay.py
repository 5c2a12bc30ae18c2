"""`python -m host replay TRAIL`: run a trail's calls in a fresh session, with no model.

Every step is checked before the browser starts: the tool exists, its arguments pass its
schema, every `${NAME}` has a value in the environment, and a `prompt` without a recording is
refused (it needs a model) unless `--skip-prompts`. Then the calls run in order through the same
registry as the host's; the first failure stops the run and is printed with its place:
`trail.yaml:14: click get_by_role("button", name="Save"): <the error>`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from host.calls.registry import ToolRegistry
from host.settings.config import HostConfig
from host.settings.limits import check_arguments
from host.shared.errors import HostError
from host.shared.masking import mask, secret_masks, too_short
from host.trails.locators import as_code
from host.trails.trail import SECRET, Step, Trail, TrailError

EXIT_OK, EXIT_FAILED, EXIT_NEEDS_MODEL, EXIT_BAD_TRAIL = 0, 1, 2, 3
REPLAY_KEY = "replay"


@dataclass(frozen=True)
class Checked:
    """A step ready to run: its arguments with secrets filled in (never printed)."""

    step: Step
    arguments: dict[str, Any]


def substitute(value: object, environ: dict[str, str], place: str) -> object:
    """`value` with every `${NAME}` replaced by the environment's NAME; a missing one is an
    error naming the place."""
    if isinstance(value, str):

        def fill(found: Any) -> str:
            name = found.group(1)
            if name not in environ:
                raise TrailError(
                    place,
                    f"${{{name}}} has no value: set the environment variable {name} "
                    "(the trail never holds a secret's value)",
                )
            return environ[name]

        return SECRET.sub(fill, value)
    if isinstance(value, list):
        return [substitute(v, environ, place) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, environ, place) for k, v in value.items()}
    return value


def check_trail(
    trail: Trail, registry: ToolRegistry, environ: dict[str, str], skip_prompts: bool
) -> list[Checked]:
    """Every step checked before any browser call; raises TrailError at the first problem."""
    if not skip_prompts:
        for prompt in trail.prompts:
            if not prompt.recorded:
                raise TrailError(
                    trail.place(prompt.line),
                    f"the prompt {prompt.text!r} has no recording and needs a model to replay; "
                    "record it, or pass --skip-prompts to run the recorded steps only",
                )
    config = HostConfig()
    checked = []
    for step in trail.steps:
        place = trail.place(step.line)
        descriptor = registry.tools.get(registry.resolve(step.tool))
        if descriptor is None:
            registry_error = _lookup_error(registry, step.tool)
            raise TrailError(place, f"{step.tool}: {registry_error}")
        arguments = substitute(step.arguments, environ, place)
        try:
            check_arguments(arguments, config.argument_limits)
            registry.prepare(descriptor, arguments)
        except HostError as error:
            where = f" ({error.path})" if error.path else ""
            raise TrailError(
                place, f"{step.tool}{where}: {error.message}; fix the arguments in the trail"
            ) from None
        checked.append(Checked(step, dict(arguments) if isinstance(arguments, dict) else {}))
    return checked


def _lookup_error(registry: ToolRegistry, name: str) -> str:
    try:
        registry.lookup(name, None)
    except HostError as error:
        return error.message
    return "unknown tool"


def describe(step: Step) -> str:
    """`click get_by_role("button", name="Save")`: the tool and, when it has one, its locator."""
    for name in ("target", "selector"):
        value = step.arguments.get(name)
        if isinstance(value, str):
            try:
                return f"{step.tool} {as_code(value, 'python', root='')[1:]}"
            except Exception:
                return f"{step.tool} {value}"
    return step.tool


class ShortSecretError(ValueError):
    """A secret the trail types whose value is too short to mask in what replay prints."""


def secrets_of(trail: Trail, environ: dict[str, str]) -> Mapping[str, str]:
    """Every spelling of the values of the secrets the trail names, each with its `${NAME}` (to
    scrub output, as the host scrubs: host/shared/masking.py's `secret_masks`);
    ShortSecretError naming the first (by name) whose value is too short to mask."""
    names = sorted({n for step in trail.steps for n in SECRET.findall(str(step.arguments))})
    for name in names:
        short = too_short("${" + name + "}", environ.get(name) or "")
        if short is not None and environ.get(name):
            raise ShortSecretError(
                f"{short} (the trail types it; its value comes from the environment or --secrets)"
            )
    return secret_masks({n: environ[n] for n in names if environ.get(n)})


def scrub(text: str, secrets: Mapping[str, str]) -> str:
    """`text` with each secret value shown as its `${NAME}`, as the host masks (one rule)."""
    return mask(text, secrets)


async def run(
    trail: Trail,
    config: HostConfig,
    checked: list[Checked],
    secrets: Mapping[str, str],
    out: TextIO = sys.stdout,
) -> int:
    """Run the checked steps in one fresh session; the exit status. Nothing printed holds a
    secret's value."""
    from host.calls.core import Host

    async with Host(config) as host:
        for number, item in enumerate(checked, 1):
            outcome = await host.call(REPLAY_KEY, item.step.tool, item.arguments)
            if not outcome.ok:
                error = outcome.error
                message = error.message if error is not None else outcome.text()
                code = f" [{error.code}]" if error is not None else ""
                print(
                    f"{trail.place(item.step.line)}: {describe(item.step)}:{code} "
                    + scrub(message, secrets),
                    file=out,
                )
                print(f"replay failed at step {number} of {len(checked)}", file=out)
                return EXIT_FAILED
            print(f"{trail.place(item.step.line)}: {describe(item.step)}: ok", file=out)
    print(f"replayed {len(checked)} steps", file=out)
    return EXIT_OK
