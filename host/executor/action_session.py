"""The session of one action: the host's session, less what no action uses.

An action fills, clicks and reads; it never answers a file chooser (no tool of an action
uploads a file), so its tabs do not hold one: Playwright then does not intercept the page's
file choosers (a subscription per tab, and a command to the page), and a headless browser
cancels one a page opens. Every guard stays: dialogs answered by the policy, downloads kept and
capped, the worker guard, the init scripts.
"""

from __future__ import annotations

from host.sessions.session import Session


class ActionSession(Session):
    """A `Session` whose tabs hold no file chooser (`holds_file_choosers`)."""

    holds_file_choosers = False
