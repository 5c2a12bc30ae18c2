"""Downloads a page starts: saved under the session's own directory, capped, and reported.

Playwright keeps a download in a temporary file until the context closes; the session saves a
copy under `<output dir>/downloads/<session>/` with the page's suggested name (made a plain file
name, never a path), refuses one larger than the cap (deleted, and the note says so), and reports
`{event: download, name, size, path}`. A call that started a download waits for it a little
before answering, so its result can say where the file is.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from host.settings.config import default_output_dir
from host.shared.jsontypes import JsonObject

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


def plain_name(suggested: str) -> str:
    """A file name from a page's suggestion: no directories, no leading dots, at most 120 chars."""
    name = _UNSAFE.sub("_", suggested.replace("\\", "/").rsplit("/", 1)[-1]).strip(" .")
    return (name or "download")[:120]


def _free(directory: Path, name: str) -> Path:
    candidate = directory / name
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    number = 1
    while candidate.exists():
        number += 1
        candidate = directory / (f"{stem} ({number}).{suffix}" if suffix else f"{name} ({number})")
    return candidate


async def save_download(download: Any, directory: Path, cap: int) -> JsonObject:
    """Wait for `download` to finish and keep it under `directory`, or refuse it past `cap`."""
    name = plain_name(str(download.suggested_filename))
    failure = await download.failure()
    if failure is not None:
        return {"event": "download_failed", "name": name, "detail": str(failure)[:300]}
    temporary = await download.path()
    size = os.stat(temporary).st_size
    if size > cap:
        await download.delete()
        return {
            "event": "download_refused",
            "name": name,
            "size": size,
            "detail": f"{size} bytes is more than this host keeps ({cap}); it was deleted",
        }
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = _free(directory, name)
    await download.save_as(target)
    return {"event": "download", "name": name, "size": size, "path": str(target)}


def save_output(
    output_dir: Path | None, folder: str, requested: str, extension: str, data: bytes
) -> Path:
    """Write `data` under the output directory's `folder/` as `requested` reduced to a plain name
    (with `extension` unless it has one), never over an existing file; returns its path."""
    name = plain_name(requested)
    if "." not in name:
        name += extension
    directory = (output_dir or default_output_dir()) / folder
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = _free(directory, name)
    path.write_bytes(data)
    return path
