"""Builds the fixture JAR (and its sources JAR) from tests/fixtures/java at test time.

Everything is compiled with `javac -parameters`, like the published Playwright JAR, except the
classes in WITHOUT_PARAMETER_NAMES, which are compiled first without it so reflection sees no
parameter names. The sources JAR is a plain zip of the .java files, which is all a `-sources.jar` is.
"""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parent / "fixtures" / "java"
PACKAGE = "com.microsoft.playwright"
FIXTURE = f"{PACKAGE}.Fixture"
NO_NAMES = f"{PACKAGE}.NoNames"
INTERFACES = [FIXTURE, NO_NAMES]
WITHOUT_PARAMETER_NAMES = frozenset({"com/microsoft/playwright/NoNames.java"})


@dataclass(frozen=True)
class FixtureJar:
    jar: Path
    sources: Path


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}"
        )


def _zip(root: Path, files: list[Path], target: Path) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            archive.write(path, path.relative_to(root).as_posix())
    return target


def build_fixture_jar(work: Path) -> FixtureJar:
    """Compile the fixture sources into `work` and return the class and sources JARs."""
    javac = shutil.which("javac")
    if javac is None:
        raise RuntimeError("'javac' is not on PATH; install a JDK (11 or newer)")
    sources = sorted(SOURCE_ROOT.rglob("*.java"))
    nameless = [
        p for p in sources if p.relative_to(SOURCE_ROOT).as_posix() in WITHOUT_PARAMETER_NAMES
    ]
    named = [p for p in sources if p not in nameless]
    assert nameless and named, f"fixture sources missing under {SOURCE_ROOT}"
    classes = work / "classes"
    classes.mkdir(parents=True)
    common = [javac, "--release", "11", "-encoding", "UTF-8", "-d", str(classes)]
    # Nameless classes first, so the -parameters pass finds them as classes on the class path
    # instead of recompiling their sources with names.
    _run([*common, *map(str, nameless)])
    _run([*common, "-parameters", "-cp", str(classes), *map(str, named)])
    compiled = sorted(classes.rglob("*.class"))
    return FixtureJar(
        jar=_zip(classes, compiled, work / "fixture.jar"),
        sources=_zip(SOURCE_ROOT, sources, work / "fixture-sources.jar"),
    )
