"""`python -m generator bump`: pins moved together, refusals that change nothing, a failed or
interrupted bump rolled back, and `--list`'s verdicts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import PINNED, REPO

from generator.commands.cli import main
from generator.read.releases import Release, table
from generator.review import bump
from generator.shared.diagnostics import GeneratorError

pytestmark = pytest.mark.jvm

PYPROJECT = '[project]\ndependencies = [\n    "black==26.10.1",\n    "playwright=={v}",\n]\n'
PACKAGE = '{{\n  "devDependencies": {{\n    "@playwright/test": "{v}",\n    "playwright-core": "{v}"\n  }}\n}}\n'


def _project(root: Path, version: str, package: bool = False) -> Path:
    """A small project pinned at `version`: allowlist, pyproject, optionally package.json, a
    generated folder with one file, and a .venv whose python is this interpreter."""
    root.mkdir()
    (root / "allowlist.yaml").write_text(
        f"# pinned\nplaywright: {version}  # the Java version\ntools:\n  - method: page.title\n"
    )
    (root / "pyproject.toml").write_text(PYPROJECT.format(v=version))
    if package:
        (root / "package.json").write_text(PACKAGE.format(v=version))
    (root / "generated").mkdir()
    (root / "generated" / "a.txt").write_text("old output\n")
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "python").symlink_to(sys.executable)
    return root


def _texts(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): p.read_text()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".venv" not in p.parts
    }


def test_repin_moves_every_pin_and_keeps_the_rest() -> None:
    text = PACKAGE.format(v="1.2.0")
    for pin in bump.PINS[2:]:
        text = bump.repin(text, pin, "1.2.0", "1.3.0")
    assert text == PACKAGE.format(v="1.3.0")
    allowlist = "playwright: 1.2.0  # Java\ntools: []\n"
    assert bump.repin(allowlist, bump.PINS[0], "1.2.0", "1.3.0") == (
        "playwright: 1.3.0  # Java\ntools: []\n"
    )


def test_repin_refuses_files_that_disagree_naming_the_file() -> None:
    with pytest.raises(GeneratorError) as raised:
        bump.repin(PYPROJECT.format(v="1.1.0"), bump.PINS[1], "1.2.0", "1.3.0")
    assert str(raised.value).startswith("pyproject.toml pins Playwright 1.1.0, but the allowlist")
    with pytest.raises(GeneratorError, match=r"pyproject\.toml: no pin of Playwright found"):
        bump.repin("[project]\n", bump.PINS[1], "1.2.0", "1.3.0")
    # An optional pin that is absent is left alone.
    assert bump.repin("{}\n", bump.PINS[3], "1.2.0", "1.3.0") == "{}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bump"], "name the release to move to"),
        (["bump", "1.x"], "'1.x' is not a Playwright version"),
        (["bump", PINNED], f"the project already pins Playwright {PINNED}"),
        (["bump", "--list", "9.9.9"], "give either --list or a VERSION"),
    ],
)
def test_refusals_name_the_fix(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(REPO)
    before = (REPO / "allowlist.yaml").read_text()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert (REPO / "allowlist.yaml").read_text() == before


@pytest.mark.parametrize("stop", [KeyboardInterrupt, GeneratorError])
def test_a_failed_or_interrupted_bump_puts_everything_back(
    stop: type[BaseException], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "project", "1.2.0")
    before = _texts(root)
    installs: list[str] = []

    def pip_install(python: Path, where: Path, version: str) -> None:
        installs.append(version)
        if version == "1.3.0":
            # The pins are already moved when the install runs: the rollback must undo them.
            assert "playwright: 1.3.0" in (root / "allowlist.yaml").read_text()
            (root / "generated" / "a.txt").write_text("half-written\n")
            raise stop("pip install failed")

    monkeypatch.setattr(bump, "_pip_install", pip_install)
    args = bump.bump_parser().parse_args(["1.3.0", "--allowlist", str(root / "allowlist.yaml")])
    monkeypatch.chdir(root)
    with pytest.raises(GeneratorError) as raised:
        bump._bump(args, root, root / ".venv/bin/python", "1.2.0", "1.3.0")
    words = "was interrupted" if stop is KeyboardInterrupt else "failed, and everything is back"
    assert words in str(raised.value)
    assert installs == ["1.3.0", "1.2.0"]  # the old package is installed again
    assert _texts(root) == before


def test_the_list_says_what_is_missing_and_what_can_be_bumped_to() -> None:
    releases = [
        Release("1.63.0", True, True, True, False, False, True),
        Release("1.64.0", True, False, False, False, False, True),
        Release("1.65.2", True, False, False, False, False, False),
    ]
    text = table("1.62.0", releases)
    rows = text.splitlines()
    assert rows[0] == "Pinned: Playwright 1.62.0. Releases after it:"
    assert rows[3].startswith(
        "1.63.0    yes    yes  yes  no          no       yes  yes (no sources JAR"
    )
    assert rows[4].endswith("no: no Java JAR")
    assert rows[5].endswith("no: no Java JAR, no npm's playwright-core")
    # the command as typed at the repository's root, with its .venv (issue 46)
    assert rows[-1] == "Can be bumped to: 1.63.0 (`.venv/bin/python -m generator bump 1.63.0`)"
    assert table("1.65.2", []).splitlines()[-1] == "Can be bumped to: none yet"


def test_an_unpublished_release_is_refused_and_nothing_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A release whose Java JAR Maven does not serve (a real look-up through pip, npm and mvn)."""
    root = _project(tmp_path / "project", PINNED)
    before = _texts(root)
    monkeypatch.chdir(root)
    status = main(["bump", "0.0.0", "--allowlist", str(root / "allowlist.yaml")])
    err = capsys.readouterr().err
    assert status == 3, err
    assert "Playwright 0.0.0 cannot be bumped to: the Python wheel, the Java JAR" in err
    assert "Nothing was changed." in err
    assert _texts(root) == before


