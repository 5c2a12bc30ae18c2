"""cli-help.spec.ts: the peer's `playwright-cli --help` text. No case calls a tool; the ledger
lists each as the program's own feature."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-help.spec.ts"
PEER_CASES = {
    "prints help": cli_only("the program's usage text for --help"),
    "prints help by default": cli_only("the program's usage text when run without a command"),
    "prints command help": cli_only("the usage line of one command (click --help)"),
    "prints variadic command help": cli_only(
        "the usage line of a variadic command (upload --help)"
    ),
    "prints agent skill path when running under a coding agent": cli_only(
        "the skill file path its help prints under a coding agent"
    ),
}
