"""`python -m generator`: read the allowlist, reflect, bind, render, write (or --check);
`python -m generator diff OLD NEW`: the tool-surface change between two Playwright versions; and
`python -m generator bump VERSION` (`generator.review.bump`): move the project to another release."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from generator.commands.pipeline import (
    Generation,
    Inputs,
    check_versions,
    gather,
    generate,
    recorded_files,
    remember,
    up_to_date,
)
from generator.read.allowlist import GENERATE_KEYS, Allowlist, load_allowlist
from generator.shared import allowlist_rules as rules
from generator.shared.cache import Cache, default_cache_dir
from generator.shared.diagnostics import ExitCode, GeneratorError, Level
from generator.write import output, quick_check
from generator.write.lock import OutputLock


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
        description="Generate Playwright tools (Python shims, .tool.yaml, .d.ts) from allowlist.yaml. "
        "See also: python -m generator diff --help, python -m generator bump --help.",
    )
    _common(p)
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
        "(default) or 2026.05.19 (isForLlm); see docs/generator.md",
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


def _templates(args: argparse.Namespace) -> Path:
    from generator.render.template_dir import default_templates

    return args.templates or default_templates()


def _cache(args: argparse.Namespace) -> Cache:
    return Cache(args.cache_dir or default_cache_dir(), enabled=not args.no_cache)


def _report(generation: Generation, verbose: bool) -> int:
    """Print warnings and errors (and notes when verbose); return how many notes were held back."""
    held_back = 0
    for d in generation.diagnostics:
        if d.level >= Level.WARNING or verbose:
            print(d.render(), file=sys.stderr)
        else:
            held_back += 1
    return held_back


def _keep_notes(generation: Generation, inputs: Inputs, cache: Cache) -> None:
    """Remember the run's notes under its inputs, so `-v` on an unchanged tree shows them."""
    notes = [d.render() for d in generation.diagnostics if d.level < Level.WARNING]
    cache.store("notes", cache.key("notes", inputs.fingerprint), "\n".join(notes))


def _last_notes(inputs: Inputs, cache: Cache) -> None:
    """Print the notes of the run that made these inputs' output (none known: say so)."""
    text = cache.load("notes", cache.key("notes", inputs.fingerprint))
    if text is None:
        print(
            "note: the notes of the run that wrote this tree are not in the cache; "
            "run with --no-cache -v to see them.",
            file=sys.stderr,
        )
    elif text:
        print(text, file=sys.stderr)


