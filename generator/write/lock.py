"""One generator run at a time per output directory.

The lock is `flock` on the output directory itself, so the kernel releases it when its holder dies
(SIGKILL included) and no lock file can go stale. Who holds it is written, for the message a
waiting run prints, to `<out>/.generator-lock` while it is held; that file is informational only.
Writers hold it exclusively, `--check` shares it, so a check never reads a half-applied tree.
Cache entries need no lock: each is written to a temporary file and renamed into place.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path
from types import TracebackType

from generator.shared import checkpoints
from generator.shared.diagnostics import ExitCode, GeneratorError

HOLDER_FILE = ".generator-lock"
_POLL_S = 0.05


def _cannot_write(out: Path, exc: OSError) -> GeneratorError:
    return GeneratorError(
        f"cannot write under {out}: {exc.strerror} ({exc.filename}). Nothing was changed; make the "
        "directory writable, or choose another with --out.",
        ExitCode.OUTPUT,
    )


def _holder(out: Path) -> str:
    try:
        text = (out / HOLDER_FILE).read_text(encoding="utf-8", errors="replace")[:500].strip()
    except OSError:
        return "another generator run"
    return text or "another generator run"


class OutputLock:
    """Holds the lock on `out` for a `with` block: exclusive for writing, shared for `--check`.

    A busy lock is waited for at most `timeout_s` seconds (0: not at all); after that the run stops
    with exit status 4 and a message naming the holder. A missing `out` is created for a writer
    (and removed again on release if the run left it empty); a checker of a missing `out` holds
    nothing, since there is nothing to read."""

    def __init__(self, out: Path, exclusive: bool, timeout_s: float) -> None:
        self.out = out
        self.exclusive = exclusive
        self.timeout_s = timeout_s
        self._fd: int | None = None
        self._created = False

    def __enter__(self) -> OutputLock:
        if not self.out.is_dir():
            if not self.exclusive:
                return self
            try:
                self.out.mkdir(parents=True)
                self._created = True
            except FileExistsError as exc:
                if not self.out.is_dir():  # a file is in the way
                    raise _cannot_write(self.out, exc) from None
                # else another run made it first; locking below serialises us
            except OSError as exc:
                raise _cannot_write(self.out, exc) from None
        try:
            self._fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise _cannot_write(self.out, exc) from None
        self._acquire()
        if self.exclusive:
            self._write_holder()
        checkpoints.reached("locked")
        return self

    def _acquire(self) -> None:
        assert self._fd is not None
        mode = fcntl.LOCK_EX if self.exclusive else fcntl.LOCK_SH
        deadline = time.monotonic() + self.timeout_s
        announced = False
        while True:
            try:
                fcntl.flock(self._fd, mode | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            if time.monotonic() >= deadline:
                os.close(self._fd)
                self._fd = None
                raise GeneratorError(
                    f"{self.out} is in use by {_holder(self.out)}, and it still was after "
                    f"{self.timeout_s:g}s. Wait for that run to finish (or stop it), or raise --lock-timeout.",
                    ExitCode.OUTPUT,
                )
            if not announced:
                print(f"{self.out}: waiting for {_holder(self.out)} to finish...", file=sys.stderr)
                announced = True
            time.sleep(_POLL_S)

    def _write_holder(self) -> None:
        holder = (
            f"pid {os.getpid()} (python -m generator, started "
            f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime())})"
        )
        with contextlib.suppress(OSError):  # only a waiting run's message loses detail
            (self.out / HOLDER_FILE).write_text(holder + "\n", encoding="utf-8")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is None:
            return
        if self.exclusive:
            (self.out / HOLDER_FILE).unlink(missing_ok=True)
            if self._created:
                with contextlib.suppress(OSError):  # only succeeds when the run left it empty
                    self.out.rmdir()
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def clear_stale_holder(out: Path) -> None:
    """Remove a holder note left by a run that was killed, when nobody holds the lock now."""
    note = out / HOLDER_FILE
    if not note.exists():
        return
    fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return
    else:
        note.unlink(missing_ok=True)
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
