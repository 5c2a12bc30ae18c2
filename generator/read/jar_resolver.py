"""Finds the Playwright Java JAR (and its -sources.jar) for the pinned version.

Order: `--jar`, the local Maven repository, the Gradle cache, then `mvn dependency:get` (without
transitive dependencies: the driver bundle is hundreds of MB and reflection does not need it).
Where artifacts are downloaded from is Maven's own configuration; nothing here names a repository.

A release can be half-published: 1.63.0 has its JAR and POM but not the parent POM its POM names,
and Maven reads both POMs before it downloads a JAR. Such a JAR is fetched by its coordinates into
a scratch repository where an empty stand-in parent lets Maven read the descriptor; only the
JAR (and a sources JAR, when one is published) is then copied into the local repository, so every
consumer (the generator, `diff`, the tests, `scripts/kotlin-check.sh`) finds the one JAR there.
`python -m generator.commands.resolve_jar [VERSION]` prints that JAR's path (resolving it if needed).
"""

from __future__ import annotations

import contextlib
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from generator.shared import typed_command
from generator.shared.diagnostics import ExitCode, GeneratorError

GROUP, ARTIFACT = "com.microsoft.playwright", "playwright"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get"
SOURCES_ASK_AGAIN_S = 24 * 3600
"""How long a sources JAR Maven did not have is taken as unpublished before it is asked again."""


@dataclass(frozen=True)
class ResolvedJar:
    """The class JAR to reflect, the sources JAR for javadoc if one was found, and where from."""

    jar: Path
    sources: Path | None
    origin: str
    sources_unpublished: bool = False
    """Maven was asked for the sources JAR (within `SOURCES_ASK_AGAIN_S`) and has none."""


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


def _mvn(version: str) -> str:
    import shutil

    mvn = shutil.which("mvn")
    if mvn is None:
        raise GeneratorError(
            f"Playwright Java {version} is not in the local Maven repository or the Gradle cache, and 'mvn' is "
            "not on PATH to fetch it. Install Maven, or pass the JAR with --jar PATH.",
            ExitCode.ENVIRONMENT,
        )
    return mvn


def _coordinate(version: str, classifier: str | None, artifact: str = ARTIFACT) -> str:
    return f"{GROUP}:{artifact}:{version}" + (f":jar:{classifier}" if classifier else "")


def mvn_get(version: str, classifier: str | None, repository: Path) -> tuple[int, str]:
    """Run `mvn dependency:get` for one artifact of Playwright `version` (no transitive
    dependencies) into `repository`: mvn's exit code, and its first error lines (colour codes
    removed) when it failed."""
    import subprocess  # only fetching a JAR runs a process: not imported by every run
    import tempfile

    command = [
        _mvn(version),
        "-B",
        "-q",
        _DEPENDENCY_PLUGIN,
        f"-Dartifact={_coordinate(version, classifier)}",
        "-Dtransitive=false",
        # Fetch into the repository named, whatever localRepository settings.xml names.
        f"-Dmaven.repo.local={repository}",
    ]
    # In an empty folder of its own: run from a project's folder, mvn would read that project's
    # pom.xml and take its repositories and settings for this fetch.
    with tempfile.TemporaryDirectory(prefix="playwright-jar-") as elsewhere:
        done = subprocess.run(
            command, capture_output=True, text=True, check=False, cwd=elsewhere, env=_mvn_env()
        )
    if done.returncode == 0:
        return 0, ""
    lines = [_ANSI.sub("", line) for line in (done.stdout + done.stderr).splitlines()]
    causes = [line for line in lines if line.startswith("[ERROR]") and line.strip() != "[ERROR]"]
    return done.returncode, "\n".join((causes or lines)[:3])


