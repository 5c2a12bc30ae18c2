"""Where the browser may go: the schemes and local files a session's pages may show.

Two checks, one rule. A URL a caller asks to open (`navigate`, `web_navigate`, a new tab, a
webBrowser agent) is checked before the browser sees it; and after every call the host checks
where each tab and frame really is, since a redirect, a script or a link can take a page
somewhere no argument named. A page may show http(s), `data:` and `about:blank` (and what those
make: `about:srcdoc` frames, `blob:` documents of an allowed origin, Chromium's own error page);
`file:` only under a directory the operator allowed (`--allow-file-dir`); nothing else
(`view-source:`, `chrome:`, `devtools:`, `javascript:`, `filesystem:`, ...).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from host.shared.errors import HostError

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_OPENABLE = frozenset({"http", "https", "data"})
# What a page may end up showing besides what may be opened: frames Chromium makes itself.
_LANDED = frozenset({"http", "https", "data", "chrome-error"})


_LEADING = "".join(map(chr, range(0x21)))
"""C0 controls and the space: ignored before a URL's scheme."""


def scheme_of(url: str) -> str:
    """The scheme a browser would read from `url` (lower case; "" for none): leading controls and
    spaces are ignored and tabs and newlines removed, as the URL standard says."""
    cleaned = _TAB_OR_NEWLINE.sub("", url.lstrip(_LEADING))
    found = _SCHEME.match(cleaned)
    return found.group(1).lower() if found else ""


def _shown(url: str) -> str:
    text = url if len(url) <= 200 else url[:200] + "..."
    return text.encode("ascii", "backslashreplace").decode("ascii")


@dataclass(frozen=True)
class NavigationPolicy:
    """Decides which URLs a session's pages may open and show.

    Guarantees: `check_open` accepts http(s), `data:`, `about:blank`, and `file:` URLs whose path
    (with `..` and symlinks resolved) lies under one of `file_dirs`; anything else raises
    `HostError("url_blocked")` naming the URL's scheme and how to allow local files. `landed_ok`
    is the same rule for where a frame is, plus the frames a page makes without a caller
    (`about:srcdoc`, `blob:` of an allowed origin, Chromium's error page).
    """

    file_dirs: tuple[Path, ...] = ()

    @classmethod
    def allowing(cls, directories: Iterable[Path]) -> NavigationPolicy:
        return cls(tuple(Path(os.path.realpath(d)) for d in directories))

    def check_open(self, url: str, path: str = "url") -> None:
        scheme = scheme_of(url)
        if scheme in _OPENABLE or (scheme == "about" and _about(url) == "blank"):
            return
        if scheme == "" and not url.strip():
            raise HostError("invalid_argument", "the URL is empty", path=path)
        if scheme == "file":
            if self._file_allowed(url):
                return
            raise HostError("url_blocked", self._file_refusal(url), path=path)
        if scheme == "":
            return  # no scheme: Playwright refuses it as an invalid URL, with its own message
        raise HostError("url_blocked", _scheme_refusal(scheme), path=path)

    def landed_ok(self, url: str) -> bool:
        if not url:
            return True  # a frame that has not committed a document (its initial empty one)
        if url.startswith(("https://", "http://")):
            return True  # the common case, looked at after every call: its scheme is plain
        scheme = scheme_of(url)
        if scheme in _LANDED:
            return True
        if scheme == "about":
            return _about(url) in ("blank", "srcdoc")
        if scheme == "blob":
            inner = url.split(":", 1)[1]
            return scheme_of(inner) in ("http", "https") or inner.startswith("null/")
        if scheme == "file":
            return self._file_allowed(url)
        return False

    def landed_refusal(self, url: str) -> str:
        """Why a page that ended up at `url` was taken away from it."""
        scheme = scheme_of(url)
        why = self._file_refusal(url) if scheme == "file" else _scheme_refusal(scheme or "?")
        return f"a page went to {_shown(url)}, which this host does not show: {why}"

    def _file_allowed(self, url: str) -> bool:
        if not self.file_dirs:
            return False
        try:
            parts = urlsplit(url)
        except ValueError:
            return False
        if parts.netloc not in ("", "localhost"):
            return False
        real = Path(os.path.realpath(unquote(parts.path) or "/"))
        return any(real == d or d in real.parents for d in self.file_dirs)

    def _file_refusal(self, url: str) -> str:
        if not self.file_dirs:
            return (
                "local files are off on this host (file: URLs are refused); the operator allows "
                "the files under a directory by starting the host with --allow-file-dir DIR"
            )
        dirs = ", ".join(str(d) for d in self.file_dirs)
        return (
            f"the file is outside the directories this host opens ({dirs}); the operator adds "
            "one with --allow-file-dir DIR"
        )


def _about(url: str) -> str:
    rest = url.split(":", 1)[1].strip().lower()
    return re.split(r"[?#]", rest, maxsplit=1)[0]


def _scheme_refusal(scheme: str) -> str:
    return (
        f"'{scheme[:20]}:' URLs are refused: a page may open only http:, https:, data: and "
        "about:blank (and file: under a directory the operator allows with --allow-file-dir)"
    )
