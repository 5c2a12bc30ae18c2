"""A test seam that holds the run at a named point until a test has acted.

With `PLAYWRIGHT_TOOL_GENERATOR_PAUSE=<point>:<marker>` in the environment, the run creates the file
`<marker>` (holding its process id) when it reaches `<point>` and waits there until the file is
removed. A test waits for the marker, sends its signal (or does its concurrent work), then removes
the marker to let the run go on, so the signal always lands exactly at the named point, however
busy the machine. Unset, a checkpoint costs one string comparison.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

_PAUSE = os.environ.get("PLAYWRIGHT_TOOL_GENERATOR_PAUSE", "")
_POINT, _, _MARKER = _PAUSE.partition(":")
_held: set[str] = set()


def reached(point: str) -> None:
    """Hold here, the first time this point is reached, while it is the one the environment names
    and its marker exists."""
    if point != _POINT or not _MARKER or point in _held:
        return
    _held.add(point)
    marker = Path(_MARKER)
    temp = marker.with_name(marker.name + ".tmp")
    temp.write_text(str(os.getpid()), encoding="utf-8")
    os.replace(temp, marker)  # the test never sees a marker without the pid in it
    while marker.exists():
        # Short sleeps: a signal's Python handler runs between them, in the main thread.
        time.sleep(0.005)