# mvn's JVM lives a few seconds: the client compiler alone and one GC thread (the choice the
# reflection's JVM makes too, java_reflect.JVM_OPTIONS) take 2.6 CPU-s for a fetch against 4.4.
# A MAVEN_OPTS of the user's own is kept as it is.
_SHORT_LIVED_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def _mvn_env() -> dict[str, str]:
    return {"MAVEN_OPTS": _SHORT_LIVED_JVM, **os.environ}


def parent_missing(said: str) -> bool:
    """Whether Maven failed on the artifact's descriptor (its POM or the parent POM it names)
    rather than on the artifact itself."""
    return "Failed to read artifact descriptor" in said


_STAND_IN_PARENT = """<?xml version="1.0" encoding="UTF-8"?>
<!-- An empty stand-in for an unpublished parent POM, in a scratch repository only. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>{group}</groupId><artifactId>{artifact}</artifactId><version>{version}</version>
<packaging>pom</packaging></project>
"""


def _parent_of(pom: Path) -> tuple[str, str, str] | None:
    """The (group, artifact, version) of the parent a POM names, or None."""
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.parse(pom).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    parent = root.find("m:parent", ns)
    if parent is None:
        return None
    values = [
        parent.findtext(f"m:{key}", "", ns).strip() for key in ("groupId", "artifactId", "version")
    ]
    return (values[0], values[1], values[2]) if all(values) else None


def stand_in_parent(repository: Path, pom: Path, version: str) -> None:
    """Write an empty stand-in for the parent POM that `pom` names (Playwright's own `parent-pom`
    of `version` when the POM cannot be read) into the scratch `repository`."""
    parent = _parent_of(pom) if pom.is_file() else None
    group, artifact, parent_version = parent or (GROUP, "parent-pom", version)
    stand_in = repository / group.replace(".", "/") / artifact / parent_version
    stand_in.mkdir(parents=True, exist_ok=True)
    (stand_in / f"{artifact}-{parent_version}.pom").write_text(
        _STAND_IN_PARENT.format(group=group, artifact=artifact, version=parent_version),
        encoding="utf-8",
    )


def _fetch_without_parent(version: str, jar: Path, sources: Path) -> tuple[int, str]:
    """Fetch the JAR (and its sources JAR, when published) by coordinates into a scratch
    repository with a stand-in for the parent POM Maven cannot find, then copy them into the
    local repository's folder for this version (atomically: a copy never shows half a JAR)."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="playwright-jar-") as scratch:
        repository = Path(scratch)
        folder = repository / GROUP.replace(".", "/") / ARTIFACT / version
        pom = jar.with_suffix(".pom")
        stand_in_parent(repository, pom, version)
        code, said = 0, ""
        if not jar.is_file():
            code, said = mvn_get(version, None, repository)
        if code != 0:
            return code, said
        mvn_get(version, "sources", repository)  # optional: descriptions fall back
        jar.parent.mkdir(parents=True, exist_ok=True)
        for name, target in ((jar.name, jar), (sources.name, sources)):
            fetched = folder / name
            if fetched.is_file():
                partial = target.with_name(target.name + ".partial")
                shutil.copyfile(fetched, partial)
                partial.replace(target)
    return 0, ""


def _fetch(version: str, jar: Path, sources: Path) -> None:
    """Fetch the JAR through mvn into the local repository, by coordinates where its parent POM
    is not published; the sources JAR too when it is published."""
    repository = _maven_repository()
    code, said = mvn_get(version, None, repository)
    if code == 0:
        mvn_get(version, "sources", repository)  # optional: descriptions fall back
    elif parent_missing(said):
        code, said = _fetch_without_parent(version, jar, sources)
    if code != 0:
        raise GeneratorError(
            f"'mvn' could not fetch {_coordinate(version, None)} (exit {code}). Check that this Playwright "
            f"version exists (`{typed_command.generator(['bump', '--list'])}` shows which are published) and "
            "that Maven can reach its repositories (see your Maven settings.xml), or pass the JAR "
            f"with --jar PATH. Maven said:\n{said}",
            ExitCode.ENVIRONMENT,
        )


def _ask_for_sources(version: str, jar: Path, sources: Path) -> bool | None:
    """Fetch the sources JAR of a JAR already in the local repository (whoever fetched the JAR may
    not have asked for it): True when it is there now, False when Maven has none, None when
    Maven could not be asked (no `mvn`). Maven is asked at most once a day per release: its
    answer is kept beside the JAR (`<sources>.asked`), so a release published without one costs
    no Maven run on every generation, and is asked again the next day."""
    import shutil
    import time

    asked = sources.with_name(sources.name + ".asked")
    try:
        if time.time() - asked.stat().st_mtime < SOURCES_ASK_AGAIN_S:
            return False
    except OSError:
        pass
    if shutil.which("mvn") is None:
        return None
    code, said = mvn_get(version, "sources", _maven_repository())
    if code != 0 and parent_missing(said):
        _fetch_without_parent(version, jar, sources)
    if sources.is_file():
        return True
    _remember_no_sources(version, sources)
    return False


def _remember_no_sources(version: str, sources: Path) -> None:
    """Keeps Maven's answer that it has no sources JAR beside where it would be."""
    asked = sources.with_name(sources.name + ".asked")
    # A read-only repository keeps no answer: asked again next run, which is all it costs.
    with contextlib.suppress(OSError):
        asked.write_text(f"Playwright {version}: Maven has no sources JAR\n", encoding="utf-8")


