"""Which URLs an action may open: absolute http(s) only, optionally only some origins."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from host.executor.errors import ExecutorError
from host.shared.jsontypes import JsonValue
from host.shared.origins import DEFAULT_PORTS, origin_of

__all__ = ["UrlPolicy", "origin_of"]

# Whitespace, controls and backslashes are refused outright: browsers strip or reinterpret them
# (`http://a.example\@b.example` opens a.example; Python's parser sees b.example), so a URL that
# holds one could be judged by this module as one origin and opened by the browser as another.
_UNSAFE = re.compile(r"[\x00-\x20\x7f\\]")


class UrlPolicy:
    """Decides whether an action may open a URL.

    Guarantees: `check` accepts only absolute `http:`/`https:` URLs with a host, without user
    credentials, whitespace, control characters or backslashes (so `file:`, `javascript:`, `data:`,
    scheme-relative and parser-confusing URLs are refused); with an allow-list, only URLs whose
    origin is listed. Refusals are `url_refused` at `url`, and never quote the URL.
    """

    def __init__(self, allowed_origins: Iterable[str] = ()) -> None:
        normalised = set()
        for origin in allowed_origins:
            value = origin_of(origin.strip())
            if value is None:
                raise ValueError(f"not an http(s) origin: {origin!r}")
            normalised.add(value)
        self.allowed = frozenset(normalised)

    def allows(self, url: str) -> bool:
        """Whether a navigation to `url` (a page already open may go anywhere) stays allowed."""
        if not self.allowed:
            return True
        return origin_of(url) in self.allowed

    def check(self, url: str, path: str = "url") -> str:
        if _UNSAFE.search(url):
            raise ExecutorError(
                "url_refused",
                "the URL contains whitespace, a control character or a backslash",
                path=path,
            )
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme not in DEFAULT_PORTS:
            shown = f"'{scheme}:'" if scheme.isalpha() and len(scheme) < 20 else "a missing scheme"
            raise ExecutorError(
                "url_refused",
                f"only absolute http: and https: URLs are allowed, not {shown}",
                path=path,
            )
        parts = urlsplit(url)
        if not url.lower().startswith(f"{scheme}://") or not parts.hostname:
            raise ExecutorError("url_refused", "the URL has no host", path=path)
        if "@" in parts.netloc:
            raise ExecutorError(
                "url_refused", "credentials in the URL are not allowed (user:password@)", path=path
            )
        origin = origin_of(url)
        if origin is None:
            raise ExecutorError("url_refused", "the URL's port is not valid", path=path)
        if self.allowed and origin not in self.allowed:
            raise ExecutorError(
                "url_refused",
                "the URL's origin is not in the service's allow-list",
                path=path,
                details={"allowed_origins": list[JsonValue](sorted(self.allowed))},
            )
        return url
