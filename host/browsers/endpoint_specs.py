"""What a `--browser-endpoint` URL names (`EndpointSpec`), read and checked, and how its
credentials are kept out of what is reported. Below both the browser (which connects to one
endpoint) and the pool of endpoints (host/browsers/endpoints.py), which import it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from host.shared.masking import mask, spelled

if TYPE_CHECKING:
    from host.settings.config import HostConfig


@dataclass(frozen=True)
class EndpointSpec:
    """One `--browser-endpoint`: `kind` is `ws` (a Playwright browser server), `selenium` (a
    Selenium Grid 4 hub; `url` is its http(s) URL) or `cdp`."""

    kind: str
    url: str
    """What is connected to: the URL without the pool's own query parameters (`max`)."""
    shown: str
    """The URL as reported (no user name or password)."""
    limit: int | None = None
    """Live sessions this endpoint takes at most (`?max=N`); None: no limit of its own."""


def parse_endpoint(text: str) -> EndpointSpec:
    """What `--browser-endpoint` names; raises ValueError with the reason for a URL it cannot use."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise ValueError(f"{_hide(text)}: not a URL ({error})") from None
    scheme = parts.scheme.lower()
    shown = _hide(text)
    kinds = {
        "ws": "ws",
        "wss": "ws",
        "http": "cdp",
        "https": "cdp",
        "selenium+http": "selenium",
        "selenium+https": "selenium",
    }
    if scheme not in kinds:
        raise ValueError(
            f"{shown}: unknown scheme {scheme + '://' if scheme else '(none)'}; give ws:// or "
            "wss:// (a Playwright browser server), selenium+http:// or selenium+https:// (a "
            "Selenium Grid 4 hub) or http:// or https:// (CDP)"
        )
    if kinds[scheme] == "selenium":
        from host.browsers.driver_env import hook_problem

        problem = hook_problem()
        if problem is not None:
            raise ValueError(f"{shown}: {problem}")
    if not parts.hostname:
        raise ValueError(f"{shown}: no host")
    del port  # read above only to check it
    limit = None
    query = []
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name == "max":
            try:
                limit = int(value)
            except ValueError:
                raise ValueError(f"{shown}: max={value!r} is not a whole number") from None
            if limit < 1:
                raise ValueError(f"{shown}: max must be at least 1")
        else:
            query.append((name, value))
    if kinds[scheme] == "selenium" and (query or parts.fragment):
        # Playwright appends `/session` to the hub's URL: a query or fragment would swallow it.
        raise ValueError(f"{shown}: a Selenium hub URL takes no query (but max) and no fragment")
    url = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))
    shown = _hide(url)
    if kinds[scheme] == "selenium":
        url = url.removeprefix(parts.scheme + ":")
        url = scheme.removeprefix("selenium+") + ":" + url
    return EndpointSpec(kinds[scheme], url, shown, limit)


def endpoint_options(args: Any) -> tuple[tuple[str, ...], str | None]:
    """`--browser-endpoint` (each checked) and `--selenium-capabilities` (a JSON object, only
    beside a Selenium endpoint) from the command line; OptionError names the option and why."""
    from host.browsers.selenium_driver import parse_capabilities
    from host.settings.browser_options import OptionError

    endpoints = tuple(args.browser_endpoint)
    specs = []
    for url in endpoints:
        try:
            specs.append(parse_endpoint(url))
        except ValueError as error:
            raise OptionError("--browser-endpoint", str(error)) from None
    capabilities = args.selenium_capabilities
    if capabilities is None:
        return endpoints, None
    if not any(spec.kind == "selenium" for spec in specs):
        raise OptionError(
            "--selenium-capabilities", "give it with a selenium+http:// --browser-endpoint"
        )
    try:
        return endpoints, parse_capabilities(capabilities)
    except ValueError as error:
        raise OptionError("--selenium-capabilities", str(error)) from None


def hide_credentials(text: str, spec: EndpointSpec) -> str:
    """`text` (an error that may quote the endpoint's URL) without its user name and password."""
    parts = urlsplit(spec.url)
    hidden: dict[str, str] = {}
    if "@" in parts.netloc:
        userinfo = parts.netloc.rsplit("@", 1)[0]
        hidden |= {userinfo + "@": "***@", unquote(userinfo) + "@": "***@"}
    if parts.password:
        hidden |= {parts.password: "***", unquote(parts.password): "***"}
    # The secrets' one rule (one pass, the longest first), each in every spelling it may be
    # quoted in (an error may show the URL percent-encoded or JSON-escaped).
    return mask(text, spelled(hidden))


def _hide(text: str) -> str:
    """`text` without the user name and password of its URL."""
    try:
        parts = urlsplit(text)
    except ValueError:
        return "(a URL that cannot be read)"
    if "@" not in parts.netloc:
        return text
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1]))


def launch_options_header(config: HostConfig) -> dict[str, str]:
    """What `run-server` launches its browser with, in the header Playwright's connect uses
    (`launch-server` endpoints ignore it): executable path, headless, args."""
    options: dict[str, Any] = {"headless": config.headless, "args": list(config.browser_args)}
    if config.executable_path:
        options["executablePath"] = config.executable_path
    return {"x-playwright-launch-options": json.dumps(options)}
