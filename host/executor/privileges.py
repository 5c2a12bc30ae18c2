"""Dropping root before the browser starts, and reading back who the browser runs as."""

from __future__ import annotations

import os
import pwd
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_BROWSER_BINARY = re.compile(r"(chrom|firefox|webkit|minibrowser|headless_shell)", re.IGNORECASE)


# Imported before the drop: the unprivileged user may be unable to read the interpreter's own
# library (a Python under /root, mode 0700), and these are imported lazily on first use.
PRELOAD = (
    "concurrent.futures.thread",
    "encodings.idna",
    "encodings.punycode",
    "email.utils",
    "email.parser",
    "http.cookies",
    "unicodedata",
    "stringprep",
    "uvicorn.lifespan.on",
    "uvicorn.loops.asyncio",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.websockets.auto",
    "starlette.formparsers",
    "playwright.async_api",
    "playwright._impl._driver",
    "playwright._impl._transport",
    "playwright._impl._connection",
    "playwright._impl._browser_type",
    "json.decoder",
    "difflib",
    "html.parser",
)


def needed_paths(executable_path: str | None) -> list[tuple[str, Path, int]]:
    """What the browser needs after the drop: Playwright's driver (node and its script) and,
    when one is named, the browser's executable."""
    from playwright._impl._driver import compute_driver_executable

    node, script = compute_driver_executable()
    needed = [
        ("Playwright's driver", Path(node), os.X_OK),
        ("Playwright's driver script", Path(script), os.R_OK),
    ]
    if executable_path:
        needed.append(("the browser", Path(executable_path), os.X_OK))
    return needed


def preload() -> list[str]:
    """Import `PRELOAD` (and the generated tools) now; the modules that could not be imported."""
    import importlib

    missing = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    from host.calls.registry import generated_registry

    generated_registry()
    return missing


@dataclass(frozen=True)
class Identity:
    """The account the service runs as after `drop_privileges`."""

    user: str
    uid: int
    gid: int
    home: str


def closed_directory(path: Path) -> Path | None:
    """The first directory on the way to `path` that this process may not enter (search), or
    None when every one lets it through."""
    for parent in reversed(path.parents):
        if not os.access(parent, os.X_OK):
            return parent
    return None


def unreachable(user: str, needed: Sequence[tuple[str, Path, int]]) -> str | None:
    """Why this process (already `user`) cannot use one of `needed` (what it is, its path, the
    `os.access` mode it needs), naming the path, the directory closed to it and the fix; None
    when it can use them all."""
    for what, path, mode in needed:
        if os.access(path, mode):
            continue
        closed = closed_directory(path)
        if closed is not None:
            try:
                info = closed.stat()
                shown = f"mode {info.st_mode & 0o777:04o}, owner {user_name(info.st_uid)}"
            except OSError:
                shown = "not readable"
            return (
                f"--user {user} cannot reach {what} at {path}: the directory {closed} ({shown})"
                f" is closed to {user}. Install the service where {user} can read it (a clone"
                f" under /opt or /srv, not a 0700 home or temporary directory), or let {user}"
                f" through with `chmod o+x {closed}`"
            )
        return (
            f"--user {user} cannot use {what} at {path} (Permission denied); make it readable"
            f" and executable by {user} (`chmod o+rx {path}`)"
        )
    return None


def drop_privileges(
    user: str, data_dir: Path | None = None, needed: Sequence[tuple[str, Path, int]] = ()
) -> Identity:
    """Become `user` for good (real, effective and saved ids; no supplementary groups).

    Guarantees: on return the process cannot regain root (checked: `setuid(0)` fails); `HOME`,
    `TMPDIR` and the XDG directories point into `data_dir` (created if missing, owned by `user`,
    mode 0700; a fresh temporary directory when None), where the browser keeps its profile and
    caches; `user` can use every path of `needed` (`unreachable`: Playwright's driver, the
    browser), or this raises PermissionError saying which and how to fix it, before anything
    starts. Raises `ValueError` for an unknown user or root, `PermissionError` when not root and
    `user` is someone else.
    """
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise ValueError(f"there is no user named {user!r}") from None
    if entry.pw_uid == 0:
        raise ValueError("--user must name an unprivileged account, not root")
    if os.geteuid() != 0:
        if os.geteuid() == entry.pw_uid:
            return Identity(user, entry.pw_uid, entry.pw_gid, os.environ.get("HOME", ""))
        raise PermissionError(f"becoming {user!r} needs the service to start as root")
    home = data_dir or Path(tempfile.mkdtemp(prefix="web-executor-"))
    home.mkdir(parents=True, exist_ok=True)
    tmp = home / "tmp"
    tmp.mkdir(exist_ok=True)
    for path in (home, tmp):
        os.chown(path, entry.pw_uid, entry.pw_gid)
        os.chmod(path, 0o700)
    os.environ.update(
        {
            "HOME": str(home),
            "TMPDIR": str(tmp),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "USER": user,
            "LOGNAME": user,
        }
    )
    os.setgroups([])
    os.setresgid(entry.pw_gid, entry.pw_gid, entry.pw_gid)
    os.setresuid(entry.pw_uid, entry.pw_uid, entry.pw_uid)
    try:
        os.setuid(0)
    except PermissionError:
        pass
    else:  # pragma: no cover - would mean the drop did not happen
        raise RuntimeError("dropping privileges failed: root could be regained")
    if not os.access(home, os.W_OK | os.X_OK):
        raise PermissionError(f"{user!r} cannot write {home} (a parent directory is closed to it)")
    problem = unreachable(user, needed)
    if problem is not None:
        raise PermissionError(problem)
    return Identity(user, entry.pw_uid, entry.pw_gid, str(home))


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


@dataclass(frozen=True)
class ProcessInfo:
    """A browser process below the service, as /proc shows it."""

    pid: int
    uids: tuple[int, ...]
    """Real, effective, saved and filesystem uid."""
    name: str


def _uids(pid: int) -> tuple[int, ...] | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("Uid:"):
                    return tuple(int(v) for v in line.split()[1:])
    except OSError:
        return None
    return None


def browser_processes(root: int | None = None) -> list[ProcessInfo]:
    """The browser processes (main, renderers, helpers) among the descendants of `root`."""
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found: list[ProcessInfo] = []
    stack = [root]
    seen: set[int] = set()
    while stack:
        for pid in children.get(stack.pop(), []):
            if pid in seen:
                continue
            seen.add(pid)
            stack.append(pid)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    binary = handle.read().split(b"\0", 1)[0].decode(errors="replace")
            except OSError:
                continue
            name = binary.rsplit("/", 1)[-1]
            uids = _uids(pid)
            if uids is not None and _BROWSER_BINARY.search(name):
                found.append(ProcessInfo(pid, uids, name))
    return sorted(found, key=lambda p: p.pid)
