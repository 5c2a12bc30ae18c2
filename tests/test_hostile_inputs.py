"""Hostile inputs end in a located message and their exit status, never a traceback or wrong
output: tool names, oversized inputs, malformed manifests for `diff`, and JARs that do not say
which version they are."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import REPO, generate

from generator.read.jar_resolver import UNKNOWN_VERSION, ResolvedJar, jar_version

pytestmark = pytest.mark.jvm


def _allowlist(tmp_path: Path, entry: str) -> Path:
    version = (REPO / "allowlist.yaml").read_text().split("\nplaywright:", 1)[1].split()[0]
    path = tmp_path / "allowlist.yaml"
    path.write_text(f"playwright: {version}\ntools:\n  - method: page.title\n{entry}")
    return path


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err and err.startswith("error: "), err


# --- tool names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("a" * 300, "is 300 characters long; at most 64 are allowed"),
        ("a" * 65, "is 65 characters long; at most 64 are allowed"),
        ("_", "must be an identifier"),
        ("_1", "must be an identifier"),
        ("__", "must be an identifier"),
        ("9lives", "must be an identifier"),
        ("tool-name", "must be an identifier"),
        ("wéb", "must be an identifier"),
    ],
    ids=["300", "65", "underscore", "underscore-digit", "dunder", "digit", "dash", "accent"],
)
def test_bad_tool_names_are_refused_at_their_line(
    name: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    allowlist = _allowlist(tmp_path, f"  - method: page.url\n    name: '{name}'\n")
    out = tmp_path / "out"
    assert generate(out, allowlist) == 2
    err = capsys.readouterr().err
    _no_traceback(err)
    assert "allowlist.yaml:5:11: tool name '" in err and message in err
    assert not out.exists()


def test_sixty_four_characters_is_a_working_name(tmp_path: Path) -> None:
    name = "web_" + "x" * 60
    allowlist = _allowlist(tmp_path, f"  - method: page.url\n    name: {name}\n")
    assert generate(tmp_path / "out", allowlist) == 0
    assert (tmp_path / "out" / "tools" / f"{name}.tool.yaml").is_file()


def test_an_overlong_method_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    allowlist = _allowlist(tmp_path, f"  - method: page.{'m' * 200}\n")
    assert generate(tmp_path / "out", allowlist) == 2
    err = capsys.readouterr().err
    _no_traceback(err)
    assert "allowlist.yaml:4:13: the method name is 200 characters long" in err


# --- sizes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["/dev/zero", "big"])
def test_an_endless_or_huge_allowlist_is_refused(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(source)
    if source == "big":
        path = tmp_path / "big.yaml"
        path.write_text("# padding\n" * 500_000)
    assert generate(tmp_path / "out", path) == 2
    err = capsys.readouterr().err
    _no_traceback(err)
    if source == "big":
        assert "the allowlist is larger than 4 MiB" in err
    else:  # a device is never read: what it would give is not a file's text
        assert "the allowlist is a device, not a regular file; name a file" in err


# --- manifests given to diff --------------------------------------------------------------------


def _manifest() -> dict[str, object]:
    loaded: dict[str, object] = json.loads((REPO / "generated" / "manifest.json").read_text())
    return loaded


@pytest.mark.parametrize(
    ("mutate", "problem"),
    [
        (lambda m: [], "the top level is not an object"),
        (lambda m: {**m, "format": 2}, "'format' is not 1"),
        (lambda m: {**m, "playwright": "1.62.0"}, "'playwright.java' is not a string"),
        (lambda m: {**m, "tools": []}, "'tools' is not an object"),
        (lambda m: {**m, "surface": {"Page.x": 1}}, "'surface' is not an object of strings"),
        (
            lambda m: {**m, "tools": {"web_x": {"python": "", "java": [], "result": None}}},
            "'tools.web_x.parameters' is missing",
        ),
        (
            lambda m: {
                **m,
                "tools": {
                    "web_x": {"python": "", "java": [], "result": None, "parameters": {"a": 1}}
                },
            },
            "'tools.web_x.parameters.a' needs 'required'",
        ),
    ],
    ids=["list", "format", "playwright", "tools", "surface", "no-parameters", "bad-parameter"],
)
def test_diff_refuses_a_manifest_of_the_wrong_shape(
    mutate: object, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.commands.cli import main

    bad = tmp_path / "bad.json"
    assert callable(mutate)
    bad.write_text(json.dumps(mutate(_manifest())))
    good = REPO / "generated" / "manifest.json"
    assert main(["diff", str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    _no_traceback(err)
    assert f"{bad}: not a manifest.json written by `python -m generator` ({problem}" in err


def test_diff_refuses_a_manifest_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.commands.cli import main

    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not json")
    assert main(["diff", str(bad), str(bad)]) == 2
    _no_traceback(capsys.readouterr().err)


# --- what a JAR says it is ----------------------------------------------------------------------


def _rewrite_jar(source: Path, target: Path, keep: object, extra: dict[str, str]) -> Path:
    assert callable(keep)
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            if keep(info.filename):
                new.writestr(info, old.read(info.filename))
        for name, text in extra.items():
            new.writestr(name, text)
    return target


def _is_metadata(name: str) -> bool:
    return name.startswith("META-INF/maven/") or name == "META-INF/MANIFEST.MF"


def test_a_jar_stripped_of_its_version_is_not_labelled_as_the_pinned_one(
    real_jar: ResolvedJar, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stripped = _rewrite_jar(
        real_jar.jar, tmp_path / "stripped.jar", lambda n: not _is_metadata(n), {}
    )
    assert jar_version(stripped) == UNKNOWN_VERSION
    out = tmp_path / "out"
    assert generate(out, None, "--jar", str(stripped)) == 3
    err = capsys.readouterr().err
    _no_traceback(err)
    assert f"cannot tell which Playwright version {stripped} is" in err
    assert not out.exists()


def test_a_jar_whose_two_version_records_disagree_is_unknown(
    real_jar: ResolvedJar, tmp_path: Path
) -> None:
    manifest = "Manifest-Version: 1.0\nImplementation-Version: 1.40.0\n"
    liar = _rewrite_jar(
        real_jar.jar,
        tmp_path / "liar.jar",
        lambda n: n != "META-INF/MANIFEST.MF",
        {"META-INF/MANIFEST.MF": manifest},
    )
    assert jar_version(liar) == UNKNOWN_VERSION
    assert jar_version(real_jar.jar) == real_jar.jar.parent.name


def test_an_unknown_jar_is_labelled_unknown_when_allowed(
    real_jar: ResolvedJar, tmp_path: Path
) -> None:
    stripped = _rewrite_jar(
        real_jar.jar, tmp_path / "stripped.jar", lambda n: not _is_metadata(n), {}
    )
    if real_jar.sources:
        shutil.copy(real_jar.sources, tmp_path / "stripped-sources.jar")
    out = tmp_path / "out"
    assert generate(out, None, "--jar", str(stripped), "--allow-version-mismatch") == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["playwright"]["java"] == UNKNOWN_VERSION


def test_a_garbage_sources_jar_beside_the_jar_is_named(
    real_jar: ResolvedJar, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jar = tmp_path / "pw.jar"
    shutil.copy(real_jar.jar, jar)
    garbage = tmp_path / "pw-sources.jar"
    garbage.write_bytes(bytes(range(256)) * 20)
    out = tmp_path / "out"
    assert generate(out, None, "--jar", str(jar), "--no-cache") == 3
    err = capsys.readouterr().err
    _no_traceback(err)
    assert f"{garbage}: cannot read the sources JAR that supplies the descriptions" in err
    assert not out.exists()


def test_a_jar_missing_a_referenced_class_is_named(
    real_jar: ResolvedJar, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cookie = "com/microsoft/playwright/options/Cookie.class"
    broken = _rewrite_jar(real_jar.jar, tmp_path / "broken.jar", lambda n: n != cookie, {})
    assert generate(tmp_path / "out", None, "--jar", str(broken), "--no-cache") == 3
    err = capsys.readouterr().err
    _no_traceback(err)
    assert f"{broken}: reflecting it failed with java.lang." in err
    assert "com.microsoft.playwright.options.Cookie" in err


# --- the surface report -------------------------------------------------------------------------


def test_surface_notes_are_whole_and_do_not_depend_on_the_allowlists_name(tmp_path: Path) -> None:
    import re

    reports = []
    for name in ("aaa.yaml", "zzz.yaml"):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        allowlist = folder / name
        shutil.copy(REPO / "allowlist.yaml", allowlist)
        assert generate(folder / "out", allowlist) == 0
        header, _, report = (folder / "out" / "SURFACE.md").read_text().partition("\n")
        assert f"from {name}." in header  # the notice names the allowlist used, and only it
        reports.append(report)
    assert reports[0] == reports[1]
    # A note names its Java member whole: `Page#selectOption(String, ElementHandle, Page.…)`,
    # never a fragment cut at a dot such as `SelectOptionOptions): …`.
    cut = re.compile(r"(?:\| |<br>)[A-Z]\w*Options\):")
    assert not cut.search(reports[0])
    assert "Page#selectOption(String, ElementHandle, Page.SelectOptionOptions): " in reports[0]
