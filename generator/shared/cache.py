"""A content-addressed cache whose entries are verified before they are trusted.

Each entry is `<kind>/<key>`; its first line is `sha256:<hex>` of the payload after it. An entry
whose checksum, format or content does not hold is deleted and reported as a miss, so a corrupt or
foreign cache is rebuilt, never believed. Keys already include everything the value depends on: a
stored value's key (`value_key`) includes the digest of the code that produced it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from generator import __version__
from generator.shared.code_digest import code_digest


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path | str) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def default_cache_dir() -> Path:
    override = os.environ.get("PLAYWRIGHT_TOOL_GENERATOR_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "playwright-tool-generator"


class Cache:
    """Read and write verified entries under `root`; a disabled cache misses and stores nothing."""

    def __init__(self, root: Path, enabled: bool = True) -> None:
        self.root = root
        self.enabled = enabled
        self._code: tuple[str, dict[str, str]] | None = None

    def key(self, *parts: str) -> str:
        """A key over `parts` and the generator's version (a new generator never reads old entries)."""
        return sha256_bytes("\0".join((__version__, *parts)).encode())

    def value_key(self, producer: str, *parts: str) -> str:
        """The key of a value made by module `producer` (`generator.render.python_format`) from `parts`:
        it covers that module's code and everything the module imports from the generator."""
        return self.key(producer, self._code_digest(producer), *parts)

    def _code_digest(self, producer: str) -> str:
        """`code_digest(producer)`, remembered in the cache under the digest of every source file
        of the generator (which is all a code digest reads), so a run need not parse the import
        graph again while the code is unchanged. An entry that is not {module: sha256 hex} is
        ignored."""
        if not self.enabled:
            return code_digest(producer)
        if self._code is None:
            key = self.key("code", _package_digest())
            text = self.load("code", key, _valid_digests)
            self._code = (key, json.loads(text) if text is not None else {})
        key, known = self._code
        if producer not in known:
            known[producer] = code_digest(producer)
            self.store("code", key, json.dumps(known, sort_keys=True))
        return known[producer]

    def load(self, kind: str, key: str, valid: Callable[[str], bool] | None = None) -> str | None:
        """The entry's text, or None: absent, or failing its checksum, its encoding or `valid`
        (the structure its kind must have). A failing entry is deleted, so it is rebuilt; a
        cache that cannot be cleaned (read-only, say) only misses."""
        if not self.enabled:
            return None
        raw = _read_regular(self.root / kind / key)
        if raw is None:
            return None
        header, _, payload = raw.partition(b"\n")
        try:
            if header != b"sha256:" + sha256_bytes(payload).encode():
                raise ValueError("checksum")
            text = payload.decode("utf-8")
            if valid is not None and not valid(text):
                raise ValueError("structure")
        except Exception:
            # Whatever a forged entry makes a check raise (a decoding error, a RecursionError
            # from nesting ten thousand deep) means the same: the entry is not believed.
            self.discard(kind, key)
            return None
        return text

    def discard(self, kind: str, key: str) -> None:
        with contextlib.suppress(OSError):
            (self.root / kind / key).unlink(missing_ok=True)

    def store(self, kind: str, key: str, text: str) -> None:
        if not self.enabled:
            return
        payload = text.encode("utf-8")
        folder = self.root / kind
        temp = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"sha256:" + sha256_bytes(payload).encode() + b"\n" + payload)
            os.replace(temp, folder / key)
        except OSError:
            # A cache that cannot be written (read-only, full) only costs time; a half-written
            # temporary file is not left to fill it further.
            if temp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temp)


_PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # generator/, above shared/


def _package_digest() -> str:
    """SHA-256 over the relative path and bytes of every `.py` file of the generator package."""
    paths = []
    for folder, subfolders, names in os.walk(_PACKAGE_ROOT):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        paths += [os.path.join(folder, n) for n in names if n.endswith(".py")]
    digest = hashlib.sha256()
    for path in sorted(paths):
        with open(path, "rb") as handle:
            source = handle.read()
        digest.update(os.path.relpath(path, _PACKAGE_ROOT).encode() + b"\0")
        digest.update(str(len(source)).encode() + b"\0" + source)
    return digest.hexdigest()


def _valid_digests(text: str) -> bool:
    value = json.loads(text)
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) and len(v) == 64 for k, v in value.items()
    )


def _read_regular(path: Path) -> bytes | None:
    """The bytes of the regular file at `path`, or None. Anything else in the cache's place (a
    FIFO, a device, a folder) would block the read or read without end, so it is not read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError:
        return None
    finally:
        os.close(fd)
