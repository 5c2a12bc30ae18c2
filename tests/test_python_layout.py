"""The generated Python is black's style without black on the hot path (generator/render/writers/python_layout.py).

black stays the judge: it must leave every generated file unchanged; the layout rules must give
black's bytes (or refuse, sending the module to black) on modules whose lines cross the length
limit in other places (identifiers lengthened at random, fixed seeds), on string quotes and on
docstrings; and the committed allowlist needs black for no file at all.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import black
import pytest
from black.mode import Mode, TargetVersion
from conftest import REPO

import generator.render.rendering as render
from generator.model.binding import Binder
from generator.model.surface_report import build_report
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface
from generator.render.rendering import Renderer, default_templates
from generator.render.writers.python_layout import NotLaidOut, lay_out, normalize_quotes
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics

MODE = Mode(target_versions={TargetVersion.PY311}, line_length=100)


def _black(text: str) -> str:
    return black.format_str(text, mode=MODE)


def test_black_leaves_every_generated_python_file_unchanged(generated_tree: Path) -> None:
    files = sorted(generated_tree.rglob("*.py"))
    assert len(files) > 170
    changed = [
        str(f.relative_to(generated_tree)) for f in files if _black(f.read_text()) != f.read_text()
    ]
    assert changed == []


@pytest.fixture(scope="module")
def raw_modules(
    java_surface: JavaSurface,
    python_surface: PythonSurface,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, str]:
    """Every Python module the built-in templates render for the committed allowlist, before layout."""
    from generator.read.allowlist import load_allowlist

    raw: dict[str, str] = {}
    diagnostics = Diagnostics()
    tools = Binder(java_surface, python_surface, diagnostics).bind_all(
        load_allowlist(REPO / "allowlist.yaml")
    )
    report = build_report(java_surface, python_surface, tools, diagnostics)
    renderer = Renderer(default_templates(), Cache(tmp_path_factory.mktemp("cache"), enabled=False))
    original = render.lay_out

    def capture(text: str) -> str:
        laid_out = original(text)
        raw[f"module{len(raw)}"] = text
        return laid_out

    render.lay_out = capture
    try:
        renderer.render_all(tools, "1", python_surface.version, report, "0")
    finally:
        render.lay_out = original
    assert renderer.formatted_by_black == {}, "the committed allowlist needs black for no file"
    return raw


def test_the_layout_is_what_black_makes_of_the_raw_modules(raw_modules: dict[str, str]) -> None:
    assert len(raw_modules) > 170
    for text in raw_modules.values():
        assert lay_out(text) == _black(text)


_KEYWORDS = {
    "self",
    "cast",
    "args",
    "page",
    "result",
    "item",
    "else",
    "from",
    "import",
    "await",
    "async",
    "return",
    "class",
    "lambda",
    "annotations",
    "None",
    "True",
    "False",
    "with",
    "pass",
    "raise",
    "type",
}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lines_that_cross_the_limit_elsewhere_are_laid_out_as_black_does(
    raw_modules: dict[str, str], seed: int
) -> None:
    """Identifiers lengthened at random move every line across the limit at other places; each
    module is then either black's bytes or refused (and formatted by black): never different.

    Each seed takes every third module (black, the judge, is most of this test's cost), so
    the three seeds together lengthen every module once."""
    rng = random.Random(seed)
    texts = list(raw_modules.values())
    # The words come from every module, so a seed lengthens them the same whichever it takes.
    words = sorted({w for t in texts for w in re.findall(r"\b[a-z][a-zA-Z]{3,}\b", t)} - _KEYWORDS)
    longer = {
        w: w + "x" * rng.randint(0, 25) if rng.random() < 0.3 else w + "Q" * rng.randint(0, 3)
        for w in words
    }
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")
    laid_out = refused = 0
    for text in texts[seed - 1 :: 3]:
        mutated = pattern.sub(lambda m: longer[m.group()], text)
        try:
            mine = lay_out(mutated)
        except NotLaidOut:
            refused += 1
            continue
        laid_out += 1
        assert mine == _black(mutated)
    # The rules cover most shapes; a test that refused everything would prove nothing.
    assert laid_out > 4 * refused


@pytest.mark.parametrize(
    "literal",
    [
        "'plain'",
        "'say \"hi\"'",
        "'it\\'s'",
        "'it\\'s \"x\"'",
        '"already"',
        '"a \\"b\\""',
        "''",
        "'\\\\'",
        "'\\\\\\''",
        "r'raw \\d'",
        "r'raw \"q\"'",
        "b'bytes'",
        "'unnecessary \\\" escape'",
    ],
)
def test_string_quotes_are_blacks(literal: str) -> None:
    assert f"x = {normalize_quotes(literal)}\n" == _black(f"x = {literal}\n")


@pytest.mark.parametrize(
    "docstring",
    [
        '"""One line."""',
        '"""  Padded one line.   """',
        '"""First line.\n\nSecond line, at column zero.\n    Indented more.\n"""',
        '"""Trailing spaces.   \nNext.   """',
        r'"""Ends with a quote \"x\""""',
        '""""Starts with a quote."""',
        '"""Long last line: '
        + "word " * 19
        + "\nand a last line that reaches the limit "
        + "z" * 55
        + '"""',
        '"""Tabs:\n\tindented by a tab\n"""',
    ],
)
def test_docstrings_are_blacks(docstring: str) -> None:
    module = f"class A:\n    {docstring}\n\n    x: int\n"
    assert lay_out(module) == _black(module)


def test_a_custom_python_template_is_formatted_by_black(
    tmp_path: Path, java_surface: JavaSurface, python_surface: PythonSurface
) -> None:
    """A custom template is not written for the layout rules: black formats what it renders."""
    templates = tmp_path / "templates"
    templates.mkdir()
    source = (default_templates() / "registry.py.j2").read_text()
    assert "def prepare(name: str, args: object) -> Shim:" in source
    (templates / "registry.py.j2").write_text(
        source.replace(
            "def prepare(name: str, args: object) -> Shim:",
            "def prepare( name:str,args:object )->Shim :",
        )
    )
    report = build_report(java_surface, python_surface, [], Diagnostics())
    renderer = Renderer(templates, Cache(tmp_path / "cache"))
    files = renderer.render_all([], "1", "1", report, "0")
    registry = f"{render.PYTHON_ROOT}/registry.py"
    assert "def prepare(name: str, args: object) -> Shim:" in files[registry]
    assert renderer.formatted_by_black == {registry: "custom template registry.py.j2"}
