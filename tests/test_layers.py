"""Imports run one way: the host's and the generator's packages by rank, and no import circle
anywhere.

The import graph is read with `ast` from the source (every `import` and `from ... import`: at
module level, under `if TYPE_CHECKING:` and inside functions alike, since a deferred import is
still a dependency), so nothing is imported to check it. Two rules:

- a module of a host package imports only its own package and packages ranked below it
  (`HOST_RANKS`, bottom first), and a module of a generator package likewise (`GENERATOR_RANKS`);
  a module in no package of its table is reported too, so a new package is placed on purpose;
- no import cycle among the modules of `host/`, `generator/`, `scripts/` and `benchmarks/`.

Tools are loaded by the registry by name (`calls.python: host.tools.<name>:<function>` in their
`.tool.yaml`), which is data, not an import: the registry runs them without depending on them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HOST_RANKS: tuple[tuple[str, ...], ...] = (
    ("host.shared",),
    ("host.settings",),
    ("host.browsers",),
    ("host.sessions",),
    ("host.trails",),
    ("host.calls",),
    ("host.tools",),
    ("host.transports",),
    ("host.executor",),
    ("host.commands",),
    ("host.__main__",),
)
"""The host's packages, bottom first: each may import the ones on earlier lines, never a later
one (nor another on its own line). `host` itself holds only a docstring."""

GENERATOR_RANKS: tuple[tuple[str, ...], ...] = (
    ("generator.shared", "generator.runtime"),
    ("generator.read",),
    ("generator.model",),
    ("generator.render",),
    ("generator.write",),
    ("generator.review",),
    ("generator.commands",),
    ("generator.__main__",),
)
"""The generator's packages by stage, bottom first, with the same rule as `HOST_RANKS`.
`generator` itself holds only a docstring and `__version__`; `runtime` is copied into the
generated package and imports none of the generator."""

CHECKED = ("host", "generator", "scripts", "benchmarks")
"""The top-level folders whose modules may not import in a circle."""

SKIPPED_PARTS = frozenset({"__pycache__", "node_modules", "__snapshots__", ".venv"})


@dataclass(frozen=True)
class Module:
    """One module: its dotted name, its file, and whether it is a package's `__init__`."""

    name: str
    path: Path
    is_package: bool


def find_modules(root: Path, folders: Iterable[str]) -> dict[str, Module]:
    """Every `.py` file under the given top-level folders of `root`, by dotted name."""
    modules: dict[str, Module] = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if SKIPPED_PARTS.intersection(parts):
                continue
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            modules[".".join(parts)] = Module(".".join(parts), path, is_package)
    return modules


