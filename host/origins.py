"""A URL's origin, spelled one way everywhere the host compares origins (the executor's URL
policy, the browser's origin filters)."""

from __future__ import annotations

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