def resolve_jar(version: str, explicit: Path | None) -> ResolvedJar:
    """The JAR to reflect: `explicit` (with a `-sources.jar` beside it, if any), else the pinned
    version from the local Maven repository, the Gradle cache or mvn, in that order."""
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
        return _checked(ResolvedJar(explicit, sibling if sibling.is_file() else None, "--jar"))
    jar, sources = _in_maven(version)
    if jar.is_file():
        # Put there by the consumer's own build, most likely, which asks for no sources JAR.
        unpublished = not sources.is_file() and _ask_for_sources(version, jar, sources) is False
        found = ResolvedJar(
            jar, sources if sources.is_file() else None, "local Maven repository", unpublished
        )
        return _checked(found)
    gradle_jar, gradle_sources = _in_gradle(version)
    if gradle_jar is not None:
        return _checked(ResolvedJar(gradle_jar, gradle_sources, "Gradle cache"))
    _fetch(version, jar, sources)
    if not jar.is_file():
        raise GeneratorError(f"'mvn' reported success but {jar} is missing.", ExitCode.ENVIRONMENT)
    unpublished = not sources.is_file()
    if unpublished:  # `_fetch` asked for it too: the answer is kept, as `_ask_for_sources` does
        _remember_no_sources(version, sources)
    return _checked(
        ResolvedJar(jar, None if unpublished else sources, "fetched by mvn", unpublished)
    )


def _checked(found: ResolvedJar) -> ResolvedJar:
    """`found`, once its sources JAR (if any) is known to be of the same version as its JAR: a
    mismatched one would give every tool another release's descriptions."""
    if found.sources is None:
        return found
    try:
        with zipfile.ZipFile(found.sources) as archive:
            sources_version = _maven_version(archive)
    except (OSError, zipfile.BadZipFile) as exc:
        raise GeneratorError(
            f"{found.sources}: cannot read the sources JAR that supplies the descriptions ({exc}). "
            "Replace it with the matching playwright-VERSION-sources.jar, or move it away to "
            "generate without javadoc descriptions.",
            ExitCode.ENVIRONMENT,
        ) from None
    version = jar_version(found.jar)
    if sources_version and version != UNKNOWN_VERSION and sources_version != version:
        raise GeneratorError(
            f"{found.sources} is the sources JAR of Playwright {sources_version}, but {found.jar} is "
            f"{version}: descriptions would come from another release. Delete the sources JAR, or "
            "put the one of the same version beside the JAR.",
            ExitCode.ENVIRONMENT,
        )
    return found


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
