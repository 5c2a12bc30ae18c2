"""Reads the installed Python `playwright` package's public API from its source, without importing it.

Uses `ast` rather than libcst: it parses `_generated.py` (24k lines) fifteen times faster, which
matters for a generator run on every build. Annotations are turned into typed values
(`python_types`) here, once; nothing downstream reads annotation text.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.read.python_types import (
    ANY,
    PyGeneric,
    PyLiteral,
    PyName,
    PyNone,
    PyType,
    from_data,
    to_data,
    union,
)
from generator.shared.diagnostics import ExitCode, GeneratorError
from generator.shared.dist_version import dist_version
from generator.shared.json_shape import as_bool, as_dict, as_list, as_str, fields


@dataclass(frozen=True)
class PyParam:
    """A parameter of a public Python method and its parsed annotation."""

    name: str
    type: PyType
    has_default: bool
    keyword_only: bool


@dataclass(frozen=True)
class PyMethod:
    """A public method (or property, `is_property`) of a sync or async API class."""

    name: str
    params: tuple[PyParam, ...]
    returns: PyType
    is_property: bool
    is_async: bool = False
    # The docstring's prose (without its title line, usage, parameters and returns sections), in
    # the Markdown the javadoc becomes: paragraphs apart, list items one a line.
    doc: str = ""
    # The docstring's Parameters section: (Python parameter name, its text), in the same Markdown.
    param_docs: tuple[tuple[str, str], ...] = ()

    def param_doc(self, name: str) -> str:
        return next((text for key, text in self.param_docs if key == name), "")

    def param(self, name: str) -> PyParam | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True)
class PyTypedDict:
    """A TypedDict of `playwright._impl._api_structures`: its keys in source order with their types
    (`NotRequired[...]` unwrapped), and the keys that must be given."""

    name: str
    fields: tuple[tuple[str, PyType], ...]
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
        def method(m: PyMethod) -> dict[str, Any]:
            params = [[p.name, to_data(p.type), p.has_default, p.keyword_only] for p in m.params]
            return {
                "name": m.name,
                "params": params,
                "returns": to_data(m.returns),
                "is_property": m.is_property,
                "is_async": m.is_async,
                "doc": m.doc,
                "param_docs": [list(pair) for pair in m.param_docs],
            }

        def classes(data: dict[str, dict[str, PyMethod]]) -> dict[str, Any]:
            return {c: {n: method(m) for n, m in ms.items()} for c, ms in data.items()}

        return json.dumps(
            {
                "version": self.version,
                "sync_classes": classes(self.sync_classes),
                "async_classes": classes(self.async_classes),
                "typed_dicts": {
                    name: {
                        "fields": [[key, to_data(t)] for key, t in td.fields],
                        "required": list(td.required),
                    }
                    for name, td in self.typed_dicts.items()
                },
            },
            sort_keys=True,
        )

    @staticmethod
    def from_json(text: str) -> PythonSurface:
        """The surface `to_json` wrote. Anything else (a missing or extra key, a value of another
        type) raises ValueError, so a damaged or forged cache entry is refused, not believed."""
        raw = fields(json.loads(text), _SURFACE_KEYS)

        def method(name: str, data: Any) -> PyMethod:
            m = fields(data, _METHOD_KEYS)
            if m["name"] != name:
                raise ValueError(f"method {name!r} is named {m['name']!r}")
            params = []
            for p in as_list(m["params"]):
                # [name, type, has_default, keyword_only]: another length fails to unpack
                pname, ptype, has_default, keyword_only = as_list(p)
                params.append(
                    PyParam(
                        as_str(pname), from_data(ptype), as_bool(has_default), as_bool(keyword_only)
                    )
                )
            param_docs = []
            for pair in as_list(m["param_docs"]):
                key, text = as_list(pair)  # [name, text]: another length fails to unpack
                param_docs.append((as_str(key), as_str(text)))
            return PyMethod(
                name,
                tuple(params),
                from_data(m["returns"]),
                as_bool(m["is_property"]),
                as_bool(m["is_async"]),
                as_str(m["doc"]),
                tuple(param_docs),
            )

        def classes(data: Any) -> dict[str, dict[str, PyMethod]]:
            return {
                cls: {name: method(name, m) for name, m in as_dict(methods).items()}
                for cls, methods in as_dict(data).items()
            }

        sync_data = as_dict(raw["sync_classes"])
        sync_classes = classes(sync_data)

        def async_method(cls: str, name: str, data: Any) -> PyMethod:
            """Most async methods are written as their sync twin but for `is_async`: those
            are made from the twin already read (the same values), not read again."""
            twin_data = sync_data.get(cls, {}).get(name)
            if type(data) is dict and type(twin_data) is dict:
                is_async = data.get("is_async")
                if type(is_async) is bool and data == twin_data | {"is_async": is_async}:
                    twin = sync_classes[cls][name]
                    return dataclasses.replace(twin, is_async=is_async)
            return method(name, data)

        async_classes = {
            cls: {name: async_method(cls, name, m) for name, m in as_dict(methods).items()}
            for cls, methods in as_dict(raw["async_classes"]).items()
        }

        def typed_dict(name: str, data: Any) -> PyTypedDict:
            td = fields(data, _TYPED_DICT_KEYS)
            pairs = []
            for pair in as_list(td["fields"]):
                key, annotation = as_list(pair)  # [key, type]: another length fails to unpack
                pairs.append((as_str(key), from_data(annotation)))
            return PyTypedDict(
                name, tuple(pairs), tuple(as_str(k) for k in as_list(td["required"]))
            )

        return PythonSurface(
            version=as_str(raw["version"]),
            sync_classes=sync_classes,
            async_classes=async_classes,
            typed_dicts={
                name: typed_dict(name, td) for name, td in as_dict(raw["typed_dicts"]).items()
            },
        )


# --- the JSON form ------------------------------------------------------------------------------

_SURFACE_KEYS = frozenset({"version", "sync_classes", "async_classes", "typed_dicts"})
_METHOD_KEYS = frozenset(
    {"name", "params", "returns", "is_property", "is_async", "doc", "param_docs"}
)
_TYPED_DICT_KEYS = frozenset({"fields", "required"})


def _annotation(node: ast.expr | None) -> PyType:
    """The typed value of an annotation's syntax tree; no annotation at all is `Any`."""
    if node is None:
        return ANY
    if isinstance(node, ast.Constant):
        if node.value is None:
            return PyNone()
        if isinstance(node.value, str):  # a forward reference: "Page"
            return parse_annotation(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return union([_annotation(node.left), _annotation(node.right)])
    if isinstance(node, ast.Subscript):
        head = ast.unparse(node.value).removeprefix("typing.")
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Literal":
            return PyLiteral(
                tuple(
                    a.value
                    for a in args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                )
            )
        if head == "Optional":
            return union([_annotation(args[0]), PyNone()])
        if head == "Union":
            return union([_annotation(a) for a in args])
        if head == "Callable":
            return PyGeneric(head, ())
        return PyGeneric(head, tuple(_annotation(a) for a in args))
    return PyName(ast.unparse(node).removeprefix("typing."))


@functools.cache  # the same few hundred annotations recur across both APIs; PyType is frozen
def parse_annotation(source: str) -> PyType:
    """The typed value of annotation text, as `_generated.py` would spell it."""
    try:
        return _annotation(ast.parse(source.strip(), mode="eval").body)
    except SyntaxError:
        return PyName(" ".join(source.split()))


# Where a Playwright docstring's prose ends: its sections, in the numpy style it is written in.
_SECTION = re.compile(r"^(?:\*\*Usage\*\*|Parameters\n-+|Returns\n-+)", re.M)
_PARAMETERS = re.compile(r"^Parameters\n-+\n", re.M)
_RETURNS = re.compile(r"^Returns\n-+", re.M)
_PARAMETER = re.compile(r"^([A-Za-z_]\w*) : ")
_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
_ITEM = re.compile(r"^(?:[-*]|\d+\.)\s+")


def markdown_text(text: str) -> str:
    """Docstring text as the Markdown the javadoc becomes: code samples dropped, each paragraph on
    one line, and a list kept a list (its items one a line, a numbered list numbered 1, 2, 3) with
    an item's continuation lines joined to it."""
    text = _FENCE.sub("", text)
    blocks: list[str] = []
    for paragraph in text.split("\n\n"):
        prose: list[str] = []
        items: list[list[str]] = []
        numbered = False
        for line in paragraph.split("\n"):
            stripped = line.strip()
            if not stripped:
                continue
            item = _ITEM.match(stripped)
            if item and not line.startswith((" ", "\t")):
                numbered = stripped[0].isdigit() if not items else numbered
                items.append([stripped[item.end() :]])
            elif items:
                items[-1].append(stripped)
            else:
                prose.append(stripped)
        if prose:
            blocks.append(" ".join(" ".join(prose).split()))
        if items:
            lines = [
                f"{f'{n}.' if numbered else '-'} {' '.join(' '.join(parts).split())}"
                for n, parts in enumerate(items, start=1)
            ]
            blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _prose(docstring: str) -> str:
    """The descriptive paragraphs of a Playwright docstring: its first line names the member
    (`Page.url`) and is dropped, and the Usage, Parameters and Returns sections end it."""
    _, _, body = docstring.partition("\n")
    return markdown_text(_SECTION.split(body, maxsplit=1)[0])


def _param_docs(docstring: str) -> tuple[tuple[str, str], ...]:
    """The Parameters section: each `name : type` line and its indented text, as Markdown."""
    found = _PARAMETERS.search(docstring)
    if found is None:
        return ()
    section = _RETURNS.split(docstring[found.end() :], maxsplit=1)[0]
    docs: list[tuple[str, list[str]]] = []
    for line in section.split("\n"):
        head = _PARAMETER.match(line)
        if head:
            docs.append((head.group(1), []))
        elif docs and (line.startswith("    ") or not line.strip()):
            docs[-1][1].append(line[4:])
    return tuple((name, markdown_text("\n".join(lines).strip())) for name, lines in docs)


def _read_classes(path: Path) -> dict[str, dict[str, PyMethod]]:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
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
                    PyParam(arg.arg, _annotation(arg.annotation), index >= first_default, False)
                )
            for arg, default in zip(item.args.kwonlyargs, item.args.kw_defaults, strict=True):
                params.append(
                    PyParam(arg.arg, _annotation(arg.annotation), default is not None, True)
                )
            returns = _annotation(item.returns)
            is_async = isinstance(item, ast.AsyncFunctionDef)
            docstring = ast.get_docstring(item) or ""
            methods[item.name] = PyMethod(
                item.name,
                tuple(params),
                returns,
                "property" in decorators,
                is_async,
                _prose(docstring),
                _param_docs(docstring),
            )
        classes[node.name] = methods
    return classes


