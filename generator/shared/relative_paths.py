"""Paths relative to a folder, as the generator accepts them from its own records: the ledger's
entries, the tool memo's files, the run record's digests."""

from __future__ import annotations

_MAX_PATH = 4096
_MAX_COMPONENT = 255


def safe_relative(rel: str) -> bool:
    """Whether `rel` is a plain relative POSIX path that names something strictly below a folder:
    no empty, `.` or `..` component (so it is its own normal form), none longer than a name may be."""
    if not rel or len(rel) > _MAX_PATH or "\0" in rel or "\\" in rel or rel.startswith("/"):
        return False
    return all(
        p and p not in (".", "..") and len(p.encode()) <= _MAX_COMPONENT for p in rel.split("/")
    )