def _imported_names(module: Module) -> Iterable[tuple[str, str, int]]:
    """(dotted name, its fallback, line) of everything `module` imports: `from a import b` names
    `a.b` if that is a module, else `a`; relative imports are made absolute."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                yield f"{base}.{alias.name}", base, node.lineno


def _resolve(name: str, modules: Mapping[str, Module], importer: Module) -> str | None:
    """The module of ours that `name` names: the longest known prefix. A bare name also matches
    a sibling file of a script folder (scripts run with their own folder on `sys.path`)."""
    candidates = [name]
    folder = importer.name.rpartition(".")[0]
    if folder and folder.partition(".")[0] in ("scripts", "benchmarks"):
        candidates.append(f"{folder}.{name}")
    for candidate in candidates:
        while candidate:
            if candidate in modules:
                return candidate
            candidate = candidate.rpartition(".")[0]
    return None


def import_graph(root: Path, folders: Iterable[str]) -> dict[str, dict[str, int]]:
    """Each module's imports of other modules under `folders`: {importer: {imported: line}}.
    An import of a package's own ancestors is left out (a package importing its own submodule
    runs no `__init__` a second time)."""
    modules = find_modules(root, folders)
    graph: dict[str, dict[str, int]] = {}
    for name, module in modules.items():
        edges: dict[str, int] = {}
        for imported, fallback, line in _imported_names(module):
            target = _resolve(imported, modules, module)
            if target != imported:
                target = _resolve(fallback, modules, module)
            if target is None or target == name or name.startswith(target + "."):
                continue
            edges.setdefault(target, line)
        graph[name] = edges
    return graph


def find_cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Every group of modules that import each other in a circle (strongly connected components
    of more than one module, Tarjan's algorithm, iteratively), each sorted, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                child = pending.pop(0)
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, sorted(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return sorted(cycles)


def _package_of(module: str, ranks: Mapping[str, int]) -> str | None:
    while module:
        if module in ranks:
            return module
        module = module.rpartition(".")[0]
    return None


def wrong_way(
    graph: Mapping[str, Mapping[str, int]], layers: Iterable[Iterable[str]], top: str = "host"
) -> list[str]:
    """Each import of one package of `top` into a package at its own rank or above, and each
    module of `top` in no ranked package: one readable line each."""
    ranks = {package: rank for rank, line in enumerate(layers) for package in line}
    problems = []
    for importer in sorted(graph):
        if importer != top and not importer.startswith(top + "."):
            continue
        own = _package_of(importer, ranks)
        if own is None:
            if importer != top:
                problems.append(f"{importer}: in no package of the rank table")
            continue
        for imported, line in sorted(graph[importer].items()):
            theirs = _package_of(imported, ranks)
            if theirs is None or theirs == own:
                continue
            if ranks[theirs] >= ranks[own]:
                problems.append(
                    f"{importer} (line {line}) imports {imported}: {own} may not import "
                    f"{theirs}, which is not below it"
                )
    return problems


def test_host_packages_import_only_below() -> None:
    assert wrong_way(import_graph(ROOT, ["host"]), HOST_RANKS) == []


def test_generator_packages_import_only_below() -> None:
    graph = import_graph(ROOT, ["generator"])
    assert len(graph) > 50, "the import graph found too few modules to be the generator's"
    assert wrong_way(graph, GENERATOR_RANKS, top="generator") == []


def test_no_import_cycles() -> None:
    graph = import_graph(ROOT, CHECKED)
    assert len(graph) > 100, "the import graph found too few modules to be the repository's"
    assert find_cycles(graph) == []


def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checker_reports_a_wrong_way_import_and_a_cycle(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "host/__init__.py": '"""top"""\n',
            "host/low/__init__.py": '"""low"""\n',
            "host/low/base.py": "def deferred():\n    from host.high import api\n",
            "host/high/__init__.py": '"""high"""\n',
            "host/high/api.py": "from host.low import base\nfrom . import ring\n",
            "host/high/ring.py": "import host.high.api\n",
            "host/stray.py": "",
        },
    )
    graph = import_graph(tmp_path, ["host"])
    assert graph["host.low.base"] == {"host.high.api": 2}
    assert graph["host.high.api"] == {"host.low.base": 1, "host.high.ring": 2}
    layers = (("host.low",), ("host.high",))
    assert wrong_way(graph, layers) == [
        "host.low.base (line 2) imports host.high.api: host.low may not import host.high, "
        "which is not below it",
        "host.stray: in no package of the rank table",
    ]
    assert find_cycles(graph) == [["host.high.api", "host.high.ring", "host.low.base"]]


def test_the_checker_reports_a_generator_stage_importing_a_later_one(tmp_path: Path) -> None:
    """The generator's table is held as the host's is: a reader that imports the renderer (even
    inside a function), a writer imported by a renderer, and a module left at the top of
    `generator/` are each one line."""
    _write(
        tmp_path,
        {
            "generator/__init__.py": '__version__ = "0"\n',
            "generator/__main__.py": "from generator.commands import cli\n",
            "generator/read/__init__.py": '"""read"""\n',
            "generator/read/allowlist.py": "def f():\n    from generator.render import views\n",
            "generator/render/__init__.py": '"""render"""\n',
            "generator/render/views.py": "from generator.read import allowlist\n",
            "generator/render/memo.py": "from generator.write.ledger import LEDGER\n",
            "generator/write/__init__.py": '"""write"""\n',
            "generator/write/ledger.py": "from generator import __version__\nLEDGER = ''\n",
            "generator/commands/__init__.py": '"""commands"""\n',
            "generator/commands/cli.py": "from generator.render import views\n",
            "generator/stray.py": "",
        },
    )
    layers = tuple(
        line
        for line in GENERATOR_RANKS
        if line[0].rpartition(".")[2] in ("read", "render", "write", "commands", "__main__")
    )
    assert wrong_way(import_graph(tmp_path, ["generator"]), layers, top="generator") == [
        "generator.read.allowlist (line 2) imports generator.render.views: generator.read may "
        "not import generator.render, which is not below it",
        "generator.render.memo (line 1) imports generator.write.ledger: generator.render may "
        "not import generator.write, which is not below it",
        "generator.stray: in no package of the rank table",
    ]


def test_the_checker_finds_a_cycle_through_type_checking_and_sibling_scripts(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "scripts/one.py": "import two\n",
            "scripts/two.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import one\n",
            "scripts/three.py": "import one\n",
        },
    )
    assert find_cycles(import_graph(tmp_path, ["scripts"])) == [["scripts.one", "scripts.two"]]
