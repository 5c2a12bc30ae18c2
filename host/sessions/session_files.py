"""One session's files: the folder its tools write into and the only one they read back from.

Layout: `<output dir>/sessions/<transport>-<24 random hex digits>/<kind>/<name>`, where `kind` is
`screenshots`, `pdf`, `snapshots`, `console`, `network`, `storage`, `traces` or `downloads`. The
output directory is the operator's `--output-dir` (else `default_output_dir()`), taken once, with
its symlinks resolved, when the session starts.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import BinaryIO

from playwright.async_api import BrowserContext

from host.settings.config import HostConfig, default_output_dir
from host.shared.confined import Refused, TooLarge, components, create_file, read_file
from host.shared.errors import HostError

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


def _plain(suggested: str) -> str:
    return _UNSAFE.sub("_", suggested.replace("\\", "/").rsplit("/", 1)[-1]).strip(" .")[:120]


def plain_name(suggested: str) -> str:
    """A file name from a page's suggestion: no directories, no leading dots, at most 120 chars."""
    return _plain(suggested) or "download"


def unguessable(prefix: str) -> str:
    """A default file name: `prefix`, the UTC time to the second and 32 random bits, so a name no
    caller gave cannot be guessed (by another session, or a page) from the time alone."""
    return f"{prefix}-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{secrets.token_hex(4)}"


class SessionFiles:
    """Where one session keeps the files its tools write, and reads back the ones it saved.

    Guarantees: the session's folder is `<output>/sessions/<transport>-<96 random bits>`, made on
    first use (mode 0700), so another session can neither name nor guess it; every file is
    written and read through `host.shared.confined` (no symlink followed below the output
    directory, files created exclusively, reads capped on the bytes read); `read` reads only a
    file in this session's own `<kind>/` folder, whatever path it is given.
    """

    def __init__(self, output: Path, transport: str) -> None:
        self.base = Path(os.path.realpath(output))
        self.parts = ("sessions", f"{plain_name(transport)}-{secrets.token_hex(12)}")

    @classmethod
    def for_config(cls, config: HostConfig, transport: str) -> SessionFiles:
        """The files of a new session of a host run with `config`."""
        return cls(config.output_dir or default_output_dir(), transport)

    @property
    def root(self) -> Path:
        """The session's folder."""
        return self.base.joinpath(*self.parts)

    def folder(self, kind: str) -> Path:
        """The session's folder for files of `kind` (it may not exist yet)."""
        return self.root / kind

    def save(self, kind: str, name: str, data: bytes | BinaryIO, cap: int | None = None) -> Path:
        """Write `data` as a new file `name` (a plain name) in the `kind/` folder, or under the
        next free name; returns its path. `TooLarge` past `cap`; any other refusal of the
        confined write (a symlink or a non-folder on the way) is a HostError `output_refused`."""
        try:
            return create_file(self.base, (*self.parts, kind), name, data, cap)
        except TooLarge:
            raise
        except Refused as refused:
            raise HostError(
                "output_refused",
                f"the file was not written: {refused.message}. The host writes only new files "
                f"in this session's folder {self.root}, never through a symlink; remove what was "
                "put in its place",
            ) from None

    def read(self, kind: str, given: str, cap: int) -> tuple[Path, bytes]:
        """The bytes of the file `given` names in this session's `kind/` folder (a name, a path
        relative to that folder, or the absolute path `save` returned) and its path; `Refused`
        for any other file, `TooLarge` past `cap` bytes."""
        folder = self.folder(kind)
        raw = Path(given)
        if raw.is_absolute():
            if not raw.is_relative_to(folder):
                raise Refused(f"{given} is not in this session's {kind} folder", "elsewhere")
            relative = raw.relative_to(folder).as_posix()
        else:
            relative = given
        parts = components(relative)
        return folder.joinpath(*parts), read_file(self.base, (*self.parts, kind, *parts), cap)


def save_output(
    files: SessionFiles, folder: str, requested: str, extension: str, data: bytes
) -> Path:
    """Write `data` in the session's `folder/` as `requested` reduced to a plain name (with
    `extension` unless it has one; an unguessable name if none is left), never over an existing
    file; returns its path."""
    name = _plain(requested) or unguessable(folder)
    if "." not in name:
        name += extension
    return files.save(folder, name, data)


async def save_trace(context: BrowserContext, files: SessionFiles, name: str) -> Path:
    """Stop `context`'s trace and keep it in the session's `traces/` as `name` (or the next free
    name). Playwright writes a path itself, so it writes into a private folder of the host's own
    (made by `mkdtemp`, mode 0700, outside the output directory) and the zip is copied from there
    through the confined write: the driver never resolves a path in the output directory."""
    with tempfile.TemporaryDirectory(prefix="pwth-trace-") as private:
        written = Path(private) / "trace.zip"
        await context.tracing.stop(path=str(written))
        with open(written, "rb") as source:
            return files.save("traces", name, source)