def test_no_network_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    """pip and npm pointed at a closed port on this machine: `bump --list` says which registry it
    cannot reach, in one line, and changes nothing."""
    import os
    import subprocess

    root = _project(tmp_path / "project", PINNED)
    before = _texts(root)
    closed = "http://127.0.0.1:9/"  # the discard port: nothing listens, the connection is refused
    env = {
        **os.environ,
        "PIP_INDEX_URL": closed,
        "PIP_RETRIES": "0",
        "PIP_TIMEOUT": "5",
        "npm_config_registry": closed,
        "npm_config_fetch_retries": "0",
        "PYTHONPATH": str(REPO),
    }
    done = subprocess.run(
        [sys.executable, "-m", "generator", "bump", "--list"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 3, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach the registry for "), lines
    assert "Nothing was changed." in lines[0]
    assert _texts(root) == before


def test_a_consumer_bump_moves_the_allowlist_and_the_build_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a project without a .venv (a Maven or Gradle build running the generator), `bump` moves
    the allowlist's pin and the build's own Playwright dependency, and says what to run next;
    a build file pinning another version is refused, naming it, with nothing changed."""
    from generator.read import releases

    monkeypatch.setattr(
        releases, "release", lambda v: Release(v, True, True, True, True, True, True)
    )
    root = tmp_path / "consumer"
    root.mkdir()
    (root / "allowlist.yaml").write_text("playwright: 1.59.0\ntools:\n  - method: page.title\n")
    (root / "pom.xml").write_text("<p><playwright.version>1.59.0</playwright.version></p>\n")
    (root / "build.gradle.kts").write_text(
        'implementation("com.microsoft.playwright:playwright:1.59.0")\n'
    )
    monkeypatch.chdir(root)
    assert main(["bump", "1.62.0"]) == 0
    out = capsys.readouterr().out
    assert "bump: Playwright 1.59.0 -> 1.62.0 in allowlist.yaml, pom.xml, build.gradle.kts" in out
    assert "A bump, from a consumer" in out
    assert (root / "allowlist.yaml").read_text().startswith("playwright: 1.62.0\n")
    assert "<playwright.version>1.62.0<" in (root / "pom.xml").read_text()
    assert "playwright:playwright:1.62.0" in (root / "build.gradle.kts").read_text()
    (root / "pom.xml").write_text("<p><playwright.version>1.61.0</playwright.version></p>\n")
    before = (root / "allowlist.yaml").read_text()
    assert main(["bump", "1.63.0"]) == 2
    assert (
        "pom.xml pins Playwright 1.61.0, but the allowlist pins 1.62.0" in capsys.readouterr().err
    )
    assert (root / "allowlist.yaml").read_text() == before
