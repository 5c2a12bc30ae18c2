"""Where the host keeps what it may reuse from one start to the next, and when it may trust it.

What a cache holds is used as if the host had just made it: a kept answer is sent as the host's
own `initialize` and `tools/list`, a kept YAML parse becomes a tool's descriptor, Node runs the
compiled code it finds. A digest in a cache file tells damage from data, not who wrote it: anyone
who can write the folder can write a file with a correct digest. So a cache is read and written
only where nobody but this user could have written: `private_folder` is the one rule, and every
cache of the host (`host.shared.yaml_cache`, `host.transports.early_answers`,
`host.browsers.driver_env`) goes through it, reading with `read_private` and writing with
`write_private`.

This module is imported before Playwright's driver is started early (`host.commands.entry`), so
it imports nothing the interpreter does not already hold (logging only when it has to warn).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

ROOT = "playwright-tool-host"
"""The host's folder in the user's cache directory; the folders checked stop there."""

_warned: set[str] = set()


def host_cache(name: str) -> Path | None:
    """`$XDG_CACHE_HOME/playwright-tool-host/NAME` (`~/.cache` without it), or None when there is
    no home directory to be found. Use it through `private_folder`, `read_private` and
    `write_private`."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / ROOT / name


def private_folder(folder: Path, *, make: bool = False) -> bool:
    """Whether `folder` may hold the host's cache: it, and each folder above it up to the cache
    root (the nearest folder named `playwright-tool-host`; `folder` alone when none is), is a
    folder, not a symlink, owned by this user and writable by nobody else (no group or other
    write bit). With `make`, missing folders are made first, mode 0700 (the root's parents as
    the umask says); a folder that exists is never changed. A missing folder is not private.
    Never raises; a folder refused for its owner or its mode is named in a warning, once."""
    chain = _chain(folder)
    if make:
        with contextlib.suppress(OSError):
            chain[0].parent.mkdir(parents=True, exist_ok=True)
    for each in chain:
        if make:  # each checked before one is made in it: nothing is made through a symlink
            with contextlib.suppress(OSError):
                each.mkdir(mode=0o700)
        try:
            status = each.lstat()
        except OSError:
            return False
        why = _not_private(status, stat.S_ISDIR, "a folder")
        if why is not None:
            _warn(each, why)
            return False
    return True


def read_private(path: Path) -> bytes | None:
    """The bytes of `path` when its folder is a `private_folder` and it is a regular file owned by
    this user that nobody else can write (a symlink is not followed, a FIFO not waited on);
    None when it is missing, not such a file, or cannot be read."""
    if not private_folder(path.parent):
        return None
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        try:
            why = _not_private(os.fstat(descriptor), stat.S_ISREG, "a regular file")
            if why is not None:
                _warn(path, why)
                return None
            return handle.read()
        except OSError:
            return None


def write_private(path: Path, data: bytes) -> bool:
    """Replace `path` with `data` whole (a temporary file of mode 0600 renamed into place), when
    its folder is, or is made, a `private_folder`. False, with nothing written, when it is not or
    the write fails; never raises for that."""
    if not private_folder(path.parent, make=True):
        return False
    import tempfile  # only a start that writes a cache needs it

    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}-", suffix=".tmp", dir=path.parent
        )
    except OSError:
        return False
    written = False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
        written = True
    except OSError:
        return False
    finally:
        if not written:  # failed, or interrupted: no temporary file is left behind
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    return True


def _chain(folder: Path) -> list[Path]:
    """`folder` and the folders above it up to the nearest `ROOT`, top first."""
    lineage = [folder, *folder.parents]
    for index, above in enumerate(lineage):
        if above.name == ROOT:
            return lineage[index::-1]
    return [folder]


def _not_private(status: os.stat_result, kind: Callable[[int], bool], what: str) -> str | None:
    """Why an entry with this `lstat`/`fstat` is no place for the cache (None: it is)."""
    if not kind(status.st_mode):
        return f"is not {what}"
    if status.st_uid != os.geteuid():
        return f"belongs to user id {status.st_uid}, not to this user ({os.geteuid()})"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"can be written by others (mode {stat.S_IMODE(status.st_mode):o})"
    return None


def _warn(path: Path, why: str) -> None:
    # Once per path: each cache of the start checks the same root.
    if str(path) in _warned:
        return
    _warned.add(str(path))
    import logging

    logging.getLogger(__name__).warning(
        "the host's cache %s %s, so nothing in it is used and nothing is written there; "
        "remove it (the host makes it anew, private) or make it yours alone (chmod go-w)",
        path,
        why,
    )
