"""Python API annotations as typed values, parsed once by `python_api` and queried by the binder.

The forms are the ones Playwright's generated API writes: names (`str`, `Geolocation`, `"Page"`),
`Literal[...]`, generics (`List[...]`, `Sequence[...]`, `Dict[...]`), `Union[...]` and `Optional[...]`.
`typing.` prefixes and forward-reference quotes are gone; a union is flat and `Optional[X]` is the
union of X and None, so two spellings of one type compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, assert_never

from generator.shared.json_shape import as_list, as_str


@dataclass(frozen=True)
class PyName:
    """A class or builtin by name, without `typing.` and quotes: `str`, `Any`, `Geolocation`,
    `pathlib.Path`. An annotation the reader does not model is kept whole as a name."""

    name: str


@dataclass(frozen=True)
class PyNone:
    """`None`, as a union member (what makes an argument or result optional)."""


@dataclass(frozen=True)
class PyLiteral:
    """`Literal[...]`: its string values in source order (Playwright's wire strings)."""

    values: tuple[str, ...]


@dataclass(frozen=True)
class PyGeneric:
    """`head[args]` for every other subscript (`List`, `Sequence`, `Dict`, `Pattern`); a
    `Callable`'s signature is not kept, so it has no args."""

    head: str
    args: tuple[PyType, ...]


@dataclass(frozen=True)
class PyUnion:
    """Any of `options`: at least two, none of them a union, in source order without repeats."""

    options: tuple[PyType, ...]


PyType = PyName | PyNone | PyLiteral | PyGeneric | PyUnion

ANY = PyName("Any")


def union(options: list[PyType]) -> PyType:
    """The flat union of `options`; a single option is itself."""
    flat: list[PyType] = []
    for option in options:
        for member in option.options if isinstance(option, PyUnion) else (option,):
            if member not in flat:
                flat.append(member)
    return flat[0] if len(flat) == 1 else PyUnion(tuple(flat))


def walk(node: PyType) -> list[PyType]:
    """`node` and every annotation inside it, parents first."""
    found: list[PyType] = [node]
    if isinstance(node, PyGeneric):
        for arg in node.args:
            found += walk(arg)
    elif isinstance(node, PyUnion):
        for option in node.options:
            found += walk(option)
    return found


def is_optional(node: PyType) -> bool:
    """Whether None is one of the top-level alternatives."""
    return isinstance(node, PyUnion) and PyNone() in node.options


def without_none(node: PyType) -> PyType:
    """`node` with a top-level None alternative removed (`Optional[X]` is X)."""
    if not isinstance(node, PyUnion):
        return node
    return union([o for o in node.options if not isinstance(o, PyNone)])


def literal_values(node: PyType) -> frozenset[str]:
    """Every string of every `Literal` anywhere in `node`."""
    return frozenset(v for n in walk(node) if isinstance(n, PyLiteral) for v in n.values)


def text(node: PyType) -> str:
    """The annotation as `typing` spells it without prefixes: `List[str]`, `Optional[Page]`."""
    match node:
        case PyName(name):
            return name
        case PyNone():
            return "None"
        case PyLiteral(values):
            return f"Literal[{', '.join(repr(v) for v in values)}]"
        case PyGeneric(head, args):
            return f"{head}[{', '.join(text(a) for a in args)}]" if args else head
        case PyUnion(options):
            if len(options) == 2 and PyNone() in options:
                return f"Optional[{text(without_none(node))}]"
            return f"Union[{', '.join(text(o) for o in options)}]"
        case _:
            assert_never(node)


def to_data(node: PyType) -> Any:
    """A JSON form that `from_data` reads back as an equal value."""
    match node:
        case PyName(name):
            return name
        case PyNone():
            return None
        case PyLiteral(values):
            return {"literal": list(values)}
        case PyGeneric(head, args):
            return {"generic": head, "args": [to_data(a) for a in args]}
        case PyUnion(options):
            return {"union": [to_data(o) for o in options]}
        case _:
            assert_never(node)


_LITERAL_KEYS = frozenset({"literal"})
_GENERIC_KEYS = frozenset({"generic", "args"})
_UNION_KEYS = frozenset({"union"})


_NAMES: dict[str, PyName] = {}
"""Every PyName read back so far, by name: a surface names a few hundred types thousands of
times, and a frozen value can be shared."""

_NONE = PyNone()


def from_data(data: Any) -> PyType:
    """The annotation `to_data` wrote. Anything else raises ValueError, so that a damaged cache
    entry is refused, not believed."""
    if type(data) is str:
        name = _NAMES.get(data)
        if name is None:
            name = _NAMES[data] = PyName(data)
        return name
    if data is None:
        return _NONE
    if type(data) is dict:
        if data.keys() == _LITERAL_KEYS:
            return PyLiteral(tuple(as_str(v) for v in as_list(data["literal"])))
        if data.keys() == _GENERIC_KEYS:
            args = tuple(from_data(a) for a in as_list(data["args"]))
            return PyGeneric(as_str(data["generic"]), args)
        if data.keys() == _UNION_KEYS:
            return PyUnion(tuple(from_data(o) for o in as_list(data["union"])))
    raise ValueError("expected an annotation: null, a name, or a literal, generic or union object")
