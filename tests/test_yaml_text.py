"""The YAML filters write PyYAML's pure-Python emitter's bytes, whether libyaml writes them (the
values where its emitter agrees) or not (other values, or a PyYAML without libyaml)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO

from generator.render import yaml_text
from generator.render.yaml_text import yaml_block, yaml_scalar

LIBYAML = yaml_text._CDumper is not None
needs_libyaml = pytest.mark.skipif(not LIBYAML, reason="PyYAML is built without libyaml")

LONG = (
    "Returns the element's text after waiting for it to be attached and visible; a long sentence "
    "that wraps at the width of one hundred characters, more than once, so that both emitters "
    "have to choose the same places to break it."
)
# Descriptor-shaped values: what the templates pass to `yaml` and `yaml_block`.
REPRESENTATIVE: list[Any] = [
    "web_click",
    "",
    True,
    None,
    0,
    -1.5,
    30000,
    LONG,
    "Ünïcödé — “quotes”, 中文, ё, non-breaking\xa0space and ideographic\u3000space " * 3,
    "key: value # not a comment",
    "- starts like a list item",
    "'single' and \"double\" quotes",
    "true",
    "null",
    "1e3",
    "0x1F",
    "~",
    "@at",
    "`tick`",
    "%percent",
    "trailing space ",
    " leading space",
    "first line\nsecond line\n\n  indented third line",
    "a multi-line description\nwith a line that is long enough to exceed the width of one hundred "
    "characters by itself, which a block scalar never wraps",
    "line\nends with a break\n",
    [],
    {},
    [[]],
    {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
    {
        "type": "object",
        "properties": {
            "selector": {"type": "string", "description": LONG},
            "options": {
                "type": "object",
                "properties": {
                    "timeout": {"type": "number", "minimum": 0, "maximum": 600000},
                    "modifiers": {
                        "type": "array",
                        "items": {"enum": ["Alt", "Control", "ControlOrMeta", "Meta", "Shift"]},
                    },
                    "position": {
                        "type": "object",
                        "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                        "required": ["x", "y"],
                        "additionalProperties": False,
                    },
                },
                "additionalProperties": {"type": "string"},
            },
        },
        "required": ["selector"],
        "additionalProperties": False,
    },
    [{"java": "Page.click(String, Page.ClickOptions)", "python": "Page.click"}],
    {"on": "yes", "no": "off", "key with: colon": "value with # hash", "日本": "語"},
    {"description": "first line\nsecond line", "examples": ["a\nb", "", " "]},
    {7: "int key", 2.5: "float key", True: "bool key", None: "null key"},
]
# Values where libyaml's emitter writes other bytes than PyYAML's (so they must not reach it).
DISAGREEING: dict[str, tuple[Any, bool]] = {
    # name: (value, whether it is a block's value rather than a scalar's)
    "astral character": ("emoji 😀 outside the BMP", False),
    "tab, wrapping": ("a tab\tinside " + "word " * 30, False),
    "double-quoted and wrapping": (["x " * 60 + "\n" + "y " * 60 + " "], True),
    "space before a break, wrapping": (["word " * 25 + "\nmore"], True),
    "empty key": ({"": 1}, True),
    "key of 123 characters": ({"k" * 123: 1}, True),
    "scalar at a block's top": ("plain", True),
}


def _norm_scalar(text: str) -> str:
    return text.removesuffix("\n").removesuffix("\n...")


def _libyaml_text(value: Any) -> str:
    assert yaml_text._CDumper is not None
    return yaml.dump(
        value,
        Dumper=yaml_text._CDumper,
        sort_keys=False,
        allow_unicode=True,
        width=yaml_text.WIDTH,
    )


def _outputs(values: list[Any]) -> list[list[str]]:
    out = []
    for value in values:
        row = [yaml_scalar(value)]
        if isinstance(value, (dict, list)):
            row.append(yaml_block(value, 2))
        out.append(row)
    return out


def test_the_filters_read_back_as_the_values_written() -> None:
    for value in REPRESENTATIVE:
        assert yaml.safe_load(yaml_scalar(value)) == value
        if isinstance(value, (dict, list)):
            assert yaml.safe_load(yaml_block(value, 4)) == value


@needs_libyaml
def test_representative_values_go_through_libyaml_with_the_pure_emitters_bytes() -> None:
    for value in REPRESENTATIVE:
        if isinstance(value, str) and value != value.strip() and "\n" in value:
            continue  # written double-quoted: kept off libyaml, see DISAGREEING
        assert yaml_text._libyaml_agrees(value), value
        assert yaml_text._dump(value) == _libyaml_text(value)
        assert _norm_scalar(yaml_text._dump(value)) == _norm_scalar(yaml_text._pure_dump(value))


def test_without_libyaml_the_filters_write_the_same_bytes() -> None:
    """The same filters in a process whose PyYAML cannot load libyaml."""
    script = (
        "import sys, json\n"
        "sys.modules['yaml._yaml'] = None\n"
        "import yaml\n"
        "assert not yaml.__with_libyaml__\n"
        "from generator.render import yaml_text\n"
        "assert yaml_text._CDumper is None\n"
        "sys.path.insert(0, 'tests')\n"
        "from test_yaml_text import REPRESENTATIVE, DISAGREEING, _outputs\n"
        "values = REPRESENTATIVE + [v for v, _ in DISAGREEING.values()]\n"
        "print(json.dumps(_outputs(values)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    values = REPRESENTATIVE + [v for v, _ in DISAGREEING.values()]
    assert json.loads(done.stdout) == _outputs(values)


@needs_libyaml
@pytest.mark.parametrize("case", sorted(DISAGREEING))
def test_a_value_libyaml_writes_otherwise_takes_the_pure_emitter(case: str) -> None:
    value, in_block = DISAGREEING[case]
    pure = yaml_text._pure_dump(value)
    libyaml = _libyaml_text(value)
    if in_block:
        assert libyaml != pure, "libyaml agrees here now; the guard may be loosened"
        expected = "\n".join(
            "  " + line if line else line for line in pure.rstrip("\n").split("\n")
        )
        assert yaml_block(value, 2) == expected
    else:
        assert _norm_scalar(libyaml) != _norm_scalar(pure), "libyaml agrees here now"
        assert yaml_scalar(value) == _norm_scalar(pure)
    assert not yaml_text._libyaml_agrees(value) or not isinstance(value, (dict, list))


# --- random values: the guard against every place the two emitters differ ----------------------

_CHARS = list(
    " \n:#-?'\",[]{}&*!|>%@`\\abcxyz019._/=+~^$()<;é中\xa0\u3000ÿĀ\ud7ff\ue000\ufffd\u2027"
)
_CHARS += ["\t", "\r", "\x85", "\u2028", "\ufeff", "😀", "\x00"]
_WORDS = ["true", "no", "null", "~", "0x1F", "1e3", ".inf", "-", "---", "...", "- x", "a: b", "#c"]


def _random_text(r: random.Random) -> str:
    if r.random() < 0.15:
        return r.choice(_WORDS)
    size = r.choice([0, 1, 2, 5, 10, 30, 80, 99, 100, 101, 150, 250])
    text = "".join(
        r.choice(_CHARS) if r.random() < 0.4 else r.choice("abcdefgh ") for _ in range(size)
    )
    return r.choice(_WORDS) + text if r.random() < 0.3 else text


def _random_key(r: random.Random) -> Any:
    pick = r.random()
    if pick < 0.1:
        return r.choice([r.randint(0, 9), True, None, 1.5, 10**40])
    if pick < 0.3:  # around the length where the emitters' simple-key rules part
        alphabet = r.choice(["abé中 :", "abc", "ab c", "a:b c#d-e"])
        return "".join(r.choice(alphabet) for _ in range(r.randint(115, 131)))
    return _random_text(r)


def _random_value(r: random.Random, depth: int = 0) -> Any:
    pick = r.random()
    if depth > 3 or pick < 0.5:
        scalars = [_random_text(r)] * 3 + [r.randint(-5, 10**12), r.random(), True, None]
        return r.choice(scalars)
    if pick < 0.75:
        return [_random_value(r, depth + 1) for _ in range(r.choice([0, 1, 2, 4]))]
    return {_random_key(r): _random_value(r, depth + 1) for _ in range(r.choice([0, 1, 2, 4]))}


@needs_libyaml
def test_random_values_are_written_as_the_pure_emitter_writes_them() -> None:
    r = random.Random(23)
    through_libyaml = 0
    for _ in range(4000):
        value = _random_value(r)
        pure = yaml_text._pure_dump(value)
        if yaml_text._libyaml_agrees(value):
            through_libyaml += 1
            written = _libyaml_text(value)
            if isinstance(value, (dict, list)):
                assert written == pure, value
            else:
                assert _norm_scalar(written) == _norm_scalar(pure), value
        if isinstance(value, (dict, list)):
            block = "\n".join("  " + x if x else x for x in pure.rstrip("\n").splitlines())
            assert yaml_block(value, 2) == block, value
        assert yaml_scalar(value) == _norm_scalar(pure), value
    assert through_libyaml > 1000  # the guard is not simply refusing everything


@needs_libyaml
def test_every_generated_descriptor_field_goes_through_libyaml() -> None:
    """The committed descriptors' values are all ones libyaml writes (else the speed is lost)."""
    fields = 0
    for path in sorted((REPO / "generated" / "tools").glob("*.tool.yaml")):
        descriptor = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        for value in descriptor.values():
            fields += 1
            assert yaml_text._libyaml_agrees(value), (path.name, value)
    assert fields > 169
