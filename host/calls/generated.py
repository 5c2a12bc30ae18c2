"""The generated package's tools, imported one module at a time.

`import playwright_tools.registry` imports every generated tool module (~170, ~190 ms) and so does
importing anything from the package (its `__init__` imports the registry). A host lists a few
tools and calls fewer, so it imports the module of a tool when the tool is first called: the
package's `__init__` is deferred (`host.shared.lazy_packages`), and which module holds which tool is
read from the registry's own `TOOLS` table in its source, without running it.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, cast

from host.shared.jsontypes import JsonObject
from host.shared.lazy_packages import defer_init

PACKAGE = "playwright_tools"
REGISTRY = f"{PACKAGE}.registry"


class Shim(Protocol):
    """One call of a generated tool, its arguments bound."""

    async def arun(self, page: Any) -> object: ...


class ShimClass(Protocol):
    """A generated tool: its name, its argument schema, and how to bind checked arguments."""

    tool_name: str
    parameters: JsonObject

    def from_args(self, args: Mapping[str, Any]) -> Shim: ...


Checker = Callable[[str, object, JsonObject, str], None]

_lock = threading.Lock()
_registry: ModuleType | None = None
_locations: dict[str, tuple[str, str]] | None = None
_classes: dict[str, ShimClass] = {}


def full_registry() -> ModuleType:
    """`playwright_tools.registry`, every tool module with it (for callers that need them all)."""
    global _registry
    if _registry is None:
        _registry = importlib.import_module(REGISTRY)
    return _registry


def shim_class(name: str) -> ShimClass:
    """The shim class of generated tool `name`, importing its module alone.

    Guarantees: the class's `tool_name` is `name`; KeyError if the package has no such tool.
    Uses the whole registry instead when it is imported already, and imports it when its source
    cannot be read or does not name the tool's module in the form expected.
    """
    found = _classes.get(name)
    if found is not None:
        return found
    # Imported already (by the package's own `__init__`, a test, the executor): nothing to save.
    tools = getattr(sys.modules.get(REGISTRY), "TOOLS", None)
    if tools is None:
        found = _import_alone(name)
    if found is None:
        found = cast(ShimClass, (tools or full_registry().TOOLS)[name])
    _classes[name] = found
    return found


def _import_alone(name: str) -> ShimClass | None:
    location = tool_locations().get(name)
    if location is None:
        return None
    module_name, class_name = location
    try:
        defer_init(PACKAGE)
        candidate = getattr(importlib.import_module(module_name), class_name, None)
    except ImportError:
        return None
    return cast(ShimClass, candidate) if getattr(candidate, "tool_name", None) == name else None


def checker() -> Checker:
    """The generated package's argument checker (the one its own registry runs), imported
    without the registry."""
    defer_init(PACKAGE)
    return cast(Checker, importlib.import_module(f"{PACKAGE}._validate").check)


def tool_locations() -> dict[str, tuple[str, str]]:
    """Tool name -> (module, class), as the generated registry's `TOOLS` table names them
    (empty if its source cannot be found or read)."""
    global _locations
    with _lock:
        if _locations is None:
            _locations = _read_locations(_registry_source())
        return _locations


def _registry_source() -> Path | None:
    try:
        spec = importlib.util.find_spec(PACKAGE)  # finds, never imports, a top-level package
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "registry.py"
        if path.is_file():
            return path
    return None


def _read_locations(path: Path | None) -> dict[str, tuple[str, str]]:
    if path is None:
        return {}
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, SyntaxError, ValueError):
        return {}
    for node in tree.body:
        target: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == "TOOLS"):
            continue
        table = getattr(node, "value", None)
        if not isinstance(table, ast.Dict):
            return {}
        locations: dict[str, tuple[str, str]] = {}
        for key, value in zip(table.keys, table.values, strict=True):
            dotted = _dotted(value)
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and dotted:
                module_name, _, class_name = dotted.rpartition(".")
                if module_name.startswith(f"{PACKAGE}."):
                    locations[key.value] = (module_name, class_name)
        return locations
    return {}


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` for an attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
