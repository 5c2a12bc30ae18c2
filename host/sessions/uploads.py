"""Which local files `upload_file` may send, and the file input an upload goes to.

A path is allowed only inside an operator's `--upload-dir`, with symlinks and `..` resolved, as an
existing, non-empty regular file; each refusal names its rule.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.async_api import Locator

from host.settings.config import HostConfig
from host.settings.limits import check_path_text
from host.shared.errors import HostError


def check_upload(config: HostConfig, raw: str) -> Path:
    """The file `raw` names, if the host's upload rules allow it; else a HostError naming the rule.

    Rules, in order: uploads are on (`--upload-dir`); the path, with symlinks and `..` resolved,
    lies inside an allowed directory (also resolved); it exists; it is a regular file; it is not
    empty. A relative path is taken relative to the first allowed directory.
    """
    if not config.upload_dirs:
        raise HostError(
            "upload_disabled",
            "rule 'uploads are off': this host was started without --upload-dir, so no file can "
            "be uploaded",
            path="path",
        )
    check_path_text(raw, "path")
    given = Path(raw).expanduser()
    if not given.is_absolute():
        given = config.upload_dirs[0] / given
    real = Path(os.path.realpath(given))
    allowed = [Path(os.path.realpath(d)) for d in config.upload_dirs]
    if not any(real == d or d in real.parents for d in allowed):
        raise HostError(
            "upload_not_allowed",
            f"rule 'inside an allowed directory': {raw} resolves to {real}, which is outside the "
            f"allowed directories ({', '.join(str(d) for d in allowed)})",
            path="path",
        )
    if not real.exists():
        raise HostError(
            "upload_not_found", f"rule 'must exist': {real} does not exist", path="path"
        )
    if not real.is_file():
        raise HostError(
            "upload_not_a_file",
            f"rule 'regular file': {real} is not a regular file",
            path="path",
        )
    if real.stat().st_size == 0:
        raise HostError("upload_empty", f"rule 'not empty': {real} is empty (0 bytes)", path="path")
    return real


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
