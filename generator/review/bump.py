"""`python -m generator bump VERSION` (and `bump --list`): move the project to another Playwright
release in one command, and write the report a reviewer reads.

A bump changes every pin that names the version (the allowlist's `playwright:`, pyproject.toml's
`playwright==`, package.json's `playwright-core` and `@playwright/test`, and package-lock.json
through npm), installs the Python package into the project's `.venv`, regenerates the output and
writes `docs/bumps/<old>-to-<new>.md` (the `diff` of the two releases, each side bound against its
own Python API). It is one transaction: a refused release, a failed step or an interrupt puts
every pin, the lock file, the installed package and the output back as they were.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.read.allowlist import load_allowlist
from generator.read.python_release import valid_version
from generator.shared import typed_command
from generator.shared.diagnostics import ExitCode, GeneratorError

_STEP_TIMEOUT_S = 900


def bump_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m generator bump",
        description="Move the project to another Playwright release: update every pin, install it "
        "into .venv, regenerate, and write the review report to docs/bumps/<old>-to-<new>.md. "
        "With --list: which releases after the pin are published, and which can be bumped to.",
    )
    p.add_argument("version", nargs="?", help="the release to move to, such as 1.63.0")
    p.add_argument(
        "--list",
        action="store_true",
        help="list the releases after the pin and what each has published; change nothing",
    )
    p.add_argument(
        "--allowlist", type=Path, default=Path("allowlist.yaml"), help="default: allowlist.yaml"
    )
    p.add_argument("--out", default="generated", help="output directory; default: generated")
    p.add_argument(
        "--fail-on",
        choices=("breaking", "any", "never"),
        default="breaking",
        help="exit 1 on breaking changes (default), on any change, or never",
    )
    return p


@dataclass(frozen=True)
class Pin:
    """One file's pin of the version: the text around the version, as a pattern whose group 1 is
    the version."""

    path: str
    pattern: str
    required: bool = True


# Every pin the project keeps of the Playwright version. Tests and scripts read the allowlist's.
PINS = (
    Pin("allowlist.yaml", r"(?m)^playwright:[ \t]*([0-9][^\s#]*)"),
    Pin("pyproject.toml", r'"playwright==([^"]+)"'),
    Pin("package.json", r'"playwright-core":\s*"([^"]+)"'),
    Pin("package.json", r'"@playwright/test":\s*"([^"]+)"', required=False),
)


def repin(text: str, pin: Pin, old: str, new: str) -> str:
    """`text` with `pin`'s version moved from `old` to `new`; an error naming the file when the
    pin is not there or names another version (the files disagree: fix them first)."""
    found = list(re.finditer(pin.pattern, text))
    if not found:
        if not pin.required:
            return text
        raise GeneratorError(
            f"{pin.path}: no pin of Playwright found (expected {pin.pattern!r}); restore it, then "
            "bump again. Nothing was changed.",
            ExitCode.USER_INPUT,
        )
    for match in reversed(found):
        if match.group(1) != old:
            raise GeneratorError(
                f"{pin.path} pins Playwright {match.group(1)}, but the allowlist pins {old}; make "
                f"them agree (both {old}), then bump again. Nothing was changed.",
                ExitCode.USER_INPUT,
            )
        text = text[: match.start(1)] + new + text[match.end(1) :]
    return text


class Transaction:
    """Files and the output folder as they were, put back unless the bump commits."""

    def __init__(self, root: Path, out: Path) -> None:
        self.root, self.out = root, out
        self.saved: dict[Path, bytes | None] = {}
        self._scratch = Path(tempfile.mkdtemp(prefix="generator-bump-"))
        self._out_copy = self._scratch / "out"
        if out.is_dir():
            shutil.copytree(out, self._out_copy, symlinks=True)

    def save(self, path: Path) -> None:
        if path not in self.saved:
            self.saved[path] = path.read_bytes() if path.exists() else None

    def write(self, path: Path, text: str) -> None:
        self.save(path)
        partial = path.with_name(path.name + ".bump-partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)

    def roll_back(self) -> None:
        for path, content in self.saved.items():
            if content is None:
                path.unlink(missing_ok=True)
            else:
                partial = path.with_name(path.name + ".bump-partial")
                partial.write_bytes(content)
                partial.replace(path)
        if self._out_copy.is_dir():
            shutil.rmtree(self.out, ignore_errors=True)
            shutil.copytree(self._out_copy, self.out, symlinks=True)
        self.close()

    def close(self) -> None:
        shutil.rmtree(self._scratch, ignore_errors=True)


def _step(command: list[str], cwd: Path, what: str) -> str:
    """Run one step of the bump; its output (standard output, then standard error: the
    generator's warnings are the reviewer's to read), or an error naming the step and its last
    words."""
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, check=False, timeout=_STEP_TIMEOUT_S
        )
    except FileNotFoundError:
        raise GeneratorError(
            f"{what}: {command[0]} is not installed.", ExitCode.ENVIRONMENT
        ) from None
    except subprocess.TimeoutExpired:
        raise GeneratorError(
            f"{what} took over {_STEP_TIMEOUT_S} s; check the network and try again.",
            ExitCode.ENVIRONMENT,
        ) from None
    if done.returncode != 0:
        said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
        raise GeneratorError(
            f"{what} failed (exit {done.returncode}): {' / '.join(said[-3:])[:600]}",
            ExitCode.ENVIRONMENT,
        )
    return done.stdout + done.stderr


def _venv_python(root: Path) -> Path:
    python = root / ".venv" / "bin" / "python"
    if not python.exists():
        raise GeneratorError(
            f"{root / '.venv'} is missing: run scripts/setup.sh first (the bump installs the new "
            "Python playwright into it).",
            ExitCode.ENVIRONMENT,
        )
    return python


def run_bump(argv: Sequence[str]) -> int:
    from generator.read.releases import release, releases_after, table

    args = bump_parser().parse_args(argv)
    pin = load_allowlist(args.allowlist).playwright_version
    if args.list:
        if args.version:
            raise GeneratorError("give either --list or a VERSION, not both.")
        sys.stdout.write(table(pin, releases_after(pin)))
        return ExitCode.OK
    version = args.version
    if not version:
        raise GeneratorError(
            f"name the release to move to (`{typed_command.generator(['bump', 'VERSION'])}`), or "
            f"list them with `{typed_command.generator(['bump', '--list'])}`."
        )
    if not valid_version(version):
        raise GeneratorError(f"{version!r} is not a Playwright version; give one such as 1.63.0.")
    if version == pin:
        raise GeneratorError(f"the project already pins Playwright {pin}; nothing to do.")
    root = args.allowlist.resolve().parent
    # A project with its own .venv (this generator's checkout, a Python consumer) has the full
    # bump: pins, pip, regeneration, the review. Without one, it is a build's (Maven, Gradle).
    python = _venv_python(root) if (root / ".venv").exists() else None
    found = release(version)
    if found.missing:
        raise GeneratorError(
            f"Playwright {version} cannot be bumped to: {', '.join(found.missing)} "
            f"{'is' if len(found.missing) == 1 else 'are'} not published. Wait for it, or pick a "
            f"release that `{typed_command.generator(['bump', '--list'])}` shows as ready. Nothing "
            "was changed.",
            ExitCode.ENVIRONMENT,
        )
    if python is None:
        return _consumer_bump(args.allowlist.resolve(), root, pin, version)
    return _bump(args, root, python, pin, version)


# A consumer's build files and their pins of Playwright Java (a Maven property or the dependency's
# own version, a Gradle coordinate), moved with the allowlist's `playwright:`.
CONSUMER_PINS = (
    Pin("pom.xml", r"<playwright\.version>([^<]+)</playwright\.version>", required=False),
    Pin(
        "pom.xml",
        r"<artifactId>playwright</artifactId>\s*<version>([0-9][^<$]*)</version>",
        required=False,
    ),
    Pin(
        "build.gradle.kts", r"com\.microsoft\.playwright:playwright:([0-9][^\"']*)", required=False
    ),
    Pin("build.gradle", r"com\.microsoft\.playwright:playwright:([0-9][^\"']*)", required=False),
)


def _consumer_bump(allowlist: Path, root: Path, old: str, new: str) -> int:
    """A bump in a project that uses the generator (no generator checkout beside its allowlist):
    the allowlist's `playwright:` and the build's own Playwright dependency move together (its
    `--expect-playwright` refuses one without the other); the build regenerates."""
    texts: dict[Path, str] = {
        allowlist: repin(allowlist.read_text(encoding="utf-8"), PINS[0], old, new)
    }
    for pin in CONSUMER_PINS:
        path = root / pin.path
        if path.is_file():
            texts[path] = repin(texts.get(path, path.read_text(encoding="utf-8")), pin, old, new)
    moved = [p for p, t in texts.items() if p == allowlist or t != p.read_text(encoding="utf-8")]
    for path in moved:
        path.write_text(texts[path], encoding="utf-8")
    shown = ", ".join(p.relative_to(root).as_posix() for p in moved)
    print(f"bump: Playwright {old} -> {new} in {shown}")
    if len(moved) == 1:
        print(
            f"bump: no build file here pins Playwright {old} (pom.xml, build.gradle.kts): move your "
            f"build's com.microsoft.playwright:playwright to {new} too"
        )
    print(
        "bump: now run your build (it regenerates the tools), review manifest.json and any compile "
        'error a changed signature brings, and commit (docs/generator.md "A bump, from a consumer")'
    )
    return ExitCode.OK


def _bump(args: argparse.Namespace, root: Path, python: Path, old: str, new: str) -> int:
    report_path = root / "docs" / "bumps" / f"{old}-to-{new}.md"
    out = (root / args.out) if not Path(args.out).is_absolute() else Path(args.out)
    transaction = Transaction(root, out)
    installed_new = False
    try:
        texts: dict[Path, str] = {}
        for pin in PINS:
            path = root / pin.path
            if path.name == "allowlist.yaml":
                path = args.allowlist.resolve()
            elif not path.exists():
                continue  # a project without npm packages (or without a pyproject) has no such pin
            text = texts.get(path, path.read_text(encoding="utf-8"))
            texts[path] = repin(text, pin, old, new)
        for path, text in texts.items():
            transaction.write(path, text)
        if (root / "package.json").exists():
            transaction.save(root / "package-lock.json")
            print(f"bump: updating package-lock.json for playwright-core {new}", file=sys.stderr)
            _step(
                [
                    "npm",
                    "install",
                    "--package-lock-only",
                    "--ignore-scripts",
                    "--no-audit",
                    "--no-fund",
                ],
                root,
                "npm install --package-lock-only",
            )
        print(f"bump: installing Python playwright {new} into .venv", file=sys.stderr)
        installed_new = True
        _pip_install(python, root, new)
        print("bump: regenerating", file=sys.stderr)
        generated = _step(
            [
                str(python),
                "-m",
                "generator",
                "--allowlist",
                str(args.allowlist),
                "--out",
                str(out),
                "-q",
            ],
            root,
            "regenerating",
        )
        print(generated.strip(), file=sys.stderr)
        transaction.save(report_path)
        report_path.parent.mkdir(parents=True, exist_ok=True)
        _diff(python, root, args, old, new, report_path)
    except BaseException as stop:
        transaction.roll_back()
        if installed_new:
            try:
                _pip_install(python, root, old)
            except GeneratorError as error:
                print(
                    f"error: putting Python playwright {old} back failed too: {error}",
                    file=sys.stderr,
                )
        if isinstance(stop, KeyboardInterrupt):
            raise GeneratorError(
                f"the bump to {new} was interrupted; every pin, the lock file, .venv's playwright "
                f"and {args.out} are back at {old}. Run it again to finish.",
                ExitCode.ENVIRONMENT,
            ) from None
        if isinstance(stop, GeneratorError):
            raise GeneratorError(
                f"the bump to {new} failed, and everything is back at {old}: {stop}", stop.exit_code
            ) from None
        raise
    transaction.close()
    return _headline(report_path, args.fail_on, root)


def _pip_install(python: Path, root: Path, version: str) -> None:
    _step(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"playwright=={version}",
        ],
        root,
        f"pip install playwright=={version}",
    )


def _diff(
    python: Path, root: Path, args: argparse.Namespace, old: str, new: str, report: Path
) -> None:
    """The report: `diff OLD NEW`, each side bound against its own Python API."""
    _step(
        [
            str(python),
            "-m",
            "generator",
            "diff",
            old,
            new,
            "--allowlist",
            str(args.allowlist),
            "--output",
            str(report),
            "--fail-on",
            "never",
        ],
        root,
        f"diff {old} {new}",
    )


def _headline(report: Path, fail_on: str, root: Path) -> int:
    """Print the report's headline and where it is; exit as `diff --fail-on` would."""
    text = report.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip()]
    print(lines[0].removeprefix("# "))
    if len(lines) > 1:
        print(lines[1])
    print(
        f"report: {report.relative_to(root)}; review it and the changes to generated/, then commit."
    )
    breaking = bool(re.search(r"^\*\*([1-9]\d*) breaking", text, re.M))
    changed = "No change to the tool surface." not in text
    failing = {"breaking": breaking, "any": changed, "never": False}[fail_on]
    return ExitCode.STALE if failing else ExitCode.OK
