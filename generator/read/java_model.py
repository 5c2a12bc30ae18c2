"""The Java surface: what reflection and javadoc found, as plain frozen data.

Nothing here refers to the JVM. Every collection is sorted (or in Java declaration order where
that order means something, as for enum constants), so the surface serialises to the same JSON
on every run and machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from generator.shared.json_shape import as_bool, as_list, as_str, fields

PRIMITIVES = frozenset(
    {"boolean", "byte", "char", "short", "int", "long", "float", "double", "void"}
)


@dataclass(frozen=True)
class JavaType:
    """A Java type as written in a signature.

    `name` is the binary name of the erasure (`int`, `java.lang.String`,
    `com.microsoft.playwright.Page$ScreenshotOptions`), or a type variable's name when
    `is_variable`; `args` are the type arguments of a parameterised type (wildcards are replaced by
    their bound); `element` is set, and `name` is `[]`, exactly when this is an array.
    """

    name: str
    args: tuple[JavaType, ...] = ()
    element: JavaType | None = None
    is_variable: bool = False

    def __str__(self) -> str:
        if self.element is not None:
            return f"{self.element}[]"
        base = self.name.rsplit(".", 1)[-1].replace("$", ".")
        return f"{base}<{', '.join(map(str, self.args))}>" if self.args else base

    @property
    def qualified(self) -> str:
        """The signature form used in locations: `java.util.Map<java.lang.String, java.lang.String>`."""
        if self.element is not None:
            return f"{self.element.qualified}[]"
        if self.args:
            return f"{self.name}<{', '.join(a.qualified for a in self.args)}>"
        return self.name


@dataclass(frozen=True)
class JavaParam:
    """A method parameter. `name` is None when the class was compiled without `-parameters`."""

    name: str | None
    type: JavaType


@dataclass(frozen=True)
class JavaDoc:
    """Javadoc converted to Markdown: the main text and the `@param` texts by parameter name."""

    text: str = ""
    params: tuple[tuple[str, str], ...] = ()

    def param(self, name: str) -> str:
        return dict(self.params).get(name, "")


@dataclass(frozen=True)
class JavaMethod:
    """One public overload of an interface method, with its javadoc when the sources JAR has it."""

    name: str
    params: tuple[JavaParam, ...]
    returns: JavaType
    doc: JavaDoc = field(default_factory=JavaDoc)

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(str(p.type) for p in self.params)})"

    @property
    def has_parameter_names(self) -> bool:
        return all(p.name is not None for p in self.params)


@dataclass(frozen=True)
class JavaInterface:
    """A reflected interface: all public non-static methods, sorted by name then signature."""

    name: str
    methods: tuple[JavaMethod, ...]

    def overloads(self, method: str) -> tuple[JavaMethod, ...]:
        return self._by_name.get(method, ())

    @cached_property
    def _by_name(self) -> dict[str, tuple[JavaMethod, ...]]:
        grouped: dict[str, list[JavaMethod]] = {}
        for m in self.methods:
            grouped.setdefault(m.name, []).append(m)
        return {name: tuple(ms) for name, ms in grouped.items()}

    @property
    def method_names(self) -> tuple[str, ...]:
        return tuple(sorted(self._by_name))


@dataclass(frozen=True)
class JavaField:
    """A public field of an options or value class. `required` means every constructor takes it;
    `setter_types` are the parameter types of its one-argument setters (`setDomain(String)`,
    `setDomain(Pattern)`), which name the real members when the field itself is an `Object`."""

    name: str
    type: JavaType
    required: bool
    doc: str = ""
    setter_types: tuple[JavaType, ...] = ()


@dataclass(frozen=True)
class JavaStruct:
    """A class whose public fields carry data (`Geolocation`, `Page.ScreenshotOptions`).

    `constructors` are the parameter lists of its public constructors (`Position(double x,
    double y)`, `Margin()`), sorted by their signature text; a parameter's name is None when the
    class was compiled without `-parameters`."""

    name: str
    fields: tuple[JavaField, ...]
    constructors: tuple[tuple[JavaParam, ...], ...] = ()


@dataclass(frozen=True)
class JavaEnum:
    """An enum and its constants in declaration order (Java constants, not wire values)."""

    name: str
    constants: tuple[str, ...]


@dataclass(frozen=True)
class JavaSurface:
    """Everything the generator needs from the JAR. Keys of every mapping are binary class names;
    `interfaces` are the reflected targets, `structs` and `enums` everything their signatures reach
    in the Playwright packages, `opaque` the other Playwright interfaces they mention (live objects)."""

    version: str
    interfaces: tuple[JavaInterface, ...]
    structs: tuple[JavaStruct, ...]
    enums: tuple[JavaEnum, ...]
    opaque: tuple[str, ...]

    @cached_property
    def documented(self) -> bool:
        """Whether javadoc was read (a sources JAR came with the JAR): without it every
        description falls back to the Python docstrings."""
        return any(m.doc.text for i in self.interfaces for m in i.methods)

    def interface(self, name: str) -> JavaInterface | None:
        found = self._index.get(name)
        return found if isinstance(found, JavaInterface) else None

    def struct(self, name: str) -> JavaStruct | None:
        found = self._index.get(name)
        return found if isinstance(found, JavaStruct) else None

    def enum(self, name: str) -> JavaEnum | None:
        found = self._index.get(name)
        return found if isinstance(found, JavaEnum) else None

    @cached_property
    def _index(self) -> dict[str, JavaInterface | JavaStruct | JavaEnum]:
        """Lookups by binary name; built once, so binding stays linear in the surface's size."""
        index: dict[str, JavaInterface | JavaStruct | JavaEnum] = {
            i.name: i for i in self.interfaces
        }
        index.update((s.name, s) for s in self.structs)
        index.update((e.name, e) for e in self.enums)
        return index

    def to_json(self) -> str:
        """Compact JSON with sorted keys: the form `from_json` reads (one object per dataclass,
        with the dataclass's fields as keys)."""
        return json.dumps(
            {
                "version": self.version,
                "interfaces": [
                    {"name": i.name, "methods": [_method_data(m) for m in i.methods]}
                    for i in self.interfaces
                ],
                "structs": [
                    {
                        "name": s.name,
                        "fields": [_field_data(f) for f in s.fields],
                        "constructors": [[_param_data(p) for p in c] for c in s.constructors],
                    }
                    for s in self.structs
                ],
                "enums": [{"name": e.name, "constants": list(e.constants)} for e in self.enums],
                "opaque": list(self.opaque),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str) -> JavaSurface:
        """The surface `to_json` wrote. Anything else (a missing or extra key, a value of another
        type) raises ValueError, so a damaged or forged cache entry is refused, not believed."""
        raw = fields(json.loads(text), _SURFACE_KEYS)
        return JavaSurface(
            version=as_str(raw["version"]),
            interfaces=tuple(
                JavaInterface(as_str(i["name"]), tuple(_method(m) for m in as_list(i["methods"])))
                for i in (fields(i, _INTERFACE_KEYS) for i in as_list(raw["interfaces"]))
            ),
            structs=tuple(
                JavaStruct(
                    as_str(s["name"]),
                    tuple(_field(f) for f in as_list(s["fields"])),
                    tuple(_params(c) for c in as_list(s["constructors"])),
                )
                for s in (fields(s, _STRUCT_KEYS) for s in as_list(raw["structs"]))
            ),
            enums=tuple(
                JavaEnum(as_str(e["name"]), tuple(as_str(c) for c in as_list(e["constants"])))
                for e in (fields(e, _ENUM_KEYS) for e in as_list(raw["enums"]))
            ),
            opaque=tuple(as_str(o) for o in as_list(raw["opaque"])),
        )


# --- the JSON form ------------------------------------------------------------------------------

_SURFACE_KEYS = frozenset({"version", "interfaces", "structs", "enums", "opaque"})
_INTERFACE_KEYS = frozenset({"name", "methods"})
_METHOD_KEYS = frozenset({"name", "params", "returns", "doc"})
_PARAM_KEYS = frozenset({"name", "type"})
_DOC_KEYS = frozenset({"text", "params"})
_STRUCT_KEYS = frozenset({"name", "fields", "constructors"})
_FIELD_KEYS = frozenset({"name", "type", "required", "doc", "setter_types"})
_ENUM_KEYS = frozenset({"name", "constants"})
_TYPE_KEYS = frozenset({"name", "args", "element", "is_variable"})


def _type_data(t: JavaType) -> dict[str, Any]:
    return {
        "name": t.name,
        "args": [_type_data(a) for a in t.args],
        "element": None if t.element is None else _type_data(t.element),
        "is_variable": t.is_variable,
    }


def _param_data(p: JavaParam) -> dict[str, Any]:
    return {"name": p.name, "type": _type_data(p.type)}


def _method_data(m: JavaMethod) -> dict[str, Any]:
    return {
        "name": m.name,
        "params": [_param_data(p) for p in m.params],
        "returns": _type_data(m.returns),
        "doc": {"text": m.doc.text, "params": [list(pair) for pair in m.doc.params]},
    }


def _field_data(f: JavaField) -> dict[str, Any]:
    return {
        "name": f.name,
        "type": _type_data(f.type),
        "required": f.required,
        "doc": f.doc,
        "setter_types": [_type_data(t) for t in f.setter_types],
    }


def _type(raw: Any) -> JavaType:
    raw = fields(raw, _TYPE_KEYS)
    element = raw["element"]
    return JavaType(
        name=as_str(raw["name"]),
        args=tuple(_type(a) for a in as_list(raw["args"])),
        element=None if element is None else _type(element),
        is_variable=as_bool(raw["is_variable"]),
    )


def _pair(raw: Any) -> tuple[str, str]:
    name, text = as_list(raw)  # exactly two, or ValueError
    return as_str(name), as_str(text)


def _params(raw: Any) -> tuple[JavaParam, ...]:
    return tuple(
        JavaParam(None if p["name"] is None else as_str(p["name"]), _type(p["type"]))
        for p in (fields(p, _PARAM_KEYS) for p in as_list(raw))
    )


def _method(raw: Any) -> JavaMethod:
    raw = fields(raw, _METHOD_KEYS)
    doc = fields(raw["doc"], _DOC_KEYS)
    return JavaMethod(
        name=as_str(raw["name"]),
        params=_params(raw["params"]),
        returns=_type(raw["returns"]),
        doc=JavaDoc(as_str(doc["text"]), tuple(_pair(p) for p in as_list(doc["params"]))),
    )


def _field(raw: Any) -> JavaField:
    raw = fields(raw, _FIELD_KEYS)
    return JavaField(
        as_str(raw["name"]),
        _type(raw["type"]),
        as_bool(raw["required"]),
        as_str(raw["doc"]),
        tuple(_type(t) for t in as_list(raw["setter_types"])),
    )
