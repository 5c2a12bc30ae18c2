"""The digest of the code that produces a cached value: a generator module's source and the source
of every `generator.*` module it imports, transitively.

Cache keys carry it, so editing any code that shapes an entry (a formatting constant, a helper two
imports away) makes the old entries unreachable; nobody keeps a list of modules by hand. The import
graph is read with `ast` (imports inside functions count too) and never executes the modules, so
asking for a digest imports nothing heavy.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

_PACKAGE = "generator"
_ROOT = Path(__file__).resolve().parent.parent  # generator/, above shared/


def _source(module: str) -> Path | None:
    """The file of a `generator.*` module or package, or None when the name is not one."""
    parts = module.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = _ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


@functools.cache
def _imports(module: str) -> frozenset[str]:
    """The `generator.*` modules that `module` imports anywhere in its source."""
    path = _source(module)
    assert path is not None, module
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = _package_of(module, path).split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # `from generator.shared import cache` names a module; `from generator import __version__` does not.
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return frozenset(name for name in found if _source(name) is not None and name != module)


def closure(module: str) -> tuple[str, ...]:
    """`module` and every `generator.*` module reachable through its imports, sorted."""
    seen = {module}
    pending = [module]
    while pending:
        for imported in _imports(pending.pop()):
            if imported not in seen:
                seen.add(imported)
                pending.append(imported)
    return tuple(sorted(seen))


@functools.cache
def code_digest(module: str) -> str:
    """SHA-256 over the names and sources of `closure(module)`."""
    digest = hashlib.sha256()
    for name in closure(module):
        path = _source(name)
        assert path is not None
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
