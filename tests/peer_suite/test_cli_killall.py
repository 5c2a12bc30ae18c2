"""cli-killall.spec.ts: the peer's `playwright-cli kill-all`, which kills its daemon and dashboard
processes. No case calls a tool."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-killall.spec.ts"
PEER_CASES = {
    "kill-all kills only filtered pid": cli_only("kill-all ending the program's daemon process"),
    "kill-all kills filtered dashboard pid": cli_only(
        "kill-all ending the program's dashboard process"
    ),
}
