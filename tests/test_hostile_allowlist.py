"""Hostile allowlists as the command a user types: one line naming the place and the fix, exit 2,
nothing written, no hang; and the refusals that need the bound surface (a tool's parameters),
through the schema and the generator alike. The cases are those of test_allowlist_agreement.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, generate
from test_allowlist_agreement import (
    EVALUATE,
    PIN,
    REFUSED,
    allowlist_in,
    entry_text,
    generator_refusal,
    schema_refuses,
    schema_validator,
)

pytestmark = pytest.mark.jvm


# --- the command a user types --------------------------------------------------------------------


def _run(allowlist: Path, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "--allowlist", str(allowlist), *extra],
        cwd=allowlist.parent,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("out-5000-characters", "'out' ('xxxxx"),
        ("out-null", "'out' is empty (null); give a value or leave it out."),
        ("out-tilde", "'out' is empty (null)"),
        ("out-a-number", "'out' is a number, not text; quote it: out: '5'."),
        ("out-nul", "no NUL character"),
        ("wire-name-underscore", "not '_' alone, which Kotlin reserves"),
        ("kotlin-package-kotlin", "under a root of your own (not java or kotlin)"),
        ("kotlin-package-java-lang", "under a root of your own (not java or kotlin)"),
        ("pin-two-parts", "'playwright' ('1.63') must be a release such as 1.63.0."),
        ("description-empty", "'description' is blank; write the tool's description"),
        ("outputs-unknown-kind", "unknown output kind(s) bogus"),
        ("generate-file-above", "must be a path relative to the allowlist's folder, inside it"),
    ],
)
def test_a_bad_value_is_one_line_exit_2_and_nothing_written(
    case: str, says: str, tmp_path: Path
) -> None:
    allowlist = allowlist_in(tmp_path, REFUSED[case])
    done = _run(allowlist)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: allowlist.yaml:"), done.stderr
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert sorted(p.name for p in allowlist.parent.iterdir()) == ["allowlist.yaml", "config"]
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize("value", ["kotlin", "java.lang", "a..b"])
def test_a_bad_kotlin_package_on_the_command_line_is_refused(value: str, tmp_path: Path) -> None:
    allowlist = allowlist_in(tmp_path, PIN + EVALUATE)
    done = _run(allowlist, "--outputs", "trailblaze", "--kotlin-package", value)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: --kotlin-package '{value}' must be dot-separated")
    assert not (allowlist.parent / "generated").exists()


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder"])
def test_an_options_file_that_is_no_regular_file_under_the_folder_is_refused_at_once(
    kind: str, tmp_path: Path
) -> None:
    """A FIFO hung the run for ever (a hostile allowlist could hang the hook or CI); a symlink
    was followed out of the allowlist's folder."""
    allowlist = allowlist_in(tmp_path, PIN + "generate: options.yaml\n" + EVALUATE)
    options = allowlist.parent / "options.yaml"
    secret = tmp_path / "elsewhere.yaml"
    secret.write_text("out: stolen\n")
    if kind == "fifo":
        os.mkfifo(options)
    elif kind == "symlink":
        options.symlink_to(secret)
    else:
        options.mkdir()
    done = _run(allowlist, timeout=60)  # a hang is a failure by the timeout, not a stuck run
    assert done.returncode == 2, done.stderr
    expected = {
        "fifo": "is a FIFO (named pipe), not a regular file; name a file.",
        "symlink": "is, or lies under, a symlink, which is not followed",
        "folder": "is a folder, not a regular file; name a file.",
    }[kind]
    assert "the options file named by 'generate' " + expected in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "tools" / "stolen").exists()


BOUND_REFUSED = {
    "wire-names-no-parameter": entry_text("wireNames: {nope: x}"),
    "wire-names-the-locators-selector": PIN
    + "tools:\n  - method: locator.click\n    wireNames: {selector: target}\n",
    "method-unknown": PIN + "tools:\n  - method: page.evaluat\n",
}


@pytest.mark.jvm
@pytest.mark.parametrize("case", sorted(BOUND_REFUSED))
def test_both_refuse_what_only_the_bound_surface_tells(
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The schema knows each tool's parameters (and the surface's methods); the generator learns
    them when it binds the entry to the JAR."""
    text = BOUND_REFUSED[case]
    assert schema_refuses(schema_validator(), text), f"the schema takes {case}"
    assert generator_refusal(allowlist_in(tmp_path, text)) is None  # the text alone is fine
    assert generate(tmp_path / "out", allowlist_in(tmp_path / "again", text)) == 2
    assert "allowlist.yaml:3:" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
