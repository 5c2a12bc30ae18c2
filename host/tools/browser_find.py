"""`browser_find`: find text, or a regular expression, in the current tab's accessibility snapshot.

Described by `browser_find.tool.yaml` beside this file. The whole snapshot is taken (its refs
become the tab's current refs, as after a full `browser_snapshot`), but only bounded matches come
back: at most `MAX_MATCHES` lines, each cut at `MAX_LINE` characters, with its full path of
ancestors from the root and `CONTEXT` neighbouring lines either side (as @playwright/mcp's
search snippets).

A `regex` is JavaScript's (what a model prompted for @playwright/mcp writes), so it runs in the
page, never in the host: a pattern that backtracks without end costs that tab, within the action
timeout, after which the script is stopped through the tab's DevTools session; the host's event
loop, which every session shares, never runs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from host.calls.page_snapshot import snapshot_within
from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.targets import record_refs
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.tools.page_regex import hits_in_page

MAX_MATCHES = 20
MAX_LINE = 200
CONTEXT = 3
_LITERAL = re.compile(r"/(.*)/([a-z]*)", re.DOTALL)
_FLAGS = frozenset("imsuv")
# Which lines match, in the page (JavaScript's RegExp); `lastIndex` reset as the peer does.
_MATCH_IN_PAGE = """([source, flags, lines]) => {
  let re;
  try { re = new RegExp(source, flags); } catch (e) { return {error: String(e.message || e)}; }
  const hits = [];
  for (let i = 0; i < lines.length; i++) { re.lastIndex = 0; if (re.test(lines[i])) hits.push(i); }
  return {hits};
}"""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _clip(line: str) -> str:
    line = line.rstrip()
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "..."


def parse_regex(text: str) -> tuple[str, str]:
    """`/pattern/flags` or a bare pattern (case-sensitive) → (source, flags); `g` and `y` are
    dropped (one test per line); another flag is refused."""
    literal = _LITERAL.fullmatch(text)
    if literal is None:
        return text, ""
    flags = literal.group(2).replace("g", "").replace("y", "")
    unknown = sorted(set(flags) - _FLAGS)
    if unknown or len(set(flags)) != len(flags):
        raise HostError(
            "invalid_argument",
            f"unknown or repeated regular expression flag(s) {''.join(unknown) or flags!r}; use "
            "i (ignore case), m, s, u or v",
            path="regex",
        )
    return literal.group(1), flags


def _ancestors(lines: list[str], number: int) -> list[int]:
    """The lines above `number` that hold it, from the root down."""
    found: list[int] = []
    depth = _indent(lines[number])
    for earlier in range(number - 1, -1, -1):
        if depth == 0:
            break
        if lines[earlier].strip() and _indent(lines[earlier]) < depth:
            found.append(earlier)
            depth = _indent(lines[earlier])
    return found[::-1]


def find_lines(
    snapshot: str, matches: Callable[[list[str]], list[int]] | str
) -> tuple[list[JsonObject], int, list[str]]:
    """The lines of `snapshot` that match (a case-insensitive text, or a function giving the
    matching line numbers), each with its full path of ancestors from the root (outermost
    first) and its neighbouring lines (`before`, `after`), at most MAX_MATCHES of them; how many
    lines matched; and each match as a snippet of the snapshot (its path, its neighbours, the
    match marked), as a model reads it."""
    lines = snapshot.split("\n")
    if isinstance(matches, str):
        needle = matches.casefold()
        hits = [n for n, line in enumerate(lines) if needle in line.casefold()]
    else:
        hits = matches(lines)
    found: list[JsonObject] = []
    snippets: list[str] = []
    for number in hits[:MAX_MATCHES]:
        start, end = max(0, number - CONTEXT), min(len(lines), number + CONTEXT + 1)
        path = _ancestors(lines, number)
        found.append(
            {
                "line": _clip(lines[number]).strip(),
                "path": [_clip(lines[a]).strip() for a in path],
                "before": [_clip(line).strip() for line in lines[start:number]],
                "after": [_clip(line).strip() for line in lines[number + 1 : end]],
            }
        )
        # As @playwright/mcp's snippets: the context window under its own ancestors (so context
        # lines keep their container), and "..." only for a gap off the match's path (the jump
        # from the path down to the window is implied).
        on_path = {*path, number}
        shown = sorted({*path, *_ancestors(lines, start), *range(start, end)})
        snippet: list[str] = []
        for index, line in enumerate(shown):
            previous = shown[index - 1] if index else line
            if line > previous + 1 and line not in on_path and previous not in on_path:
                snippet.append(" " * _indent(lines[line]) + "...")
            snippet.append(_clip(lines[line]) + ("   <- match" if line == number else ""))
        snippets.append("\n".join(snippet))
    return found, len(hits), snippets


async def _regex_hits(call: CallContext, source: str, flags: str, lines: list[str]) -> list[int]:
    hint = "write a simpler one or search for text"
    arg: list[JsonValue] = [source, flags, list[JsonValue](lines)]
    hits = await hits_in_page(call, _MATCH_IN_PAGE, arg, path="regex", hint=hint)
    return [int(cast(int, n)) for n in hits]


async def browser_find(call: CallContext, args: JsonObject) -> JsonValue:
    text, regex = args.get("text"), args.get("regex")
    if (text is None) == (regex is None):
        raise HostError(
            "missing_argument" if text is None else "invalid_argument",
            "give text (case-insensitive) or regex, one of the two",
            path="text" if text is None else "regex",
        )
    source, flags = parse_regex(str(regex)) if regex is not None else ("", "")
    snapshot = await snapshot_within(call.tab, call.config.action_timeout, mode="ai")
    record_refs(call.tab, snapshot)
    if regex is not None:
        hits = await _regex_hits(call, source, flags, snapshot.split("\n"))
        matches, count, snippets = find_lines(snapshot, lambda _: hits)
        query = f"/{source}/{flags}"
    else:
        matches, count, snippets = find_lines(snapshot, str(text))
        query = repr(text)
    value: JsonObject = {
        "matches": list[JsonValue](matches),
        "count": count,
        "truncated": count > len(matches),
    }
    if not matches:
        return Rendered(value, f"no match for {query} in the page's snapshot")
    more = (
        f"\n[{count - len(matches)} more matches; search for something narrower]"
        if count > len(matches)
        else ""
    )
    return Rendered(value, f"{count} match(es) for {query}:\n" + "\n----\n".join(snippets) + more)