def _note_kotlin_in_committed_tree(out: Path, written: Iterable[str]) -> None:
    """Kotlin shims written into a folder git tracks end up in the next commit unless the user
    notices: say where they went and how to send them elsewhere."""
    import subprocess

    if not any(rel.endswith(".kt") for rel in written):
        return
    try:
        tracked = subprocess.run(
            ["git", "-C", str(out), "ls-files", "--", "."],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return  # no git: nothing is committed
    if tracked.returncode == 0 and tracked.stdout.strip():
        print(
            f"note: Kotlin shims were written into {out / 'trailblaze'}, inside {out}, which git "
            "tracks: they are in your next commit unless you send them elsewhere with "
            "--out DIR (or `out:` in the allowlist's `generate:` block).",
            file=sys.stderr,
        )


def output_directory(raw: str, allowlist: Path) -> Path:
    """`--out` as a directory the generator may own: not empty, not the file system's or the
    user's root, not a repository root, and not the allowlist's folder or one above it."""
    if not raw.strip():
        raise GeneratorError(
            "--out is empty; name the output directory (the default is `generated`)."
        )
    shown = raw if len(raw) <= 60 else raw[:57] + "..."
    problem = rules.PATH.problem(raw)
    if problem:
        raise GeneratorError(f"--out {shown!r} {problem}.")
    out = Path(raw)
    try:
        resolved = out.resolve()
        length = len(os.fsencode(resolved))
        reason = _output_problem(resolved, allowlist)
    except OSError as error:  # a name longer than the file system's, in bytes
        raise GeneratorError(
            f"--out {shown} cannot be used ({error.strerror}); {_SHORTER}."
        ) from None
    if length > rules.MAX_PATH - _DEEPEST_OUTPUT:
        raise GeneratorError(
            f"--out {shown} is {length} bytes long as an absolute path; the files inside it "
            f"need it at most {rules.MAX_PATH - _DEEPEST_OUTPUT}: {_SHORTER}."
        )
    if reason:
        raise GeneratorError(
            f"--out {shown} {reason}; the generator removes files it no longer produces there. "
            "Choose a folder of its own, such as `generated`."
        )
    return out


# The generated files lie at most this deep below the output folder (in bytes), with room to
# spare: a longer output path leaves some of them past the system's 4096-byte path limit.
_DEEPEST_OUTPUT = 1024


_SHORTER = "choose a shorter path, such as `generated`"


def _output_problem(resolved: Path, allowlist: Path) -> str | None:
    """Why the generator may not own `resolved`, or None."""
    allowlist_dir = allowlist.resolve().parent
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        return "is the file system's root or your home directory"
    if (resolved / ".git").exists():
        return "is the root of a repository"
    if resolved == allowlist_dir or resolved in allowlist_dir.parents:
        return f"holds the allowlist ({allowlist})"
    if ".git" in resolved.parts:
        return "is inside a .git folder"
    return None


def _with_generate_block(args: argparse.Namespace, allowlist: Allowlist) -> dict[str, str]:
    """Fill each shaping option the command line left out from the allowlist's `generate:` block
    (the command line wins); returns where each option's value came from, for messages: the
    option itself (`--outputs`) or the block's `file:line:col`."""
    where = {key: f"--{key}" for key in GENERATE_KEYS}
    for option in allowlist.options:
        dest = option.key.replace("-", "_")
        if getattr(args, dest) is None:
            setattr(args, dest, Path(option.value) if dest == "templates" else option.value)
            where[option.key] = f"{option.where}: {option.key}"
    if args.out is None:
        args.out = "generated"
    return where


def _output_settings(
    args: argparse.Namespace, where: dict[str, str]
) -> tuple[tuple[str, ...] | None, Any]:
    """`--outputs`, `--kotlin-package` and `--trailblaze-api`, checked; (None, None) when none is given, so a
    run without them is the run it always was."""
    from generator.render.kotlin.settings import KotlinSettings
    from generator.render.outputs import parse_kinds

    kinds = None
    if args.outputs is not None:
        try:
            kinds = parse_kinds(args.outputs)
        except ValueError as exc:
            raise GeneratorError(
                f"{where['outputs']} {args.outputs}: {exc}.", ExitCode.USER_INPUT
            ) from None
    given = {
        key: value
        for key, value in (
            ("package", args.kotlin_package),
            ("trailblaze_api", args.trailblaze_api),
        )
        if value is not None
    }
    if not given:
        return kinds, None
    kotlin = KotlinSettings(**given)
    problem = kotlin.problem()
    if problem:
        settings = ("kotlin-package", "trailblaze-api")
        from_block = [w for k, w in where.items() if k in settings and ":" in w]
        shown = f"{from_block[0]}: " if from_block else ""
        raise GeneratorError(f"{shown}{problem}.", ExitCode.USER_INPUT)
    return kinds, kotlin


def expect_playwright(allowlist: Allowlist, args: argparse.Namespace) -> None:
    """`--expect-playwright VERSION`: the build's own Playwright dependency must be the pin the
    tools are generated for (a manifest saying 1.63.0 beside classes compiled against 1.62.0 is
    the mistake this stops)."""
    expected = args.expect_playwright
    if expected is None or expected == allowlist.playwright_version:
        return
    raise GeneratorError(
        f"{args.allowlist} pins Playwright {allowlist.playwright_version}, but the build depends "
        f"on {expected} (--expect-playwright). Make them one: set `playwright: {expected}` in "
        f"{args.allowlist}, or move the build's Playwright dependency to "
        f"{allowlist.playwright_version}.",
        ExitCode.USER_INPUT,
    )


def _python_api(allowlist: Allowlist, args: argparse.Namespace, cache: Cache) -> Any:
    """The Python API to bind against: that of the allowlist's pin, read from the release's wheel
    (kept in the cache, never installed) when the installed playwright is another version, so a
    consumer on another Playwright generates for its own. With `--allow-version-mismatch`, the
    installed one (the version check then warns)."""
    from generator.read.jar_resolver import resolve_jar
    from generator.read.python_release import locate_python_api_or_none, python_api_for

    # The JAR first: a pin that is no release is said as before, by the resolver.
    resolve_jar(allowlist.playwright_version, args.jar)
    if args.allow_version_mismatch or locate_python_api_or_none() is None:
        return None  # the installed one, or the missing-playwright error, as before

    try:
        return python_api_for(allowlist.playwright_version, cache.root if cache.enabled else None)
    except GeneratorError as error:
        raise GeneratorError(
            f"{args.allowlist} pins Playwright {allowlist.playwright_version}, whose Python API "
            f"could not be read: {error} Pass --allow-version-mismatch to bind against the "
            "installed playwright instead (loudly), or pin a release that has a Python wheel.",
            error.exit_code,
        ) from None


def check_options(args: argparse.Namespace) -> tuple[Allowlist, Path, tuple[str, ...] | None, Any]:
    """The allowlist and every option that shapes the output, checked before anything is
    resolved, started or written (no JVM, no network): the allowlist, its `generate:` block
    filled in, the output folder, the output kinds and the Kotlin settings. Whatever the
    allowlist's JSON Schema can say, this refuses alike (`tests/test_allowlist_agreement.py`)."""
    if args.lock_timeout < 0:
        raise GeneratorError("--lock-timeout must be 0 or more seconds.")
    allowlist = load_allowlist(args.allowlist)
    where = _with_generate_block(args, allowlist)
    expect_playwright(allowlist, args)
    out = output_directory(args.out, args.allowlist)
    kinds, kotlin = _output_settings(args, where)
    return allowlist, out, kinds, kotlin


def run(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(arguments)
    args.arguments = arguments
    started = time.perf_counter()
    allowlist, out, kinds, kotlin = check_options(args)
    cache = _cache(args)
    flags = f"strict={args.strict};mismatch={args.allow_version_mismatch}"
    if kinds is not None or kotlin is not None:
        flags += f";outputs={kinds};kotlin={kotlin}"
    inputs = gather(
        allowlist,
        args.jar,
        _templates(args),
        flags,
        cache,
        kinds,
        kotlin,
        _python_api(allowlist, args, cache),
    )
    warning = check_versions(inputs, args.allow_version_mismatch)
    if warning:
        print(warning, file=sys.stderr)
    # Everything from reading the tree to remembering it happens under the lock, so two runs
    # never interleave and the up-to-date record always describes one run's whole output.
    with OutputLock(out, exclusive=not args.check, timeout_s=args.lock_timeout):
        code = _run_locked(args, out, inputs, cache, started)
    if code == ExitCode.OK and cache.enabled:
        _stamp(arguments, out, inputs, cache, warning)
    return code


def _stamp(
    arguments: list[str], out: Path, inputs: Inputs, cache: Cache, warning: str | None
) -> None:
    """Stamp the tree for `quick_check`, once the writer's lock (and its holder note, which
    changes the folder) is gone: under a shared lock, and only if the tree still hashes to what
    this run recorded (another run may have written in between)."""
    options = quick_check.parse(arguments)
    if options is None or not out.is_dir():
        return
    try:
        with OutputLock(out, exclusive=False, timeout_s=0):
            files = recorded_files(inputs, out, cache)
            if files is not None and up_to_date(inputs, out, cache):
                root = os.path.realpath(out)
                quick_check.record(
                    options, str(cache.root), inputs.watched, root, files, warning, str(out)
                )
    except GeneratorError:
        pass  # another run holds the lock: no stamp, the next run hashes


def rerun_command(arguments: Sequence[str], without: tuple[str, ...] = ("--check",)) -> str:
    """The command that writes what `arguments` checked, as the user must type it: this run's
    own options (allowlist, out, outputs...) but `without`, run by the interpreter the user ran,
    spelled `.venv/bin/python` when it is the current folder's virtual environment."""
    from generator.shared import typed_command

    return typed_command.generator([a for a in arguments if a not in without])


def _options_differ(out: Path, inputs: Inputs) -> list[str]:
    """The shaping options this run and the one that wrote `out` (its manifest.json) disagree on,
    each as `name: the tree's value; this run's value`; none when no manifest records them."""
    from generator.commands.pipeline import recorded_options

    try:
        with open(out / "manifest.json", "rb") as handle:
            written = json.loads(handle.read(_MAX_MANIFEST_BYTES)).get("options")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(written, dict):
        return []
    now = recorded_options(inputs)
    return [
        f"{key}: {written.get(key, '(not set)')} in {out}; {now.get(key, '(not set)')} in this run"
        for key in sorted(written.keys() | now.keys())
        if written.get(key) != now.get(key)
    ]


def _run_locked(
    args: argparse.Namespace, out: Path, inputs: Inputs, cache: Cache, started: float
) -> int:
    fix = rerun_command(args.arguments)
    if args.check and output.pending(out):
        print(
            f"{out} has an interrupted write; run `{fix}` to finish it.",
            file=sys.stderr,
        )
        return ExitCode.STALE
    if not args.check:
        recovered = output.recover(out)
        if recovered:
            print(f"{out}: {recovered}.", file=sys.stderr)
    if up_to_date(inputs, out, cache):
        if args.verbose and not args.quiet:
            _last_notes(inputs, cache)
        print(f"{out} is up to date (inputs unchanged; {time.perf_counter() - started:.2f}s).")
        return ExitCode.OK
    generation = generate(inputs, cache)
    notes = _report(generation, args.verbose and not args.quiet)
    _keep_notes(generation, inputs, cache)
    errors = generation.diagnostics.at_least(Level.WARNING if args.strict else Level.ERROR)
    if errors:
        print(
            f"{len(errors)} problem(s) in {args.allowlist}; nothing was written. Fix them and run again.",
            file=sys.stderr,
        )
        return ExitCode.USER_INPUT
    the_plan = output.plan(out, generation.files)
    for note in the_plan.notes:
        print(f"warning: {note}", file=sys.stderr)
    if args.check:
        if the_plan.is_noop:
            remember(inputs, out, generation.files, cache)
            print(f"{out} is up to date ({len(generation.tools)} tools).")
            return ExitCode.OK
        differ = _options_differ(out, inputs)
        if differ:
            print(
                f"{out} was written with other options than this check's:\n  "
                + "\n  ".join(differ)
                + "\nGive --check the options the build uses (best: put them in the allowlist's "
                f"`generate:` block, which every run reads), or rewrite {out} with `{fix}`.",
                file=sys.stderr,
            )
            return ExitCode.STALE
        sys.stdout.write(output.diff(out, the_plan))
        print(
            f"{out} is stale: {len(the_plan.writes)} file(s) differ, {len(the_plan.removals)} to remove. "
            f"Run `{fix}` and commit the result.",
            file=sys.stderr,
        )
        return ExitCode.STALE
    output.apply(out, the_plan)
    remember(inputs, out, generation.files, cache)
    _note_kotlin_in_committed_tree(out, the_plan.writes)
    skipped = len(inputs.allowlist.entries) - len(generation.tools)
    hidden = f"; {notes} note(s), shown with -v" if notes else ""
    print(
        f"{len(generation.tools)} tools generated, {skipped} skipped; {len(the_plan.writes)} file(s) written, "
        f"{the_plan.unchanged} unchanged, {len(the_plan.removals)} removed in "
        f"{time.perf_counter() - started:.2f}s{hidden}."
    )
    return ExitCode.OK


def _side_manifest(side: str, args: argparse.Namespace, cache: Cache) -> dict[str, Any]:
    """A manifest for OLD or NEW: read from a manifest.json, or generated in memory from a JAR or version."""
    path = Path(side)
    if side.endswith(".json"):
        try:
            with open(path, "rb") as handle:
                raw = handle.read(_MAX_MANIFEST_BYTES + 1)
            if len(raw) > _MAX_MANIFEST_BYTES:
                raise ValueError(f"larger than {_MAX_MANIFEST_BYTES >> 20} MiB")
            loaded: Any = json.loads(raw)
        except (OSError, ValueError) as exc:
            raise GeneratorError(
                f"{side}: cannot read the manifest ({exc}).", ExitCode.USER_INPUT
            ) from None
        problem = manifest_problem(loaded)
        if problem:
            raise GeneratorError(
                f"{side}: not a manifest.json written by `python -m generator` ({problem}). "
                "Pass a generated manifest.json, a Playwright version or a JAR.",
                ExitCode.USER_INPUT,
            )
        checked: dict[str, Any] = loaded
        return checked
    from generator.read.jar_resolver import UNKNOWN_VERSION, jar_version
    from generator.read.python_release import python_api_for, valid_version
    from generator.render.outputs import DEFAULT_KINDS, KOTLIN

    allowlist = load_allowlist(args.allowlist)
    jar = path if side.endswith(".jar") else None
    if jar is not None:
        if not jar.is_file():
            raise GeneratorError(f"{side}: no such JAR.", ExitCode.USER_INPUT)
        version = jar_version(jar)
    elif valid_version(side):
        version = side
    else:
        raise GeneratorError(
            f"{side}: not a Playwright version (1.63.0), a .jar or a manifest.json; give one of those.",
            ExitCode.USER_INPUT,
        )
    # The side's own pin, so that a JAR is not measured against the allowlist's.
    allowlist = dataclasses.replace(allowlist, playwright_version=version)
    python_files = None
    if version != UNKNOWN_VERSION:
        try:
            python_files = python_api_for(version, cache.root if cache.enabled else None)
        except GeneratorError as error:
            if not args.allow_version_mismatch:
                raise GeneratorError(
                    f"{side}: no Python API of Playwright {version} to judge it against: {error} "
                    "Each side is bound against the Python playwright of its own version; pass "
                    "--allow-version-mismatch to bind this side against the installed one instead "
                    "(the report's headline then says so), or compare manifest.json files.",
                    error.exit_code,
                ) from None
    # Kotlin too: in memory only, so the report covers the shims' signatures.
    kinds = (*DEFAULT_KINDS, KOTLIN)
    inputs: Inputs = gather(
        allowlist, jar, _templates(args), "diff;outputs+kotlin", cache, kinds, None, python_files
    )
    # A JAR that names no version (a hand-built one) is bound against the installed Python API,
    # and its headline says "Java unknown" beside that Python version.
    warning = (
        check_versions(inputs, args.allow_version_mismatch) if version != UNKNOWN_VERSION else None
    )
    if warning:
        print(f"{side}: {warning}", file=sys.stderr)
    generation = generate(inputs, cache)
    manifest: dict[str, Any] = json.loads(generation.files["manifest.json"])
    return manifest


_MAX_MANIFEST_BYTES = 64 << 20


def manifest_problem(data: Any) -> str | None:
    """What keeps `data` from being a manifest `diff` can compare, or None (the first problem,
    with its JSON path)."""
    if not isinstance(data, dict):
        return "the top level is not an object"
    if data.get("format") != 1:
        return "'format' is not 1"
    playwright = data.get("playwright")
    if not isinstance(playwright, dict) or not isinstance(playwright.get("java"), str):
        return "'playwright.java' is not a string"
    surface = data.get("surface")
    if not isinstance(surface, dict) or not all(isinstance(v, str) for v in surface.values()):
        return "'surface' is not an object of strings"
    tools = data.get("tools")
    if not isinstance(tools, dict):
        return "'tools' is not an object"
    for name, tool in tools.items():
        where = f"tools.{name}"
        if not isinstance(tool, dict):
            return f"'{where}' is not an object"
        for key in ("python", "java", "parameters", "result"):
            if key not in tool:
                return f"'{where}.{key}' is missing"
        if not isinstance(tool["parameters"], dict):
            return f"'{where}.parameters' is not an object"
        for param, spec in tool["parameters"].items():
            if not (
                isinstance(spec, dict)
                and isinstance(spec.get("required"), bool)
                and "schema" in spec
            ):
                return f"'{where}.parameters.{param}' needs 'required' (a boolean) and 'schema'"
    kotlin = data.get("kotlin")
    if kotlin is not None and not (
        isinstance(kotlin, dict)
        and isinstance(kotlin.get("package"), str)
        and all(
            isinstance(kotlin.get(key), dict)
            and all(isinstance(v, str) for v in kotlin[key].values())
            for key in ("shims", "refused")
        )
    ):
        return "'kotlin' needs 'package' (a string), and 'shims' and 'refused' (objects of strings)"
    return None


def _label(side: str, manifest: dict[str, Any]) -> str:
    """A side as the headline names it: its Java and Python versions, where it came from when
    that is a file, and whether the two versions' minors differ (--allow-version-mismatch)."""
    java = manifest["playwright"]["java"]
    python = manifest["playwright"].get("python")
    versions = f"Java {java} / Python {python}" if python else f"Java {java}"
    label = f"Playwright {versions}" if side == java else f"{Path(side).name} ({versions})"
    from generator.read.python_release import valid_version

    known = isinstance(python, str) and valid_version(java) and valid_version(python)
    if known and java.split(".")[:2] != python.split(".")[:2]:
        label += " [--allow-version-mismatch]"
    return label


def run_diff(argv: Sequence[str]) -> int:
    from generator.review.diff_report import compare

    args = diff_parser().parse_args(argv)
    cache = _cache(args)
    old, new = _side_manifest(args.old, args, cache), _side_manifest(args.new, args, cache)
    report = compare(old, new, _label(args.old, old), _label(args.new, new))
    text = report.markdown()
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    failing = {"breaking": bool(report.breaking), "any": report.changed, "never": False}[
        args.fail_on
    ]
    return ExitCode.STALE if failing else ExitCode.OK


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


def run_schema(argv: Sequence[str]) -> int:
    from generator.read.allowlist import SCHEMA_FILE

    args = schema_parser().parse_args(argv)
    cache = _cache(args)
    allowlist = load_allowlist(args.allowlist)
    args.allow_version_mismatch = False
    args.jar = None
    python_files = _python_api(allowlist, args, cache)
    inputs = gather(allowlist, None, _templates(args), "schema", cache, None, None, python_files)
    text = generate(inputs, cache).files[SCHEMA_FILE]
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote the allowlist's schema to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return ExitCode.OK


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every stage cleans up the same way."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if on_main_thread else None
    try:
        if arguments[:1] == ["diff"]:
            return run_diff(arguments[1:])
        if arguments[:1] == ["schema"]:
            return run_schema(arguments[1:])
        if arguments[:1] == ["bump"]:
            from generator.review.bump import run_bump

            return run_bump(arguments[1:])
        return run(arguments)
    except GeneratorError as error:
        if "--debug" in arguments:
            traceback.print_exc()
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt as stop:
        terminated = isinstance(stop, Terminated)
        print(
            f"{'terminated' if terminated else 'interrupted'}; files already in place are "
            "complete, the rest are unchanged.",
            file=sys.stderr,
        )
        return 143 if terminated else 130
    finally:
        if on_main_thread:
            signal.signal(signal.SIGTERM, previous)
