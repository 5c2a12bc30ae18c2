"""cli-storage.spec.ts: `playwright-cli state-save` and `state-load` call the peer's
`browser_storage_state` and `browser_set_storage_state` (its `storage` capability), which save
the context's cookies and local storage to a file and load them back. This host has no such
tools yet; storage.spec.ts, which checks the same tools over MCP, is translated on another
branch."""

from __future__ import annotations

SPEC = "cli-storage.spec.ts"
MISSING = (
    "todo: needs browser_storage_state and browser_set_storage_state, which the storage.spec.ts "
    "translation adds to the host on another branch"
)
PEER_CASES = {
    "state-save saves storage state to file": MISSING,
    "state-save saves to custom filename": MISSING,
    "state-load restores storage state from file": MISSING,
    "state-save and state-load roundtrip": MISSING,
}
