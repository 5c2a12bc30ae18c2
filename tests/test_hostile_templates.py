"""Custom templates are code from outside the project: they render in a sandbox, and every mistake
in one ends in a message naming the template (and line), with exit status 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import generate

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
    "huge": ("#" * (1 << 20) + "x\n", "template toolset.yaml.j2: larger than 1 MiB"),
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
