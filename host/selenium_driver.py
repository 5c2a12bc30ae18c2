"""Selenium Grid endpoints (`--browser-endpoint selenium+http://HUB:PORT`).

Playwright drives Chromium through a Selenium Grid 4 hub when its driver process has
`SELENIUM_REMOTE_URL` in its environment: each `chromium.launch` then asks the hub for a session
(`goog:chromeOptions` carry the launch's args and headless; `SELENIUM_REMOTE_CAPABILITIES` is
merged in one level deep) and connects over the CDP websocket the hub proxies (`se:cdp`). There
is no launch option for it, and the Python package hands the driver a copy of `os.environ` taken
when the driver starts. So the pool of a Selenium endpoint starts a driver of its own, and the
variables reach only that driver: `driver_env` sets them in a context variable that the task
starting the driver (and the connection task it creates) inherits, and the one wrapper of
Playwright's `get_driver_env` adds them there alone. `os.environ` is never changed, so no other
driver or subprocess sees them, whatever runs meanwhile.
"""

from __future__ import annotations

import base64
import contextlib
import contextvars
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

_EXTRA_ENV: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "playwright_driver_extra_env", default=None
)
_installed = False


def hook_problem() -> str | None:
    """Why this Playwright cannot be pointed at a hub by this module, or None."""
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
    if _installed:
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


def selenium_env(hub_url: str, capabilities: str | None) -> dict[str, str]:
    """The variables that point a driver at `hub_url` (with extra capabilities, JSON). A user name
    and password in the URL travel as a Basic `Authorization` header (Playwright sends
    `SELENIUM_REMOTE_HEADERS` to the hub and on the CDP websocket it proxies), never in the URL,
    which Playwright's errors quote."""
    parts = urlsplit(hub_url)
    env = {}
    if parts.username is not None or parts.password is not None:
        pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
        token = base64.b64encode(pair.encode()).decode()
        env["SELENIUM_REMOTE_HEADERS"] = json.dumps({"Authorization": f"Basic {token}"})
        netloc = parts.netloc.rsplit("@", 1)[1]
        hub_url = urlunsplit(parts._replace(netloc=netloc))
    env["SELENIUM_REMOTE_URL"] = hub_url
    if capabilities:
        env["SELENIUM_REMOTE_CAPABILITIES"] = capabilities
    return env


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


def parse_capabilities(text: str) -> str:
    """`--selenium-capabilities`: a JSON object, returned compact; ValueError says why not."""
    try:
        value: Any = json.loads(text)
    except ValueError as error:
        raise ValueError(f"not JSON ({error})") from None
    if not isinstance(value, dict):
        raise ValueError('must be a JSON object ({"se:name": "..."})')
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
