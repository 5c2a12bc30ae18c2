"""The session of one action: the host's session, less what no action uses.

An action fills, clicks and reads. It never answers a file chooser (no step of an action uploads
a file), so its tabs hold none: Playwright then does not intercept the page's file choosers, and
a headless browser cancels one a page opens. Nobody is there to answer a dialog either: Playwright's
driver answers each as it opens (dismissed, which is the executor's policy; a `beforeunload`
accepted, so a submit that navigates is not held back by one), and the session is sent none.
A tab gets its DevTools session only when Playwright reports a worker in it, for the worker
guard: an action's session is closed when the action ends (a step past its time ends the action),
so no tab needs one to stop a runaway script or a pending navigation. Every other guard stays:
downloads kept and capped, the init scripts. Five messages to the driver less per action.
"""

from __future__ import annotations

from host.sessions.session import Session


class ActionSession(Session):
    """A `Session` whose tabs hold no file chooser and get a DevTools session only with a
    worker, and which is sent no dialog."""

    holds_file_choosers = False
    answers_dialogs = False
    attaches_tabs_at_open = False
