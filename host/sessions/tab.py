"""A tab: one page of a session, with what the host keeps about it."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import FileChooser, Page

from host.shared.jsontypes import JsonObject


@dataclass
class Tab:
    """One page of a session; `crashed` is set when its renderer died (it is then replaced).

    `refs` are the element refs of the tab's current `web_snapshot` (a full snapshot replaces
    them, a snapshot of a part adds to them); a ref outside them is refused as stale. `cdp` is a
    DevTools session attached when the tab opened (None on other engines, and until the page's
    first worker in a session that attaches late, `Session.attaches_tabs_at_open`): a script
    looping in the page can be stopped through it, which a session attached later could not do.
    """

    page: Page
    crashed: bool = False
    refs: set[str] = field(default_factory=set)
    target_id: str | None = None
    cdp: Any = None
    attaching: asyncio.Task[None] | None = None
    throttle: float = 1.0
    file_chooser: FileChooser | None = None
    """A file chooser the page opened and nobody answered yet (browser_file_upload without a
    target answers it, as @playwright/mcp's modal state)."""
    opened_note: JsonObject | None = None
    """The `tab_opened` note of a tab that opened during the session (its URL is updated once the
    action that opened it settles)."""

    async def attached(self) -> None:
        """Wait (at most 5 s) until the tab's DevTools session and worker guard are in place."""
        if self.attaching is not None and not self.attaching.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.attaching), 5)
