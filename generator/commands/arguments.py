"""The command lines of `python -m generator` and its subcommands (`diff`, `schema`): one
parser each, built from the options they share, and nothing else (docs/options.md is written
from these by scripts/options_doc.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from generator import __version__


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--allowlist",
        type=Path,
        default=Path("allowlist.yaml"),
        help="the allowlist to read (default allowlist.yaml)",
    )
    p.add_argument(
        "--templates",
        type=Path,
        help="a directory of Jinja templates that replace templates/ file by file; the rest come "
        "from templates/ (an undefined variable is an error)",
    )
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument(
        "--cache-dir",
        type=Path,
        help="cache location (default $PLAYWRIGHT_TOOL_GENERATOR_CACHE, else "
        "$XDG_CACHE_HOME/playwright-tool-generator, else ~/.cache/playwright-tool-generator)",
    )
    p.add_argument("--debug", action="store_true", help="show a traceback on failure")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m generator",
        description="Generate Playwright tools (Python shims, .tool.yaml, .d.ts, and Kotlin for "
        "Trailblaze) from allowlist.yaml. Subcommands: diff (the tool-surface change between two "
        "releases), schema (the allowlist's JSON Schema), bump (move to another release); see "
        "python -m generator diff --help, schema --help, bump --help.",
    )
    _common(p)
    p.add_argument(
        "--version",
        action="version",
        version=f"playwright-tool-generator {__version__}",
        help="print the generator's version (the release pip installed) and exit",
    )
    p.add_argument(
        "--out",
        default=None,
        help="output directory (default: the allowlist's `generate: out`, else generated)",
    )
    p.add_argument(
        "--expect-playwright",
        default=None,
        metavar="VERSION",
        help="the Playwright version the calling build depends on; refuse to run when the "
        "allowlist pins another",
    )
    p.add_argument(
        "--lock-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for another run on the same --out before exiting 4 (default 60; "
        "0: do not wait)",
    )
    p.add_argument(
        "--jar",
        type=Path,
        help="Playwright Java JAR to reflect instead of resolving the pinned version; a "
        "-sources.jar beside it supplies the javadoc",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="change nothing; print a unified diff and exit 1 if the output is stale",
    )
    p.add_argument(
        "--outputs",
        default=None,
        metavar="KINDS",
        help="comma-separated output kinds: python, yaml, typescript, trailblaze, or all "
        "(default: python,yaml,typescript)",
    )
    p.add_argument(
        "--kotlin-package",
        default=None,
        help="package of the Kotlin shims (default: xyz.block.trailblaze.playwright.generated)",
    )
    p.add_argument(
        "--trailblaze-api",
        default=None,
        metavar="RELEASE",
        help="the Trailblaze release whose API the trailblaze outputs target: 2026.07.21 "
        "(default), 2026.07.21+map-json (with patches/trailblaze/ applied: map and JSON "
        "arguments keep their types) or 2026.05.19 (isForLlm); see docs/generator.md",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings (where Java and Python playwright disagree) as errors",
    )
    p.add_argument(
        "--allow-version-mismatch",
        action="store_true",
        help="generate even if the JAR and the Python playwright differ in minor version (with a "
        "loud warning; not recommended)",
    )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print warnings, errors and the summary only (the default; overrides -v)",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also print notes (overloads and options left out, and why)",
    )
    return p


def diff_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m generator diff",
        description="Report how the tool surface changes between two Playwright versions. OLD and NEW "
        "are each a version (1.61.0), a JAR path, or a manifest.json path.",
    )
    p.add_argument(
        "old", help="the older side: a version (1.61.0), a JAR path, or a manifest.json path"
    )
    p.add_argument("new", help="the newer side, given as OLD is")
    _common(p)
    p.add_argument(
        "--output", type=Path, help="write the Markdown report here instead of standard output"
    )
    _fail_on(p)
    p.add_argument(
        "--allow-version-mismatch",
        action="store_true",
        help="bind a side whose own Python playwright cannot be fetched against the installed one "
        "(the headline says so)",
    )
    return p


def _fail_on(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--fail-on",
        choices=("breaking", "any", "never"),
        default="breaking",
        help="exit 1 on breaking changes (default), on any change, or never",
    )


def schema_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m generator schema",
        description="Print the JSON Schema of the allowlist, made from the reflected surface of its "
        "pinned Playwright: every method that can be a tool, with its description, the entry flags "
        "and the generate: block. Every run also writes it beside the outputs as "
        "allowlist.schema.json, for an editor's `# yaml-language-server: $schema=...` line.",
    )
    _common(p)
    p.add_argument("--output", type=Path, help="write the schema here instead of standard output")
    return p
