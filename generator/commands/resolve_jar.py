"""`python -m generator.commands.resolve_jar [VERSION] [--allowlist FILE]`: print the path of the
Playwright JAR the generator reflects (`read.jar_resolver`), so that scripts (`scripts/setup.sh`,
`scripts/kotlin-check.sh`) use the same JAR as the generator."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.read.allowlist import load_allowlist
from generator.read.jar_resolver import resolve_jar
from generator.read.python_release import valid_version
from generator.shared.diagnostics import ExitCode, GeneratorError


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m generator.commands.resolve_jar",
        description="Print the path of the Playwright Java JAR the generator reflects, fetching it "
        "through mvn into the local Maven repository when it is not there yet.",
    )
    p.add_argument(
        "version",
        nargs="?",
        help="a Playwright release such as 1.63.0 (default: the allowlist's `playwright:` pin)",
    )
    p.add_argument(
        "--allowlist",
        type=Path,
        default=Path("allowlist.yaml"),
        help="the allowlist whose pin to resolve when no VERSION is given (default allowlist.yaml)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    """Print the resolved JAR's path (VERSION: the allowlist's pin by default); exit 2 on a
    version that is no release or an allowlist that cannot be read."""
    args = _arguments().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.version is not None and not valid_version(args.version):
            raise GeneratorError(
                f"{args.version!r} is not a Playwright release; give one such as 1.63.0, or none "
                "for the allowlist's pin.",
                ExitCode.USER_INPUT,
            )
        version = args.version or load_allowlist(args.allowlist).playwright_version
        print(resolve_jar(version, None).jar)
    except GeneratorError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
