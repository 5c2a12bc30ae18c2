"""Custom templates are code from outside the project: they render in a sandbox, and every mistake
in one ends in a message naming the template (and line), with exit status 2 and nothing written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, generate

pytestmark = pytest.mark.jvm

# (template text, what the message says); each replaces the built-in toolset template.
CASES = {
    "reach-internals": (
        '{{ cycler.__init__.__globals__.os.popen("id").read() }}\n',
        "template toolset.yaml.j2:1: not allowed in a template (access to attribute '__init__'",
    ),
    "reach-subclasses": (
        "{{ ''.__class__.__mro__[1].__subclasses__() }}\n",
        "template toolset.yaml.j2:1: not allowed in a template (access to attribute '__class__'",
    ),
    "mutate-data": (
        "{% set _ = tool_names.append('web_x') %}{{ tool_names }}\n",
        "template toolset.yaml.j2:1: not allowed in a template (",
    ),
    "divide-by-zero": ("a\n{{ 1 // 0 }}\n", "template toolset.yaml.j2:2: ZeroDivisionError"),
    "undefined-name": (
        "{{ no_such_name }}\n",
        "template toolset.yaml.j2:1: 'no_such_name' is undefined",
    ),
    "syntax": ("{% for x in %}\n", "template toolset.yaml.j2:1: "),
    "not-utf8": (b"\xff\xfe{{ x }}\n", "template toolset.yaml.j2: not UTF-8 (byte 0xff)"),
    "huge": ("#" * (1 << 20) + "x\n", "template toolset.yaml.j2: is larger than 1 MiB"),
    "missing-include": (
        'a\n{% include "nope.j2" %}\n',
        "template toolset.yaml.j2:2: no template named 'nope.j2' in the --templates folder",
    ),
    "endless-power": (
        "{{ 10 ** 10000000000 }}\n",  # Jinja reads `a ** b ** c` as `(a ** b) ** c`
        "template toolset.yaml.j2:1: not allowed in a template (10 ** 10000000000 is too large",
    ),
    "endless-repeat": (
        '{{ "x" * 10 ** 12 }}\n',
        "template toolset.yaml.j2:1: not allowed in a template (repeating a value",
    ),
    # A template of Python output fails the same way, before black sees its text.
    "shim-divide-by-zero": (
        "\n" * 11 + "{{ 1 // 0 }}\n",
        "template shim.py.j2:12: ZeroDivisionError",
    ),
}
# The built-in template each case replaces, when not the toolset's.
TEMPLATE = {"shim-divide-by-zero": "shim.py.j2"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_custom_template_is_named(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = CASES[case]
    folder = tmp_path / "templates"
    folder.mkdir()
    target = folder / TEMPLATE.get(case, "toolset.yaml.j2")
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text)
    out = tmp_path / "out"
    assert generate(out, None, "--templates", str(folder), "--no-cache") == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert message in err, err
    assert not out.exists()


def test_a_missing_template_folder_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    assert generate(tmp_path / "out", None, "--templates", str(missing)) == 2
    err = capsys.readouterr().err
    assert f"--templates {missing}: no such directory" in err and "Traceback" not in err


# --- the template files themselves: regular files under the folder, no symlink, no FIFO ---------

MARKER = "leaked-by-a-template-7f3a"


def _templates_with(tmp_path: Path, name: str = "toolset.yaml.j2") -> tuple[Path, Path]:
    folder = tmp_path / "templates"
    folder.mkdir()
    return folder, folder / name


@pytest.mark.parametrize("target", ["a file elsewhere", "/proc/self/environ"])
def test_a_template_that_is_a_symlink_is_not_followed(
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`tpl/toolset.yaml.j2 -> /proc/self/environ` wrote the process environment into the output,
    and `--check` (the hook's and CI's command) printed it in its diff."""
    monkeypatch.setenv("TEMPLATE_LEAK_MARKER", MARKER)
    elsewhere = tmp_path / "secret.txt"
    elsewhere.write_text(f"{MARKER}\n")
    folder, template = _templates_with(tmp_path)
    template.symlink_to(elsewhere if target == "a file elsewhere" else Path(target))
    out = tmp_path / "out"
    assert generate(out, None, "--templates", str(folder), "--no-cache") == 2
    err = capsys.readouterr().err
    assert "template toolset.yaml.j2: is, or lies under, a symlink, which is not followed" in err
    assert MARKER not in err and not out.exists()
    # --check over a current tree: refused alike, nothing of the target in its diff.
    assert generate(out, None, "--no-cache") == 0
    capsys.readouterr()
    assert generate(out, None, "--templates", str(folder), "--no-cache", "--check") == 2
    captured = capsys.readouterr()
    assert MARKER not in captured.out + captured.err
    assert "is, or lies under, a symlink" in captured.err


def test_an_include_through_a_symlinked_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "part.j2").write_text(f"{MARKER}\n")
    folder, template = _templates_with(tmp_path)
    (folder / "sub").symlink_to(outside)
    template.write_text('{% include "sub/part.j2" %}\n')
    out = tmp_path / "out"
    assert generate(out, None, "--templates", str(folder), "--no-cache") == 2
    err = capsys.readouterr().err
    assert "template sub/part.j2: lies under a name that is not a folder" in err, err
    assert MARKER not in err and not out.exists()


def test_a_template_that_is_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    """A FIFO (or any file that is not regular) hung the run for ever, with no message."""
    folder, template = _templates_with(tmp_path)
    os.mkfifo(template)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "generator", "--out", str(out), "--templates", str(folder)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,  # a hang fails here, by the timeout
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "error: template toolset.yaml.j2: is a FIFO (named pipe), not a regular file; name a "
        "file. Fix the template or restore the default templates/.\n"
    )
    assert not out.exists()
