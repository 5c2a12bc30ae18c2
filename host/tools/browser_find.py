"""`browser_find`: find text in the current tab's accessibility snapshot.

Described by `browser_find.tool.yaml` beside this file. The whole snapshot is taken (its refs
become the tab's current refs, as after a full `browser_snapshot`), but only bounded matches come
back: at most `MAX_MATCHES` lines, each cut at `MAX_LINE` characters, with at most `MAX_PATH`
nearest ancestors.
"""

from __future__ import annotations

from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.results import Rendered
from host.targets import record_refs

MAX_MATCHES = 20
MAX_LINE = 200
MAX_PATH = 3


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _clip(line: str) -> str:
    line = line.strip()
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "..."


def find_lines(snapshot: str, text: str) -> tuple[list[JsonObject], int]:
    """The lines of `snapshot` holding `text` (case-insensitive), each with its nearest
    ancestors (outermost first), at most MAX_MATCHES of them; and how many lines matched."""
    needle = text.casefold()
    lines = snapshot.split("\n")
    found: list[JsonObject] = []
    count = 0
    for number, line in enumerate(lines):
        if needle not in line.casefold():
            continue
        count += 1
        if len(found) == MAX_MATCHES:
            continue
        path: list[str] = []
        depth = _indent(line)
        for earlier in reversed(lines[:number]):
            if len(path) == MAX_PATH or depth == 0:
                break
            if earlier.strip() and _indent(earlier) < depth:
                path.append(_clip(earlier))
                depth = _indent(earlier)
        found.append({"line": _clip(line), "path": list[JsonValue](reversed(path))})
    return found, count


async def browser_find(call: CallContext, args: JsonObject) -> JsonValue:
    text = str(args["text"])
    snapshot = await call.tab.page.aria_snapshot(
        mode="ai", timeout=call.config.action_timeout * 1000
    )
    record_refs(call.tab, snapshot)
    matches, count = find_lines(snapshot, text)
    value: JsonObject = {
        "matches": list[JsonValue](matches),
        "count": count,
        "truncated": count > len(matches),
    }
    if not matches:
        return Rendered(value, f"no match for {text!r} in the page's snapshot")
    blocks = []
    for match in matches:
        path = match["path"]
        assert isinstance(path, list)
        blocks.append(" > ".join([*(str(p) for p in path), str(match["line"])]))
    more = (
        f"\n[{count - len(matches)} more matches; search for something narrower]"
        if count > len(matches)
        else ""
    )
    return Rendered(value, f"{count} match(es) for {text!r}:\n" + "\n".join(blocks) + more)
