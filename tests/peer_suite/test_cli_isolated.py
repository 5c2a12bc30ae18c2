"""cli-isolated.spec.ts: where the peer's daemon keeps a session's profile (in memory, `ud-*`
under its daemon folder with `--persistent`, `--profile=<dir>`) and the session file it writes.
This host keeps no profile unless `serve --user-data-dir` names one."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-isolated.spec.ts"
PEER_CASES = {
    "should not save user data by default (in-memory mode)": cli_only(
        "the daemon's session file and `list` output for an in-memory profile"
    ),
    "should save user data with --persistent flag": cli_only(
        "the daemon's profile folder and session file of `open --persistent`"
    ),
    "should use custom user data dir with --profile=<dir>": cli_only(
        "the profile folder and session file of `open --profile=<dir>`"
    ),
}
