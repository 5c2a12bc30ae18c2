"""Commands that messages tell the user to run, spelled as they must be typed: the interpreter
the user ran, as `.venv/bin/python` when that is the current folder's virtual environment (the
project's setup), another virtual environment inside the current folder by its relative path,
`python` when PATH finds it under that name (not under a pre-commit hook,
whose PATH is not the user's), else its full path; the arguments
as given, shell-quoted."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Sequence


def python() -> str:
    """What a user in this folder pastes to run the running interpreter: `.venv/bin/python` when
    it is the current folder's `.venv` (the project's setup), `python` when that name on PATH is
    it, else its full path."""
    # The folders compared, not the files: a venv's python is a link to the system's, which
    # the same file would not tell apart.
    running = os.path.realpath(os.path.dirname(sys.executable))
    venv = os.path.join(os.getcwd(), ".venv", "bin")
    if os.path.isfile(os.path.join(venv, "python")) and os.path.realpath(venv) == running:
        return ".venv/bin/python"
    # A virtual environment inside the current folder (CI's `.generator-venv`): by its relative
    # path, which runs wherever that folder is checked out and set up the same way.
    inside = os.path.relpath(os.path.abspath(sys.executable), os.getcwd())
    if not inside.startswith(os.pardir) and os.path.basename(os.path.dirname(inside)) == "bin":
        return shlex.quote(inside)
    # Under a pre-commit hook PATH leads to the hook's own environment, which the user's shell
    # does not have: there only the full path runs as printed.
    on_path = None if os.environ.get("PRE_COMMIT") else shutil.which("python")
    if on_path and os.path.realpath(os.path.dirname(on_path)) == running:
        return "python"
    return shlex.quote(sys.executable)


def command(*arguments: str) -> str:
    """`python -m <arguments...>` as the user must type it (each argument shell-quoted)."""
    return " ".join([python(), "-m", *(shlex.quote(a) for a in arguments)])


def generator(arguments: Sequence[str] = ()) -> str:
    """`python -m generator <arguments>` as the user must type it."""
    return command("generator", *arguments)
