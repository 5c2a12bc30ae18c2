"""`python -m generator diff OLD NEW`: the tool-surface change between two sides (a Playwright
version, a JAR or a manifest.json), each bound against the Python API of its own version."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.commands.arguments import diff_parser
from generator.commands.pipeline import Inputs, check_versions, gather, generate
from generator.commands.run_options import cache_of, templates_of
from generator.read.allowlist import load_allowlist
from generator.shared.cache import Cache
from generator.shared.diagnostics import ExitCode, GeneratorError


def _side_manifest(side: str, args: argparse.Namespace, cache: Cache) -> dict[str, Any]:
    """A manifest for OLD or NEW: read from a manifest.json, or generated in memory from a JAR or version."""
    path = Path(side)
    if side.endswith(".json"):
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_MANIFEST_BYTES + 1)
            if len(raw) > MAX_MANIFEST_BYTES:
                raise ValueError(f"larger than {MAX_MANIFEST_BYTES >> 20} MiB")
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
        allowlist, jar, templates_of(args), "diff;outputs+kotlin", cache, kinds, None, python_files
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


MAX_MANIFEST_BYTES = 64 << 20


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
    cache = cache_of(args)
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
