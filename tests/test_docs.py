"""The docs hold together: every relative link and `#anchor` in README.md and docs/*.md resolves,
docs/options.md is what `scripts/options_doc.py` writes from the argument parsers today, no option
table is kept by hand beside it, and the README stays a few screens long."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OPTIONS_DOC = REPO / "scripts" / "options_doc.py"
README_MAX_LINES = 250

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) and ![alt](target), not inside inline code; the target up to a space or ")".
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+).*?\1")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def docs() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    lines: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1) == fence:
                fence = None
            continue
        if fence is None:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text as shown (links as their text, no code marks or
    emphasis), lower-cased, with what is not a letter, digit, space, `-` or `_` removed, and
    spaces as `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    text = text.strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file: its headings' slugs (a repeated one gets -1, -2, ...)
    and explicit `<a id>`s."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(HTML_ANCHOR.findall(line))
    return found


def shown(path: Path) -> str:
    return f"docs/{path.name}" if path.parent.name == "docs" else path.name


def broken_links(paths: list[Path]) -> list[str]:
    """`file:line: target (why)` for each relative link that does not resolve."""
    problems: list[str] = []
    for path in paths:
        for number, line in prose_lines(path.read_text(encoding="utf-8")):
            for target in LINK.findall(INLINE_CODE.sub("", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                    continue  # https:, mailto: ...: not ours to check offline
                where = f"{shown(path)}:{number}: {target}"
                file_part, _, anchor = target.partition("#")
                linked = (path.parent / file_part).resolve() if file_part else path
                if not linked.exists():
                    problems.append(f"{where} (no such file)")
                    continue
                if anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    problems.append(f"{where} (no heading with anchor #{anchor} in {linked.name})")
    return problems


# -- links -------------------------------------------------------------------------------------


def test_every_relative_link_and_anchor_in_the_docs_resolves() -> None:
    assert len(docs()) >= 9, [p.name for p in docs()]
    problems = broken_links(docs())
    assert not problems, "\n".join(problems)


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    other = tmp_path / "docs" / "other.md"
    other.write_text("# Other\n\n## The `--config` file, again!\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "README.md"
    page.write_text(
        "# Title\n\n"
        "[ok](docs/other.md#the---config-file-again) [ok](docs/other.md#twice-1) [ok](#title)\n"
        "`[in code](docs/gone.md)` [web](https://example.org/x#y)\n"
        "```\n[in a fence](docs/gone.md)\n```\n"
        "[gone](docs/gone.md) [bad anchor](docs/other.md#twice-2) [self](#nothing)\n"
    )
    problems = broken_links([page, other])
    assert problems == [
        "README.md:8: docs/gone.md (no such file)",
        "README.md:8: docs/other.md#twice-2 (no heading with anchor #twice-2 in other.md)",
        "README.md:8: #nothing (no heading with anchor #nothing in README.md)",
    ]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("The two commands", "the-two-commands"),
        ("python -m host serve", "python--m-host-serve"),
        (
            "The web executor (`python -m host executor`)",
            "the-web-executor-python--m-host-executor",
        ),
        ("Scaling out: several hosts, one pool", "scaling-out-several-hosts-one-pool"),
        ("Kotlin shims for [Trailblaze](https://x.example)", "kotlin-shims-for-trailblaze"),
        ("Tool surface: 1.61.0 → 1.62.0", "tool-surface-1610--1620"),
    ],
)
def test_anchors_follow_githubs_rule(heading: str, expected: str) -> None:
    assert slug(heading) == expected


# -- the options reference ---------------------------------------------------------------------


def options_doc(*args: str) -> subprocess.CompletedProcess[str]:
    # A narrow terminal must not change the text: argparse wraps help to COLUMNS.
    env = {**os.environ, "COLUMNS": "37"}
    return subprocess.run(
        [sys.executable, str(OPTIONS_DOC), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_options_md_is_what_the_parsers_say_today() -> None:
    checked = options_doc("--check")
    assert checked.returncode == 0, (
        f"{checked.stderr}{checked.stdout}\nrun: .venv/bin/python scripts/options_doc.py"
    )


def test_a_stale_options_md_fails_the_check_and_is_rewritten(tmp_path: Path) -> None:
    current = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    stale = tmp_path / "options.md"
    stale.write_text(current.replace("| `--no-cache` |", "| `--no-cache-at-all` |"))
    checked = options_doc("--check", "--out", str(stale))
    assert checked.returncode == 1
    assert "is stale" in checked.stderr and "+| `--no-cache` |" in checked.stdout
    assert "--no-cache-at-all" in stale.read_text()  # --check changes nothing
    written = options_doc("--out", str(stale))
    assert written.returncode == 0, written.stderr
    assert stale.read_text(encoding="utf-8") == current
    assert options_doc("--check", "--out", str(stale)).returncode == 0


def test_options_md_lists_every_option_of_every_command() -> None:
    from generator.commands.arguments import diff_parser, parser
    from host.commands.cli import CONFIG_COMMANDS, build_parser, subcommands
    from host.settings.config_file import config_key

    text = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.S | re.M))
    host = subcommands(build_parser()).choices
    parsers = {
        "python -m generator": parser(),
        "python -m generator diff": diff_parser(),
        **{f"python -m host {name}": p for name, p in host.items()},
    }
    assert set(parsers) <= set(sections), sorted(sections)
    for name, command in parsers.items():
        section = sections[name]
        for action in command._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert re.search(rf"[`, ]{re.escape(option)}[ ,`]", section), (name, option)
            key = config_key(action)
            if name.split()[-1] in CONFIG_COMMANDS and key:
                assert f"| `{key}` |" in section, (name, key)
    assert "| `headed` |" in sections["python -m host serve"]
    assert "config key" not in sections["python -m host replay"]


def test_every_parser_of_the_generator_cli_is_documented() -> None:
    """A new `python -m generator` subcommand (its `<name>_parser()` beside `parser()` and
    `diff_parser()`) fails here until it is one line in GENERATOR_PARSERS."""
    import generator.commands.arguments

    spec = importlib.util.spec_from_file_location("options_doc", OPTIONS_DOC)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["options_doc"] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["options_doc"]
    listed = {make.__name__ for _, make in module.GENERATOR_PARSERS}
    defined = {
        name
        for name, value in vars(generator.commands.arguments).items()
        if callable(value) and (name == "parser" or name.endswith("_parser"))
    }
    assert {"parser", "diff_parser"} <= defined
    assert defined <= listed, (
        f"add to GENERATOR_PARSERS in scripts/options_doc.py: {defined - listed}"
    )


def test_an_option_without_help_stops_the_doc_rather_than_leave_a_blank_row(
    tmp_path: Path,
) -> None:
    # A copy of the tool whose generator parser gains an option with no help text.
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    source = OPTIONS_DOC.read_text(encoding="utf-8")
    source = source.replace(
        '    ("python -m generator", generator_cli.parser),',
        '    ("python -m generator", lambda: _with_bare(generator_cli.parser())),',
    )
    source = source.replace(
        'if __name__ == "__main__":',
        "def _with_bare(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:\n"
        '    parser.add_argument("--bare")\n'
        "    return parser\n\n\n"
        'if __name__ == "__main__":',
    )
    copy = scripts / "options_doc.py"
    copy.write_text(source)
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    run = subprocess.run(
        [sys.executable, str(copy)], capture_output=True, text=True, check=False, timeout=120
    )
    assert run.returncode == 2, run.stderr
    assert "python -m generator: --bare has no help text" in run.stderr
    assert (tmp_path / "docs" / "options.md").read_bytes() == (
        REPO / "docs" / "options.md"
    ).read_bytes()


# -- the README and the docs' shape ------------------------------------------------------------


def test_the_readme_is_a_few_screens() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, len(lines)
    text = "\n".join(lines)
    for command in ("make generate", "make test", "python -m host serve --stdio"):
        assert command in text, command
    assert "(docs/options.md)" in text


def test_no_option_table_is_kept_by_hand() -> None:
    for path in docs():
        if path.name == "options.md":
            continue
        for number, line in prose_lines(path.read_text(encoding="utf-8")):
            cells = [c.strip().strip("`").lower() for c in line.strip().strip("|").split("|")]
            assert not (line.lstrip().startswith("|") and cells[0] == "option"), (
                f"{path.name}:{number}: an option table by hand; docs/options.md is generated "
                "from the parsers (python scripts/options_doc.py): link to it instead"
            )
