"""Which local files an upload or a drop may send, read by the host, and the file input an upload
goes to.

A path is allowed only inside an operator's `--upload-dir` (`..` collapsed first), is read
through `host.shared.confined` from that directory down (no symlink followed below it, a regular
file, the bytes read capped), and must not be empty; each refusal names its rule. The bytes go to
Playwright as buffers (`{name, mimeType, buffer}`), never as a path the driver would open again.
"""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import FilePayload, Locator

from host.settings.config import HostConfig
from host.shared.confined import Refused, read_file
from host.shared.errors import HostError


@dataclass(frozen=True)
class Upload:
    """One file read for an upload or a drop: its name, its bytes (as read, within the cap) and
    where it was read from."""

    name: str
    data: bytes
    path: Path

    def payload(self) -> FilePayload:
        """The file as Playwright takes a buffer (a path would be opened again by the driver)."""
        kind = mimetypes.guess_type(self.name)[0] or "application/octet-stream"
        return {"name": self.name, "mimeType": kind, "buffer": self.data}


def _inside(config: HostConfig, raw: str) -> tuple[Path, tuple[str, ...]]:
    """The allowed directory `raw` lies in and the components below it, `..` collapsed
    lexically (a component is then opened without following a symlink, so what it names is the
    file below the directory, never elsewhere); else a HostError naming the rule."""
    given = Path(raw).expanduser()
    if not given.is_absolute():
        given = config.upload_dirs[0] / given
    wanted = Path(os.path.normpath(os.path.abspath(given)))
    for directory in config.upload_dirs:
        for base in (Path(os.path.abspath(directory)), Path(os.path.realpath(directory))):
            if wanted.is_relative_to(base) and wanted != base:
                return base, wanted.relative_to(base).parts
    allowed = ", ".join(str(d) for d in config.upload_dirs)
    raise HostError(
        "upload_not_allowed",
        f"rule 'inside an allowed directory': {raw} is {wanted}, which is outside the allowed "
        f"directories ({allowed})",
        path="path",
    )


def read_upload(config: HostConfig, raw: str, cap: int) -> Upload:
    """The file `raw` names, read, if the host's upload rules allow it; else a HostError naming
    the rule.

    Rules, in order: uploads are on (`--upload-dir`); the path (a relative one is taken relative
    to the first allowed directory) lies inside an allowed directory; no component below that
    directory is a symlink; it exists; it is a regular file; it is not empty; it holds at most
    `cap` bytes (counted while reading, so a file that grows or is swapped meanwhile is caught).
    """
    if not config.upload_dirs:
        raise HostError(
            "upload_disabled",
            "rule 'uploads are off': this host was started without --upload-dir, so no file can "
            "be uploaded",
            path="path",
        )
    base, parts = _inside(config, raw)
    where = base.joinpath(*parts)
    try:
        data = read_file(base, parts, cap)
    except Refused as refused:
        code, rule = {
            "symlink": ("upload_not_allowed", "no symlink"),
            "missing": ("upload_not_found", "must exist"),
            "not_file": ("upload_not_a_file", "regular file"),
            "too_large": ("upload_too_large", "at most max_upload_bytes"),
        }.get(refused.reason, ("upload_not_allowed", "a plain path"))
        detail = refused.message
        if refused.reason == "too_large":
            detail = (
                f"{where} is larger than the {cap} bytes this call may still send (the files of "
                f"one call send at most {config.max_upload_bytes} bytes together, so a large file "
                "cannot take the browser down); send a smaller file"
            )
        raise HostError(code, f"rule '{rule}': {detail}", path="path") from None
    if not data:
        raise HostError(
            "upload_empty", f"rule 'not empty': {where} is empty (0 bytes)", path="path"
        )
    return Upload(where.name, data, where)


SECONDS_PER_MIB = 3.0
"""Time a call sending files gets per MiB, beyond the action timeout: a buffer crosses to the page
at about 0.2 s a MiB on an idle machine and 1.5 to 2.5 s on one loaded eight times over."""


def sending_timeout(config: HostConfig, uploads: Sequence[Upload]) -> float:
    """Milliseconds Playwright may take to hand `uploads` to the page: the action timeout plus
    `SECONDS_PER_MIB` a MiB, at most the navigation timeout (which bounds every call), so a file
    within the cap arrives rather than timing out with the page still busy reading it."""
    size = sum(len(u.data) for u in uploads) / (1024 * 1024)
    return min(config.action_timeout + SECONDS_PER_MIB * size, config.navigation_timeout) * 1000


def read_uploads(config: HostConfig, named: Sequence[tuple[str, str]]) -> list[Upload]:
    """The files of one call, each `(argument, path)`, read by `read_upload` within one budget of
    `config.max_upload_bytes` for them all; a refusal names its argument (`paths[1]`)."""
    uploads: list[Upload] = []
    budget = config.max_upload_bytes
    for where, raw in named:
        try:
            upload = read_upload(config, raw, budget)
        except HostError as error:
            error.path = where
            raise
        budget -= len(upload.data)
        uploads.append(upload)
    return uploads


async def file_input(locator: Locator) -> Locator:
    """`locator` if it is an `<input type=file>`, else the nearest one: inside it, then inside
    its closest ancestor that holds one."""
    if await locator.evaluate("e => e instanceof HTMLInputElement && e.type === 'file'"):
        return locator
    inside = locator.locator("input[type=file]")
    if await inside.count() > 0:
        return inside.first
    around = locator.locator("xpath=ancestor::*[.//input[@type='file']][1]").locator(
        "input[type=file]"
    )
    if await around.count() > 0:
        return around.first
    raise HostError(
        "no_file_input",
        "the target is not a file input and none is inside it or near it",
        path="target",
    )
