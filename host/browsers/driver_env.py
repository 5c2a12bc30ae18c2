"""The environment of Playwright's driver process, per driver.

The Python package starts its driver (a Node process) with a copy of `os.environ` taken at that
moment, through `playwright._impl._transport.get_driver_env`. `driver_env(extra)` adds variables
for the drivers started inside it alone: the one wrapper of `get_driver_env` reads them from a
context variable, which the task starting the driver (and the connection task it creates)
inherits. `os.environ` is never changed, so no other driver or subprocess sees them.

`compile_cache_env()` gives each driver Node's compile cache (`NODE_COMPILE_CACHE`): the driver
loads Playwright's bundled code, about 0.3 s of the host's start, and with the code V8 compiled
on an earlier start kept on disk that is about 70 ms less. What is kept there is code Node runs,
as Python runs what `__pycache__` holds, so the folder is used only when it is this user's own and
writable by nobody else, and so is the host's cache folder above it (the rule every cache of the
host follows: `host.shared.cache_folder.private_folder`). A `NODE_COMPILE_CACHE` of the user's is left as it is, and Node's own
`NODE_DISABLE_COMPILE_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator
from pathlib import Path

from host.shared.cache_folder import host_cache, private_folder

_EXTRA_ENV: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "playwright_driver_extra_env", default=None
)
_installed = False


def hook_problem() -> str | None:
    """Why this Playwright's driver environment cannot be extended by this module, or None."""
    try:
        from playwright._impl import _transport
    except ImportError as error:  # pragma: no cover - the package is a dependency
        return f"playwright is not importable ({error})"
    if not callable(getattr(_transport, "get_driver_env", None)):
        return (
            "this version of the playwright package starts its driver without "
            "`_transport.get_driver_env`, which Selenium endpoints rely on"
        )
    return None


def _install() -> None:
    """Wrap Playwright's `get_driver_env` once: the driver's environment, plus this context's."""
    global _installed
    if _installed or hook_problem() is not None:
        return
    from playwright._impl import _transport

    original = _transport.get_driver_env  # type: ignore[attr-defined]

    def get_driver_env() -> dict[str, str]:
        env: dict[str, str] = original()
        extra = _EXTRA_ENV.get()
        if extra:
            env.update(extra)
        return env

    _transport.get_driver_env = get_driver_env  # type: ignore[attr-defined]
    _installed = True


@contextlib.contextmanager
def driver_env(extra: dict[str, str] | None) -> Iterator[None]:
    """While inside, a driver started (a task created) gets `extra` in its environment."""
    if not extra:
        yield
        return
    _install()
    token = _EXTRA_ENV.set(extra)
    try:
        yield
    finally:
        _EXTRA_ENV.reset(token)


def compile_cache_folder() -> Path | None:
    """`$XDG_CACHE_HOME/playwright-tool-host/node-compile-cache/` (`~/.cache` without it)."""
    return host_cache("node-compile-cache")


def compile_cache_env(folder: Path | None = None) -> dict[str, str]:
    """`NODE_COMPILE_CACHE` for a driver: `folder` (by default `compile_cache_folder()`) when it
    is private, nothing when the user set the variable or the folder cannot be private."""
    if "NODE_COMPILE_CACHE" in os.environ:
        return {}
    folder = folder or compile_cache_folder()
    if folder is None or not private_folder(folder, make=True):
        return {}
    return {"NODE_COMPILE_CACHE": str(folder)}
