"""Files the host writes or reads on a tool's request, opened so that nothing in the file system
can redirect them: no symlink, no swapped folder, no file changed between a check and its use.

Guarantees (POSIX `openat` semantics, through `os.open(..., dir_fd=...)`):

- A path is a base directory the operator named (the output directory, an `--upload-dir`) and
  components below it. The base is opened as the operator named it; every component below it is
  opened from its parent's handle with `O_NOFOLLOW`, one at a time (folders with `O_DIRECTORY`),
  so a component that is a symlink is refused wherever it is, and nothing is looked up by a path
  string twice. A component is a plain name: never empty, `.`, `..` or holding `/` or NUL.
- A file written is created with `O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600, in the folder handle
  the walk ended on: it is always a new file, never an existing one nor a symlink's target. A
  taken name is replaced by the next free one (`name (2).ext`, `name (3).ext`, ...) by retrying on
  `EEXIST`, never by asking first whether it exists. A write that fails removes its partial file.
- A file read is opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO cannot hang the read), checked to
  be a regular file on that same handle (`fstat`), and read to at most `cap` bytes: the cap is on
  the bytes actually read (one more byte is refused), never on a size asked for beforehand.
- Every refusal is a `Refused` whose message says which component and why, in words; an `OSError`
  that is no refusal (a full disk, a permission) propagates as it is.

Cost: one `open` per path component, one read or write pass over the data.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

CHUNK = 1 << 20
"""Bytes read or written per system call when copying."""

MAX_RENAMES = 1000
"""Names tried (`name`, `name (2)`, ...) before a write gives up: bounded, as every cost is."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_FOLDER_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC


class Refused(Exception):
    """A path the confinement refused: `message` says which component and why; `reason` is one
    word a caller can branch on: `name` (not a plain name, `..`), `missing`, `symlink` (a symlink
    or not a folder where a folder was walked), `not_file`, `taken`, `too_large`, and a caller's
    own `elsewhere` (a path outside what it may read)."""

    def __init__(self, message: str, reason: str = "name") -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class TooLarge(Refused):
    """A file read (or copied) past its cap; `cap` is that cap in bytes."""

    def __init__(self, message: str, cap: int) -> None:
        super().__init__(message, "too_large")
        self.cap = cap


def components(raw: str) -> tuple[str, ...]:
    """`raw`, a relative path, as its plain components; `Refused` if it is absolute, empty, or
    has a `..`. `.` components and repeated slashes are dropped."""
    if "\0" in raw:
        raise Refused(f"{raw!r} holds a NUL character")
    if raw.startswith("/"):
        raise Refused(f"{raw} is not relative")
    parts = tuple(part for part in raw.split("/") if part not in ("", "."))
    if ".." in parts:
        raise Refused(f"{raw} goes up a folder (..); name a file below it")
    if not parts:
        raise Refused(f"{raw!r} names no file")
    return parts


def _check_name(name: str) -> None:
    if name in ("", ".", "..") or "/" in name or "\0" in name:
        raise Refused(f"{name!r} is not a plain file name")


def _open_base(base: Path, create: bool) -> int:
    if create:
        os.makedirs(base, mode=0o700, exist_ok=True)
    try:
        return os.open(base, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    except FileNotFoundError:
        raise Refused(f"{base} does not exist", "missing") from None
    except NotADirectoryError:
        raise Refused(f"{base} is not a folder", "not_file") from None


def _open_child_folder(parent: int, name: str, where: Path, create: bool) -> int:
    _check_name(name)
    if create:
        # Made earlier, or by a racing call, or something else is there: opened below, never
        # followed.
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=parent)
    try:
        return os.open(name, _FOLDER_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        raise Refused(f"{where} does not exist", "missing") from None
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise Refused(
                f"{where} is a symlink or not a folder; it is not followed", "symlink"
            ) from None
        raise


def open_folder(base: Path, parts: Sequence[str], *, create: bool = False) -> int:
    """A handle on the folder `base/parts...`, walked without following a symlink below `base`
    (made, mode 0700, where missing if `create`); the caller closes it."""
    handle = _open_base(base, create)
    where = base
    try:
        for name in parts:
            where = where / name
            child = _open_child_folder(handle, name, where, create)
            os.close(handle)
            handle = child
    except BaseException:
        os.close(handle)
        raise
    return handle


def _numbered(name: str, number: int) -> str:
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem:
        return f"{name} ({number})"
    return f"{stem} ({number}).{suffix}"


def _write_all(handle: int, data: bytes | BinaryIO, cap: int | None, where: Path) -> None:
    if isinstance(data, bytes | bytearray | memoryview):
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view[:CHUNK]) :]
        return
    written = 0
    while chunk := data.read(CHUNK):
        written += len(chunk)
        if cap is not None and written > cap:
            raise TooLarge(f"{where} is larger than {cap} bytes", cap)
        view = memoryview(chunk)
        while view:
            view = view[os.write(handle, view) :]


def create_file(
    base: Path, parts: Sequence[str], name: str, data: bytes | BinaryIO, cap: int | None = None
) -> Path:
    """Write `data` (bytes, or a binary file read to its end) to a new file `name` in the folder
    `base/parts...` (made where missing), or to the next free name; returns the file's path.
    A file copied past `cap` bytes is removed and refused with `TooLarge`."""
    _check_name(name)
    folder = open_folder(base, parts, create=True)
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
        for number in range(1, MAX_RENAMES + 1):
            chosen = name if number == 1 else _numbered(name, number)
            try:
                handle = os.open(chosen, flags, 0o600, dir_fd=folder)
            except FileExistsError:
                continue  # taken (a file, a folder or a symlink): the next name, never over it
            try:
                _write_all(handle, data, cap, base.joinpath(*parts, chosen))
            except BaseException:
                os.close(handle)
                os.unlink(chosen, dir_fd=folder)
                raise
            os.close(handle)
            return base.joinpath(*parts, chosen)
        raise Refused(
            f"{base.joinpath(*parts, name)} and {MAX_RENAMES - 1} numbered names are taken", "taken"
        )
    finally:
        os.close(folder)


def read_file(base: Path, parts: Sequence[str], cap: int) -> bytes:
    """The bytes of the regular file `base/parts...` (the last part the file, the others
    folders), read without following a symlink below `base`; `TooLarge` past `cap` bytes."""
    if not parts:
        raise Refused(f"{base} is a folder; name a file in it")
    where = base.joinpath(*parts)
    folder = open_folder(base, parts[:-1])
    try:
        name = parts[-1]
        _check_name(name)
        flags = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _NOCTTY | _CLOEXEC
        try:
            handle = os.open(name, flags, dir_fd=folder)
        except FileNotFoundError:
            raise Refused(f"{where} does not exist", "missing") from None
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.EMLINK):
                raise Refused(f"{where} is a symlink; it is not followed", "symlink") from None
            raise
    finally:
        os.close(folder)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise Refused(f"{where} is not a regular file", "not_file")
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(handle, min(CHUNK, left))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(handle)
    if left <= 0:
        raise TooLarge(f"{where} is larger than {cap} bytes", cap)
    return b"".join(chunks)
