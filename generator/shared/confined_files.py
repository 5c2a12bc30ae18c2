"""The one way the generator reads a file that an allowlist names on its behalf (the options file
of `generate:`, each template of a template folder): a regular file under its folder, reached
without following a symlink, read up to a cap.

Guarantees of `read_under`: the file is opened relative to a handle on its folder, one name at a
time, each with `O_NOFOLLOW` (so no symlink is followed at any depth and nothing is checked before
it is used); `..` and absolute names are refused; the open never blocks (`O_NONBLOCK`: a FIFO or a
device cannot hang the run) and what is opened is used only when `fstat` says it is a regular
file; the cap counts the bytes read, not what `stat` says. Every refusal is a `RefusedFile` whose
message says what the file is and what to do.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePosixPath


class RefusedFile(Exception):
    """A file that cannot be read under the rule; `str()` is a phrase that follows its name
    ("is a symlink; it is not followed ..."), and `strerror` the system's word when the system
    refused for a reason of its own (no such file, no permission); `missing` says there is
    nothing by that name."""

    def __init__(self, phrase: str, strerror: str | None = None, missing: bool = False) -> None:
        super().__init__(phrase)
        self.strerror = strerror
        self.missing = missing


_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_FOLDER_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _refusal(error: OSError) -> RefusedFile:
    if error.errno == errno.ELOOP:
        return RefusedFile(
            "is, or lies under, a symlink, which is not followed; put the file itself there"
        )
    if error.errno == errno.ENOTDIR:
        return RefusedFile(
            "lies under a name that is not a folder (a symlink is not followed); "
            "put the file in a real folder"
        )
    if error.errno == errno.ENAMETOOLONG:
        return RefusedFile("has a name longer than the file system allows")
    missing = error.errno == errno.ENOENT
    return RefusedFile(f"cannot be read ({error.strerror})", error.strerror, missing)


def read_regular(handle: int, cap: int) -> bytes:
    """The bytes of the open file `handle` (closed here), which must be a regular file holding
    at most `cap` bytes; `RefusedFile` otherwise."""
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise RefusedFile(f"is {_kind(mode)}, not a regular file; name a file")
        os.set_blocking(handle, True)
        chunks = []
        left = cap + 1
        while left > 0:
            chunk = os.read(handle, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as error:
        raise _refusal(error) from None
    finally:
        os.close(handle)
    if len(data) > cap:
        size = f"{cap >> 20} MiB" if cap % (1 << 20) == 0 else f"{cap} bytes"
        raise RefusedFile(f"is larger than {size}; name the right file")
    return data


def read_file(path: Path, cap: int) -> bytes:
    """`path` as the user named it (a symlink to it is the user's choice), which must be a
    regular file of at most `cap` bytes: opened without blocking, checked with `fstat`."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise _refusal(error) from None
    return read_regular(handle, cap)


def read_under(folder: Path, name: str, cap: int) -> bytes:
    """The file `name` (a relative path with `/` between its parts) under `folder`, by the rule
    of this module; `folder` itself is opened as named."""
    parts = PurePosixPath(name).parts
    if not parts or PurePosixPath(name).is_absolute() or ".." in parts:
        raise RefusedFile(f"is not a path inside {folder}; name a file under it, without '..'")
    try:
        current = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        raise RefusedFile(f"cannot be read: its folder {folder} {_refusal(error)}") from None
    try:
        for part in parts[:-1]:
            following = os.open(part, _FOLDER_FLAGS, dir_fd=current)
            os.close(current)
            current = following
        handle = os.open(parts[-1], _FILE_FLAGS, dir_fd=current)
    except OSError as error:
        raise _refusal(error) from None
    finally:
        os.close(current)
    return read_regular(handle, cap)
