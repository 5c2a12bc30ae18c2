"""The kinds of output, registered: each is a view of the model, a template and a path.

Adding a kind of output (a tool manifest for a server, a client in another language) is one entry
in `OUTPUTS` and one template. A `Rendered` entry's view gives one template context per file, and
its path is formatted with that context (`tools/{d[name]}.tool.yaml`). Files that need no template
(the fixed runtime modules, manifest.json) are `Written` entries.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import views
from generator.ir import Tool
from generator.manifest import build_manifest, manifest_text
from generator.surface_report import SurfaceReport
from generator.type_tree import ObjectOf

PYTHON_ROOT = f"python/{views.PYTHON_PACKAGE}"
_RUNTIME = Path(__file__).resolve().parent / "runtime"


@dataclass(frozen=True)
class Model:
    """Everything the outputs show: the tools sorted by name, the surface report and where they
    came from. Views derived from it more than once are computed once."""

    tools: tuple[Tool, ...]
    report: SurfaceReport
    java_version: str
    python_version: str
    jar_sha256: str

    @functools.cached_property
    def objects(self) -> list[ObjectOf]:
        return views.object_types(list(self.tools))

    @functools.cached_property
    def shims(self) -> list[views.ShimView]:
        return [views.shim_view(t) for t in self.tools]


Context = dict[str, Any]


@dataclass(frozen=True)
class Rendered:
    """Files rendered from `template`, one per context that `view` gives; `path` is formatted with
    the context. `cache` marks contexts of plain JSON data, whose rendering is worth caching."""

    view: Callable[[Model], Iterable[Context]]
    template: str
    path: str
    cache: bool = False


@dataclass(frozen=True)
class Written:
    """One file whose text needs no template: `text` gives it from the model."""

    path: str
    text: Callable[[Model], str]


@dataclass(frozen=True)
class PerTool:
    """Files rendered from `template`, one per tool, from a context that `view` makes of that tool
    alone (nothing else of the model, nor its `source`, which it is given blank), so a tool that
    did not change need not be rendered again (`tool_memo`). `cache` is as for `Rendered`."""

    view: Callable[[Tool], Context]
    template: str
    path: str
    cache: bool = False


Output = Rendered | Written | PerTool


def runtime_module(name: str) -> str:
    """A fixed module of the generated package: its source under `generator/runtime/`, with the
    generated-file notice put at the top of its docstring."""
    source = (_RUNTIME / name).read_text(encoding="utf-8")
    assert source.startswith('"""'), f"generator/runtime/{name} must open with its docstring"
    close = source.index('"""', 3)
    body = source[3:close].strip("\n")
    return f'"""{views.GENERATED_BY}\n\n{body}\n"""{source[close + 3 :]}'


def _once(view: Callable[[Model], Context]) -> Callable[[Model], Iterable[Context]]:
    return lambda model: [view(model)]


OUTPUTS: tuple[Output, ...] = (
    Written(f"{PYTHON_ROOT}/__init__.py", lambda _: runtime_module("package_init.py")),
    Written(f"{PYTHON_ROOT}/_validate.py", lambda _: runtime_module("_validate.py")),
    Written(f"{PYTHON_ROOT}/_convert.py", lambda _: runtime_module("_convert.py")),
    Written(f"{PYTHON_ROOT}/_deadline.py", lambda _: runtime_module("_deadline.py")),
    Written(f"{PYTHON_ROOT}/py.typed", lambda _: ""),
    Rendered(
        _once(lambda m: {"types": views.types_module_view(m.objects)}),
        "types.py.j2",
        f"{PYTHON_ROOT}/_types.py",
    ),
    Rendered(_once(lambda m: {"shims": m.shims}), "registry.py.j2", f"{PYTHON_ROOT}/registry.py"),
    Rendered(_once(lambda m: {}), "tools_init.py.j2", f"{PYTHON_ROOT}/tools/__init__.py"),
    PerTool(
        lambda t: {"shim": views.shim_view(t)},
        "shim.py.j2",
        f"{PYTHON_ROOT}/tools/{{shim.module}}.py",
    ),
    PerTool(
        lambda t: {"d": views.descriptor(t)},
        "tool.yaml.j2",
        "tools/{d[name]}.tool.yaml",
        cache=True,
    ),
    Rendered(
        _once(
            lambda m: {
                "tool_names": [t.name.value for t in m.tools],
                "java_version": m.java_version,
                "python_version": m.python_version,
            }
        ),
        "toolset.yaml.j2",
        "toolsets/web_framework.toolset.yaml",
    ),
    Rendered(
        _once(
            lambda m: {
                "interfaces": [views.ts_interface_view(o) for o in m.objects],
                "tools": [views.ts_tool_view(t) for t in m.tools],
            }
        ),
        "tools.d.ts.j2",
        "typescript/web-tools.d.ts",
    ),
    Rendered(
        _once(
            lambda m: {
                "report": m.report,
                "java_version": m.java_version,
                "python_version": m.python_version,
            }
        ),
        "SURFACE.md.j2",
        "SURFACE.md",
    ),
    Written(
        "manifest.json",
        lambda m: manifest_text(
            build_manifest(list(m.tools), m.report, m.java_version, m.python_version, m.jar_sha256)
        ),
    ),
)
