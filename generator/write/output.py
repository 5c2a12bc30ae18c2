"""Writes the rendered tree into the output directory, or compares it (`--check`).

Only files whose bytes change are rewritten, and the write is a transaction:
1. intent: the list of files about to be staged is written (`.generator-staging`) and fsynced;
2. stage: every new file is written beside its target as `<name>.generator-tmp` and fsynced;
3. commit point: a journal listing the renames and removals (with the SHA-256 of each file to
   remove) is written, fsynced and renamed into place;
4. apply: renames and removals are carried out, then the journal and the intent are deleted.
A run that finds a valid journal finishes it (roll forward); otherwise it deletes the staged files
its intent lists (roll back). So after any interruption, SIGKILL included, the next run leaves the
directory exactly as the old tree or exactly as the new one. Recovery touches only paths that are
safe and inside the output directory, renames only staged files, and removes a file only while its
bytes are still those the journal recorded; a temporary file the intent does not list is left alone.

The ledger (`generator.write.ledger`) decides what the generator may replace or remove: a file that is
not the generator's own is never overwritten (the run stops and names it) and never removed.
"""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.shared import checkpoints
from generator.shared.diagnostics import ExitCode, GeneratorError
from generator.write.ledger import (
    LEDGER,
    Ledger,
    digest,
    inside,
    ledger_text,
    owned,
    read_ledger,
    removable,
)
from generator.write.lock import clear_stale_holder

JOURNAL = ".generator-journal"
INTENT = ".generator-staging"
TMP_SUFFIX = ".generator-tmp"
_MAX_RECORD_BYTES = 16 << 20


