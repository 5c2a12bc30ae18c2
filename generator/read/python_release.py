"""The Python API of any Playwright release, without installing it.

`diff` judges each side against the Python playwright of its own version: a side's version is
rarely the one installed (before a bump the new one is not, after it the old one is not). The
three source files the generator reads are taken from that release's wheel, fetched with pip
(`pip download --no-deps`, so pip's own configuration decides where from) and kept in the
cache under `python-api/<version>/`; an installed package of that exact version is read in place.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from generator.read.python_api import PythonApiFiles, locate_python_api
from generator.shared import typed_command
from generator.shared.diagnostics import ExitCode, GeneratorError

# The three files `python_api` reads, as paths inside the wheel.
_MEMBERS = {
    "sync": "playwright/sync_api/_generated.py",
    "asynchronous": "playwright/async_api/_generated.py",
    "structures": "playwright/_impl/_api_structures.py",
}
_VERSION = re.compile(r"\d+\.\d+\.\d+(?:[.-]?[0-9A-Za-z]+)*")
_PIP_TIMEOUT_S = 300


def valid_version(version: str) -> bool:
    """Whether `version` reads as a release number (1.63.0), not a path, option or URL."""
    return bool(_VERSION.fullmatch(version))


def download_wheel(version: str, folder: Path) -> Path:
    """Playwright `version`'s wheel for this machine, downloaded into `folder` by pip; a clear
    error when pip cannot fetch it (no such release, no wheel for this platform, no network)."""
    if not valid_version(version):
        raise GeneratorError(
            f"{version!r} is not a Playwright version; give one such as 1.63.0.",
            ExitCode.USER_INPUT,
        )
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--only-binary=:all:",
        "--dest",
        str(folder),
        f"playwright=={version}",
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=_PIP_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        done = None
    wheels = sorted(folder.glob(f"playwright-{version}-*.whl"))
    if done is None or done.returncode != 0 or not wheels:
        said = "pip timed out" if done is None else _first_error(done.stdout + done.stderr)
        raise GeneratorError(
            f"pip could not download the Python playwright {version} wheel ({said}). Check that "
            f"the release exists (`{typed_command.generator(['bump', '--list'])}`) and that pip can reach its "
            "index (see your pip configuration).",
            ExitCode.ENVIRONMENT,
        )
    return wheels[0]


def _first_error(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR")]
    return (errors or lines or ["no output"])[0][:300]


def python_api_for(version: str, cache_root: Path | None) -> PythonApiFiles:
    """The API files of Python playwright `version`: the installed package when it is exactly that
    version, else the files of its wheel, kept under `cache_root` (a temporary folder that lives
    as long as the process when the cache is off)."""
    installed = locate_python_api_or_none()
    if installed is not None and installed.version == version:
        return installed
    if not valid_version(version):
        raise GeneratorError(
            f"{version!r} is not a Playwright version; give one such as 1.63.0.",
            ExitCode.USER_INPUT,
        )
    root = cache_root if cache_root is not None else _process_folder()
    folder = root / "python-api" / version
    files = PythonApiFiles(
        version,
        folder / "sync_api" / "_generated.py",
        folder / "async_api" / "_generated.py",
        folder / "_impl" / "_api_structures.py",
    )
    if all(p.is_file() for p in files.paths):
        return files
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=f".{version}-") as scratch:
        wheel = download_wheel(version, Path(scratch) / "wheel")
        staged = Path(scratch) / "api"
        try:
            with zipfile.ZipFile(wheel) as archive:
                for key, member in _MEMBERS.items():
                    target = staged / Path(getattr(files, key)).relative_to(folder)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with archive.open(member) as source, open(target, "wb") as sink:
                        shutil.copyfileobj(source, sink)
        except (KeyError, zipfile.BadZipFile) as exc:
            raise GeneratorError(
                f"{wheel.name} does not hold Playwright's generated API ({exc}); the release may "
                "be damaged. Try again, or compare against a manifest.json instead.",
                ExitCode.ENVIRONMENT,
            ) from None
        # One rename: another run sees the whole folder or none of it.
        shutil.rmtree(folder, ignore_errors=True)
        staged.replace(folder)
    return files


def _process_folder() -> Path:
    """A temporary folder removed when the process exits (`--no-cache`)."""
    import atexit

    folder = Path(tempfile.mkdtemp(prefix="pw-api-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def locate_python_api_or_none() -> PythonApiFiles | None:
    try:
        return locate_python_api()
    except GeneratorError:
        return None
