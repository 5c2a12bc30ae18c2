"""Where the host keeps what it may reuse from one start to the next."""

from __future__ import annotations

import os
from pathlib import Path


def host_cache(name: str) -> Path | None:
    """`$XDG_CACHE_HOME/playwright-tool-host/NAME` (`~/.cache` without it), or None when there is
    no home directory to be found."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / "playwright-tool-host" / name
