"""Golden outputs: syrupy snapshots of every output kind, and the committed generated/ tree."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, read_tree
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

# Kept by hand: the tools this repository's allowlist must produce.
SIX_TOOLS = {
    "web_addInitScript": "web_add_init_script",
    "web_context_setGeolocation": "web_context_set_geolocation",
    "web_context_setOffline": "web_context_set_offline",
    "web_evaluate": "web_evaluate",
    "web_setExtraHTTPHeaders": "web_set_extra_http_headers",
    "web_setViewportSize": "web_set_viewport_size",
}
PACKAGE = "python/playwright_tools"


class _Text(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT


class PythonSnapshot(_Text):
    file_extension = "py"


class YamlSnapshot(_Text):
    file_extension = "yaml"


class TypeScriptSnapshot(_Text):
    file_extension = "d.ts"


@pytest.mark.parametrize("tool", sorted(SIX_TOOLS))
def test_shim(tool: str, generated_tree: Path, snapshot: SnapshotAssertion) -> None:
    text = (generated_tree / PACKAGE / "tools" / f"{SIX_TOOLS[tool]}.py").read_text()
    assert text == snapshot(extension_class=PythonSnapshot)


@pytest.mark.parametrize("tool", sorted(SIX_TOOLS))
def test_descriptor(tool: str, generated_tree: Path, snapshot: SnapshotAssertion) -> None:
    text = (generated_tree / "tools" / f"{tool}.tool.yaml").read_text()
    assert text == snapshot(extension_class=YamlSnapshot)


@pytest.mark.parametrize("module", ["registry", "_types", "_validate", "__init__"])
def test_package_module(module: str, generated_tree: Path, snapshot: SnapshotAssertion) -> None:
    assert (generated_tree / PACKAGE / f"{module}.py").read_text() == snapshot(
        extension_class=PythonSnapshot
    )


def test_typescript(generated_tree: Path, snapshot: SnapshotAssertion) -> None:
    text = (generated_tree / "typescript" / "web-tools.d.ts").read_text()
    assert text == snapshot(extension_class=TypeScriptSnapshot)


def test_toolset(generated_tree: Path, snapshot: SnapshotAssertion) -> None:
    text = (generated_tree / "toolsets" / "web_framework.toolset.yaml").read_text()
    assert text == snapshot(extension_class=YamlSnapshot)


def test_committed_tree_is_current(generated_tree: Path) -> None:
    """generated/ in the repository is exactly what the generator produces now, file by file."""
    fresh, committed = read_tree(generated_tree), read_tree(REPO / "generated")
    assert sorted(fresh) == sorted(committed), "missing or extra files: run `python -m generator`"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert stale == [], "stale files: run `python -m generator` and review the diff"


def test_every_output_kind_has_all_six_tools(generated_tree: Path) -> None:
    tree = read_tree(generated_tree)
    for tool, module in SIX_TOOLS.items():
        assert f"{PACKAGE}/tools/{module}.py" in tree
        assert f"tools/{tool}.tool.yaml" in tree
        assert f"{tool}:".encode() in tree["typescript/web-tools.d.ts"]
        assert f"- {tool}\n".encode() in tree["toolsets/web_framework.toolset.yaml"]
        assert f'"{tool}": '.encode() in tree[f"{PACKAGE}/registry.py"]
