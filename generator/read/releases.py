"""Which Playwright releases are published where, and so which ones a project can bump to.

A release reaches its registries one by one: the Python wheel often ships before the Java artifact
(1.64 and 1.65 have wheels and no JAR), and a Java release can be half-published (1.63.0: a JAR and
its POM, but no parent POM and no sources JAR). A bump needs the wheel (the shims call Python), the
JAR (reflection) and npm's `playwright-core` of the same version (the TypeScript oracle); a missing
sources JAR or parent POM only changes where descriptions come from and how the JAR is fetched.

Every look-up goes through the registries' own clients (pip, mvn, npm) and their configuration.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.read.jar_resolver import ARTIFACT, GROUP, mvn_get, parent_missing, stand_in_parent
from generator.shared import typed_command
from generator.shared.diagnostics import ExitCode, GeneratorError

_TIMEOUT_S = 300
_NETWORK = re.compile(
    r"Could not transfer|Unknown host|UnknownHost|Network is unreachable|Connection refused|"
    r"connect timed out|Temporary failure in name resolution|Failed to establish a new connection|"
    r"ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN",
    re.I,
)


@dataclass(frozen=True)
class Release:
    """What one release has published: the Python wheel, the Java JAR, its POM and the parent
    POM that names, its sources JAR, and npm's playwright-core."""

    version: str
    wheel: bool
    jar: bool
    pom: bool
    parent_pom: bool
    sources: bool
    npm: bool

    @property
    def missing(self) -> list[str]:
        """What a bump to this release needs and cannot have."""
        return [
            what
            for what, there in (
                ("the Python wheel", self.wheel),
                ("the Java JAR", self.jar),
                ("npm's playwright-core", self.npm),
            )
            if not there
        ]

    @property
    def notes(self) -> list[str]:
        """What a bump to this release works around."""
        notes = []
        if self.jar and not self.sources:
            notes.append("no sources JAR: descriptions from the Python docstrings")
        if self.jar and not self.parent_pom:
            notes.append("no parent POM: the JAR is fetched by its coordinates")
        return notes


def version_key(version: str) -> tuple[int, ...]:
    """A release number's order (pre-releases are not listed, so numbers suffice)."""
    return tuple(int(part) for part in version.split("."))


_STABLE = re.compile(r"\d+\.\d+\.\d+")


def _run(command: list[str], what: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=_TIMEOUT_S
        )
    except FileNotFoundError:
        raise GeneratorError(
            f"{command[0]} is not installed, so {what} cannot be looked up; install it "
            "(scripts/setup.sh needs it too) and try again.",
            ExitCode.ENVIRONMENT,
        ) from None
    except subprocess.TimeoutExpired:
        raise GeneratorError(
            f"looking up {what} timed out after {_TIMEOUT_S} s; check the network to the "
            "registries and try again.",
            ExitCode.ENVIRONMENT,
        ) from None


def _unreachable(what: str, said: str) -> GeneratorError:
    lines = [" ".join(line.split()) for line in said.splitlines() if line.strip()]
    first = next((line for line in lines if _NETWORK.search(line)), lines[0] if lines else "")
    return GeneratorError(
        f"cannot reach the registry for {what} ({first[:300] or 'no answer'}); check the network and the "
        "client's configuration, then try again. Nothing was changed.",
        ExitCode.ENVIRONMENT,
    )


def python_versions() -> list[str]:
    """The Python playwright releases with a wheel for this machine, as pip's index lists them."""
    done = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "index",
            "versions",
            "playwright",
            "--only-binary=:all:",
            "--disable-pip-version-check",
        ],
        "the Python wheels",
    )
    listed = re.search(r"^Available versions: (.*)$", done.stdout, re.M)
    if done.returncode != 0 or listed is None:
        # Playwright has releases: pip finding none means its index cannot be reached (pip
        # reports a refused connection only as "no matching distribution").
        raise _unreachable("Python wheels", done.stdout + done.stderr)
    return [v.strip() for v in listed.group(1).split(",") if _STABLE.fullmatch(v.strip())]


