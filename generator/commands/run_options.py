"""The options of a run, checked and filled in before anything is resolved, started or written:
the allowlist and its `generate:` block, the output folder, the output kinds and Kotlin
settings, the pin the build expects, the cache and templates folders, the Python API to bind
against; and the command that reruns a check."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.read.allowlist import GENERATE_KEYS, Allowlist, load_allowlist
from generator.shared import allowlist_rules as rules
from generator.shared.cache import Cache, default_cache_dir
from generator.shared.diagnostics import ExitCode, GeneratorError


def templates_of(args: argparse.Namespace) -> Path:
    from generator.render.template_dir import default_templates

    return args.templates or default_templates()


def cache_of(args: argparse.Namespace) -> Cache:
    return Cache(args.cache_dir or default_cache_dir(), enabled=not args.no_cache)


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


def python_api_of(allowlist: Allowlist, args: argparse.Namespace, cache: Cache) -> Any:
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


def rerun_command(arguments: Sequence[str], without: tuple[str, ...] = ("--check",)) -> str:
    """The command that writes what `arguments` checked, as the user must type it: this run's
    own options (allowlist, out, outputs...) but `without`, run by the interpreter the user ran,
    spelled `.venv/bin/python` when it is the current folder's virtual environment."""
    from generator.shared import typed_command

    return typed_command.generator([a for a in arguments if a not in without])
