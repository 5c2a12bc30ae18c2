"""cli-persistent.spec.ts: the peer's cli config file's `browser.userDataDir` used without
`--persistent`, shown by `playwright-cli list`. This host's profile directory is `serve
--user-data-dir`."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-persistent.spec.ts"
PEER_CASES = {
    "should use userDataDir from config without --persistent flag": cli_only(
        "its config file's userDataDir and the user-data-dir `list` prints"
    ),
}
