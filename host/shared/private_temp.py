"""Folders of this user's under a fixed name in the shared temp dir, which others can see too.

A fixed name (`playwright-tool-host-<uid>`) lets the host find its files again from one start to
the next, but anyone on the machine can guess it and take it first: make it a symlink to a folder
of theirs, or make it theirs and writable, and then read, swap or replace what the host puts
there (a video encoder it runs, for one).

Guarantees: `private_temp_folder(name)` returns a directory, not a symlink, owned by this user,
that nobody else can enter (mode 0700): `<temp>/<name>`, made if missing (a folder of this
user's own that was opened up is closed again), or, when something else holds that name, a new
`<temp>/<name>-<random>` made by `mkdtemp`, with a warning naming both. The answer for a name
is decided once per process and user id (the executor may drop root after its start).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

_CHOSEN: dict[tuple[str, int], Path] = {}


def private_temp_folder(name: str) -> Path:
    """`<temp>/<name>` if it is (or could be made) this user's private folder, else a new one."""
    key = (name, os.geteuid())
    chosen = _CHOSEN.get(key)
    if chosen is None:
        chosen = _CHOSEN[key] = _choose(Path(tempfile.gettempdir()) / name)
    return chosen


def _choose(path: Path) -> Path:
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    try:
        status = path.lstat()
    except OSError:
        status = None
    if status is not None and stat.S_ISDIR(status.st_mode) and status.st_uid == os.geteuid():
        if status.st_mode & 0o077:
            path.chmod(0o700)  # this user's own folder, opened up: closed again
        return path
    fresh = Path(tempfile.mkdtemp(prefix=f"{path.name}-"))
    if status is None:
        reason = "not readable"
    elif stat.S_ISLNK(status.st_mode):
        reason = "a symlink"
    elif not stat.S_ISDIR(status.st_mode):
        reason = "not a folder"
    else:
        reason = f"a folder of uid {status.st_uid}"
    log.warning("%s is %s, not this user's: %s is used instead", path, reason, fresh)
    return fresh
