"""cli-misc.spec.ts: the peer's daemon after a failed launch, `install` (workspace folder,
.gitignore, agent skills), `install-browser`, and long session names (its daemon's socket paths).
No case's point is a tool."""

from __future__ import annotations

from peer_suite.cli_pages import cli_only

SPEC = "cli-misc.spec.ts"
PEER_CASES = {
    "daemon shuts down on browser launch failure": cli_only(
        "its daemon exiting after a browser launch failure so the next `open` works"
    ),
    "install-browser": cli_only("`install-browser --list`"),
    "install workspace": cli_only("`install` making a .playwright workspace folder"),
    "install adds .playwright-cli/ to .gitignore": cli_only("`install` editing .gitignore"),
    "install workspace w/skills": cli_only("`install --skills` writing a Claude skill"),
    "install workspace w/--skills=agents": cli_only("`install --skills=agents` writing a skill"),
    "install w/--skills -g installs into the home directory": cli_only(
        "`install --skills -g` writing a skill under the home folder"
    ),
    "install w/--skills=agents --global installs into the home directory": cli_only(
        "`install --skills=agents --global` writing a skill under the home folder"
    ),
    "install -g without --skills errors": cli_only("`install -g`'s argument check"),
    "install handles browser detection": cli_only("`install` choosing a default browser channel"),
    "open with very long session name (issue 40878)": cli_only(
        "a long session name in its daemon's socket path"
    ),
    "open with long multi-byte session name (issue 42153)": cli_only(
        "a long multi-byte session name in its daemon's socket path"
    ),
}
