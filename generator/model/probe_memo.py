"""A memo of the surface report's probes: the row of every method that is not a tool, kept from one
run to the next while the surfaces and the generator's code stay the same.

A probe binds a method with scratch diagnostics to say why it is not a tool; its row depends on the
method, the two surfaces and the code alone, never on the allowlist. So a run whose allowlist
changed by one line probes at most the method that line removed, instead of every method again.

Guarantees: an entry is found only under the key of what made its rows (the Java and Python
surfaces' own cache keys, and the code of `generator.model.surface_report` with everything it imports).
It is believed only when the cache's checksum holds and every row has a row's structure: a
known target prefix, strings where a row has strings, a status of the report's, and notes that
are strings. Anything else is a miss, and every method is probed again.
"""

from __future__ import annotations

import json
from typing import Any, get_args

from generator.model.surface_report import Status, SurfaceRow
from generator.shared.cache import Cache
from generator.shared.targets import TARGETS

KIND = "probes"
_STATUSES = frozenset(get_args(Status))

Probed = dict[tuple[str, str], SurfaceRow]


def probes_key(cache: Cache, java_key: str, python_key: str) -> str:
    """The key of the probes made against the surfaces cached under `java_key` and `python_key`."""
    return cache.value_key("generator.model.surface_report", java_key, python_key)


def load(cache: Cache, key: str) -> Probed:
    """The rows stored under `key`, or none when the entry is absent or not believed."""
    text = cache.load(KIND, key, _well_formed)
    if text is None:
        return {}
    return {(prefix, row[1]): _row(row) for prefix, row in json.loads(text)}


def store(cache: Cache, key: str, probed: Probed) -> None:
    """Keep `probed` under `key`, in a fixed order (the same rows give the same bytes)."""
    rows = [[prefix, _data(row)] for (prefix, _), row in sorted(probed.items())]
    cache.store(KIND, key, json.dumps(rows, separators=(",", ":")))


def _data(row: SurfaceRow) -> list[Any]:
    return [row.interface, row.method, row.status, row.category, row.tool, row.reason, row.notes]


def _row(data: list[Any]) -> SurfaceRow:
    interface, method, status, category, tool, reason, notes = data
    return SurfaceRow(interface, method, status, category, tool, reason, tuple(notes))


def _well_formed(text: str) -> bool:
    rows = json.loads(text)
    return type(rows) is list and all(_is_entry(entry) for entry in rows)


def _is_entry(entry: Any) -> bool:
    if type(entry) is not list or len(entry) != 2 or entry[0] not in TARGETS:
        return False
    row = entry[1]
    return (
        type(row) is list
        and len(row) == 7
        and all(type(field) is str for field in row[:6])
        and row[2] in _STATUSES
        and type(row[6]) is list
        and all(type(note) is str for note in row[6])
    )
