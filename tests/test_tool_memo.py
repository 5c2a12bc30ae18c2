"""The per-tool memo (`tool_memo`): a hit gives the bytes a cold render gives, without rendering
the tool again; a changed template, tool or neighbouring tool misses; a damaged entry is ignored."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from conftest import REPO

from generator.model.binding import Binder
from generator.model.ir import Tool
from generator.model.surface_report import SurfaceReport, build_report
from generator.read.allowlist import load_allowlist
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface
from generator.render import views
from generator.render.rendering import Renderer, default_templates
from generator.render.tool_memo import KIND
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics

Bound = tuple[list[Tool], SurfaceReport]


@pytest.fixture(scope="module")
def bound(java_surface: JavaSurface, python_surface: PythonSurface) -> Bound:
    diagnostics = Diagnostics()
    allowlist = load_allowlist(REPO / "allowlist.yaml")
    tools = Binder(java_surface, python_surface, diagnostics).bind_all(allowlist)
    return tools, build_report(java_surface, python_surface, tools, diagnostics)


def _render(bound: Bound, cache: Cache, templates: Path | None = None) -> dict[str, str]:
    tools, report = bound
    renderer = Renderer(templates or default_templates(), cache)
    return renderer.render_all(tools, "1.0", "1.0", report, "0" * 64)


@pytest.fixture(scope="module")
def cold(bound: Bound, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _render(bound, Cache(tmp_path_factory.mktemp("none"), enabled=False))


def test_a_hit_gives_the_cold_bytes_without_rendering_the_tool(
    bound: Bound, cold: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = Cache(tmp_path / "cache")
    assert _render(bound, cache) == cold
    assert len(list((tmp_path / "cache" / KIND).iterdir())) == len(bound[0])

    def no_render(tool: Tool) -> object:
        raise AssertionError(f"{tool.name.value} was rendered again")

    monkeypatch.setattr(views, "descriptor", no_render)
    assert _render(bound, cache) == cold


def test_a_changed_tool_or_neighbour_name_misses(
    bound: Bound, tmp_path: Path, java_surface: JavaSurface
) -> None:
    cache = Cache(tmp_path / "cache")
    _render(bound, cache)
    tools, report = bound
    # A description naming another tool changes with that tool's name: the IR carries it.
    renamed = dataclasses.replace(tools[0], description=tools[0].description + " See web_other.")
    changed: Bound = ([renamed, *tools[1:]], report)
    fresh = _render(changed, Cache(tmp_path / "none", enabled=False))
    assert _render(changed, cache) == fresh
    assert fresh != _render(bound, cache)


def test_a_changed_template_misses(bound: Bound, cold: dict[str, str], tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    _render(bound, cache)
    templates = tmp_path / "templates"
    shutil.copytree(default_templates(), templates)
    yaml = templates / "tool.yaml.j2"
    yaml.write_text(yaml.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    edited = _render(bound, cache, templates)
    assert edited == _render(bound, Cache(tmp_path / "none", enabled=False), templates)
    assert all(edited[p] == cold[p] + "# edited\n" for p in cold if p.endswith(".tool.yaml"))


@pytest.mark.parametrize("damage", ["flip", "empty", "other-tool"])
def test_a_damaged_entry_is_ignored_and_rewritten(
    bound: Bound, cold: dict[str, str], tmp_path: Path, damage: str
) -> None:
    cache = Cache(tmp_path / "cache")
    _render(bound, cache)
    entries = sorted((tmp_path / "cache" / KIND).iterdir())
    first, second = entries[0], entries[1]
    original = first.read_bytes()
    if damage == "flip":
        first.write_bytes(original[:-10] + bytes(b ^ 0xFF for b in original[-10:]))
    elif damage == "empty":
        first.write_bytes(b"")
    else:  # a valid entry, copied under another tool's key
        first.write_bytes(second.read_bytes())
    assert _render(bound, cache) == cold
    assert first.read_bytes() == original


def test_the_allowlist_line_a_tool_came_from_is_not_part_of_its_key(
    bound: Bound, cold: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Removing a line moves every entry below it; their tools' files are still found."""
    cache = Cache(tmp_path / "cache")
    _render(bound, cache)
    tools, report = bound
    moved = [dataclasses.replace(t, source=t.source + ":moved") for t in tools]

    def no_render(tool: Tool) -> object:
        raise AssertionError(f"{tool.name.value} was rendered again")

    monkeypatch.setattr(views, "descriptor", no_render)
    assert _render((moved, report), cache) == cold
