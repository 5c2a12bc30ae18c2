"""The installed version of a distribution, read from its `.dist-info` folder's name.

`importlib.metadata` answers the same question but costs more to import than a whole up-to-date
run has to spend, so the fast path reads the folder name that pip writes (`black-26.10.1.dist-info`)
and falls back to `importlib.metadata` only when no such folder is on `sys.path`.
"""

from __future__ import annotations

import functools
import os
import re
import sys


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@functools.cache
def dist_version(name: str) -> str:
    """The version of the installed distribution `name` (first match on `sys.path`, as imports)."""
    wanted = _normalised(name)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info"):
                project, _, version = folder[: -len(".dist-info")].rpartition("-")
                if _normalised(project) == wanted and version:
                    return version
    import importlib.metadata

    return importlib.metadata.version(name)
