"""docs/generator.md's "What it writes" names every file the committed run writes at the top of
generated/ and beside the registry of the Python package: a file added to the output without a
line there fails here."""

from __future__ import annotations

import re

from conftest import REPO


def _layout() -> str:
    text = (REPO / "docs" / "generator.md").read_text(encoding="utf-8")
    section = text.split("## What it writes", 1)[1]
    return section.split("```", 2)[1]


def test_the_layout_names_every_top_level_file() -> None:
    layout = _layout()
    named = set(re.findall(r"\.?[\w.-]+\.\w+|\.[\w-]+|[\w-]+/", layout))
    top = {p.name + ("/" if p.is_dir() else "") for p in (REPO / "generated").iterdir()}
    package = REPO / "generated" / "python" / "playwright_tools"
    modules = {p.name for p in package.iterdir() if p.is_file()} - {"__init__.py"}
    assert top and modules
    assert top - named == set()
    assert modules - named == set()