@dataclass(frozen=True)
class Plan:
    """What a write would do: files to create or change, previously generated files to remove
    (each with the SHA-256 it must still have), and notes on what was left alone and why."""

    writes: dict[str, str]
    removals: tuple[tuple[str, str], ...]
    unchanged: int
    notes: tuple[str, ...] = ()

    @property
    def is_noop(self) -> bool:
        return not self.writes and not self.removals


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_durably(path: Path, data: bytes) -> None:
    """Write `path` so that it is either absent or complete, whatever happens meanwhile."""
    temp = path.with_name(path.name + ".part")
    with open(temp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    _fsync_dir(path.parent)


def pending(out: Path) -> bool:
    """Whether an interrupted write left a journal or staged files behind."""
    return out.is_dir() and ((out / JOURNAL).exists() or (out / INTENT).exists())


def _read_record(path: Path) -> Any:
    try:
        if path.is_symlink() or path.stat().st_size > _MAX_RECORD_BYTES:
            return None
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def _journal_entries(out: Path) -> tuple[list[str], list[tuple[str, str]]] | None:
    """The journal's renames and removals, or None when it is absent, cut short or not ours."""
    record = _read_record(out / JOURNAL)
    if not isinstance(record, dict) or record.get("format") != 1:
        return None
    renames, removals = record.get("renames"), record.get("removals")
    if not isinstance(renames, list) or not isinstance(removals, list):
        return None
    if not all(isinstance(r, str) for r in renames):
        return None
    if not all(
        isinstance(r, list) and len(r) == 2 and all(isinstance(x, str) for x in r) for r in removals
    ):
        return None
    return renames, [(rel, sha) for rel, sha in removals]


def recover(out: Path) -> str | None:
    """Finish or undo an interrupted write; returns what was done, or None if nothing was pending."""
    if not out.is_dir():
        return None
    clear_stale_holder(out)
    done: str | None = None
    entries = _journal_entries(out)
    if entries is not None:
        _carry_out(out, *entries)
        done = "completed an interrupted write"
    else:
        staged = _read_record(out / INTENT)
        removed = 0
        for rel in staged if isinstance(staged, list) else []:
            if isinstance(rel, str) and inside(out, rel + TMP_SUFFIX):
                temp = out / (rel + TMP_SUFFIX)
                if temp.is_file() and not temp.is_symlink():
                    temp.unlink()
                    removed += 1
        if removed or (out / JOURNAL).exists() or (out / INTENT).exists():
            done = "undid an interrupted write"
    for record in (JOURNAL, INTENT, JOURNAL + ".part", INTENT + ".part"):
        (out / record).unlink(missing_ok=True)
    return done


def _carry_out(out: Path, renames: list[str], removals: list[tuple[str, str]]) -> None:
    ledger = read_ledger(out)
    for rel in renames:
        temp = out / (rel + TMP_SUFFIX)
        # Absent once renamed: applying the journal twice is harmless.
        if not inside(out, rel) or not temp.is_file() or temp.is_symlink():
            continue
        if (out / rel).exists() and not owned(out, rel, ledger):
            continue  # a journal never makes the generator replace a file that is not its own
        os.replace(temp, out / rel)
    for rel, sha in removals:
        if removable(out, rel, sha):
            (out / rel).unlink()


def plan(out: Path, files: dict[str, str]) -> Plan:
    """Compare `files` with `out`; refuse (exit 4, naming the file) to replace a file that is not
    the generator's own."""
    ledger = read_ledger(out) if out.is_dir() else Ledger({}, trusted=False)
    encoded = {rel: text.encode("utf-8") for rel, text in files.items()}
    desired = {**files, LEDGER: ledger_text(encoded)}
    writes: dict[str, str] = {}
    unchanged = 0
    base = os.fspath(out)  # os.path, not pathlib: this loop reads every file of the tree
    for rel, text in desired.items():
        try:
            with open(os.path.join(base, rel), "rb") as handle:
                current: bytes | None = handle.read()
        except (FileNotFoundError, NotADirectoryError):
            current = None
        except IsADirectoryError:
            raise GeneratorError(
                f"{out / rel} is a directory, but the generator needs to write a file there; move it away.",
                ExitCode.OUTPUT,
            ) from None
        expected = encoded.get(rel)
        if current is not None and current == (
            text.encode("utf-8") if expected is None else expected
        ):
            unchanged += 1
            continue
        if current is not None and not owned(out, rel, ledger):
            raise GeneratorError(
                f"{out / rel} exists and was not written by the generator (it is not in {out / LEDGER} "
                "and has no generated header), so it is not overwritten. Move it away, or choose "
                "another --out.",
                ExitCode.OUTPUT,
            )
        writes[rel] = text
    removals: list[tuple[str, str]] = []
    notes = [
        f"{out / LEDGER}: entry {rel!r} refused (not a plain path inside {out}); left alone"
        for rel in ledger.refused
    ]
    for rel, recorded in sorted(ledger.entries.items()):
        if rel in desired or not (out / rel).exists():
            continue
        if removable(out, rel, recorded):
            removals.append((rel, digest((out / rel).read_bytes())))
        else:
            notes.append(f"{out / rel}: no longer generated, but changed since; left alone")
    return Plan(writes, tuple(removals), unchanged, tuple(notes))


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
    # The ledger goes last, so that it never lists a file that is not in place yet.
    renames = sorted(the_plan.writes, key=lambda rel: (rel == LEDGER, rel))
    try:
        out.mkdir(parents=True, exist_ok=True)
        _write_durably(out / INTENT, json.dumps(renames).encode())
        _stage(out, the_plan.writes)
        checkpoints.reached("staged")
        journal = {"format": 1, "renames": renames, "removals": list(the_plan.removals)}
        _write_durably(out / JOURNAL, json.dumps(journal).encode())
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
    # Past the commit point the write is finished, whatever asks the run to stop.
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        for index, rel in enumerate(renames):
            os.replace(out / (rel + TMP_SUFFIX), out / rel)
            if index == len(renames) // 2:
                checkpoints.reached("renaming")
        for rel, sha in the_plan.removals:
            if removable(out, rel, sha):
                (out / rel).unlink()
        (out / JOURNAL).unlink()
        (out / INTENT).unlink()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def diff(out: Path, the_plan: Plan) -> str:
    import difflib  # only a stale --check needs it

    chunks: list[str] = []
    for rel, text in sorted(the_plan.writes.items()):
        target = out / rel
        old = target.read_text(encoding="utf-8", errors="replace") if target.is_file() else ""
        chunks += difflib.unified_diff(
            old.splitlines(keepends=True), text.splitlines(keepends=True), f"a/{rel}", f"b/{rel}"
        )
    for rel, _ in the_plan.removals:
        old = (out / rel).read_text(encoding="utf-8", errors="replace")
        chunks += difflib.unified_diff(old.splitlines(keepends=True), [], f"a/{rel}", "/dev/null")
    return "".join(chunks)
