"""The registry's view of each tool (`views.ShimHandle`): its name, module and class at once,
every other `ShimView` field made on first use, the same as the full view's, so that a custom
registry template may read them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from ir_tools import page_tool

from generator.model.ir import Tool, ToolParam
from generator.model.type_tree import Scalar
from generator.render.views import ShimHandle, shim_view


def _tool() -> Tool:
    return page_tool(
        (ToolParam("where", Scalar("string"), True, "Where to."),),
        "go(String)",
        description="Go somewhere.",
        surface_to_llm=False,
        python_awaitable=True,
    )


def test_a_handle_gives_every_field_of_the_full_view() -> None:
    tool = _tool()
    handle, full = ShimHandle(tool), shim_view(tool)
    assert (handle.tool_name, handle.module, handle.class_name) == (
        full.tool_name,
        full.module,
        full.class_name,
    )
    assert handle._view is None  # nothing laid out for the three names the registry prints
    for field in dataclasses.fields(full):
        assert getattr(handle, field.name) == getattr(full, field.name), field.name
    with pytest.raises(AttributeError):
        _ = handle.no_such_field
    with pytest.raises(AttributeError):
        _ = handle.__wrapped__


def test_compiled_templates_are_cached_and_a_bad_entry_is_compiled_again(tmp_path: Path) -> None:
    """The built-in templates' compiled code is kept in the cache; an entry that does not load
    (with a valid checksum, as a forger would write it) is compiled again and replaced."""
    from generator.render.templating import default_templates, environment
    from generator.shared.cache import Cache

    cache = Cache(tmp_path / "cache")
    context = {"generated_by": "made here"}
    first = environment(default_templates(), cache).get_template("tools_init.py.j2")
    (entry,) = (tmp_path / "cache" / "jinja").iterdir()
    good = entry.read_bytes()
    for garbage in ("bm90IGNvZGU=", "!!not base64!!"):
        cache.store("jinja", entry.name, garbage)
        again = environment(default_templates(), cache).get_template("tools_init.py.j2")
        assert again.render(**context) == first.render(**context)
        assert entry.read_bytes() == good


def test_compiled_templates_are_kept_only_in_a_private_folder(tmp_path: Path) -> None:
    """Loaded compiled code is run: a cache folder others may write gets none."""
    from generator.render.templating import default_templates, environment
    from generator.shared.cache import Cache

    root = tmp_path / "cache"
    root.mkdir()
    assert environment(default_templates(), Cache(root)).bytecode_cache is not None
    root.chmod(0o777)
    assert environment(default_templates(), Cache(root)).bytecode_cache is None
    root.chmod(0o755)
    (root / "jinja").mkdir(mode=0o775)
    (root / "jinja").chmod(0o775)
    assert environment(default_templates(), Cache(root)).bytecode_cache is None
