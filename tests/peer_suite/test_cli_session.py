"""cli-session.spec.ts: the peer's named browser sessions kept by its daemon (`-s=name`, `list`,
`close`, `close-all`, `delete-data`, workspaces, client/daemon versions, `attach` to a browser
bound with `browser.bind`). This host's sessions are MCP sessions, each its own browser context,
closed with the connection or `browser_close` (tests/host_tests/test_host_sessions.py)."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-session.spec.ts"
PEER_CASES = {
    "list": cli_only("`list` of the daemon's sessions"),
    "close": cli_only("`close` ending the daemon's default session and `list` after it"),
    "close named session": cli_only("`-s=name close` ending a named session"),
    "close non-running session": cli_only("`close` of a session that is not open"),
    "close-all": cli_only("`close-all` ending every session of the daemon"),
    "delete-data": cli_only("`delete-data` removing a persistent session's profile folder"),
    "delete-data named session": cli_only("`delete-data` of a named session's profile folder"),
    "delete-data non-existent session": cli_only("`delete-data` of a session that has no data"),
    "session stops when browser exits": cli_only(
        "the daemon's session ending when its browser is closed"
    ),
    "session reopen with different config": cli_only(
        "`open` restarting a session with another config file"
    ),
    "workspace isolation - sessions in different workspaces are isolated": cli_only(
        "sessions kept apart per workspace folder"
    ),
    "list --all lists sessions from all workspaces": cli_only(
        "`list --all` across workspace folders and its session files"
    ),
    "newer client with older daemon is compatible": cli_only(
        "a newer client talking to an older daemon"
    ),
    "older client with newer daemon fails with version mismatch error": cli_only(
        "the version mismatch error between its client and daemon"
    ),
    "older client with newer daemon - named session includes session name in error": cli_only(
        "the version mismatch error naming the session"
    ),
    "older client with newer daemon - list shows incompatible warning": cli_only(
        "`list` marking a session of an incompatible daemon"
    ),
    "list browser servers": cli_only("`list --all` showing browsers bound with browser.bind()"),
    "attach to browser server": cli_only("`attach` to a browser bound with browser.bind()"),
    "fail to attach to browser server without contexts": cli_only(
        "`attach`'s error for a bound browser without contexts"
    ),
    "attach with session alias": cli_only("`attach --session=alias` naming the session"),
    "detach from browser server": cli_only("closing an attached session and `list --all` after"),
}
