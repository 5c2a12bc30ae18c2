"""Reads the installed Python `playwright` package's public API from its source, without importing it.

Uses `ast` rather than libcst: it gives the same exact annotation text and docstrings, and parses
`_generated.py` (24k lines) fifteen times faster, which matters for a generator run on every build.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from generator.diagnostics import ExitCode, GeneratorError


@dataclass(frozen=True)
class PyParam:
    """A parameter of a public Python method; `annotation` is the exact source text."""

    name: str
    annotation: str
    has_default: bool
    keyword_only: bool


@dataclass(frozen=True)
class PyMethod:
    """A public method (or property, `is_property`) of a sync or async API class."""

    name: str
    params: tuple[PyParam, ...]
    returns: str
    is_property: bool
    is_async: bool = False

    def param(self, name: str) -> PyParam | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True)
class PyTypedDict:
    """A TypedDict of `playwright._impl._api_structures`; `required` lists the keys that must be given."""

    name: str
    fields: tuple[tuple[str, str], ...]
    required: tuple[str, ...]


@dataclass(frozen=True)
class PythonSurface:
    """The public sync and async API: classes to methods, plus the TypedDicts they use."""

    version: str
    sync_classes: dict[str, dict[str, PyMethod]]
    async_classes: dict[str, dict[str, PyMethod]]
    typed_dicts: dict[str, PyTypedDict]

    def method(self, cls: str, name: str, *, asynchronous: bool = False) -> PyMethod | None:
        classes = self.async_classes if asynchronous else self.sync_classes
        return classes.get(cls, {}).get(name)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @staticmethod
    def from_json(text: str) -> PythonSurface:
        raw = json.loads(text)

        def classes(data: dict[str, Any]) -> dict[str, dict[str, PyMethod]]:
            return {
                cls: {
                    name: PyMethod(
                        m["name"],
                        tuple(PyParam(**p) for p in m["params"]),
                        m["returns"],
                        m["is_property"],
                        m["is_async"],
                    )
                    for name, m in methods.items()
                }
                for cls, methods in data.items()
            }

        return PythonSurface(
            version=raw["version"],
            sync_classes=classes(raw["sync_classes"]),
            async_classes=classes(raw["async_classes"]),
            typed_dicts={
                name: PyTypedDict(
                    name, tuple(tuple(f) for f in td["fields"]), tuple(td["required"])
                )
                for name, td in raw["typed_dicts"].items()
            },
        )


class _Source:
    """Source text with a line table, so slicing a node costs O(its length), not O(file)."""

    def __init__(self, text: str) -> None:
        self.lines = [line.encode("utf-8") for line in text.splitlines(keepends=True)]

    def segment(self, node: ast.AST | None) -> str:
        if node is None:
            return ""
        start, end = node.lineno - 1, node.end_lineno  # type: ignore[attr-defined]
        chunk = self.lines[start:end]
        if len(chunk) == 1:
            piece = chunk[0][node.col_offset : node.end_col_offset]  # type: ignore[attr-defined]
        else:
            piece = b"".join(
                [chunk[0][node.col_offset :], *chunk[1:-1], chunk[-1][: node.end_col_offset]]  # type: ignore[attr-defined]
            )
        return " ".join(piece.decode("utf-8").split())


def _read_classes(path: Path) -> dict[str, dict[str, PyMethod]]:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    source = _Source(text)
    classes: dict[str, dict[str, PyMethod]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        methods: dict[str, PyMethod] = {}
        for item in node.body:
            if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) or item.name.startswith(
                "_"
            ):
                continue
            decorators = {ast.unparse(d) for d in item.decorator_list}
            if any(d.endswith(".setter") for d in decorators):
                continue
            params = []
            positional = item.args.posonlyargs + item.args.args
            first_default = len(positional) - len(item.args.defaults)
            for index, arg in enumerate(positional[1:], start=1):
                params.append(
                    PyParam(arg.arg, source.segment(arg.annotation), index >= first_default, False)
                )
            for arg, default in zip(item.args.kwonlyargs, item.args.kw_defaults, strict=True):
                params.append(
                    PyParam(arg.arg, source.segment(arg.annotation), default is not None, True)
                )
            returns = source.segment(item.returns)
            is_async = isinstance(item, ast.AsyncFunctionDef)
            methods[item.name] = PyMethod(
                item.name, tuple(params), returns, "property" in decorators, is_async
            )
        classes[node.name] = methods
    return classes


def _read_typed_dicts(path: Path) -> dict[str, PyTypedDict]:
    text = path.read_text(encoding="utf-8")
    source = _Source(text)
    result: dict[str, PyTypedDict] = {}
    for node in ast.parse(text).body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not any(ast.unparse(b) == "TypedDict" for b in node.bases):
            continue
        total = not any(k.arg == "total" and ast.unparse(k.value) == "False" for k in node.keywords)
        fields, required = [], []
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                annotation = source.segment(item.annotation)
                fields.append((item.target.id, annotation))
                if total and not annotation.startswith("NotRequired"):
                    required.append(item.target.id)
        result[node.name] = PyTypedDict(node.name, tuple(fields), tuple(required))
    return result


@dataclass(frozen=True)
class PythonApiFiles:
    """Where the installed package's API is written: its version and the three source files."""

    version: str
    sync: Path
    asynchronous: Path
    structures: Path

    @property
    def paths(self) -> tuple[Path, Path, Path]:
        return (self.sync, self.asynchronous, self.structures)


def locate_python_api() -> PythonApiFiles:
    """Find the installed `playwright` package without importing it."""
    spec = importlib.util.find_spec("playwright")
    if spec is None or not spec.submodule_search_locations:
        raise GeneratorError(
            "The Python package 'playwright' is not installed. Install the version the allowlist pins, "
            "for example: pip install playwright==<version>.",
            ExitCode.ENVIRONMENT,
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    return PythonApiFiles(
        version=importlib.metadata.version("playwright"),
        sync=root / "sync_api" / "_generated.py",
        asynchronous=root / "async_api" / "_generated.py",
        structures=root / "_impl" / "_api_structures.py",
    )


def read_python_surface(files: PythonApiFiles | None = None) -> PythonSurface:
    """Read the generated API modules of the installed `playwright` package."""
    files = files or locate_python_api()
    try:
        return PythonSurface(
            version=files.version,
            sync_classes=_read_classes(files.sync),
            async_classes=_read_classes(files.asynchronous),
            typed_dicts=_read_typed_dicts(files.structures),
        )
    except (OSError, SyntaxError) as exc:
        raise GeneratorError(
            f"The installed Python 'playwright' ({files.sync.parent.parent}) could not be read ({exc}); "
            "reinstall it.",
            ExitCode.ENVIRONMENT,
        ) from None
