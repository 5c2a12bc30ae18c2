"""The kinds of output, registered: each is a view of the model, a template and a path.

Adding a kind of output (a tool manifest for a server, a client in another language) is one entry
in `OUTPUTS` and one template. Each entry belongs to a `kind` that `--outputs` selects (`KINDS`;
`DEFAULT_KINDS` when not given); entries of kind `core` (SURFACE.md, manifest.json) are always
written. A `Rendered` entry's view gives one template context per file, and
its path is formatted with that context (`tools/{d[name]}.tool.yaml`). Files that need no template
(the fixed runtime modules, manifest.json) are `Written` entries.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.model.ir import Tool
from generator.model.surface_report import SurfaceReport
from generator.model.type_tree import ObjectOf
from generator.read.allowlist import SCHEMA_FILE
from generator.render import views
from generator.render.allowlist_schema import schema_text
from generator.render.kotlin.settings import JSON_HELPER_FILE, KotlinSettings
from generator.render.manifest import build_manifest, manifest_text
from generator.shared.allowlist_rules import TextRule, word_list

if TYPE_CHECKING:
    from generator.render.kotlin.shim import Refusal as KotlinRefusal

PYTHON_ROOT = f"python/{views.PYTHON_PACKAGE}"
# Trailblaze's scripting package and the interface its `client.tools` is typed from, which the
# `trailblaze` kind augments (sdks/typescript/src/client.ts of the Trailblaze API's commit).
# The `trailblaze` kind's root: `kotlin/` a source root, `resources/` a resource root.
TRAILBLAZE_ROOT = "trailblaze"
# The part of the `trailblaze` kind that is the Kotlin shims alone: `diff` renders only it (the
# manifest's Kotlin record), not the registration files, which only a Trailblaze build needs.
KOTLIN = "kotlin"
# The toolset the generated tools join, as seed 001 names it.
TRAILBLAZE_TOOLSET = "web_framework"
_RUNTIME = Path(__file__).resolve().parent.parent / "runtime"  # generator/runtime/


@dataclass(frozen=True)
class Model:
    """Everything the outputs show: the tools sorted by name, the surface report and where they
    came from. Views derived from it more than once are computed once."""

    tools: tuple[Tool, ...]
    report: SurfaceReport
    java_version: str
    python_version: str
    jar_sha256: str
    kotlin: KotlinSettings = field(default_factory=KotlinSettings)
    kinds: frozenset[str] = frozenset()
    """The kinds of output being written: the core outputs (SURFACE.md, manifest.json) say more
    of a kind only when it is written, so the default output does not change with a new kind."""
    generated_by: str = views.GENERATED_BY
    """The notice each file opens with, naming the allowlist (`views.generated_by`)."""
    options: dict[str, Any] | None = None
    """The shaping options the tree is written with, for manifest.json."""

    @functools.cached_property
    def objects(self) -> list[ObjectOf]:
        return views.object_types(list(self.tools))

    @functools.cached_property
    def shims(self) -> list[views.ShimHandle]:
        return [views.ShimHandle(t) for t in self.tools]

    @functools.cached_property
    def kotlin_files(self) -> tuple[list[dict[str, Any]], list[KotlinRefusal]]:
        from generator.render.kotlin.files import kotlin_files  # loaded only when Kotlin is written

        return kotlin_files(self.tools, self.kotlin)

    @functools.cached_property
    def trailblaze_shims(self) -> list[dict[str, Any]]:
        """The shims Trailblaze registers (descriptor, toolset, TS entry): every shim but those the
        allowlist marks `trailblaze: skip`; a name of a Trailblaze built-in is an input error
        unless the entry says `skip` or `replace`."""
        from generator.render.kotlin.files import trailblaze_shims

        return trailblaze_shims(self.tools, self.kotlin_files[0], self.kotlin)

    @functools.cached_property
    def kotlin_surface(self) -> dict[str, Any] | None:
        """The Kotlin shims' signatures and refusals, when Kotlin is written (else None)."""
        if KOTLIN not in self.kinds:
            return None
        from generator.render.kotlin.files import surface

        return surface(*self.kotlin_files, self.kotlin)


Context = dict[str, Any]


