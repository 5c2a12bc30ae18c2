"""A URL's origin, spelled one way everywhere the host compares origins (the executor's URL
policy, the browser's origin filters)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of an http(s) URL (default port left out, lower case), else None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return None
    shown = f"[{host}]" if ":" in host else host
    if port is not None and port != DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown}:{port}"
    return f"{scheme}://{shown}"


_PATTERN = re.compile(
    r"(?:(?P<scheme>https?|\*)://)?(?P<host>\[[0-9a-f:.]+\]|[^/?#\s:\[\]@]+)"
    r"(?::(?P<port>\d{1,5}|\*))?(?:/\S*)?",
    re.IGNORECASE,
)


def origin_pattern(text: str) -> str | None:
    """An origin pattern as `--blocked-origins` and `--browser-allowed-origins` take it, in the
    forms @playwright/mcp accepts, spelled one way: `scheme://host[:port]` (a default port left
    out), `scheme://host:*` (any port), or `host[:port]` without a scheme (http or https); `*` in
    the host matches any characters but `/` (`*.example.com`), as in a Playwright glob; a path after
    the origin is left out (a URL stands for its origin). None for text that is none of these
    (another scheme, a user name)."""
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        return None
    scheme = (match["scheme"] or "").lower()
    host = match["host"].lower()
    port = match["port"]
    if port is not None and port != "*" and not 0 < int(port) < 65536:
        return None
    if scheme in DEFAULT_PORTS and port not in (None, "*") and int(port) == DEFAULT_PORTS[scheme]:
        port = None
    head = f"{scheme}://" if scheme and scheme != "*" else ""
    return head + host + (f":{port}" if port is not None else "")


def origin_matches(pattern: str, origin: str) -> bool:
    """Whether `origin` (`scheme://host[:port]`, as `origin_of` spells it) matches `pattern` (as
    `origin_pattern` spells it). A pattern without a port stands for the scheme's default port."""
    parsed = _PATTERN.fullmatch(pattern)
    seen = _PATTERN.fullmatch(origin)
    if parsed is None or seen is None or not seen["scheme"]:
        return False
    scheme = seen["scheme"].lower()
    if parsed["scheme"] and parsed["scheme"] != "*" and parsed["scheme"].lower() != scheme:
        return False
    port = int(seen["port"]) if seen["port"] else DEFAULT_PORTS.get(scheme)
    wanted = parsed["port"]
    if wanted != "*" and (int(wanted) if wanted else DEFAULT_PORTS.get(scheme)) != port:
        return False
    host = "[^/]*".join(re.escape(part) for part in parsed["host"].split("*"))
    return re.fullmatch(host, seen["host"].lower()) is not None
