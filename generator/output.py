"""Writes the rendered tree into the output directory, or compares it (`--check`).

Only files whose bytes change are rewritten. Every new file is first written beside its target
and fsynced, then all are renamed into place, so an interruption leaves each file either old or
new. The list of files the generator wrote (`.generated-files`) is what allows removing files it no
longer produces; a file not on that list is never touched.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from generator.diagnostics import ExitCode, GeneratorError

LEDGER = ".generated-files"
_TMP_SUFFIX = ".generator-tmp"


@dataclass(frozen=True)
class Plan:
    """What a write would do: files to create or change, and previously generated files to remove."""

    writes: dict[str, str]
    removals: tuple[str, ...]
    unchanged: int

    @property
    def is_noop(self) -> bool:
        return not self.writes and not self.removals


def _previous(out: Path) -> set[str]:
    ledger = out / LEDGER
    if not ledger.is_file():
        return set()
    return {
        line
        for line in ledger.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    }


def _ledger_text(paths: list[str]) -> str:
    return (
        "# Files written by `python -m generator`; it removes only files listed here.\n"
        + "".join(f"{p}\n" for p in sorted(paths))
    )


def plan(out: Path, files: dict[str, str]) -> Plan:
    desired = {**files, LEDGER: _ledger_text(list(files))}
    writes: dict[str, str] = {}
    unchanged = 0
    for rel, text in desired.items():
        target = out / rel
        try:
            current = target.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            current = None
        except IsADirectoryError:
            raise GeneratorError(
                f"{target} is a directory, but the generator needs to write a file there; move it away.",
                ExitCode.OUTPUT,
            ) from None
        if current == text.encode("utf-8"):
            unchanged += 1
        else:
            writes[rel] = text
    removals = tuple(sorted(p for p in _previous(out) - set(desired) if (out / p).is_file()))
    return Plan(writes, removals, unchanged)


def apply(out: Path, the_plan: Plan) -> None:
    staged: list[tuple[Path, Path]] = []
    try:
        for rel, text in sorted(the_plan.writes.items()):
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            temp = target.with_name(target.name + _TMP_SUFFIX)
            with open(temp, "wb") as handle:
                handle.write(text.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            staged.append((temp, target))
    except OSError as exc:
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        raise GeneratorError(
            f"cannot write under {out}: {exc.strerror} ({exc.filename}). Nothing was changed; "
            "make the directory writable or choose another with --out.",
            ExitCode.OUTPUT,
        ) from None
    # The ledger goes last so that it never lists a file that is not in place yet.
    staged.sort(key=lambda pair: pair[1].name == LEDGER)
    for temp, target in staged:
        os.replace(temp, target)
    for rel in the_plan.removals:
        (out / rel).unlink(missing_ok=True)


def diff(out: Path, the_plan: Plan) -> str:
    chunks: list[str] = []
    for rel, text in sorted(the_plan.writes.items()):
        target = out / rel
        old = target.read_text(encoding="utf-8") if target.is_file() else ""
        chunks += difflib.unified_diff(
            old.splitlines(keepends=True), text.splitlines(keepends=True), f"a/{rel}", f"b/{rel}"
        )
    for rel in the_plan.removals:
        old = (out / rel).read_text(encoding="utf-8")
        chunks += difflib.unified_diff(old.splitlines(keepends=True), [], f"a/{rel}", "/dev/null")
    return "".join(chunks)