def _read_typed_dicts(path: Path) -> dict[str, PyTypedDict]:
    text = path.read_text(encoding="utf-8")
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
                annotation = _annotation(item.annotation)
                optional = isinstance(annotation, PyGeneric) and annotation.head == "NotRequired"
                if optional:
                    assert isinstance(annotation, PyGeneric)
                    annotation = annotation.args[0]
                fields.append((item.target.id, annotation))
                if total and not optional:
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


def locate_python_api(pinned: str | None = None) -> PythonApiFiles:
    """Find the installed `playwright` package without importing it (`pinned`: the version the
    allowlist pins, which the error's install command names)."""
    spec = importlib.util.find_spec("playwright")
    if spec is None or not spec.submodule_search_locations:
        import shlex
        import sys

        from generator.shared import typed_command

        project = Path(".venv", "bin", "python")
        # The environments compared, not the binaries: a venv's python links to the system's.
        if project.is_file() and Path(sys.prefix).resolve() != Path(".venv").resolve():
            # Run with another Python than the project's own (a bare `python -m generator`).
            again = " ".join(
                [str(project), "-m", "generator", *(shlex.quote(a) for a in sys.argv[1:])]
            )
            raise GeneratorError(
                f"The Python package 'playwright' is not installed for {sys.executable}, which "
                f"is not this project's environment. Run the generator with the project's own "
                f"Python: {again}",
                ExitCode.ENVIRONMENT,
            )
        install = typed_command.command("pip", "install", f"playwright=={pinned or 'VERSION'}")
        raise GeneratorError(
            "The Python package 'playwright' is not installed. Install the version the allowlist pins: "
            f"{install} (or run scripts/setup.sh).",
            ExitCode.ENVIRONMENT,
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    return PythonApiFiles(
        version=dist_version("playwright"),
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
