"""JAR resolution order: --jar, the local Maven repository, the Gradle cache, then mvn."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import seeded_maven

from generator.read.jar_resolver import ResolvedJar, mvn_get, resolve_jar
from generator.shared.diagnostics import GeneratorError


@pytest.fixture
def empty_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    maven, gradle = tmp_path / "m2", tmp_path / "gradle"
    monkeypatch.setenv("MAVEN_REPO_LOCAL", str(maven))
    monkeypatch.setenv("GRADLE_USER_HOME", str(gradle))
    return maven, gradle


def _sources_jar(path: Path, version: str) -> None:
    """A sources JAR as Maven's source plugin writes it, naming `version` (a release may have
    none to copy: 1.63.0 was published without one)."""
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "META-INF/maven/com.microsoft.playwright/playwright/pom.properties",
            f"version={version}\n",
        )
        archive.writestr("com/microsoft/playwright/Page.java", "public interface Page {}\n")


def test_explicit_jar_wins_and_finds_sibling_sources(
    real_jar: ResolvedJar, tmp_path: Path, pinned_version: str
) -> None:
    jar = tmp_path / "playwright-x.jar"
    shutil.copy(real_jar.jar, jar)
    assert resolve_jar("1.62.0", jar) == ResolvedJar(jar, None, "--jar")
    _sources_jar(tmp_path / "playwright-x-sources.jar", pinned_version)
    assert resolve_jar("1.62.0", jar).sources == tmp_path / "playwright-x-sources.jar"


def test_local_maven_repository(real_jar: ResolvedJar, empty_homes: tuple[Path, Path]) -> None:
    maven, _ = empty_homes
    folder = maven / "com/microsoft/playwright/playwright/9.9.9"
    folder.mkdir(parents=True)
    shutil.copy(real_jar.jar, folder / "playwright-9.9.9.jar")
    # Maven was asked for its sources JAR within the day and had none: not asked again.
    (folder / "playwright-9.9.9-sources.jar.asked").write_text("asked\n")
    found = resolve_jar("9.9.9", None)
    assert (found.jar, found.sources, found.origin, found.sources_unpublished) == (
        folder / "playwright-9.9.9.jar",
        None,
        "local Maven repository",
        True,
    )


def test_gradle_cache(
    real_jar: ResolvedJar, empty_homes: tuple[Path, Path], pinned_version: str
) -> None:
    _, gradle = empty_homes
    folder = gradle / "caches/modules-2/files-2.1/com.microsoft.playwright/playwright/9.9.9"
    (folder / "aaaa").mkdir(parents=True)
    (folder / "bbbb").mkdir(parents=True)
    shutil.copy(real_jar.jar, folder / "aaaa/playwright-9.9.9.jar")
    _sources_jar(folder / "bbbb/playwright-9.9.9-sources.jar", pinned_version)
    found = resolve_jar("9.9.9", None)
    assert found == ResolvedJar(
        folder / "aaaa/playwright-9.9.9.jar",
        folder / "bbbb/playwright-9.9.9-sources.jar",
        "Gradle cache",
    )


@pytest.mark.jvm  # mvn
def test_mvn_fetches_the_pinned_version_without_dependencies(
    pinned_version: str, real_jar: ResolvedJar, empty_homes: tuple[Path, Path]
) -> None:
    maven, _ = empty_homes
    found = resolve_jar(pinned_version, None)
    assert found.origin == "fetched by mvn"
    assert found.jar.read_bytes() == real_jar.jar.read_bytes()
    # The sources JAR when the release publishes one (1.63.0 does not).
    assert (found.sources is None) == (real_jar.sources is None)
    # No transitive dependencies: the driver bundle (hundreds of MB) is not downloaded.
    assert not (maven / "com/microsoft/playwright/driver-bundle").exists()
    # A release without its parent POM (1.63.0) is fetched by coordinates through a scratch
    # repository: its stand-in parent never reaches the local repository.
    poms = [p.read_text(errors="replace") for p in maven.rglob("*.pom")]
    assert not any("stand-in" in text for text in poms)


def test_a_parent_pom_is_read_for_its_coordinates(tmp_path: Path) -> None:
    from generator.read.jar_resolver import _parent_of, stand_in_parent

    pom = tmp_path / "a.pom"
    pom.write_text(
        '<project xmlns="http://maven.apache.org/POM/4.0.0"><parent><groupId>g.h</groupId>'
        "<artifactId>p</artifactId><version>2.0</version></parent></project>"
    )
    assert _parent_of(pom) == ("g.h", "p", "2.0")
    stand_in_parent(tmp_path / "repo", pom, "9.9.9")
    assert (tmp_path / "repo/g/h/p/2.0/p-2.0.pom").is_file()
    # Without a readable POM, Playwright's own parent of that version.
    stand_in_parent(tmp_path / "repo", tmp_path / "missing.pom", "9.9.9")
    assert (
        tmp_path / "repo/com/microsoft/playwright/parent-pom/9.9.9/parent-pom-9.9.9.pom"
    ).is_file()


def test_a_sources_jar_of_another_release_is_refused(real_jar: ResolvedJar, tmp_path: Path) -> None:
    import zipfile

    jar = tmp_path / "playwright-x.jar"
    shutil.copy(real_jar.jar, jar)
    with zipfile.ZipFile(tmp_path / "playwright-x-sources.jar", "w") as sources:
        sources.writestr(
            "META-INF/maven/com.microsoft.playwright/playwright/pom.properties", "version=0.1.0\n"
        )
    with pytest.raises(GeneratorError) as raised:
        resolve_jar("1.62.0", jar)
    assert "is the sources JAR of Playwright 0.1.0" in str(raised.value)
    assert "descriptions would come from another release" in str(raised.value)


@pytest.mark.jvm  # mvn
def test_mvn_reports_a_version_that_does_not_exist(
    empty_homes: tuple[Path, Path], maven_without_playwright: Path
) -> None:
    seeded_maven(maven_without_playwright, empty_homes[0])
    with pytest.raises(GeneratorError) as raised:
        resolve_jar("0.0.0-does-not-exist", None)
    assert "could not fetch com.microsoft.playwright:playwright:0.0.0-does-not-exist" in str(
        raised.value
    )
    assert raised.value.exit_code == 3


def test_mvn_missing(empty_homes: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(GeneratorError) as raised:
        resolve_jar("1.62.0", None)
    assert "'mvn' is not on PATH" in str(raised.value)


@pytest.mark.parametrize(
    ("given", "seen"),
    [(None, "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"), ("-Xmx2g", "-Xmx2g")],
    ids=["unset", "the-users"],
)
def test_mvn_runs_a_short_lived_jvm_unless_maven_opts_is_set(
    empty_homes: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    given: str | None,
    seen: str,
) -> None:
    """The fetch's mvn gets the client compiler and one GC thread (it lives seconds); a
    MAVEN_OPTS the user set reaches it unchanged. An `mvn` on PATH that notes its MAVEN_OPTS and
    fails stands in for Maven: only the environment it is given is checked here."""
    tools = tmp_path / "bin"
    tools.mkdir()
    noted = tmp_path / "maven-opts"
    (tools / "mvn").write_text(f'#!/bin/sh\nprintf %s "$MAVEN_OPTS" > {noted}\nexit 1\n')
    (tools / "mvn").chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    if given is None:
        monkeypatch.delenv("MAVEN_OPTS", raising=False)
    else:
        monkeypatch.setenv("MAVEN_OPTS", given)
    with pytest.raises(GeneratorError):
        resolve_jar("1.62.0", None)
    assert noted.read_text() == seen


@pytest.mark.jvm  # mvn
def test_a_jar_another_build_fetched_gets_its_sources_jar(
    real_jar: ResolvedJar,
    maven_without_playwright: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A consumer's own build put the JAR in the local repository without its sources JAR: the
    resolver asks Maven for it (1.59.0 publishes one); for a release without one (1.63.0) it
    asks once, keeps the answer beside the JAR and says so (`sources_unpublished`)."""
    maven = tmp_path / "m2"
    shutil.copytree(maven_without_playwright, maven)
    monkeypatch.setenv("MAVEN_REPO_LOCAL", str(maven))
    monkeypatch.setenv("GRADLE_USER_HOME", str(tmp_path / "gradle"))
    # As a consumer's build leaves it: the JAR (and its POM), no sources JAR.
    assert mvn_get("1.59.0", None, maven) == (0, "")
    published = maven / "com/microsoft/playwright/playwright/1.59.0"
    assert not (published / "playwright-1.59.0-sources.jar").exists()
    found = resolve_jar("1.59.0", None)
    assert found.sources == published / "playwright-1.59.0-sources.jar"
    assert found.sources.stat().st_size > 100_000 and not found.sources_unpublished
    unpublished = maven / "com/microsoft/playwright/playwright/1.63.0"
    unpublished.mkdir(parents=True)
    shutil.copy(real_jar.jar, unpublished / "playwright-1.63.0.jar")
    found = resolve_jar("1.63.0", None)
    asked = unpublished / "playwright-1.63.0-sources.jar.asked"
    assert (found.sources, found.sources_unpublished, asked.is_file()) == (None, True, True)
    before = asked.stat().st_mtime_ns
    assert resolve_jar("1.63.0", None).sources_unpublished
    assert asked.stat().st_mtime_ns == before  # kept: Maven was not asked again
