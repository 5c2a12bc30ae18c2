"""cli-test.spec.ts: `playwright test --debug=cli` pausing a test run that the peer's
`playwright-cli attach` then steps through (step-over, pause-at, resume). No case calls one of
this host's tools: it debugs the peer's test runner."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-test.spec.ts"
PEER_CASES = {
    "debug test and snapshot": cli_only(
        "attaching to a paused `playwright test --debug=cli` run and stepping through it"
    ),
    "debug test with custom fixture using browser.newContext": cli_only(
        "attaching to a paused `playwright test --debug=cli` run whose page a fixture made"
    ),
}
