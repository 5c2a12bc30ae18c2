"""`python -m generator`: read the allowlist, reflect, bind, render, write (or --check)."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generator import output
from generator.allowlist import Allowlist, load_allowlist
from generator.binding import Binder
from generator.diagnostics import Diagnostics, ExitCode, GeneratorError, Level
from generator.ir import Tool
from generator.jar_resolver import resolve_jar
from generator.java_surface import build_surface
from generator.python_api import read_python_surface
from generator.render import Renderer, default_templates
from generator.surface_report import build_report
from generator.targets import TARGETS


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m generator",
        description="Generate Playwright tools (Python shims, .tool.yaml, .d.ts) from allowlist.yaml.",
    )
    p.add_argument(
        "--allowlist", type=Path, default=Path("allowlist.yaml"), help="default: allowlist.yaml"
    )
    p.add_argument(
        "--out", type=Path, default=Path("generated"), help="output directory; default: generated"
    )
    p.add_argument(
        "--jar",
        type=Path,
        help="Playwright Java JAR to reflect instead of resolving the pinned version",
    )
    p.add_argument(
        "--templates", type=Path, help="directory of Jinja templates replacing the defaults"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 with a diff if the output is stale",
    )
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("--debug", action="store_true", help="show a traceback on failure")
    p.add_argument("-q", "--quiet", action="store_true", help="print errors and the summary only")
    return p


@dataclass(frozen=True)
class Generation:
    """The result of the pure part of a run: files to write, the tools, and what was said."""

    files: dict[str, str]
    tools: list[Tool]
    diagnostics: Diagnostics


def generate(allowlist: Allowlist, jar: Path | None, templates: Path) -> Generation:
    resolved = resolve_jar(allowlist.playwright_version, jar)
    interfaces = sorted(
        {e.target.java_class for e in allowlist.entries} | {t.java_class for t in TARGETS.values()}
    )
    java = build_surface(resolved.jar, resolved.sources, interfaces, allowlist.playwright_version)
    python = read_python_surface()
    diagnostics = Diagnostics()
    if python.version.split(".")[:2] != allowlist.playwright_version.split(".")[:2]:
        diagnostics.warning(
            allowlist.path,
            f"the allowlist pins Playwright {allowlist.playwright_version} but Python playwright "
            f"{python.version} is installed",
            f"pip install playwright=={allowlist.playwright_version}",
        )
    tools = Binder(java, python, diagnostics).bind_all(allowlist)
    report = build_report(java, python, tools, diagnostics)
    files = Renderer(templates).render_all(
        tools, allowlist.playwright_version, python.version, report
    )
    return Generation(files, tools, diagnostics)


def _report(generation: Generation, quiet: bool) -> None:
    for d in generation.diagnostics:
        if d.level >= Level.WARNING or not quiet:
            print(d.render(), file=sys.stderr)


def run(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    started = time.perf_counter()
    allowlist = load_allowlist(args.allowlist)
    generation = generate(allowlist, args.jar, args.templates or default_templates())
    _report(generation, args.quiet)
    errors = generation.diagnostics.at_least(Level.WARNING if args.strict else Level.ERROR)
    if errors:
        print(
            f"{len(errors)} problem(s) in {args.allowlist}; nothing was written. Fix them and run again.",
            file=sys.stderr,
        )
        return ExitCode.USER_INPUT
    the_plan = output.plan(args.out, generation.files)
    skipped = len(allowlist.entries) - len(generation.tools)
    if args.check:
        if the_plan.is_noop:
            print(f"{args.out} is up to date ({len(generation.tools)} tools).")
            return ExitCode.OK
        sys.stdout.write(output.diff(args.out, the_plan))
        print(
            f"{args.out} is stale: {len(the_plan.writes)} file(s) differ, {len(the_plan.removals)} to remove. "
            "Run `python -m generator` and commit the result.",
            file=sys.stderr,
        )
        return ExitCode.STALE
    output.apply(args.out, the_plan)
    elapsed = time.perf_counter() - started
    print(
        f"{len(generation.tools)} tools generated, {skipped} skipped; {len(the_plan.writes)} file(s) written, "
        f"{the_plan.unchanged} unchanged, {len(the_plan.removals)} removed in {elapsed:.2f}s."
    )
    return ExitCode.OK


def main(argv: Sequence[str] | None = None) -> int:
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        return run(argv)
    except GeneratorError as error:
        if debug:
            traceback.print_exc()
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(
            "interrupted; files already in place are complete, the rest are unchanged.",
            file=sys.stderr,
        )
        return 130
