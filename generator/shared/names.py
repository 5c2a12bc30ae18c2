"""Names as values with rules: Playwright's snake_case, escaped identifiers, tool names."""

from __future__ import annotations

import builtins
import functools
import keyword
import re
from dataclasses import dataclass

# Playwright's own rule (playwright/_impl/_helper.py `to_snake_case`):
# setExtraHTTPHeaders -> set_extra_http_headers.
_SNAKE_BOUNDARY = re.compile("((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Reserved words of TypeScript that cannot name a binding or parameter.
_TS_RESERVED = frozenset(
    """
    break case catch class const continue debugger default delete do else enum export extends
    false finally for function if import in instanceof new null return super switch this throw
    true try typeof var void while with implements interface let package private protected
    public static yield await any boolean number string symbol type of
    """.split()  # noqa: SIM905
)


# Cached: descriptions ask for the same few hundred names thousands of times a run.
@functools.lru_cache(maxsize=4096)
def snake_case(java_name: str) -> str:
    """Playwright's camelCase -> snake_case rule, as the Python package applies it."""
    return _SNAKE_BOUNDARY.sub(r"_\1", java_name).lower()


# Methods Playwright names differently in Java, with the reason; the only exceptions to the rule.
JAVA_RENAMES = {"navigate": ("goto", "`goto` is a reserved word in Java")}


def python_member(java_name: str) -> str:
    """The Python API's name for a Java method: snake_case, with `_` after a keyword (`and_`)."""
    if java_name in JAVA_RENAMES:
        return JAVA_RENAMES[java_name][0]
    name = snake_case(java_name)
    return name + "_" if keyword.iskeyword(name) else name


def is_identifier(text: str) -> bool:
    return bool(_IDENTIFIER.match(text))


# Members every shim class defines; a parameter with one of these names is escaped like a keyword.
SHIM_MEMBERS = frozenset({"tool_name", "parameters", "from_args", "run", "arun"})


def python_identifier(wire_name: str) -> str:
    """A Python name for `wire_name`: keywords, builtins and shim members get a trailing underscore."""
    if (
        keyword.iskeyword(wire_name)
        or keyword.issoftkeyword(wire_name)
        or hasattr(builtins, wire_name)
        or wire_name in SHIM_MEMBERS
    ):
        return wire_name + "_"
    return wire_name


def typescript_identifier(wire_name: str) -> str:
    """A TypeScript binding name for `wire_name`: reserved words get a trailing underscore."""
    return wire_name + "_" if wire_name in _TS_RESERVED else wire_name


def pascal_case(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\W]+", name) if part)


@dataclass(frozen=True, order=True)
class ToolName:
    """A tool's public name: a valid identifier in Python and TypeScript alike, unique in a run."""

    value: str

    def __post_init__(self) -> None:
        if not is_identifier(self.value):
            raise ValueError(f"{self.value!r} is not an identifier")

    def __str__(self) -> str:
        return self.value

    @property
    def class_name(self) -> str:
        """The shim class name: `web_setExtraHTTPHeaders` -> `WebSetExtraHTTPHeaders`."""
        return _class_name(self.value)

    @property
    def module_name(self) -> str:
        """The shim module name: lower snake case (stable where file systems fold case), never a
        keyword or builtin (`name: class` gives `class_.py`, which `import` can name)."""
        return _module_name(self.value)


# Cached: every output asks each tool for these names, several times a run.
@functools.lru_cache(maxsize=4096)
def _class_name(value: str) -> str:
    return python_identifier(pascal_case(value))


@functools.lru_cache(maxsize=4096)
def _module_name(value: str) -> str:
    return python_identifier(snake_case(value).replace("__", "_"))
