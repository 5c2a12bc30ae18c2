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

import asyncio
import os
from typing import Any

from playwright.async_api import Download

from host.sessions.session_files import SessionFiles, plain_name, save_output
from host.sessions.session_state import SessionState, clip
from host.settings.config import HostConfig
from host.shared.confined import TooLarge
from host.shared.jsontypes import JsonObject

__all__ = ["Downloads", "plain_name", "save_download", "save_output"]


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


class Downloads(SessionState):
    """The download part of a session: every download its pages start is saved (`save_download`)
    and reported once, by the call that waits for it or in a later result."""

    def _init_downloads(self, config: HostConfig) -> None:
        """No download started."""
        self._downloads: list[asyncio.Task[JsonObject]] = []
        self.downloads_started = 0
        """Downloads begun in this session, ever (a settle compares it before and after)."""

    def _on_download(self, download: Download) -> None:
        self.downloads_started += 1
        task = asyncio.ensure_future(
            save_download(download, self.files, self.config.max_download_bytes)
        )
        self._downloads.append(task)

    async def take_download(self, appear: float, wait: float) -> JsonObject | None:
        """The first download started and not yet reported, once saved: waits `appear` seconds
        at most for one to start and `wait` for it to finish (then None, and it is reported
        when done). What `browser_navigate` to an attachment answers with."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + appear
        while not self._downloads and loop.time() < give_up:
            await asyncio.sleep(0.05)
        if not self._downloads:
            return None
        task = self._downloads[0]
        done, _ = await asyncio.wait({task}, timeout=wait)
        if not done:
            return None
        self._downloads.remove(task)
        if task.cancelled() or task.exception() is not None:
            error = None if task.cancelled() else task.exception()
            return {"event": "download_failed", "detail": clip(str(error), 300)}
        return task.result()

    async def settle_downloads(self, wait: float) -> None:
        """Wait (at most `wait` seconds) for the downloads started so far and note each one;
        one still running is noted as such and reported when it ends."""
        if not self._downloads:
            return
        done, pending = await asyncio.wait(self._downloads, timeout=wait)
        self._downloads = list(pending)
        for task in done:
            if task.cancelled() or task.exception() is not None:
                error = None if task.cancelled() else task.exception()
                self.note({"event": "download_failed", "detail": clip(str(error), 300)})
            else:
                self.note(task.result())
        if pending:
            self.note(
                {
                    "event": "download_running",
                    "detail": f"{len(pending)} download(s) still running; reported when done",
                }
            )
