"""SIGTERM as a normal exit, for the command line: the handler `host.commands.entry` installs
before anything else of `serve` runs, and `serve --http` again around uvicorn. Kept apart so that
both can name it without importing each other (`entry` runs the command line, which runs `serve`).

Imports nothing beyond what the interpreter holds at start: it is loaded before the driver is
started early.
"""

from __future__ import annotations


def exit_cleanly(signum: int, frame: object) -> None:
    """SIGTERM's handler: the process stops where it is, as a normal exit with status 0
    (`SystemExit` unwinds it, so every `finally` on the way out runs)."""
    raise SystemExit(0)
