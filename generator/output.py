"""Writes the rendered tree into the output directory, or compares it (`--check`).

Only files whose bytes change are rewritten, and the write is a transaction:
1. stage: every new file is written beside its target as `<name>.generator-tmp` and fsynced;
2. commit point: a journal listing the renames and removals is written and fsynced;
3. apply: renames and removals are carried out, then the journal is deleted.
A run that finds a journal finishes it (roll forward); one that finds staged files without a
journal deletes them (roll back). So after any interruption, SIGKILL included, the next run
leaves the directory exactly as the old tree or exactly as the new one.

The ledger (`.generated-files`) lists the files the generator wrote; only those are ever removed.
"""

from __future__ import annotations

import difflib
import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path

from generator import checkpoints
from generator.diagnostics import ExitCode, GeneratorError

LEDGER = ".generated-files"
JOURNAL = ".generator-journal"
TMP_SUFFIX = ".generator-tmp"


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


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def pending(out: Path) -> bool:
    """Whether an interrupted write left a journal or staged files behind."""
    return (out / JOURNAL).exists() or any(out.rglob(f"*{TMP_SUFFIX}")) if out.is_dir() else False


def recover(out: Path) -> str | None:
    """Finish or undo an interrupted write; returns what was done, or None if nothing was pending."""
    if not out.is_dir():
        return None
    journal = out / JOURNAL
    if journal.exists():
        try:
            entries = json.loads(journal.read_text(encoding="utf-8"))
        except ValueError:
            entries = None  # the journal itself was cut short: the commit point was never reached
        if entries is not None:
            _carry_out(out, entries["renames"], entries["removals"])
            journal.unlink()
            return "completed an interrupted write"
        journal.unlink()
    staged = sorted(out.rglob(f"*{TMP_SUFFIX}"))
    for temp in staged:
        temp.unlink()
    return "undid an interrupted write" if staged else None


def _carry_out(out: Path, renames: list[str], removals: list[str]) -> None:
    for rel in renames:
        temp = out / (rel + TMP_SUFFIX)
        if temp.exists():  # absent once renamed: applying the journal twice is harmless
            os.replace(temp, out / rel)
    for rel in removals:
        (out / rel).unlink(missing_ok=True)


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


def _stage(out: Path, writes: dict[str, str]) -> None:
    folders = set()
    for rel, text in sorted(writes.items()):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(out / (rel + TMP_SUFFIX), "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        folders.add(target.parent)
        checkpoints.reached("staging")
    for folder in sorted(folders):
        _fsync_dir(folder)


def apply(out: Path, the_plan: Plan) -> None:
    if the_plan.is_noop:
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
        _stage(out, the_plan.writes)
        checkpoints.reached("staged")
        # The ledger goes last, so that it never lists a file that is not in place yet.
        renames = sorted(the_plan.writes, key=lambda rel: (rel == LEDGER, rel))
        journal = json.dumps({"renames": renames, "removals": list(the_plan.removals)})
        with open(out / JOURNAL, "w", encoding="utf-8") as handle:
            handle.write(journal)
            handle.flush()
            os.fsync(handle.fileno())
        _fsync_dir(out)
    except OSError as exc:
        recover(out)
        raise GeneratorError(
            f"cannot write under {out}: {exc.strerror} ({exc.filename}). Nothing was changed; make the "
            "directory writable, or choose another with --out.",
            ExitCode.OUTPUT,
        ) from None
    except KeyboardInterrupt:
        recover(out)  # before the commit point: undo
        raise
    checkpoints.reached("journaled")
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # past the commit point: finish
    try:
        for index, rel in enumerate(renames):
            os.replace(out / (rel + TMP_SUFFIX), out / rel)
            if index == len(renames) // 2:
                checkpoints.reached("renaming")
        for rel in the_plan.removals:
            (out / rel).unlink(missing_ok=True)
        (out / JOURNAL).unlink()
    finally:
        signal.signal(signal.SIGINT, previous)


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
