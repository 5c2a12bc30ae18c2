"""An allowlist entry's `trailblaze:` mapping (issue 55, item 5), as read: its form checked, every
error one line naming `file:line:col` and what to write. What it does to a shim, and the shims'
behaviour beside Trailblaze's hand-written tools, are tested in test_kotlin.py and
test_trailblaze_check.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.read.allowlist import load_allowlist
from generator.read.trailblaze_face import TrailblazeFace
from generator.shared.diagnostics import GeneratorError

WAIT = """\
playwright: 1.63.0
tools:
  - method: page.waitForTimeout
    trailblaze:
      replace: web_wait
      reasoning: true
      surfaceToLlm: true
      parameters:
        timeout: {name: seconds, type: integer, default: 1, clamp: [1, 30], scale: 1000, description: Seconds.}
      result: "Waited {seconds} seconds ({{clamped}})."
"""


def _read(tmp_path: Path, text: str) -> TrailblazeFace | None:
    path = tmp_path / "allowlist.yaml"
    path.write_text(text, encoding="utf-8")
    (entry,) = load_allowlist(path).entries
    return entry.trailblaze_face


def test_a_mapping_is_read_whole(tmp_path: Path) -> None:
    face = _read(tmp_path, WAIT)
    assert face is not None
    assert (face.replace, face.reasoning, face.surface_to_llm, face.is_recordable) == (
        "web_wait",
        True,
        True,
        None,
    )
    (param,) = face.params
    assert (param.playwright, param.name, param.type, param.default) == (
        "timeout",
        "seconds",
        "integer",
        1,
    )
    assert (param.clamp, param.scale, param.minimum) == ((1, 30), 1000, None)
    assert face.result is not None
    # Literal text and placeholder names alternate; doubled braces are one brace.
    assert face.result.parts == ("Waited ", "seconds", " seconds ({clamped}).")
    assert face.result.where.endswith("allowlist.yaml:10:15")


def test_a_mapping_naming_a_builtin_is_a_replace_entry(tmp_path: Path) -> None:
    path = tmp_path / "allowlist.yaml"
    path.write_text(WAIT, encoding="utf-8")
    (entry,) = load_allowlist(path).entries
    assert entry.trailblaze == "replace"
    path.write_text(WAIT.replace("      replace: web_wait\n", ""), encoding="utf-8")
    (entry,) = load_allowlist(path).entries
    assert entry.trailblaze == ""


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "reasoning: true",
            "reasonning: true",
            ("unknown key 'reasonning'", "did you mean 'reasoning'"),
        ),
        ("reasoning: true", "reasoning: yes please", ("'reasoning' must be true or false",)),
        ("type: integer", "type: float", ("parameters.timeout.type must be integer", "regex")),
        ("clamp: [1, 30]", "clamp: [30, 1]", ("[30, 1]", "the lowest comes first")),
        ("clamp: [1, 30]", "clamp: [1]", ("parameters.timeout.clamp", "[lowest, highest]")),
        ("scale: 1000", "scale: 0", ("parameters.timeout.scale must be 1 or more",)),
        ("default: 1", "default: 1.5", ("parameters.timeout.default must be a whole number",)),
        ("{seconds} seconds", "{seconds seconds", ("lone '{'", "{{ and }}")),
        ("replace: web_wait", "replace: 2wait", ("'replace'", "2wait")),
        (
            "      result:",
            "      belowMinimum: too small\n      result:",
            ("'belowMinimum'", "no parameter has a 'minimum'"),
        ),
        ("name: seconds,", "name: 'sec onds',", ("parameters.timeout.name",)),
    ],
)
def test_bad_mappings_are_one_line_errors(
    tmp_path: Path, old: str, new: str, says: tuple[str, ...]
) -> None:
    assert old in WAIT
    with pytest.raises(GeneratorError) as raised:
        _read(tmp_path, WAIT.replace(old, new, 1))
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(str(tmp_path / "allowlist.yaml") + ":") or message.startswith(
        "allowlist.yaml:"
    ), message
    for part in says:
        assert part in message, message


def test_an_empty_mapping_says_what_to_write(tmp_path: Path) -> None:
    text = "playwright: 1.63.0\ntools:\n  - method: page.title\n    trailblaze: {}\n"
    with pytest.raises(GeneratorError, match=r"empty mapping.*replace: web_wait.*trailblaze: skip"):
        _read(tmp_path, text)