def npm_versions() -> list[str]:
    """The published versions of npm's playwright-core."""
    npm = shutil.which("npm")
    if npm is None:
        raise GeneratorError(
            "npm is not installed, so playwright-core's versions cannot be looked up; install "
            "Node.js with npm and try again.",
            ExitCode.ENVIRONMENT,
        )
    done = _run([npm, "view", "playwright-core", "versions", "--json"], "npm's playwright-core")
    try:
        listed = json.loads(done.stdout) if done.returncode == 0 else None
    except ValueError:
        listed = None
    if not isinstance(listed, list):
        raise _unreachable("npm's playwright-core", done.stdout + done.stderr)
    return [v for v in listed if isinstance(v, str) and _STABLE.fullmatch(v)]


@dataclass(frozen=True)
class JavaRelease:
    """What Maven serves of one Java release."""

    jar: bool
    pom: bool
    parent_pom: bool
    sources: bool


def java_release(version: str) -> JavaRelease:
    """Probe Maven for `version`'s JAR, POM, parent POM and sources JAR, in a scratch repository
    (the local one is left as it is)."""
    with tempfile.TemporaryDirectory(prefix="playwright-probe-") as scratch:
        repository = Path(scratch)
        folder = repository / GROUP.replace(".", "/") / ARTIFACT / version
        code, said = mvn_get(version, None, repository)
        parent_pom = code == 0
        if code != 0 and parent_missing(said):
            stand_in_parent(repository, folder / f"{ARTIFACT}-{version}.pom", version)
            code, said = mvn_get(version, None, repository)
        if code != 0 and _NETWORK.search(said) and "not found" not in said:
            raise _unreachable("the Java artifacts", said)
        jar = code == 0
        pom = (folder / f"{ARTIFACT}-{version}.pom").is_file()
        sources = jar and mvn_get(version, "sources", repository)[0] == 0
    return JavaRelease(jar, pom, parent_pom and jar, sources)


def releases_after(pin: str) -> list[Release]:
    """Every release newer than `pin` that pip or npm lists, with what each has published."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        python_future = pool.submit(python_versions)
        npm_future = pool.submit(npm_versions)
        wheels, npm = set(python_future.result()), set(npm_future.result())
    newer = sorted((v for v in wheels | npm if version_key(v) > version_key(pin)), key=version_key)
    with ThreadPoolExecutor(max_workers=3) as pool:
        java = list(pool.map(java_release, newer))
    return [
        Release(v, v in wheels, j.jar, j.pom, j.parent_pom, j.sources, v in npm)
        for v, j in zip(newer, java, strict=True)
    ]


def release(version: str) -> Release:
    """What `version` has published (one release, for `bump VERSION`)."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        python_future = pool.submit(python_versions)
        npm_future = pool.submit(npm_versions)
        java_future = pool.submit(java_release, version)
        java = java_future.result()
        return Release(
            version,
            version in python_future.result(),
            java.jar,
            java.pom,
            java.parent_pom,
            java.sources,
            version in npm_future.result(),
        )


def table(pin: str, releases: list[Release]) -> str:
    """The `bump --list` report: one row per release, then which can be bumped to."""

    def mark(flag: bool) -> str:
        return "yes" if flag else "no"

    rows = [
        f"Pinned: Playwright {pin}. Releases after it:",
        "",
        f"{'release':<10}{'wheel':<7}{'JAR':<5}{'POM':<5}{'parent POM':<12}{'sources':<9}"
        f"{'npm':<5}can bump",
    ]
    for r in releases:
        verdict = (
            "yes"
            if not r.missing
            else "no: no " + ", no ".join(m.removeprefix("the ") for m in r.missing)
        )
        if not r.missing and r.notes:
            verdict += f" ({'; '.join(r.notes)})"
        rows.append(
            f"{r.version:<10}{mark(r.wheel):<7}{mark(r.jar):<5}{mark(r.pom):<5}"
            f"{mark(r.parent_pom):<12}{mark(r.sources):<9}{mark(r.npm):<5}{verdict}"
        )
    if not releases:
        rows.append("(none: the pin is the newest release)")
    ready = [r.version for r in releases if not r.missing]
    rows += [
        "",
        "Can be bumped to: "
        + (", ".join(ready) if ready else "none yet")
        + (f" (`{typed_command.generator(['bump', ready[-1]])}`)" if ready else ""),
    ]
    return "\n".join(rows) + "\n"