@dataclass(frozen=True)
class Rendered:
    """Files rendered from `template`, one per context that `view` gives; `path` is formatted with
    the context. `cache` marks contexts of plain JSON data, whose rendering is worth caching."""

    view: Callable[[Model], Iterable[Context]]
    template: str
    path: str
    cache: bool = False
    kind: str = "core"
    notes: Callable[[Model], Iterable[tuple[str, str]]] | None = None
    """(where, what) notes for the run: what the view left out, and why."""


@dataclass(frozen=True)
class Written:
    """One file whose text needs no template: `text` gives it from the model."""

    path: str
    text: Callable[[Model], str]
    kind: str = "core"


@dataclass(frozen=True)
class PerTool:
    """Files rendered from `template`, one per tool, from a context that `view` makes of that tool
    alone (nothing else of the model, nor its `source`, which it is given blank), so a tool that
    did not change need not be rendered again (`tool_memo`). `cache` is as for `Rendered`."""

    view: Callable[[Tool], Context]
    template: str
    path: str
    cache: bool = False
    kind: str = "core"


Output = Rendered | Written | PerTool


def runtime_module(name: str, generated_by: str = views.GENERATED_BY) -> str:
    """A fixed module of the generated package: its source under `generator/runtime/`, with the
    generated-file notice put at the top of its docstring."""
    source = (_RUNTIME / name).read_text(encoding="utf-8")
    assert source.startswith('"""'), f"generator/runtime/{name} must open with its docstring"
    close = source.index('"""', 3)
    body = source[3:close].strip("\n")
    return f'"""{generated_by}\n\n{body}\n"""{source[close + 3 :]}'


def _kotlin_table(surface: dict[str, Any] | None) -> Context | None:
    """SURFACE.md's Kotlin table: one row per tool in name order, its shim's signature or why it
    has none; None when Kotlin is not written."""
    if surface is None:
        return None
    shims, refused = surface["shims"], surface["refused"]
    rows = [
        {"tool": name, "signature": shims.get(name, ""), "reason": refused.get(name, "")}
        for name in sorted({*shims, *refused})
    ]
    return {"package": surface["package"], "shims": len(shims), "rows": rows}


def _once(view: Callable[[Model], Context]) -> Callable[[Model], Iterable[Context]]:
    return lambda model: [view(model)]


def _typescript(m: Model) -> Context:
    """The context of `web-tools.d.ts`, the Playwright-shaped types of every tool."""
    return {
        "interfaces": [views.ts_interface_view(o) for o in m.objects],
        "tools": [views.ts_tool_view(t) for t in m.tools],
    }


