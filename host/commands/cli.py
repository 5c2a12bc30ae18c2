"""`python -m host` and `playwright-tool-host`: the command line, each subcommand handed to the
module that runs it (`serve`, `report`, `replay`, `export`, `executor`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from host.commands.serve_options import add_serve_command
from host.settings.config_file import ConfigFileError, with_config
from host.settings.options import OneLineParser

# The commands whose options a `--config` file may give (docs/options.md lists their keys).
CONFIG_COMMANDS = ("serve", "executor")


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: `serve` (`serve_options`), `report`, `replay` and `export`
    (`trail_cli`), `executor` (`host/executor/cli.py`)."""
    # Named as it was started: the console script, or the module.
    script = Path(sys.argv[0]).name
    parser: argparse.ArgumentParser = OneLineParser(
        prog=script if script == "playwright-tool-host" else "python -m host",
        description="Serve the Playwright tools.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    add_serve_command(commands)
    report = commands.add_parser(
        "report", help="write host/toolsets/REPORT.md (what each toolset costs a model)"
    )
    report.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if the report is stale"
    )
    from host.commands.trail_cli import add_trail_commands

    add_trail_commands(commands)
    # The web executor service (host/executor/) keeps its options and its startup to itself.
    from host.executor.cli import add_executor_command

    add_executor_command(commands)
    return parser


def subcommands(
    parser: argparse.ArgumentParser,
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """The subcommands of `build_parser()`'s parser: `.choices` maps each name (serve, report,
    replay, export, executor) to its own parser, in the order they were added."""
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    commands = subcommands(parser)
    origins: dict[str, str] = {}
    if arguments and arguments[0] in CONFIG_COMMANDS:
        try:
            arguments[1:], origins = with_config(commands.choices[arguments[0]], arguments[1:])
        except ConfigFileError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    args = parser.parse_args(arguments)
    args.config_origins = origins
    if args.command == "report":
        from host.commands.report import main as report

        return report(check=args.check)
    if args.command == "executor":
        from host.executor.cli import run_executor

        return run_executor(args)
    if args.command in ("replay", "export"):
        from host.commands.trail_cli import run_export, run_replay

        return run_replay(args) if args.command == "replay" else run_export(args)
    from host.commands.serve import serve_command

    return serve_command(args)
