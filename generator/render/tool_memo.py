"""A memo of the files rendered from one tool alone (its shim, its descriptor), so a run that
changes a few tools renders and lays out only those.

Guarantees: an entry is found only under the key of exactly what made it: the tool's IR as the
per-tool outputs see it (`renderable`: its `repr`, which spells every field of the frozen
dataclasses it is made of, all but `source`, the allowlist line, which moves whenever a line above
it is added or removed, and which the outputs are never shown), the templates (their
digest, and whether each is built in, which decides between the layout and black), the versions
of Jinja and black, and the code of everything `generator.render.rendering` imports. A memo hit gives the
bytes a cold render gives. An entry is believed only when the cache's checksum holds and it has
the structure of a memo: the key it was stored under (so an entry copied to another tool's key
is refused), and one plain relative path and text per file, as many as the per-tool outputs.
Anything else is a miss, and the tool is rendered again.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from generator.model.ir import Tool
from generator.shared.cache import Cache
from generator.shared.dist_version import dist_version
from generator.shared.relative_paths import safe_relative

KIND = "tool-files"


@dataclass(frozen=True)
class ToolFiles:
    """The files one tool's outputs became: {path: text}, and those black formatted, with why."""

    files: dict[str, str]
    formatted_by_black: dict[str, str]


def templates_key(cache: Cache, templates: str, outputs: tuple[tuple[str, str, bool], ...]) -> str:
    """The part of every tool's key shared by the run: templates, the per-tool outputs written
    (template, path, whether the template is built in), and the versions."""
    return cache.value_key(
        "generator.render.rendering",
        templates,
        repr(outputs),
        dist_version("jinja2"),
        dist_version("black"),
    )


def renderable(tool: Tool) -> Tool:
    """The tool as per-tool outputs are given it: without the allowlist line it came from."""
    return dataclasses.replace(tool, source="")


def tool_key(cache: Cache, shared: str, tool: Tool) -> str:
    """The key of `tool`'s files; `tool` is `renderable`, the IR the outputs were made from."""
    return cache.key(KIND, shared, repr(tool))


def load(cache: Cache, key: str, outputs: int) -> ToolFiles | None:
    """The memo under `key`, or None (absent, damaged, or not the shape of `outputs` files)."""
    parsed: list[dict[str, Any]] = []

    def valid(text: str) -> bool:
        entry = json.loads(text)
        if not _valid(entry, key, outputs):
            return False
        parsed.append(entry)  # parsed once: the check's value is the memo's
        return True

    if cache.load(KIND, key, valid) is None:
        return None
    return ToolFiles(parsed[0]["files"], parsed[0]["black"])


def store(cache: Cache, key: str, memo: ToolFiles) -> None:
    entry = {"key": key, "files": memo.files, "black": memo.formatted_by_black}
    cache.store(KIND, key, json.dumps(entry, sort_keys=True))


def _valid(entry: Any, key: str, outputs: int) -> bool:
    if not isinstance(entry, dict) or set(entry) != {"key", "files", "black"}:
        return False
    files, black = entry["files"], entry["black"]
    return (
        entry["key"] == key
        and isinstance(files, dict)
        and len(files) == outputs
        and all(safe_relative(p) and isinstance(t, str) for p, t in files.items())
        and isinstance(black, dict)
        and all(p in files and isinstance(r, str) for p, r in black.items())
    )
