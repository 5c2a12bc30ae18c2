"""Write docs/options.md, every option of every command, from the argument parsers themselves.

    .venv/bin/python scripts/options_doc.py           # rewrite docs/options.md
    .venv/bin/python scripts/options_doc.py --check   # change nothing; exit 1 if it is stale

It lives here, outside both packages, because it reads both halves' parsers: the generator never
imports the host, nor the host the generator. Guarantees: the text depends only on the parsers
(never on the terminal's width or the program's name), so it is the same bytes on every machine;
an option without help text stops it (exit 2) rather than leave a blank row.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.commands import arguments as generator_cli
from generator.review import bump as generator_bump
from host.commands import cli as host_cli
from host.settings.config_file import config_key

REPO = Path(__file__).resolve().parent.parent
OPTIONS_MD = REPO / "docs" / "options.md"
COMMAND = "python scripts/options_doc.py"


@dataclass(frozen=True)
class Command:
    """One command as the document shows it: the words that run it, what it does, its parser,
    and whether a `--config` file may give its options (then each option's key is listed)."""

    name: str
    summary: str
    parser: argparse.ArgumentParser
    takes_config: bool


# The generator's commands, one line each (a new subcommand's parser is one more line).
GENERATOR_PARSERS: tuple[tuple[str, Callable[[], argparse.ArgumentParser]], ...] = (
    ("python -m generator", generator_cli.parser),
    ("python -m generator diff", generator_cli.diff_parser),
    ("python -m generator schema", generator_cli.schema_parser),
    ("python -m generator bump", generator_bump.bump_parser),
)


def commands() -> Iterator[Command]:
    """Every command, the generator's first; the host's are all of `python -m host`'s
    subcommands, in the order its parser adds them."""
    for name, make in GENERATOR_PARSERS:
        parser = make()
        yield Command(name, parser.description or "", parser, takes_config=False)
    host_commands = host_cli.subcommands(host_cli.build_parser())
    summaries = {choice.dest: choice.help or "" for choice in host_commands._choices_actions}
    for name, parser in host_commands.choices.items():
        yield Command(
            f"python -m host {name}",
            summaries[name],
            parser,
            takes_config=name in host_cli.CONFIG_COMMANDS,
        )


class OptionsDocError(Exception):
    """A parser cannot be documented as it is (an option without help text)."""


def _cell(text: str) -> str:
    """Text for a Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _prose(text: str) -> str:
    """Help text for a table cell: also read as text, never as HTML or emphasis."""
    for char, escaped in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("*", "\\*")):
        text = text.replace(char, escaped)
    return _cell(text)


def _invocation(action: argparse.Action) -> str:
    """`-q, --quiet`, `--out OUT`, `--dialogs {report,accept,dismiss}`, `OLD`, as `--help` shows
    them (the formatter's width plays no part in this one line)."""
    formatter = argparse.HelpFormatter(prog="")
    return formatter._format_action_invocation(action)


def _help(command: Command, action: argparse.Action) -> str:
    if not action.help:
        where = action.option_strings[0] if action.option_strings else action.dest
        raise OptionsDocError(
            f"{command.name}: {where} has no help text; give its add_argument a help= that says "
            "what it does"
        )
    if "%" not in action.help:
        return action.help
    # argparse's own expansion (%(default)s, %(choices)s, ...), without its line wrapping.
    values = {name: value for name, value in vars(action).items() if value is not argparse.SUPPRESS}
    values["prog"] = command.name
    return action.help % values


def _default(action: argparse.Action) -> str:
    if action.required:
        return "required"
    if action.nargs == 0:  # a flag
        return "off"
    default = action.default
    if default is None or default == []:
        return ""
    if isinstance(default, list | tuple):
        return ", ".join(f"`{item}`" for item in default)
    return f"`{default}`"


def _rows(command: Command) -> Iterator[list[str]]:
    """Each argument's cells: option, default, config key (when the command takes a file), help."""
    for action in command.parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        cells = [f"`{_cell(_invocation(action))}`", _cell(_default(action))]
        if command.takes_config:
            key = config_key(action)
            cells.append(f"`{key}`" if key else "")
        yield [*cells, _prose(_help(command, action))]


def _table_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _groups(command: Command) -> Iterator[str]:
    for group in command.parser._mutually_exclusive_groups:
        names = ", ".join(f"`{action.option_strings[0]}`" for action in group._group_actions)
        yield f"{'Exactly' if group.required else 'At most'} one of {names}."


def _anchor(name: str) -> str:
    """GitHub's anchor for a heading of plain words (docs' link test checks the same rule)."""
    return name.lower().replace(" ", "-")


def render() -> str:
    """docs/options.md's text."""
    all_commands = list(commands())
    lines = [
        "# Options",
        "",
        f"<!-- Generated by `{COMMAND}` from the argument parsers; do not edit by hand. -->",
        "",
        "Every option of every command, read from the argument parsers themselves: edit an",
        f"option's `help=` in the code and run `{COMMAND}` (`tests/test_docs.py` fails",
        "while this file is stale). The installed console scripts take the same options:",
        "`playwright-tool-generator` is `python -m generator`, `playwright-tool-host` is",
        "`python -m host`.",
        "",
        "**Config key**: the key a `--config` file (YAML or JSON) gives the option under",
        "(`viewport-size: 1280x800`, `headed: true`, `init-script: [a.js, b.js]`); the command line",
        "wins over the file. Commands without the column take no config file. See",
        "[the host's reference](host.md#a-config-file) for an example.",
        "",
    ]
    lines += [f"- [`{c.name}`](#{_anchor(c.name)}): {_prose(c.summary)}" for c in all_commands]
    for command in all_commands:
        lines += ["", f"## {command.name}", ""]
        if command.summary:
            lines += [_prose(command.summary), ""]
        header = ["option", "default", *(["config key"] if command.takes_config else []), "meaning"]
        lines.append(_table_row(header))
        lines.append(_table_row(["---"] * len(header)))
        lines += [_table_row(cells) for cells in _rows(command)]
        groups = list(_groups(command))
        if groups:
            lines += ["", *groups]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if the file is stale"
    )
    parser.add_argument("--out", type=Path, default=OPTIONS_MD, help="the file to write or check")
    args = parser.parse_args(argv)
    try:
        text = render()
    except OptionsDocError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        current = args.out.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    if args.check:
        if current == text:
            return 0
        diff = difflib.unified_diff(
            (current or "").splitlines(keepends=True),
            text.splitlines(keepends=True),
            str(args.out),
            "from the parsers",
        )
        sys.stdout.writelines(diff)
        print(f"{args.out} is stale: run {COMMAND}", file=sys.stderr)
        return 1
    if current != text:
        # Whole or not at all: a reader never sees half a file.
        partial = args.out.with_name(f".{args.out.name}.partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
