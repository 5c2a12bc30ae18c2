"""The Java surface: what reflection and javadoc found, as plain frozen data.

Nothing here refers to the JVM. Every collection is sorted (or in Java declaration order where
that order means something, as for enum constants), so the surface serialises to the same JSON
on every run and machine.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

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
    """A class whose public fields carry data (`Geolocation`, `Page.ScreenshotOptions`)."""

    name: str
    fields: tuple[JavaField, ...]


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
        return json.dumps(asdict(self), sort_keys=True, indent=1)

    @staticmethod
    def from_json(text: str) -> JavaSurface:
        raw = json.loads(text)
        return JavaSurface(
            version=raw["version"],
            interfaces=tuple(
                JavaInterface(i["name"], tuple(_method(m) for m in i["methods"]))
                for i in raw["interfaces"]
            ),
            structs=tuple(
                JavaStruct(
                    s["name"],
                    tuple(
                        JavaField(
                            f["name"],
                            _type(f["type"]),
                            f["required"],
                            f["doc"],
                            tuple(_type(t) for t in f["setter_types"]),
                        )
                        for f in s["fields"]
                    ),
                )
                for s in raw["structs"]
            ),
            enums=tuple(JavaEnum(e["name"], tuple(e["constants"])) for e in raw["enums"]),
            opaque=tuple(raw["opaque"]),
        )


def _type(raw: dict[str, Any]) -> JavaType:
    return JavaType(
        name=raw["name"],
        args=tuple(_type(a) for a in raw["args"]),
        element=_type(raw["element"]) if raw["element"] else None,
        is_variable=raw["is_variable"],
    )


def _method(raw: dict[str, Any]) -> JavaMethod:
    return JavaMethod(
        name=raw["name"],
        params=tuple(JavaParam(p["name"], _type(p["type"])) for p in raw["params"]),
        returns=_type(raw["returns"]),
        doc=JavaDoc(raw["doc"]["text"], tuple((k, v) for k, v in raw["doc"]["params"])),
    )
