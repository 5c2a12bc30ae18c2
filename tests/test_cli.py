"""The command line: writing only what changed, --check, removals, foreign files, and user errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import PINNED, REPO, generate

pytestmark = pytest.mark.jvm


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


@pytest.fixture
def out(tmp_path: Path, generated_tree: Path) -> Path:
    target = tmp_path / "generated"
    shutil.copytree(generated_tree, target)
    return target


def test_rerun_rewrites_nothing(out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(out)
    assert generate(out) == 0
    assert _snapshot(out) == before
    assert "0 file(s) written" in capsys.readouterr().out


def test_check_passes_on_current_tree(out: Path) -> None:
    assert generate(out, None, "--check") == 0


def test_check_fails_with_diff_and_changes_nothing(
    out: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shim = out / "tools/web_evaluate.tool.yaml"
    shim.write_text(shim.read_text().replace("surfaceToLlm: false", "surfaceToLlm: true"))
    (out / "python/playwright_tools/registry.py").unlink()
    before = _snapshot(out)
    assert generate(out, None, "--check") == 1
    printed = capsys.readouterr().out
    assert "-surfaceToLlm: true\n+surfaceToLlm: false" in printed
    assert "+++ b/python/playwright_tools/registry.py" in printed
    assert _snapshot(out) == before


def test_only_changed_files_are_rewritten(out: Path) -> None:
    target = out / "tools/web_evaluate.tool.yaml"
    target.write_text("edited by hand\n")
    before = _snapshot(out)
    assert generate(out) == 0
    after = _snapshot(out)
    changed = sorted(name for name in after if after[name] != before.get(name))
    assert changed == ["tools/web_evaluate.tool.yaml"]


def test_removes_only_files_it_produced(out: Path, tmp_path: Path) -> None:
    foreign = [
        out / "tools/hand_written.tool.yaml",
        out / "NOTES.md",
        out / "python/playwright_tools/extra.py",
    ]
    for path in foreign:
        path.write_text("mine\n")
    smaller = tmp_path / "allowlist.yaml"
    smaller.write_text(
        (REPO / "allowlist.yaml").read_text().replace("  - method: page.setViewportSize\n", "")
    )
    assert generate(out, smaller) == 0
    assert not (out / "tools/web_setViewportSize.tool.yaml").exists()
    assert not (out / "python/playwright_tools/tools/web_set_viewport_size.py").exists()
    assert "web_setViewportSize" not in (out / "typescript/web-tools.d.ts").read_text()
    for path in foreign:
        assert path.read_text() == "mine\n"
    assert not list(out.rglob("*.generator-tmp"))


def _allowlist(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "allowlist.yaml"
    path.write_text(f"playwright: {PINNED}\ntools:\n" + body)
    return path


USER_ERRORS = [
    (
        "  - method: context.setOfflineMode\n",
        "allowlist.yaml:3:13",
        "did you mean context.setOffline",
    ),
    ("  - method: page.setextrahttpheaders\n", "allowlist.yaml:3:13", "page.setExtraHTTPHeaders"),
    ("  - method: page.evaluate\n    nmae: x\n", "allowlist.yaml:4:5", "did you mean 'name'"),
    ("  - method: page.onConsoleMessage\n", "allowlist.yaml:3:13", "hand-author"),
    ("  - method: page.route\n", "allowlist.yaml:3:13", "hand-author"),
    ("  - method: page.waitForResponse\n", "allowlist.yaml:3:13", "hand-author"),
    (
        "  - method: page.evaluate\n  - method: page.evaluate\n",
        "allowlist.yaml:4:13",
        "listed twice",
    ),
    (
        "  - method: page.evaluate\n    name: t\n  - method: page.setOffline\n",
        "allowlist.yaml:5:13",
        "has no method 'setOffline'",
    ),
    (
        "  - method: page.evaluate\n    name: same\n  - method: context.setOffline\n    name: same\n",
        "allowlist.yaml:5:13",
        "already used",
    ),
    ("  - method: page.evaluate\n    name: 1bad\n", "allowlist.yaml:4:11", "must be an identifier"),
    (
        "  - method: page.evaluate\n    surfaceToLlm: yes please\n",
        "allowlist.yaml:4:19",
        "true or false",
    ),
    ("  - method: tab.evaluate\n", "allowlist.yaml:3:13", "targets are page, context"),
    ("  - [page.evaluate]\n", "allowlist.yaml:3:5", "must be a mapping"),
    ("  - method: page.evaluate\n   bad indent: [\n", "allowlist.yaml:4", "not valid YAML"),
]


@pytest.mark.parametrize(("body", "where", "says"), USER_ERRORS, ids=[e[2] for e in USER_ERRORS])
def test_user_errors_name_the_place_and_change_nothing(
    body: str, where: str, says: str, out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(out)
    assert generate(out, _allowlist(tmp_path, body)) == 2
    printed = capsys.readouterr().err
    assert where in printed and says in printed, printed
    assert "Traceback" not in printed
    assert _snapshot(out) == before


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "allowlist.yaml:1:1: the allowlist is empty"),
        ("- page.evaluate\n", "top level must be a mapping"),
        (f"playwright: {PINNED}\ntool: []\n", "did you mean 'tools'"),
        (f"playwright: {PINNED}\ntools: page.evaluate\n", "'tools' must be a list"),
        (
            f"playwright: {PINNED}\nplaywright: 1.61.0\ntools: []\n",
            "allowlist.yaml:2:1: key 'playwright' is given twice",
        ),
    ],
)
def test_allowlist_shape_errors(
    text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "allowlist.yaml"
    path.write_text(text)
    assert generate(tmp_path / "out", path) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_missing_jar_is_an_environment_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert generate(tmp_path / "out", None, "--jar", str(tmp_path / "nope.jar")) == 3
    assert "no such file" in capsys.readouterr().err


def test_jar_that_is_not_playwright(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import zipfile

    jar = tmp_path / "other.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    assert generate(tmp_path / "out", None, "--jar", str(jar)) == 3
    assert "does not look like the Playwright Java JAR" in capsys.readouterr().err


def test_a_normal_run_prints_one_summary_line_and_notes_only_when_verbose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from generator.commands.cli import run

    out = tmp_path / "quiet"
    args = ["--allowlist", str(REPO / "allowlist.yaml"), "--out", str(out), "--no-cache"]
    assert run(args) == 0
    printed = capsys.readouterr()
    (summary,) = printed.out.splitlines()
    assert " tools generated, 0 skipped; " in summary
    assert " file(s) written, 0 unchanged, 0 removed in " in summary
    assert "note(s), shown with -v" in summary
    assert "info:" not in printed.err
    assert run([*args, "-v"]) == 0
    verbose = capsys.readouterr()
    assert "info: overload left out" in verbose.err
    assert " 0 file(s) written, " in verbose.out
