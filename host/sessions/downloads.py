"""Downloads a page starts: saved in the session's own folder, capped, and reported.

Playwright keeps a download in a temporary file of its own until the context closes; the session
copies it into `<session folder>/downloads/` (`host.sessions.session_files`) with the page's
suggested name (made a plain file name, never a path), created exclusively and never over a file,
refuses one larger than the cap (counted on the bytes copied; the copy is removed, Playwright's
file deleted, and the note says so), and reports `{event: download, name, size, path}`. A call
that started a download waits for it a little before answering, so its result can say where the
file is.
"""

from __future__ import annotations

import os
from typing import Any

from host.sessions.session_files import SessionFiles, plain_name, save_output
from host.shared.confined import TooLarge
from host.shared.jsontypes import JsonObject

__all__ = ["plain_name", "save_download", "save_output"]


async def save_download(download: Any, files: SessionFiles, cap: int) -> JsonObject:
    """Wait for `download` to finish and keep it in the session's `downloads/`, or refuse it past
    `cap` bytes."""
    name = plain_name(str(download.suggested_filename))
    failure = await download.failure()
    if failure is not None:
        return {"event": "download_failed", "name": name, "detail": str(failure)[:300]}
    temporary = await download.path()
    # Playwright's own temporary file (in its artifacts folder, not the output directory).
    with open(temporary, "rb") as source:
        try:
            path = files.save("downloads", name, source, cap)
        except TooLarge:
            size = os.fstat(source.fileno()).st_size
            refused = True
        else:
            size, refused = source.tell(), False
    if refused:
        await download.delete()
        return {
            "event": "download_refused",
            "name": name,
            "size": size,
            "detail": f"{size} bytes is more than this host keeps ({cap}); it was deleted",
        }
    return {"event": "download", "name": name, "size": size, "path": str(path)}
