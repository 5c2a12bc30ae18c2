"""cli-test.spec.ts: `playwright test --debug=cli` pausing a test run that the peer's
`playwright-cli attach` then steps through (step-over, pause-at, resume). No case calls one of
this host's tools: it debugs the peer's test runner."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-test.spec.ts"
PEER_CASES = {
    # Not cases of the spec: the sample test file its cases write (test('example test', ...) at
    # the start of a line inside a template string); listed so the comparison with the peer's
    # spec files (scripts/peer_suite_doc.py --against) stays exact.
    "example test": "differs: not a case: a line of the sample test file the spec's cases write",
    "example test (2)": "differs: not a case: a line of the sample test file the spec's cases write",
    "debug test and snapshot": cli_only(
        "attaching to a paused `playwright test --debug=cli` run and stepping through it"
    ),
    "debug test with custom fixture using browser.newContext": cli_only(
        "attaching to a paused `playwright test --debug=cli` run whose page a fixture made"
    ),
}
