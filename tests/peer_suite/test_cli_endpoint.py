"""cli-endpoint.spec.ts: `playwright-cli attach --endpoint=ws://...` names its session `default`
and lists it as attached. This host's way to use a browser served elsewhere is `serve
--browser-endpoint ws://...` (tests/host_tests/test_host_endpoints.py); the case's point, the
session name and listing, is the program's."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-endpoint.spec.ts"
PEER_CASES = {
    "attach --endpoint keeps the default session": cli_only(
        "the session name and `list` entry of `attach --endpoint`"
    ),
}
