"""cli-parsing.spec.ts: how `playwright-cli` parses its command line (unknown options, argument
counts and types, boolean options, negative numbers, digits kept as strings). Over MCP the
arguments are JSON checked against each tool's schema (tests/host_agent/test_peer_shapes.py,
tests/test_dispatch_errors.py), so none of these parsing rules applies here."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-parsing.spec.ts"
PEER_CASES = {
    "unknown option": cli_only("its error for an unknown command-line option"),
    "unknown option typo": cli_only("its error for a mistyped command-line option"),
    "too many arguments": cli_only("its error for too many positional arguments"),
    "wrong option type": cli_only("its errors for `--submit=bar` and `--status=OK`"),
    "arg after boolean option": cli_only("a positional argument after a boolean option"),
    "missing argument": cli_only("its error for a missing positional argument"),
    "missing variadic argument": cli_only("its error for a missing variadic argument"),
    "wrong argument type": cli_only("its error for a non-numeric coordinate"),
    "negative number arguments": cli_only("negative numbers read as values, not options"),
    "should preserve leading zeros in string arguments": cli_only(
        "digits on its command line kept as a string (0812345679)"
    ),
}
