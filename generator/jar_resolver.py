"""Finds the Playwright Java JAR (and its -sources.jar) for the pinned version.

Order: `--jar`, the local Maven repository, the Gradle cache, then `mvn dependency:get` (without
transitive dependencies: the driver bundle is hundreds of MB and reflection does not need it).
Where artifacts are downloaded from is Maven's own configuration; nothing here names a repository.
"""

from __future__ import annotations

import contextlib
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from generator.diagnostics import ExitCode, GeneratorError

GROUP, ARTIFACT = "com.microsoft.playwright", "playwright"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get"


@dataclass(frozen=True)
class ResolvedJar:
    """The class JAR to reflect, the sources JAR for javadoc if one was found, and where from."""

    jar: Path
    sources: Path | None
    origin: str


def _maven_repository() -> Path:
    """Where the JAR is looked for and mvn puts it: `MAVEN_REPO_LOCAL`, else ~/.m2/repository."""
    override = os.environ.get("MAVEN_REPO_LOCAL")
    return Path(override) if override else Path.home() / ".m2" / "repository"


def _in_maven(version: str) -> tuple[Path, Path]:
    folder = _maven_repository() / GROUP.replace(".", "/") / ARTIFACT / version
    return folder / f"{ARTIFACT}-{version}.jar", folder / f"{ARTIFACT}-{version}-sources.jar"


def _in_gradle(version: str) -> tuple[Path | None, Path | None]:
    root = Path(os.environ.get("GRADLE_USER_HOME", Path.home() / ".gradle"))
    folder = root / "caches" / "modules-2" / "files-2.1" / GROUP / ARTIFACT / version
    if not folder.is_dir():
        return None, None
    jars = sorted(folder.glob(f"*/{ARTIFACT}-{version}.jar"))
    sources = sorted(folder.glob(f"*/{ARTIFACT}-{version}-sources.jar"))
    return (jars[0] if jars else None), (sources[0] if sources else None)


def _mvn_get(version: str, classifier: str | None) -> None:
    import shutil
    import subprocess  # only fetching a JAR runs a process: not imported by every run

    mvn = shutil.which("mvn")
    if mvn is None:
        raise GeneratorError(
            f"Playwright Java {version} is not in the local Maven repository or the Gradle cache, and 'mvn' is "
            "not on PATH to fetch it. Install Maven, or pass the JAR with --jar PATH.",
            ExitCode.ENVIRONMENT,
        )
    coordinate = f"{GROUP}:{ARTIFACT}:{version}" + (f":jar:{classifier}" if classifier else "")
    command = [
        mvn,
        "-B",
        "-q",
        _DEPENDENCY_PLUGIN,
        f"-Dartifact={coordinate}",
        "-Dtransitive=false",
        # Fetch into the repository this module reads, whatever localRepository settings.xml names.
        f"-Dmaven.repo.local={_maven_repository()}",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [_ANSI.sub("", line) for line in (done.stdout + done.stderr).splitlines()]
        causes = [
            line for line in lines if line.startswith("[ERROR]") and line.strip() != "[ERROR]"
        ]
        tail = "\n".join((causes or lines)[:3])
        raise GeneratorError(
            f"'mvn' could not fetch {coordinate} (exit {done.returncode}). Check that this Playwright "
            "version exists and that Maven can reach its repositories (see your Maven settings.xml), "
            f"or pass the JAR with --jar PATH. Maven said:\n{tail}",
            ExitCode.ENVIRONMENT,
        )


def resolve_jar(version: str, explicit: Path | None) -> ResolvedJar:
    if explicit is not None:
        if not explicit.is_file():
            raise GeneratorError(f"--jar {explicit}: no such file.", ExitCode.ENVIRONMENT)
        if not zipfile.is_zipfile(explicit):
            raise GeneratorError(
                f"--jar {explicit}: not a JAR (the file is not a zip archive; is the download complete?). "
                "Pass the com.microsoft.playwright:playwright JAR, or omit --jar to resolve it through Maven.",
                ExitCode.ENVIRONMENT,
            )
        sibling = explicit.with_name(explicit.name.removesuffix(".jar") + "-sources.jar")
        return ResolvedJar(explicit, sibling if sibling.is_file() else None, "--jar")
    jar, sources = _in_maven(version)
    if jar.is_file():
        return ResolvedJar(jar, sources if sources.is_file() else None, "local Maven repository")
    gradle_jar, gradle_sources = _in_gradle(version)
    if gradle_jar is not None:
        return ResolvedJar(gradle_jar, gradle_sources, "Gradle cache")
    _mvn_get(version, None)
    with contextlib.suppress(GeneratorError):
        _mvn_get(version, "sources")  # javadoc is optional: descriptions fall back to overrides
    if not jar.is_file():
        raise GeneratorError(f"'mvn' reported success but {jar} is missing.", ExitCode.ENVIRONMENT)
    return ResolvedJar(jar, sources if sources.is_file() else None, "fetched by mvn")


UNKNOWN_VERSION = "unknown"


def _manifest_version(archive: zipfile.ZipFile) -> str | None:
    try:
        text = archive.read("META-INF/MANIFEST.MF").decode("utf-8", errors="replace")
    except KeyError:
        return None
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    return fields.get("Implementation-Version", "").strip() or None


def _maven_version(archive: zipfile.ZipFile) -> str | None:
    try:
        text = archive.read(f"META-INF/maven/{GROUP}/{ARTIFACT}/pom.properties")
    except KeyError:
        return None
    for line in text.decode("utf-8", errors="replace").splitlines():
        if line.startswith("version="):
            return line.split("=", 1)[1].strip() or None
    return None


def looks_like_playwright(jar: Path) -> bool:
    """Whether the JAR holds Playwright's Page interface."""
    try:
        with zipfile.ZipFile(jar) as archive:
            return "com/microsoft/playwright/Page.class" in set(archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False


def jar_version(jar: Path) -> str:
    """The Playwright version a JAR says it is, or UNKNOWN_VERSION when it says nothing or
    contradicts itself. Playwright's classes carry no version string of their own, so the JAR's
    manifest and its Maven properties are read, and where both are present they must agree; a
    JAR stripped of both is never assumed to be the pinned version."""
    try:
        with zipfile.ZipFile(jar) as archive:
            found = {v for v in (_manifest_version(archive), _maven_version(archive)) if v}
    except (OSError, zipfile.BadZipFile):
        return UNKNOWN_VERSION
    return found.pop() if len(found) == 1 else UNKNOWN_VERSION
