"""Finds a Java method's Python counterpart and decides how each tool parameter reaches it.

Names follow Playwright's snake_case rule. A Java parameter Python lacks is either packed into a
Python TypedDict argument with exactly those keys (`setViewportSize(width, height)` ->
`set_viewport_size(viewport_size={...})`) or, when optional, left out with a note. Disagreements on
optionality and enum values are reported; the binding always follows Java.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.model.ir import CallArgument, ToolParam
from generator.model.live_objects import LiveSummary
from generator.model.refusal import Refusal, RefusalKind
from generator.model.type_tree import (
    AnyJson,
    EnumOf,
    ListOf,
    MapOf,
    Nullable,
    ObjectOf,
    OneOf,
    Scalar,
    TypeNode,
    describe,
    walk,
)
from generator.read.python_api import PyMethod, PyParam, PythonSurface
from generator.read.python_types import (
    ANY,
    PyGeneric,
    PyLiteral,
    PyName,
    PyType,
    is_optional,
    literal_values,
    without_none,
)
from generator.read.python_types import walk as walk_python
from generator.shared.diagnostics import Diagnostics
from generator.shared.names import python_member, snake_case

DISAGREE = "remove the entry; Java and Python disagree on this method"
# Options that Java names differently from Python and TypeScript, which agree with each other; the
# tool takes their name. Java's `WaitForFunctionOptions.pollingInterval` (a number) is Python's and
# TypeScript's `polling` (a number or "raf").
RENAMED = {"pollingInterval": "polling"}


def _widened(param: ToolParam, annotation: PyType) -> ToolParam:
    """A number that Python also takes as one of some strings (`polling: float | "raf"`) takes
    those strings too: Java's type is narrower only because Java has no string literal types."""
    bare = param.type.inner if isinstance(param.type, Nullable) else param.type
    literals = tuple(
        v for n in walk_python(annotation) if isinstance(n, PyLiteral) for v in n.values
    )
    if not isinstance(bare, Scalar) or bare.kind not in ("number", "integer") or not literals:
        return param
    widened: TypeNode = OneOf((bare, EnumOf(param.wire_name.capitalize(), literals)))
    if isinstance(param.type, Nullable):
        widened = Nullable(widened)
    return replace(param, type=widened)


def _object_of(node: TypeNode) -> ObjectOf | None:
    inner = node.item if isinstance(node, ListOf) else node
    return inner if isinstance(inner, ObjectOf) else None


def _spread_keys(method: PyMethod, options: tuple[TypeNode, ...]) -> tuple[tuple[str, str], ...]:
    """(key, Python keyword) for each field of the object among `options` whose every field is a
    keyword of `method`; empty when there is no such object."""
    for option in options:
        node = _object_of(option)
        if node is not None and all(method.param(snake_case(f.wire_name)) for f in node.fields):
            return tuple((f.wire_name, snake_case(f.wire_name)) for f in node.fields)
    return ()


def _spreads(node: TypeNode, keys: tuple[tuple[str, str], ...]) -> bool:
    found = _object_of(node)
    return (
        found is not None
        and bool(keys)
        and tuple(f.wire_name for f in found.fields) == tuple(k for k, _ in keys)
    )


@dataclass(frozen=True)
class PythonBinding:
    """The call's keyword arguments, and the tool parameters that survived (optional Java-only
    options are dropped)."""

    call: tuple[CallArgument, ...]
    params: tuple[ToolParam, ...]


