"""The dependencies of a wheel, pinned: `name==version` and the sha256 of the file pip installs.

`pins(wheel)` asks pip (an install dry run: nothing is installed) to resolve the wheel's
dependencies as a consumer's pip does on this interpreter and platform, each held to the version
installed in this environment (constraints made from its installed distributions): the pins are
what the project's own tests ran against, and each sha256 is the one the package index gives for
the file pip chose. That needs the package index once; the answer is kept in this environment
(`<sys.prefix>/dist-pins/`) under a key of everything it depends on (the wheel's Requires-Dist,
the installed versions, the interpreter and the platform), so a rebuild is offline and gives the
same pins. They hold for this interpreter's version and platform (a compiled dependency has one
file per platform), which `PLATFORM` names. A failure is a `PinError` with one line saying what
to do; no URL of the index is kept.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

PLATFORM = (
    f"{platform.python_implementation()} {sys.version_info.major}.{sys.version_info.minor} "
    f"on {sysconfig.get_platform()}"
)


class PinError(Exception):
    """One line: what failed and how to fix it."""


@dataclass(frozen=True, order=True)
class Pin:
    """One requirement of a requirements file in hash-checking mode."""

    name: str  # normalised (PEP 503): lower case, runs of -_. as one -
    version: str
    sha256: str

    def line(self) -> str:
        return f"{self.name}=={self.version} \\\n    --hash=sha256:{self.sha256}\n"


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_metadata(wheel: Path) -> dict[str, list[str]]:
    """The wheel's METADATA headers (each name: all its values)."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        headers = HeaderParser().parsestr(archive.read(name).decode("utf-8"))
    found: dict[str, list[str]] = {}
    for key, value in headers.items():
        found.setdefault(key, []).append(value)
    return found


def _installed(leaving_out: str) -> list[str]:
    """`name==version` of every distribution installed here (the first of a name, as imports)."""
    seen: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        name = normalised(dist.metadata["Name"] or "")
        if name and name != leaving_out and name not in seen:
            seen[name] = dist.version
    return [f"{name}=={version}" for name, version in sorted(seen.items())]


def _resolve(wheel: Path, constraints: list[str]) -> list[Pin]:
    """pip's dry run of installing `wheel` under `constraints`: every other file it would install."""
    with tempfile.TemporaryDirectory(prefix="dist-pins-") as folder:
        held, report = Path(folder, "constraints.txt"), Path(folder, "report.json")
        held.write_text("".join(f"{c}\n" for c in constraints), encoding="utf-8")
        dry_run = [
            "install",
            "--dry-run",
            "--ignore-installed",
            "--quiet",
            "--disable-pip-version-check",
        ]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                *dry_run,
                "--report",
                str(report),
                "-c",
                str(held),
                str(wheel),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["(nothing)"])[-1]
            raise PinError(
                "pip could not resolve the wheel's dependencies on your package index to read "
                f"their sha256 ({said}); run it once with the index reachable (the answer is "
                "then kept in the environment)"
            )
        installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    pins = []
    for item in installs:
        if item.get("is_direct"):
            continue  # the wheel itself
        name, version = item["metadata"]["name"], item["metadata"]["version"]
        digest = item["download_info"].get("archive_info", {}).get("hashes", {}).get("sha256")
        if not digest:
            raise PinError(f"pip gives no sha256 for {name} {version}: it is not an index's file")
        pins.append(Pin(normalised(name), version, digest))
    return sorted(pins)


def pins(wheel: Path) -> list[Pin]:
    """Every dependency `wheel` pulls in on this platform, pinned by version and sha256."""
    metadata = wheel_metadata(wheel)
    constraints = _installed(leaving_out=normalised(metadata["Name"][0]))
    key = hashlib.sha256(
        json.dumps([sorted(metadata.get("Requires-Dist", [])), constraints, PLATFORM]).encode()
    ).hexdigest()
    kept = Path(sys.prefix, "dist-pins", f"{key}.json")
    try:
        return [Pin(*row) for row in json.loads(kept.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError):
        pass  # not kept yet (or damaged): ask pip
    found = _resolve(wheel, constraints)
    kept.parent.mkdir(exist_ok=True)
    partial = kept.with_suffix(".partial")
    partial.write_text(json.dumps([[p.name, p.version, p.sha256] for p in found]), encoding="utf-8")
    partial.replace(kept)
    return found
