"""Import a package's submodules without running the package's `__init__` first.

Two packages' `__init__` files import far more than the host needs from them:
- `mcp/__init__.py` loads the SDK's client and its HTTP client stack, and `mcp/server/__init__.py`
  the high-level `MCPServer`, before a stdio server can import `mcp.server.lowlevel` (~200 ms of
  a ~0.6 s start);
- `playwright_tools/__init__.py` imports its registry, which imports all ~170 generated tool
  modules (~190 ms), before one tool's module can be imported.

`defer_init(name)` registers such a package without running its `__init__`; its submodules import
as usual and find nothing missing (Python binds each one on its parent as it loads). The first
time anyone asks the package for a name its `__init__` defines (`from mcp import Client`,
`playwright_tools.dispatch`), the `__init__` runs then, in the same module object, and the name
is there: code that imports the package normally sees no difference but the time it is paid.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from collections.abc import Callable
from types import ModuleType

_lock = threading.RLock()


def defer_init(name: str) -> bool:
    """Register package `name` (its parent package first, the same way) without running its
    `__init__`. Returns whether it did: False if `name` is already imported (then nothing
    changes) or is not a package. Raises ImportError if it cannot be found."""
    with _lock:
        if name in sys.modules:
            return False
        parent_name, _, child = name.rpartition(".")
        if parent_name:
            defer_init(parent_name)
            parent: ModuleType | None = sys.modules[parent_name]
        else:
            parent = None
        spec = importlib.util.find_spec(name)
        if spec is None:
            raise ImportError(f"no module named {name!r}", name=name)
        if spec.submodule_search_locations is None or spec.loader is None:
            return False
        module = importlib.util.module_from_spec(spec)
        vars(module)["__getattr__"] = _completion(module)
        sys.modules[name] = module
        if parent is not None:
            setattr(parent, child, module)
        return True


def is_deferred(name: str) -> bool:
    """Whether package `name` is registered and its `__init__` has not run yet."""
    module = sys.modules.get(name)
    return module is not None and _is_ours(module)


def _is_ours(module: ModuleType) -> bool:
    hook = vars(module).get("__getattr__")
    return getattr(hook, "_completes", None) is module


def _completion(module: ModuleType) -> Callable[[str], object]:
    """The package's module `__getattr__` (PEP 562): a submodule is imported alone; any other
    name runs the package's `__init__`, then is looked up again."""

    def __getattr__(attribute: str) -> object:
        # Probes for dunder names (`__wrapped__`, `__test__`) must not pay for the `__init__`.
        if attribute.startswith("__") and attribute != "__all__":
            raise AttributeError(f"module {module.__name__!r} has no attribute {attribute!r}")
        submodule = f"{module.__name__}.{attribute}"
        if submodule in sys.modules or importlib.util.find_spec(submodule) is not None:
            return importlib.import_module(submodule)
        complete(module.__name__)
        return getattr(module, attribute)

    __getattr__._completes = module  # type: ignore[attr-defined]
    return __getattr__


def complete(name: str) -> None:
    """Run the deferred `__init__` of package `name` now (nothing if it has run)."""
    with _lock:
        module = sys.modules.get(name)
        if module is None or not _is_ours(module):
            return
        # Removed first: while the `__init__` runs, a missing name is missing, as in any import.
        del vars(module)["__getattr__"]
        spec = module.__spec__
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(module)