class PythonBinder:
    def __init__(self, python: PythonSurface, diagnostics: Diagnostics) -> None:
        self.python = python
        self.diagnostics = diagnostics

    def counterpart(
        self, location: str, member: str, cls: str, name: str
    ) -> tuple[PyMethod, PyMethod] | Refusal:
        """The sync and async methods; the async one tells whether the call is awaited."""
        sync = self.python.method(cls, name)
        asynchronous = self.python.method(cls, name, asynchronous=True)
        if sync is None or asynchronous is None:
            return Refusal(
                RefusalKind.JAVA_ONLY,
                f"the Python playwright {self.python.version} has no {cls}.{name}",
                "this method exists only in Java; remove the entry",
            )
        if [p.name for p in sync.params] != [p.name for p in asynchronous.params]:
            self.diagnostics.warning(location, f"{cls}.{name}: sync and async parameters differ")
        return sync, asynchronous

    def check_summary(self, summary: LiveSummary) -> Refusal | None:
        """Every summary attribute must be a property of the Python class (read, never called)."""
        for f in summary.fields:
            attribute = self.python.method(summary.python_class, f.python_attribute)
            if attribute is None or not attribute.is_property:
                return Refusal(
                    RefusalKind.OTHER,
                    f"the result summary reads {summary.python_class}.{f.python_attribute}, "
                    "which is not a property in this Python playwright",
                    "update generator/model/live_objects.py for this Playwright version",
                )
        return None

    def bind(
        self,
        location: str,
        member: str,
        method: PyMethod,
        params: tuple[ToolParam, ...],
        skip: frozenset[str],
    ) -> PythonBinding | Refusal:
        python = f"{method.name}"
        call: list[CallArgument] = []
        kept: list[ToolParam] = []
        unmatched: list[ToolParam] = []
        order = {p.wire_name: i for i, p in enumerate(params)}
        for param in params:
            if param.wire_name in skip:
                kept.append(param)
                continue
            spread: tuple[tuple[str, str], ...] = ()
            py = method.param(snake_case(param.wire_name)) or method.param(
                python_member(param.wire_name)
            )
            if py is None and param.wire_name in RENAMED:
                py = method.param(snake_case(RENAMED[param.wire_name]))
                if py is not None:
                    self.diagnostics.info(
                        f"{member}({param.wire_name})",
                        f"Java's option is Python's and TypeScript's '{py.name}', which the tool takes",
                    )
                    order[RENAMED[param.wire_name]] = order[param.wire_name]
                    param = replace(param, wire_name=RENAMED[param.wire_name])
            if py is None:
                singular = self._singular(location, member, method, param)
                if singular is None:
                    unmatched.append(param)
                    continue
                py, param, spread = singular
            self._compare(f"{member}({param.wire_name})", python, param, py.has_default, py.type)
            param = _widened(param, py.type)
            typed_dict = self._typed_dict(py.type)
            null_literal = (
                "null"
                if isinstance(param.type, Nullable) and "null" in literal_values(py.type)
                else None
            )
            call.append(
                CallArgument(
                    py.name,
                    (param,),
                    python_typed_dict=typed_dict,
                    loosely_typed=typed_dict is None and self._loose(param.type, py.type),
                    null_literal=null_literal,
                    spread_keys=spread,
                )
            )
            kept.append(param)
        if unmatched:
            packed = self._pack(
                method, [p for p in unmatched if p.required], {a.python_name for a in call}
            )
            if packed is not None:
                names = ", ".join(p.wire_name for p in packed.params)
                self.diagnostics.info(
                    location,
                    f"{member}: Java parameters {names} are passed to Python as one '{packed.python_name}'",
                )
                call.append(packed)
                kept += packed.params
                unmatched = [p for p in unmatched if p not in packed.params]
        for param in unmatched:
            if param.required:
                return Refusal(
                    RefusalKind.JAVA_ONLY,
                    f"required parameter '{param.wire_name}' has no counterpart in Python {python}",
                    DISAGREE,
                )
            self.diagnostics.info(
                f"{member}({param.wire_name})",
                f"option left out: Python {python} has no '{snake_case(param.wire_name)}'",
            )
        covered = {a.python_name for a in call} | {k for a in call for _, k in a.spread_keys}
        if all(p.name in covered for p in method.params):
            self._null_resets(member, method, call, kept)
        missing = [p.name for p in method.params if not p.has_default and p.name not in covered]
        if missing:
            return Refusal(
                RefusalKind.OTHER,
                f"Python {python} requires {', '.join(missing)}, which Java does not have",
                DISAGREE,
            )
        return PythonBinding(tuple(call), tuple(sorted(kept, key=lambda p: order[p.wire_name])))

    def _null_resets(
        self, member: str, method: PyMethod, call: list[CallArgument], kept: list[ToolParam]
    ) -> None:
        """Let an argument that Java requires and Python types Optional take null, when Python's
        method has no other argument to give instead: as Java has no call without it, None is a
        value Python gives a meaning to (`set_geolocation(None)` clears the geolocation)."""
        for index, argument in enumerate(call):
            py = method.param(argument.python_name)
            param = argument.params[0]
            if argument.packed_keys or argument.spread_keys or py is None or not param.required:
                continue
            if isinstance(param.type, Nullable | AnyJson) or not is_optional(py.type):
                continue
            nullable = replace(param, type=Nullable(param.type))
            call[index] = replace(argument, params=(nullable,))
            kept[kept.index(param)] = nullable
            self.diagnostics.info(
                f"{member}({param.wire_name})",
                f"takes null, which Python {method.name}({py.name}=None) gives a meaning",
            )

    def _loose(self, node: TypeNode, annotation: PyType) -> bool:
        """Whether our precise JSON type and Python's annotation differ in form though they accept
        the same values (JSON `Object` vs Python `Dict`, our TypedDicts inside Python's
        `Sequence[SetCookieParam]`, a union written differently): then the shim passes it as Any."""
        if without_none(annotation) == ANY:
            return False
        loose = any(isinstance(n, AnyJson | OneOf | ObjectOf) for n in walk(node))
        return loose or any(self._is_typed_dict(n) for n in walk_python(annotation))

    def _singular(
        self, location: str, member: str, method: PyMethod, param: ToolParam
    ) -> tuple[PyParam, ToolParam, tuple[tuple[str, str], ...]] | None:
        """Java's plural parameter under Python's singular name (`selectOption(values)` is
        `select_option(value=...)`), keeping only the union members Python's annotation takes, and
        the objects whose fields are all keywords of the Python method: those are spread into
        them (`{"label": "Blue"}` is `label="Blue"`), and their keys returned."""
        name = snake_case(param.wire_name)
        py = method.param(name[:-1]) if name.endswith("s") else None
        if py is None:
            return None
        options = param.type.options if isinstance(param.type, OneOf) else (param.type,)
        spread = _spread_keys(method, options)
        kept = tuple(o for o in options if self._takes(o, py.type) or _spreads(o, spread))
        if not kept:
            return None
        dropped = [o for o in options if o not in kept]
        if dropped:
            names = ", ".join(describe(o) for o in dropped)
            self.diagnostics.info(
                location,
                f"{member}: Java '{param.wire_name}' is Python '{py.name}', which takes no {names} members; "
                "those overloads are left out",
            )
        narrowed = kept[0] if len(kept) == 1 else OneOf(kept)
        spread_keys = spread if any(_spreads(o, spread) for o in kept) else ()
        if spread_keys:
            keywords = ", ".join(keyword for _, keyword in spread_keys)
            self.diagnostics.info(
                location,
                f"{member}: Java '{param.wire_name}' is Python '{py.name}'; its objects are passed "
                f"as the keywords {keywords}, one key per object",
            )
        return (
            py,
            ToolParam(param.wire_name, narrowed, param.required, param.description),
            spread_keys,
        )

    def _takes(self, node: TypeNode, annotation: PyType) -> bool:
        """Whether Python's annotation can take JSON objects, where `node` contains one."""
        if not any(isinstance(n, ObjectOf | MapOf) for n in walk(node)):
            return True
        return any(
            n == ANY
            or self._is_typed_dict(n)
            or (isinstance(n, PyGeneric) and n.head in ("Dict", "Mapping"))
            for n in walk_python(annotation)
        )

    def _is_typed_dict(self, annotation: PyType) -> bool:
        return isinstance(annotation, PyName) and annotation.name in self.python.typed_dicts

    def _typed_dict(self, annotation: PyType) -> str | None:
        """The TypedDict the argument is (or None is), if it is one."""
        bare = without_none(annotation)
        return bare.name if isinstance(bare, PyName) and self._is_typed_dict(bare) else None

    def _pack(
        self, method: PyMethod, unmatched: list[ToolParam], taken: set[str]
    ) -> CallArgument | None:
        wanted = {snake_case(p.wire_name) for p in unmatched}
        for py in method.params:
            name = self._typed_dict(py.type)
            if py.name in taken or name is None or not wanted:
                continue
            keys = [key for key, _ in self.python.typed_dicts[name].fields]
            if set(keys) == wanted:
                ordered = tuple(
                    sorted(unmatched, key=lambda p: keys.index(snake_case(p.wire_name)))
                )
                return CallArgument(
                    py.name, ordered, tuple(snake_case(p.wire_name) for p in ordered)
                )
        return None

    def _compare(
        self, where: str, python: str, param: ToolParam, py_optional: bool, annotation: PyType
    ) -> None:
        """Report where Java and Python disagree on one parameter (the binding still follows Java)."""
        if not param.required and not py_optional:
            self.diagnostics.warning(where, f"optional in Java but required by Python {python}")
        if isinstance(param.type, EnumOf):
            python_values = literal_values(annotation)
            if python_values and python_values != set(param.type.values):
                self.diagnostics.warning(
                    where,
                    f"enum values differ: Java {sorted(param.type.values)}, Python {sorted(python_values)}",
                )
