"""Selenium Grid endpoints (`--browser-endpoint selenium+http://HUB:PORT`).

Playwright drives Chromium through a Selenium Grid 4 hub when its driver process has
`SELENIUM_REMOTE_URL` in its environment: each `chromium.launch` then asks the hub for a session
(`goog:chromeOptions` carry the launch's args and headless; `SELENIUM_REMOTE_CAPABILITIES` is
merged in one level deep) and connects over the CDP websocket the hub proxies (`se:cdp`). There
is no launch option for it, and the Python package hands the driver a copy of `os.environ` taken
when the driver starts. So the pool of a Selenium endpoint starts a driver of its own, and the
variables reach only that driver, through `host.browsers.driver_env.driver_env`: `os.environ` is never
changed, so no other driver or subprocess sees them, whatever runs meanwhile.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit


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


def parse_capabilities(text: str) -> str:
    """`--selenium-capabilities`: a JSON object, returned compact; ValueError says why not."""
    try:
        value: Any = json.loads(text)
    except ValueError as error:
        raise ValueError(f"not JSON ({error})") from None
    if not isinstance(value, dict):
        raise ValueError('must be a JSON object ({"se:name": "..."})')
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