OUTPUTS: tuple[Output, ...] = (
    Written(
        f"{PYTHON_ROOT}/__init__.py",
        lambda m: runtime_module("package_init.py", m.generated_by),
        "python",
    ),
    Written(
        f"{PYTHON_ROOT}/_validate.py",
        lambda m: runtime_module("_validate.py", m.generated_by),
        "python",
    ),
    Written(
        f"{PYTHON_ROOT}/_convert.py",
        lambda m: runtime_module("_convert.py", m.generated_by),
        "python",
    ),
    Written(
        f"{PYTHON_ROOT}/_deadline.py",
        lambda m: runtime_module("_deadline.py", m.generated_by),
        "python",
    ),
    Written(f"{PYTHON_ROOT}/py.typed", lambda _: "", "python"),
    Rendered(
        _once(lambda m: {"types": views.types_module_view(m.objects)}),
        "types.py.j2",
        f"{PYTHON_ROOT}/_types.py",
        kind="python",
    ),
    Rendered(
        _once(lambda m: {"shims": m.shims}),
        "registry.py.j2",
        f"{PYTHON_ROOT}/registry.py",
        kind="python",
    ),
    Rendered(
        _once(lambda m: {}), "tools_init.py.j2", f"{PYTHON_ROOT}/tools/__init__.py", kind="python"
    ),
    PerTool(
        lambda t: {"shim": views.shim_view(t)},
        "shim.py.j2",
        f"{PYTHON_ROOT}/tools/{{shim.module}}.py",
        kind="python",
    ),
    PerTool(
        lambda t: {"d": views.descriptor(t)},
        "tool.yaml.j2",
        "tools/{d[name]}.tool.yaml",
        cache=True,
        kind="yaml",
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
        kind="yaml",
    ),
    Rendered(
        _once(_typescript),
        "tools.d.ts.j2",
        "typescript/web-tools.d.ts",
        kind="typescript",
    ),
    Rendered(
        lambda m: m.kotlin_files[0],
        "kotlin_tool.kt.j2",
        f"{TRAILBLAZE_ROOT}/kotlin/{{package_path}}/{{class_name}}.kt",
        kind=KOTLIN,
        notes=lambda m: [
            (r.java_reference, f"no Kotlin shim: {r.reason}") for r in m.kotlin_files[1]
        ],
    ),
    Rendered(
        _once(
            lambda m: {
                "package": m.kotlin.package,
                "package_path": m.kotlin.package.replace(".", "/"),
            }
        ),
        "kotlin_json.kt.j2",
        f"{TRAILBLAZE_ROOT}/kotlin/{{package_path}}/{JSON_HELPER_FILE}.kt",
        kind=KOTLIN,
    ),
    Rendered(
        lambda m: m.trailblaze_shims,
        "trailblaze_tool.yaml.j2",
        f"{TRAILBLAZE_ROOT}/resources/{{tools_dir}}/{{tool}}.tool.yaml",
        kind="trailblaze",
    ),
    Rendered(
        _once(
            lambda m: {
                "id": TRAILBLAZE_TOOLSET,
                "tool_names": sorted(c["tool"] for c in m.trailblaze_shims),
                "drivers": list(m.kotlin.api.drivers),
                "toolsets_dir": m.kotlin.api.toolsets_dir,
            }
        ),
        "trailblaze_toolset.yaml.j2",
        f"{TRAILBLAZE_ROOT}/resources/{{toolsets_dir}}/{TRAILBLAZE_TOOLSET}.yaml",
        kind="trailblaze",
    ),
    # No TypeScript for Trailblaze: it writes a trailmap's `TrailblazeToolMap` entries itself,
    # from the descriptors of every tool it describes, which is every generated one
    # (docs/generator.md, "One TypeScript surface"); a second declaration would shadow them.
    Rendered(
        _once(
            lambda m: {
                "report": m.report,
                "java_version": m.java_version,
                "python_version": m.python_version,
                "kotlin": _kotlin_table(m.kotlin_surface),
            }
        ),
        "SURFACE.md.j2",
        "SURFACE.md",
    ),
    Written(
        SCHEMA_FILE,
        lambda m: schema_text(m.report, list(m.tools), KINDS, KINDS_RULE, m.generated_by),
    ),
    Written(
        "manifest.json",
        lambda m: manifest_text(
            build_manifest(
                list(m.tools),
                m.report,
                m.java_version,
                m.python_version,
                m.jar_sha256,
                m.kotlin_surface,
                m.options,
            )
        ),
    ),
)

KINDS: tuple[str, ...] = ("python", "yaml", "typescript", "trailblaze")
DEFAULT_KINDS: tuple[str, ...] = ("python", "yaml", "typescript")


KINDS_RULE: TextRule = word_list(KINDS, "all", f"output kinds from {', '.join(KINDS)}, or all")
"""`--outputs` and `generate: outputs` as text: the allowlist's schema carries the same rule."""


def parse_kinds(text: str) -> tuple[str, ...]:
    """`--outputs`: a comma-separated list of `KINDS`, or `all`; in `KINDS` order."""
    names = {n.strip() for n in text.split(",")}
    if names == {"all"}:
        return KINDS
    if not KINDS_RULE.matches(text):
        unknown = sorted(names - set(KINDS))
        problem = (
            f"unknown output kind(s) {', '.join(unknown)}"
            if unknown and unknown != [""]
            else "an empty output kind"
        )
        raise ValueError(f"{problem}; choose from {', '.join(KINDS)}, or all (alone)")
    return tuple(k for k in KINDS if k in names)


def selected(kinds: tuple[str, ...]) -> tuple[Output, ...]:
    """The registered outputs of `kinds`, and every `core` one (`trailblaze` includes `kotlin`)."""
    wanted = {*kinds, "core", *([KOTLIN] if "trailblaze" in kinds else [])}
    return tuple(o for o in OUTPUTS if o.kind in wanted)
