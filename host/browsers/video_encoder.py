"""`--save-video` with Debian's ffmpeg: Playwright encodes videos with an ffmpeg it downloads
into its own folder, which this machine's hosts cannot download (as with Chromium, Debian's
package stands in).

Guarantees: `ensure_encoder` leaves Playwright's own ffmpeg in use when it is there; otherwise,
when the browser is given by path (`--executable-path`) and an `ffmpeg` is on PATH, it points
Playwright's driver at a private folder holding only a link to that ffmpeg, under the name
Playwright looks for; otherwise it raises `OptionError` saying how to get one.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from host.settings.browser_options import OptionError
from host.shared.private_temp import private_temp_folder

_BROWSERS_PATH = "PLAYWRIGHT_BROWSERS_PATH"


def _revision() -> str | None:
    import playwright

    listing = Path(playwright.__file__).parent / "driver/package/browsers.json"
    try:
        browsers = json.loads(listing.read_text(encoding="utf-8"))["browsers"]
        return next(str(b["revision"]) for b in browsers if b["name"] == "ffmpeg")
    except (OSError, ValueError, KeyError, StopIteration):
        return None


def _binary_name() -> str:
    return "ffmpeg-mac" if sys.platform == "darwin" else "ffmpeg-linux"


def ensure_encoder(executable_path: str | None) -> None:
    """Make sure Playwright finds an ffmpeg for `--save-video` (see the module's guarantees)."""
    revision = _revision()
    if revision is None:
        return  # a Playwright this code does not know: let it say what it misses
    root = Path(os.environ.get(_BROWSERS_PATH) or Path.home() / ".cache/ms-playwright")
    if (root / f"ffmpeg-{revision}" / _binary_name()).exists():
        return
    system = shutil.which("ffmpeg")
    if system is None or executable_path is None or _BROWSERS_PATH in os.environ:
        raise OptionError(
            "--save-video",
            "videos need ffmpeg: install Debian's (apt-get install ffmpeg) or Playwright's "
            "(python -m playwright install ffmpeg)",
        )
    # Playwright runs the ffmpeg found there: a folder only this user can write to.
    private = private_temp_folder(f"playwright-tool-host-ffmpeg-{os.geteuid()}")
    link = private / f"ffmpeg-{revision}" / _binary_name()
    link.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not link.is_symlink() or os.readlink(link) != system:
        temporary = link.with_name(link.name + f".{os.getpid()}")
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(system)
        temporary.replace(link)
    os.environ[_BROWSERS_PATH] = str(private)
