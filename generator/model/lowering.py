"""Lowers Java types into the neutral type tree, or says why a type cannot cross JSON."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.ir import ResultShape
from generator.model.live_objects import HANDLE_NOTE, HANDLES, HANDLES_NOTE, SUMMARIES, LiveSummary
from generator.model.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    Field,
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
from generator.read.java_model import JavaField, JavaSurface, JavaType
from generator.read.python_api import PythonSurface
from generator.read.python_types import (
    ANY,
    PyGeneric,
    PyLiteral,
    PyName,
    PyType,
    is_optional,
    literal_values,
    text,
    without_none,
)
from generator.read.python_types import walk as walk_python

_SCALARS: dict[str, Scalar] = {
    **dict.fromkeys(["java.lang.String", "char", "java.lang.Character"], Scalar("string")),
    **dict.fromkeys(
        [
            "int",
            "long",
            "short",
            "byte",
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Short",
            "java.lang.Byte",
        ],
        Scalar("integer"),
    ),
    **dict.fromkeys(["double", "float", "java.lang.Double", "java.lang.Float"], Scalar("number")),
    **dict.fromkeys(["boolean", "java.lang.Boolean"], Scalar("boolean")),
}
_LISTS = frozenset(
    {"java.util.List", "java.util.Collection", "java.util.Set", "java.lang.Iterable"}
)
CALLBACK_TYPES = frozenset(
    {
        "java.lang.Runnable",
        "java.util.function.Consumer",
        "java.util.function.BiConsumer",
        "java.util.function.Predicate",
        "java.util.function.Function",
        "java.util.function.Supplier",
        "java.util.function.BooleanSupplier",
        "com.microsoft.playwright.options.BindingCallback",
        "com.microsoft.playwright.options.FunctionCallback",
    }
)


LOCATOR = "com.microsoft.playwright.Locator"
_STR = PyName("str")
_LIST_OF_STR = PyGeneric("List", (_STR,))


@dataclass(frozen=True)
class Unlowerable:
    """Why a Java type has no JSON form; `callback` marks functions, which need hand-written tools."""

    java_type: str
    reason: str
    callback: bool = False


def _normal(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", text).upper()


def enum_wire_values(python: PythonSurface) -> dict[frozenset[str], dict[str, str]]:
    """Index every string Literal of the Python API: normalised value set -> {normalised: wire}.

    A Java enum matches the Literal whose values, stripped of punctuation and upper-cased, equal
    its constants (`CONTROLORMETA` ~ `"ControlOrMeta"`, `NO_PREFERENCE` ~ `"no-preference"`), so wire
    values always come from Python and never from re-casing Java names.
    """
    annotations = [
        p.type for c in python.sync_classes.values() for m in c.values() for p in m.params
    ]
    annotations += [t for td in python.typed_dicts.values() for _, t in td.fields]
    index: dict[frozenset[str], dict[str, str]] = {}
    for annotation in sorted(set(annotations), key=text):
        for node in walk_python(annotation):
            if isinstance(node, PyLiteral) and node.values:
                normal = {_normal(v): v for v in node.values}
                index.setdefault(frozenset(normal), normal)
    return index


class Lowerer:
    """Lowers JavaTypes against one JavaSurface and the Python API's enum wire values."""

    def __init__(
        self, surface: JavaSurface, wire_values: dict[frozenset[str], dict[str, str]]
    ) -> None:
        self._surface = surface
        self._wire = wire_values
        self._in_progress: set[str] = set()

    def lower(self, t: JavaType) -> TypeNode | Unlowerable:
        if t.element is not None:
            if t.element.name in ("byte", "java.lang.Byte"):
                return Base64Bytes()
            item = self.lower(t.element)
            return item if isinstance(item, Unlowerable) else ListOf(item)
        if t.is_variable:
            return Unlowerable(t.name, "a type variable has no JSON form")
        if t.name in _SCALARS:
            return _SCALARS[t.name]
        if t.name == "java.lang.Object":
            return AnyJson()
        if t.name == "java.util.Optional" and len(t.args) == 1:
            inner = self.lower(t.args[0])
            return inner if isinstance(inner, Unlowerable) else Nullable(inner)
        if t.name in _LISTS and len(t.args) == 1:
            item = self.lower(t.args[0])
            return item if isinstance(item, Unlowerable) else ListOf(item)
        if t.name == "java.util.Map" and len(t.args) == 2:
            if t.args[0].name != "java.lang.String":
                return Unlowerable(
                    t.qualified, "JSON object keys are strings; this Map's keys are not"
                )
            value = self.lower(t.args[1])
            return value if isinstance(value, Unlowerable) else MapOf(value)
        if t.name in CALLBACK_TYPES:
            return Unlowerable(
                t.qualified, "a callback cannot cross a tool boundary", callback=True
            )
        enum = self._surface.enum(t.name)
        if enum is not None:
            return self._enum(enum.name, enum.constants)
        struct = self._surface.struct(t.name)
        if struct is not None:
            return self.lower_struct(struct.name)
        if t.name == LOCATOR:
            return LocatorSelector()
        if t.name in self._surface.opaque:
            return Unlowerable(t.qualified, "a live browser object cannot be passed as JSON")
        return Unlowerable(t.qualified, "no JSON form is defined for this type")

    def _enum(self, name: str, constants: tuple[str, ...]) -> TypeNode | Unlowerable:
        normal = frozenset(_normal(c) for c in constants)
        # Python spells "reset to default" of an Optional<Enum> option as the literal "null".
        wire = self._wire.get(normal) or self._wire.get(normal | {"NULL"})
        if wire is None:
            return Unlowerable(
                name, "no Python Literal has the same values, so its wire strings are unknown"
            )
        return EnumOf(simple_name(name), tuple(wire[_normal(c)] for c in constants))

    def lower_field(self, f: JavaField) -> TypeNode | Unlowerable:
        """A field's type; an `Object` field with typed setters is the union of the setter types
        that can cross JSON (`setDomain(String)` kept, `setDomain(Pattern)` dropped)."""
        if f.type.name != "java.lang.Object" or not f.setter_types:
            return self.lower(f.type)
        members: list[TypeNode] = []
        reasons = []
        for t in f.setter_types:
            lowered = self.lower(t)
            if isinstance(lowered, Unlowerable):
                reasons.append(f"{t}: {lowered.reason}")
            elif lowered not in members:
                members.append(lowered)
        if not members:
            why = "no setter type can cross JSON (" + "; ".join(reasons) + ")"
            return Unlowerable(f.type.qualified, why)
        return members[0] if len(members) == 1 else OneOf(tuple(members))

    def lower_struct(self, name: str) -> ObjectOf | Unlowerable:
        struct = self._surface.struct(name)
        if struct is None:
            return Unlowerable(name, "not a reflected class")
        if name in self._in_progress:
            return Unlowerable(name, "a recursive type has no finite JSON form here")
        self._in_progress.add(name)
        try:
            fields = []
            for f in struct.fields:
                lowered = self.lower_field(f)
                if isinstance(lowered, Unlowerable):
                    reason = f"field type {f.type}: {lowered.reason}"
                    return Unlowerable(f"{name}.{f.name}", reason, lowered.callback)
                fields.append(Field(f.name, lowered, f.required, f.doc))
            return ObjectOf(simple_name(name), tuple(fields))
        finally:
            self._in_progress.discard(name)

    def lower_result(self, t: JavaType, python_returns: PyType) -> LoweredResult | Unlowerable:
        """A method's result as JSON, how to convert it, and a note on what is left out.

        `python_returns` is the Python annotation; `Optional[...]` there makes the result nullable.
        """
        nullable = is_optional(python_returns)
        if t.name == "void":
            return LoweredResult(Null(), ResultShape("discard"), "")
        if t.name == "java.lang.AutoCloseable":
            note = "The Java method returns a disposable handle; the tool returns nothing."
            return LoweredResult(Null(), ResultShape("discard"), note)
        if t.name in HANDLES:
            what = "frame's content" if t.name.endswith("FrameLocator") else "matching elements"
            return LoweredResult(
                Scalar("string"), ResultShape("handle"), HANDLE_NOTE.format(what=what)
            )
        if t.name in _LISTS and len(t.args) == 1 and t.args[0].name in HANDLES:
            note = HANDLES_NOTE
            return LoweredResult(ListOf(Scalar("string")), ResultShape("handles"), note)
        if t.name in _LISTS and len(t.args) == 1 and self._is_live(t.args[0].name):
            live = t.args[0].name
            summary = SUMMARIES.get(live)
            if summary is None:
                note = f"The Java method returns live {simple_name(live)} objects; the tool returns nothing."
                return LoweredResult(Null(), ResultShape("discard"), note)
            note = f"Each live {simple_name(live)} is returned as a summary ({_fields(summary)})."
            return LoweredResult(ListOf(summary.type), ResultShape("summaries", summary), note)
        if self._is_live(t.name):
            summary = SUMMARIES.get(t.name)
            if summary is None:
                note = f"The Java method returns a live {simple_name(t.name)}; the tool returns nothing."
                return LoweredResult(Null(), ResultShape("discard"), note)
            node: TypeNode = Nullable(summary.type) if nullable else summary.type
            note = f"The live {simple_name(t.name)} is returned as a summary ({_fields(summary)})."
            return LoweredResult(node, ResultShape("summary", summary, nullable), note)
        lowered = self.lower(t)
        if isinstance(lowered, Unlowerable):
            return lowered
        if isinstance(lowered, Base64Bytes):
            return LoweredResult(lowered, ResultShape("base64"), "")
        python_shape = without_none(python_returns)
        if lowered == ListOf(Scalar("string")) and python_shape not in (_LIST_OF_STR, ANY):
            return Unlowerable(
                t.qualified, f"Java returns strings where Python returns {text(python_shape)}"
            )
        if (
            lowered == Scalar("string")
            and python_shape not in (_STR, ANY)
            and not literal_values(python_shape)
        ):
            # Java hands back JSON text (storageState) where Python returns the parsed structure.
            note = "Java returns this as JSON text; the tool returns the parsed JSON value."
            return LoweredResult(AnyJson(), ResultShape("value"), note)
        if nullable and not isinstance(lowered, AnyJson):
            lowered = Nullable(lowered)
        return LoweredResult(lowered, ResultShape("value", nullable=nullable), "")

    def _is_live(self, name: str) -> bool:
        return name in self._surface.opaque or self._surface.interface(name) is not None


@dataclass(frozen=True)
class LoweredResult:
    """A result's JSON type, the conversion from the Python value, and a note for the descriptor."""

    type: TypeNode
    shape: ResultShape
    note: str


def _fields(summary: LiveSummary) -> str:
    return ", ".join(f.wire_name for f in summary.fields)


def simple_name(binary_name: str) -> str:
    """The name a lowered enum or object takes: `...Page$ClickOptions` -> `PageClickOptions`."""
    return binary_name.rsplit(".", 1)[-1].replace("$", "")
