"""The golden tree: the committed generated/ is exactly what the generator produces now, file by
file (missing, extra or stale files fail). It is the one golden mechanism for the real JAR's
output; syrupy snapshots are kept for fixture-JAR cases, which generated/ does not hold."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO, read_tree

# Kept by hand: the plan's tools, by their tool names and Python module names.
PLAN_TOOLS = {
    "web_addInitScript": "web_add_init_script",
    "web_setGeolocation": "web_set_geolocation",
    "web_setOfflineMode": "web_set_offline_mode",
    "web_evaluate": "web_evaluate",
    "web_setExtraHTTPHeaders": "web_set_extra_http_headers",
    "web_setViewportSize": "web_set_viewport_size",
    "web_cookie_add": "web_cookie_add",
    "web_cookie_list": "web_cookie_list",
    "web_cookie_clear": "web_cookie_clear",
}
PACKAGE = "python/playwright_tools"


def test_committed_tree_is_current(generated_tree: Path) -> None:
    """generated/ in the repository is exactly what the generator produces now, file by file."""
    fresh, committed = read_tree(generated_tree), read_tree(REPO / "generated")
    assert sorted(fresh) == sorted(committed), "missing or extra files: run `python -m generator`"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert stale == [], "stale files: run `python -m generator` and review the diff"


def test_every_output_kind_has_the_plan_tools(generated_tree: Path) -> None:
    tree = read_tree(generated_tree)
    for tool, module in PLAN_TOOLS.items():
        assert f"{PACKAGE}/tools/{module}.py" in tree
        assert f"tools/{tool}.tool.yaml" in tree
        assert f"{tool}:".encode() in tree["typescript/web-tools.d.ts"]
        assert f"- {tool}\n".encode() in tree["toolsets/web_framework.toolset.yaml"]
        assert f'"{tool}": '.encode() in tree[f"{PACKAGE}/registry.py"]
