"""examples/maven-kotlin, built as its users build it: from a clean copy, Maven from the wrapper its
build.sh pins, the generator in `generate-sources`, the Trailblaze shims compiled against the real
Playwright 1.62.0 JAR, and its JUnit test running one shim in headless Chromium. Then its `check`
profile: it passes a current tree and fails a stale one with the generator's fix line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from conftest import CHROMIUM, REPO

EXAMPLE = REPO / "examples" / "maven-kotlin"
# Generous: the first run fetches the Maven distribution, the plugins and the Kotlin compiler.
BUDGET = 1800
GENERATED = "xyz/block/trailblaze/playwright/generated"

pytestmark = [
    pytest.mark.build,
    pytest.mark.skipif(
        shutil.which("mvn") is None or shutil.which("java") is None,
        reason="needs mvn (to generate the wrapper) and java",
    ),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
]


def _build(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`build.sh ARGS` in the copy, with this checkout's generator and stand-ins (the pom's defaults
    name them relative to the example's place in this repository, which a copy does not have)."""
    return subprocess.run(
        [
            str(copy / "build.sh"),
            f"-Dgenerator.python={sys.executable}",
            f"-Dtrailblaze.standins={REPO / 'scripts' / 'kotlin-check' / '2026.07.21'}",
            f"-Dchromium.executable={CHROMIUM}",
            # In process: the plugin's compile daemon would outlive the test by two hours.
            "-Dkotlin.compiler.daemon=false",
            *args,
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=BUDGET,
        check=False,
        # Maven's JVM (which compiles the Kotlin, in process) on the settings the generator gives
        # its own short-lived JVMs, unless the environment chose: a build, not a server.
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "MAVEN_OPTS": os.environ.get("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"),
        },
    )


def test_the_maven_example_verifies_from_a_clean_copy_and_its_check_profile_fails_stale_output(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "maven-kotlin"
    # A clean copy: what git tracks, never a wrapper, target/ or anything built in place.
    shutil.copytree(
        EXAMPLE, copy, ignore=shutil.ignore_patterns("target", "mvnw", "mvnw.cmd", ".mvn")
    )

    built = _build(copy, "verify")
    said = built.stdout + built.stderr
    assert built.returncode == 0, said[-6000:]
    assert (copy / "mvnw").is_file()  # Maven came from the wrapper build.sh generated
    # The generator ran in this build and found the committed output current.
    assert "2 tools generated, 0 skipped; 0 file(s) written" in said
    assert (
        copy / "target" / "classes" / GENERATED / "GeneratedSetExtraHTTPHeadersTool.class"
    ).is_file()

    report = copy / "target" / "surefire-reports" / "TEST-com.example.tools.GeneratedShimTest.xml"
    suite = ET.parse(report).getroot()
    assert {key: suite.get(key) for key in ("tests", "failures", "errors", "skipped")} == {
        "tests": "2",
        "failures": "0",
        "errors": "0",
        "skipped": "0",
    }
    names = {case.get("name", "") for case in suite.iter("testcase")}
    assert any("server sees" in name for name in names), names
    assert any("classpath" in name for name in names), names

    # The artifact carries the tools, never the stand-ins of Trailblaze's own types.
    (jar,) = (copy / "target").glob("playwright-tools-maven-kotlin-*.jar")
    packaged = zipfile.ZipFile(jar).namelist()
    assert f"{GENERATED}/GeneratedSetExtraHTTPHeadersTool.class" in packaged
    assert [
        n for n in packaged if n.startswith("xyz/") and GENERATED not in n and n.endswith(".class")
    ] == []
    # `mvn clean` removes target/ only: the committed output, and so the check, are untouched.
    cleaned = _build(copy, "clean")
    assert cleaned.returncode == 0 and not (copy / "target").exists(), cleaned.stdout[-3000:]
    current = _build(copy, "-Pcheck", "validate")
    assert current.returncode == 0, (current.stdout + current.stderr)[-6000:]
    assert "playwright-tools is up to date" in current.stdout

    allowlist = copy / "allowlist.yaml"
    allowlist.write_text(allowlist.read_text(encoding="utf-8") + "  - method: page.url\n", "utf-8")
    stale = _build(copy, "-Pcheck", "validate")
    said = stale.stdout + stale.stderr
    assert stale.returncode != 0, said[-6000:]
    assert "playwright-tools is stale" in said
    # The interpreter as it must be typed: the build's own environment, named by its path.
    assert re.search(
        r"Run `(?:\S*/)?python -m generator --allowlist allowlist.yaml --expect-playwright 1\.62\.0`",
        said,
    ), said[-6000:]
    assert "BUILD FAILURE" in said
