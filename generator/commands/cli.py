"""`python -m generator`: read the allowlist, reflect, bind, render, write (or --check), and the
entry point that sends `diff` (`diff_command`), `schema` (`schema_command`) and `bump`
(`generator.review.bump`) to their own modules. The options are checked in `run_options`, the
command lines are `arguments`."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path

from generator.commands.arguments import parser
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
from generator.commands.run_options import (
    cache_of,
    check_options,
    python_api_of,
    rerun_command,
    templates_of,
)
from generator.shared.cache import Cache
from generator.shared.diagnostics import ExitCode, GeneratorError, Level
from generator.write import output, quick_check
from generator.write.lock import OutputLock


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


def run(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(arguments)
    args.arguments = arguments
    started = time.perf_counter()
    allowlist, out, kinds, kotlin = check_options(args)
    cache = cache_of(args)
    flags = f"strict={args.strict};mismatch={args.allow_version_mismatch}"
    if kinds is not None or kotlin is not None:
        flags += f";outputs={kinds};kotlin={kotlin}"
    inputs = gather(
        allowlist,
        args.jar,
        templates_of(args),
        flags,
        cache,
        kinds,
        kotlin,
        python_api_of(allowlist, args, cache),
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


def _options_differ(out: Path, inputs: Inputs) -> list[str]:
    """The shaping options this run and the one that wrote `out` (its manifest.json) disagree on,
    each as `name: the tree's value; this run's value`; none when no manifest records them."""
    from generator.commands.diff_command import MAX_MANIFEST_BYTES
    from generator.commands.pipeline import recorded_options

    try:
        with open(out / "manifest.json", "rb") as handle:
            written = json.loads(handle.read(MAX_MANIFEST_BYTES)).get("options")
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
            from generator.commands.diff_command import run_diff

            return run_diff(arguments[1:])
        if arguments[:1] == ["schema"]:
            from generator.commands.schema_command import run_schema

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
