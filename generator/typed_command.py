"""Commands that messages tell the user to run, spelled as they must be typed: the interpreter
the user ran, as `.venv/bin/python` when that is the current folder's virtual environment (the
project's setup), else `python`; the arguments as given."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence


def python() -> str:
    """`.venv/bin/python` when the running interpreter is the current folder's `.venv`, else
    `python`: what a user in this folder pastes to run the same interpreter."""
    venv = os.path.join(os.getcwd(), ".venv", "bin", "python")
    try:
        if os.path.exists(venv) and os.path.samefile(venv, sys.executable):
            return ".venv/bin/python"
    except OSError:
        pass
    return "python"


def command(*arguments: str) -> str:
    """`python -m <arguments...>` as the user must type it (each argument shell-quoted)."""
    return " ".join([python(), "-m", *(shlex.quote(a) for a in arguments)])


def generator(arguments: Sequence[str] = ()) -> str:
    """`python -m generator <arguments>` as the user must type it."""
    return command("generator", *arguments)
