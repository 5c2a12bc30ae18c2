"""What the host's YAML files parse to, kept between starts.

A host reads ~200 `.tool.yaml` and `.toolset.yaml` files as it starts, and parsing them costs
~45 ms of a start of ~0.75 s (PyYAML's constructor is Python, even over libyaml). What a file
parses to depends on its text alone, so one cache file maps a hash of each text to its parsed
data: a file whose text changed is parsed again, whatever its time stamps say. Only data that
JSON carries unchanged is kept.

The cache file lives in the user's cache directory (`$XDG_CACHE_HOME`, else `~/.cache`), is
written whole and atomically, only after a read that parsed something, and holds the texts of
that read first, then others up to `MAX_ENTRIES`. A cache that cannot be read, is damaged, or
cannot be written is no cache: every file is parsed, as without it. So is one that others could
have written (`host.shared.cache_folder.private_folder`): what it holds would become the tools'
descriptors, and nothing is written there either.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.shared.cache_folder import host_cache, read_private, write_private

FORMAT = 1
MAX_ENTRIES = 512
"""About 1,000 bytes each; the host's own files are ~200."""


def default_location() -> Path | None:
    """`$XDG_CACHE_HOME/playwright-tool-host/yaml.json` (`~/.cache` without it), or None."""
    return host_cache("yaml.json")


class YamlCache:
    """Parses texts through a cache file; `save()` writes it back if anything was parsed.

    Guarantees: `parse(text, parser)` returns what `parser(text)` returns, or an equal value kept
    from an earlier parse of the same text; values it returns must not be changed by the caller
    (two equal texts may share one). Nothing here raises for a cache file that is missing,
    damaged or unwritable.
    """

    def __init__(self, location: Path | None) -> None:
        self.location = location
        self._kept: dict[str, Any] | None = None
        self._used: dict[str, Any] = {}
        self.parsed = 0
        """Texts parsed by this cache's `parse` (misses)."""

    def parse(self, text: str, parser: Callable[[str], Any]) -> Any:
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        kept = self._entries()
        if key in kept:
            value = kept[key]
        else:
            value = parser(text)
            self.parsed += 1
            if not _survives_json(value):
                return value
        self._used[key] = value
        return value

    def save(self) -> None:
        if self.location is None or self.parsed == 0:
            return
        entries = dict(self._used)
        for key, value in self._entries().items():
            if len(entries) >= MAX_ENTRIES:
                break
            entries.setdefault(key, value)
        with contextlib.suppress(ValueError):  # a lone surrogate, which UTF-8 cannot carry
            text = json.dumps({"format": FORMAT, "entries": entries}, ensure_ascii=False)
            write_private(self.location, text.encode("utf-8"))

    def _entries(self) -> dict[str, Any]:
        if self._kept is None:
            self._kept = _read(self.location)
        return self._kept


def _read(location: Path | None) -> dict[str, Any]:
    kept = None if location is None else read_private(location)
    if kept is None:
        return {}
    try:
        data = json.loads(kept)
    except ValueError:
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def _survives_json(value: Any) -> bool:
    """Whether JSON gives `value` back equal, so that a cached copy is the same data (YAML can
    also make dates, sets, non-text keys and NaN, which JSON would change)."""
    try:
        return bool(json.loads(json.dumps(value, allow_nan=False)) == value)
    except (TypeError, ValueError):
        return False
