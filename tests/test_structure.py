"""The generator's inside: Python annotations as typed values, refusals as values, writers that
return their imports, registered outputs with template fallback, and runtime modules copied from
checked sources."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, read_tree

from generator.model.surface_report import build_report
from generator.model.type_tree import EnumOf, ListOf, ObjectOf, Scalar
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface, parse_annotation
from generator.read.python_types import (
    PyGeneric,
    PyLiteral,
    PyName,
    PyNone,
    PyUnion,
    is_optional,
    text,
    without_none,
)
from generator.render.outputs import DEFAULT_KINDS, PYTHON_ROOT, Rendered, runtime_module, selected
from generator.render.rendering import Renderer, default_templates
from generator.render.writers.python import Import, PythonWriter, import_block
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics

pytestmark = pytest.mark.jvm

# --- Python annotations -------------------------------------------------------------------------


def test_annotations_are_parsed_into_typed_values() -> None:
    polling = parse_annotation('typing.Optional[typing.Union[float, Literal["raf"]]]')
    assert polling == PyUnion((PyName("float"), PyLiteral(("raf",)), PyNone()))
    assert is_optional(polling)
    assert without_none(polling) == PyUnion((PyName("float"), PyLiteral(("raf",))))
    # Two spellings of one type are one value; forward references lose their quotes.
    assert parse_annotation("Union[str, None]") == parse_annotation("typing.Optional[str]")
    assert parse_annotation('typing.List["Error"]') == PyGeneric("List", (PyName("Error"),))
    assert (
        text(parse_annotation('typing.Optional[typing.List["Error"]]')) == "Optional[List[Error]]"
    )


def test_the_python_surface_survives_its_cache_form(python_surface: PythonSurface) -> None:
    assert PythonSurface.from_json(python_surface.to_json()) == python_surface
    select = python_surface.method("Page", "select_option")
    assert select is not None
    label = select.param("label")
    assert label is not None and label.type == PyUnion(
        (PyName("str"), PyGeneric("Sequence", (PyName("str"),)), PyNone())
    )


# --- refusals -----------------------------------------------------------------------------------


def test_the_report_groups_refusals_by_kind(
    java_surface: JavaSurface, python_surface: PythonSurface
) -> None:
    report = build_report(java_surface, python_surface, [], Diagnostics())
    rows = {f"{r.interface}.{r.method}": r for r in report.rows}
    assert (rows["Page.route"].status, rows["Page.route"].category) == ("refused", "callback")
    assert rows["Page.pause"].category == "interactive"
    assert rows["Page.onConsoleMessage"].category == "event"
    assert rows["Page.frameByUrl"].category == "Java only"
    assert rows["Page.pause"].reason.startswith("opens the Playwright Inspector")


# --- writers ------------------------------------------------------------------------------------


def test_the_python_writer_returns_its_imports() -> None:
    writer = PythonWriter("pkg._types")
    node = ListOf(ObjectOf("Geolocation", ()))
    assert writer.write(node).text == "list[Geolocation]"
    assert writer.write(node).imports == {Import("pkg._types", "Geolocation")}
    enum = writer.write(EnumOf("Mode", ("a", "b")))
    assert (enum.text, enum.imports) == ("Literal['a', 'b']", {Import("typing", "Literal")})
    assert writer.write(Scalar("integer")).imports == frozenset()


def test_import_block_is_laid_out_as_isort_does() -> None:
    imports = frozenset(
        {
            Import("typing", "cast"),
            Import("typing", "ClassVar"),
            Import("base64"),
            Import("pkg._types", "Unset"),
            Import("pkg._types", "UNSET"),
            Import("playwright.sync_api", "Page", "SyncPage"),
            Import("playwright._impl", "_api_structures", "_pw", type_only=True),
        }
    )
    assert import_block(imports, "pkg") == (
        "import base64\n"
        "from typing import TYPE_CHECKING, ClassVar, cast\n"
        "\n"
        "from playwright.sync_api import Page as SyncPage\n"
        "\n"
        "from pkg._types import UNSET, Unset\n"
        "\n"
        "if TYPE_CHECKING:\n"
        "    from playwright._impl import _api_structures as _pw"
    )


def test_generated_python_imports_exactly_what_it_uses(generated_tree: Path) -> None:
    """ruff's isort and unused-import rules hold for every shim and `_types.py`."""
    package = generated_tree / PYTHON_ROOT
    command = [
        sys.executable, "-m", "ruff", "check", "--isolated", "--select", "I,F401",
        "--line-length", "100", "--config", "lint.isort.known-first-party=['playwright_tools']",
        str(package / "tools"), str(package / "_types.py"),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


# --- outputs and templates ----------------------------------------------------------------------


def test_runtime_modules_are_their_sources_with_the_notice(generated_tree: Path) -> None:
    for source, target in [("_validate.py", "_validate.py"), ("_convert.py", "_convert.py")]:
        written = (generated_tree / PYTHON_ROOT / target).read_text(encoding="utf-8")
        assert written == runtime_module(source)
        body = (REPO / "generator" / "runtime" / source).read_text(encoding="utf-8")
        assert written.endswith(body.split('"""', 2)[2])
    assert not list((REPO / "templates").glob("validate*")), "the runtime is Python, not a template"


def test_a_new_output_kind_is_one_entry_and_one_template(
    tmp_path: Path, java_surface: JavaSurface, python_surface: PythonSurface
) -> None:
    """A custom folder with only the new template: every other template comes from the defaults."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "names.txt.j2").write_text("{% for n in names %}{{ n }}\n{% endfor %}")
    entry = Rendered(
        lambda m: [{"names": [t.name.value for t in m.tools]}], "names.txt.j2", "names.txt"
    )
    report = build_report(java_surface, python_surface, [], Diagnostics())
    cache = Cache(tmp_path / "cache", enabled=False)
    with_entry = Renderer(templates, cache, (*selected(DEFAULT_KINDS), entry)).render_all(
        [], "1", "1", report, "0"
    )
    built_in = Renderer(default_templates(), cache).render_all([], "1", "1", report, "0")
    assert with_entry.pop("names.txt") == ""
    assert with_entry == built_in


def test_custom_templates_override_file_by_file(tmp_path: Path, generated_tree: Path) -> None:
    from conftest import generate

    templates = tmp_path / "templates"
    templates.mkdir()
    toolset = (REPO / "templates" / "toolset.yaml.j2").read_text(encoding="utf-8")
    (templates / "toolset.yaml.j2").write_text(toolset.replace("web_framework", "mine"))
    out = tmp_path / "out"
    assert generate(out, None, "--templates", str(templates), "--no-cache") == 0
    fresh, reference = read_tree(out), read_tree(generated_tree)
    changed = sorted(name for name in fresh if fresh[name] != reference.get(name))
    assert changed == [".generated-files", "manifest.json", "toolsets/web_framework.toolset.yaml"]
    assert b"name: mine\n" in fresh["toolsets/web_framework.toolset.yaml"]
    # The manifest records that custom templates wrote the tree (by their digest), and only that.
    mine, theirs = json.loads(fresh["manifest.json"]), json.loads(reference["manifest.json"])
    assert theirs["options"].pop("templates") == "built-in"
    assert len(mine["options"].pop("templates")) == 16
    assert mine == theirs


@pytest.mark.parametrize("name", ["_validate.py", "_convert.py", "package_init.py"])
def test_runtime_sources_open_with_a_docstring(name: str) -> None:
    assert (REPO / "generator" / "runtime" / name).read_text(encoding="utf-8").startswith('"""')
