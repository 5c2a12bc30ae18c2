"""Python for the neutral type tree: annotations and expressions that carry the imports they need,
safe literals for text and JSON data, and the import block that a module's code adds up to."""

from __future__ import annotations

import keyword
import string
import sys
from dataclasses import dataclass
from typing import Any, assert_never

from generator.model.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    ListOf,
    LocatorSelector,
    MapOf,
    Null,
    Nullable,
    ObjectOf,
    OneOf,
    Scalar,
    TypeNode,
)

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


@dataclass(frozen=True, order=True)
class Import:
    """`from module import name` (`import module` when `name` is empty), `as alias` when given;
    a `type_only` import is needed by the type checker alone and goes under `if TYPE_CHECKING:`."""

    module: str
    name: str = ""
    alias: str = ""
    type_only: bool = False


@dataclass(frozen=True)
class PyCode:
    """Python source `text` (an annotation or an expression) and every import it needs; code built
    from pieces carries the union of their imports, so a module's imports are exactly its code's."""

    text: str
    imports: frozenset[Import] = frozenset()

    def also(self, *others: PyCode) -> PyCode:
        """This code, needing the imports of `others` as well (names it mentions inside strings)."""
        return PyCode(self.text, self.imports.union(*(o.imports for o in others)))


def typing_name(name: str) -> PyCode:
    """A name of the `typing` module, imported."""
    return PyCode(name, frozenset({Import("typing", name)}))


def imported(module: str, name: str) -> PyCode:
    """`name` from `module`, imported."""
    return PyCode(name, frozenset({Import(module, name)}))


def module(name: str) -> PyCode:
    """A module by name (`base64`), imported whole."""
    return PyCode(name, frozenset({Import(name)}))


def code(template: str, *needs: Import, **parts: PyCode | str) -> PyCode:
    """`template` with each `{name}` replaced by a part (`{{` is a brace); its imports are `needs`
    and those of the parts."""
    imports = set(needs)
    texts = {}
    for name, part in parts.items():
        if isinstance(part, PyCode):
            imports |= part.imports
            texts[name] = part.text
        else:
            texts[name] = part
    return PyCode(template.format(**texts), frozenset(imports))


def join(parts: list[PyCode], separator: str) -> PyCode:
    imports = frozenset().union(*(p.imports for p in parts))
    return PyCode(separator.join(p.text for p in parts), imports)


class PythonWriter:
    """Annotations for the neutral types; option objects and `JsonValue` come from `types_module`."""

    def __init__(self, types_module: str) -> None:
        self.types_module = types_module

    def write(self, node: TypeNode) -> PyCode:
        match node:
            case Scalar(kind):
                return PyCode(_SCALARS[kind])
            case AnyJson():
                return imported(self.types_module, "JsonValue")
            case Null():
                return PyCode("None")
            case LocatorSelector() | Base64Bytes():
                return PyCode("str")
            case ListOf(item):
                return code("list[{item}]", item=self.write(item))
            case MapOf(value):
                return code("dict[str, {value}]", value=self.write(value))
            case EnumOf(_, values):
                literals = ", ".join(string_literal(v) for v in values)
                return code("{literal}[{values}]", literal=typing_name("Literal"), values=literals)
            case OneOf(options):
                return join([self.write(o) for o in options], " | ")
            case Nullable(inner):
                return code("{inner} | None", inner=self.write(inner))
            case ObjectOf(name):
                return imported(self.types_module, name)
            case _:
                assert_never(node)


def string_literal(text: str) -> str:
    """A one-line Python string literal for any text (`repr` escapes quotes and control characters)."""
    return repr(text)


# What a docstring escapes: backslashes, double quotes, and control characters (all but the line
# break; with C1 controls and the Unicode line and paragraph separators) as `\uXXXX`.
_DOCSTRING_ESCAPES = {
    ord("\\"): "\\\\",
    ord('"'): '\\"',
    **{
        c: f"\\u{c:04x}"
        for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]
        if c != ord("\n")
    },
}


def docstring(text: str) -> str:
    """A triple-quoted docstring literal whose value is exactly `text` (stripped of outer space).

    Backslashes, quotes and control characters are escaped, so no description can end the string
    early or change its meaning.
    """
    return '"""' + text.strip().translate(_DOCSTRING_ESCAPES) + '"""'


def literal(value: Any) -> str:
    """A Python expression equal to a JSON-like `value` (dict order preserved)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, str):
        return string_literal(value)
    return repr(value)


def typed_dict_is_functional(node: ObjectOf) -> bool:
    """Whether the class syntax cannot spell the keys (a key that is a keyword or not an identifier)."""
    return any(
        keyword.iskeyword(f.wire_name) or not f.wire_name.isidentifier() for f in node.fields
    )


# --- the import block ---------------------------------------------------------------------------


def _member_order(name: str) -> tuple[int, str]:
    # isort's order by type: CONSTANTS, then Classes, then functions and modules.
    if name.isupper() and len(name) > 1:
        return 0, name
    return (1 if name[:1] in string.ascii_uppercase else 2), name


def _section(module: str, first_party: str) -> int:
    top = module.split(".")[0]
    if top == first_party:
        return 2
    return 0 if top in sys.stdlib_module_names else 1


def _lines(imports: set[Import]) -> list[str]:
    straight = sorted(f"import {i.module}" for i in imports if not i.name)
    plain: dict[str, list[str]] = {}
    aliased: list[tuple[str, str]] = []
    for i in imports:
        if i.alias:
            aliased.append((i.module, f"from {i.module} import {i.name} as {i.alias}"))
        elif i.name:
            plain.setdefault(i.module, []).append(i.name)
    froms = [
        (module, f"from {module} import {', '.join(sorted(names, key=_member_order))}")
        for module, names in plain.items()
    ]
    return straight + [line for _, line in sorted(froms + aliased)]


def import_block(imports: frozenset[Import], first_party: str) -> str:
    """The import statements for `imports` as isort lays them out: standard library, third party,
    then `first_party`, a blank line apart; type-only imports last, under `if TYPE_CHECKING:`."""
    runtime = {i for i in imports if not i.type_only}
    checking = {i for i in imports if i.type_only}
    if checking:
        runtime.add(Import("typing", "TYPE_CHECKING"))
    sections: list[set[Import]] = [set(), set(), set()]
    for i in runtime:
        sections[_section(i.module, first_party)].add(i)
    blocks = ["\n".join(_lines(section)) for section in sections if section]
    if checking:
        guarded = [Import(i.module, i.name, i.alias) for i in checking]
        blocks.append("if TYPE_CHECKING:\n" + "\n".join(f"    {x}" for x in _lines(set(guarded))))
    return "\n\n".join(blocks)


def annotation(node: TypeNode, types_module: str = "") -> str:
    """The annotation text alone, for messages and tests."""
    return PythonWriter(types_module).write(node).text
