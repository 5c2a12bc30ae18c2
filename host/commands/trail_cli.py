"""`python -m host replay TRAIL` and `python -m host export TRAIL --to python|typescript`."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

# What replays and exports need is imported when they run: building the parser of every
# command (`python -m host serve ...` too) stays cheap.


def add_trail_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser(
        "replay", help="run a recorded trail's calls in a fresh session, without a model"
    )
    replay.add_argument(
        "trail", type=Path, metavar="TRAIL", help="the trail file (a host's --record output)"
    )
    replay.add_argument("--executable-path", default="/usr/bin/chromium", help="Chromium to launch")
    replay.add_argument("--cdp-endpoint", metavar="URL", help="use a running browser over CDP")
    replay.add_argument(
        "--skip-prompts",
        action="store_true",
        help="run the recorded steps even if some prompt has no recording (it needs a model)",
    )
    replay.add_argument(
        "--navigation-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="Playwright's default navigation timeout (default 30)",
    )
    replay.add_argument("--generated", type=Path, help="the generator's output directory")
    replay.add_argument(
        "--secrets",
        type=Path,
        metavar="PATH",
        help="a dotenv file of the trail's ${NAME} values (the host's --secrets file); the "
        "environment fills the names it lacks",
    )
    export = commands.add_parser(
        "export", help="print a recorded trail as a Playwright test (pytest or @playwright/test)"
    )
    export.add_argument("trail", type=Path, metavar="TRAIL", help="the trail file to export")
    export.add_argument(
        "--to",
        required=True,
        choices=("python", "typescript"),
        help="python: a pytest test needing only pytest and playwright; typescript: an "
        "@playwright/test spec",
    )
    export.add_argument(
        "--executable-path",
        default="/usr/bin/chromium",
        help="the Chromium the Python test launches (it falls back to Playwright's own)",
    )
    export.add_argument("--generated", type=Path, help="the generator's output directory")


def run_replay(args: argparse.Namespace) -> int:
    from host.calls.registry import ToolRegistry
    from host.commands.replay import (
        EXIT_BAD_TRAIL,
        ShortSecretError,
        check_trail,
        run,
        secrets_of,
    )
    from host.settings.caps import CAP_OF
    from host.settings.config import HostConfig
    from host.settings.secrets_file import SecretsFileError, read_secrets
    from host.trails.trail import TrailError, read_trail

    environ = dict(os.environ)
    if args.secrets is not None:
        try:
            environ.update(read_secrets(args.secrets).values)
        except SecretsFileError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    try:
        trail = read_trail(args.trail)
        registry = ToolRegistry(args.generated)
        checked = check_trail(trail, registry, environ, args.skip_prompts)
    except TrailError as error:
        print(f"error: {error}", file=sys.stderr)
        needs_model = "needs a model" in error.message
        return 2 if needs_model else EXIT_BAD_TRAIL
    # The capabilities the trail's steps come with (`--caps` when it was recorded): replaying a
    # trail is running those steps, so they are on for this run.
    caps = sorted(
        {CAP_OF[t] for t in (registry.resolve(s.tool) for s in trail.steps) if t in CAP_OF}
    )
    config = HostConfig(
        caps=tuple(caps),
        executable_path=args.executable_path or None,
        cdp_endpoint=args.cdp_endpoint,
        navigation_timeout=args.navigation_timeout,
        toolsets=("all",),
        generated_dir=args.generated,
    )
    try:
        secrets = secrets_of(trail, environ)
    except ShortSecretError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return asyncio.run(run(trail, config, checked, secrets))


def run_export(args: argparse.Namespace) -> int:
    from host.calls.registry import ToolRegistry
    from host.commands.export import export
    from host.commands.replay import EXIT_BAD_TRAIL
    from host.trails.trail import TrailError, read_trail

    try:
        trail = read_trail(args.trail)
    except TrailError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_TRAIL
    registry = ToolRegistry(args.generated)
    sys.stdout.write(export(trail, registry, args.to, args.executable_path))
    return 0
