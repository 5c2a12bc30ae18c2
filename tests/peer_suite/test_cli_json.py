"""cli-json.spec.ts: the envelope `playwright-cli --json` prints for each command (pretty-printed
JSON, `isError`, exit codes, session and pid fields, snapshot files, structured snapshots). The
tools behind those commands are checked by the other cli modules (tabs, eval, requests); what
these cases check is the program's JSON output format."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-json.spec.ts"


def _json(what: str) -> str:
    return cli_only(f"its --json output {what}")


PEER_CASES = {
    "output is pretty-printed": _json("being pretty-printed"),
    "version command returns JSON": _json("of --version"),
    "unknown command returns JSON error with exit 1": _json("and exit code for an unknown command"),
    "unknown flag returns JSON error with exit 1": _json("and exit code for an unknown flag"),
    "running tool command without open browser returns JSON error": _json(
        "when no browser session is open"
    ),
    "list returns empty browsers before open": _json("of `list` with no session"),
    "close returns not-open status when nothing is running": _json("of `close` with no session"),
    "delete-data returns not-deleted when there is no session": _json(
        "of `delete-data` with no session"
    ),
    "kill-all returns zero killed when filter matches nothing": _json(
        "of `kill-all` killing nothing"
    ),
    "open returns envelope with session, pid and snapshot file": _json(
        "of `open` (session name, daemon pid, snapshot file)"
    ),
    "list after open returns one browser entry": _json("of `list` describing a session"),
    "goto returns snapshot file envelope": _json("of `goto` (the snapshot file it wrote)"),
    "eval returns result string": _json("wrapping an eval result"),
    "eval with error surfaces isError JSON": _json("wrapping an eval error"),
    "tab-new creates a new tab and returns tab list": _json("wrapping `tab-new`'s tab list"),
    "tab-list lists all tabs": _json("wrapping `tab-list`'s tab list"),
    "tab-close closes a tab and returns remaining tabs": _json("wrapping `tab-close`'s tab list"),
    "snapshot returns structured inline snapshot": _json("of a snapshot as a tree of objects"),
    "snapshot returns structured children and flags": _json(
        "of a snapshot's children and flags as objects"
    ),
    "tool error on bad navigation returns JSON error": _json("wrapping a navigation error"),
    "close after open returns closed status": _json("of `close` after `open`"),
    "close-all after open returns closed sessions": _json("of `close-all`"),
    "requests returns numbered list as JSON result": _json("wrapping `requests`' list"),
    "request and per-part commands return JSON result": _json(
        "wrapping `request` and its per-part commands"
    ),
    "request with out-of-range index returns JSON error": _json(
        "wrapping an unknown request number's error"
    ),
}
