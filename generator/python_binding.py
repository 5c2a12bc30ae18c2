"""Finds a Java method's Python counterpart and decides how each tool parameter reaches it.

Names follow Playwright's snake_case rule. A Java parameter Python lacks is either packed into a
Python TypedDict argument with exactly those keys (`setViewportSize(width, height)` ->
`set_viewport_size(viewport_size={...})`) or, when optional, left out with a note. Disagreements on
optionality and enum values are reported; the binding always follows Java.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.diagnostics import Diagnostics
from generator.ir import CallArgument, ToolParam
from generator.live_objects import LiveSummary
from generator.lowering import literal_sets, normal_annotation
from generator.names import python_member, snake_case
from generator.python_api import PyMethod, PyParam, PythonSurface
from generator.type_tree import AnyJson, EnumOf, MapOf, Nullable, ObjectOf, OneOf, TypeNode, walk
from generator.writers import typescript


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
    ) -> tuple[PyMethod, PyMethod] | None:
        """The sync and async methods; the async one tells whether the call is awaited."""
        sync = self.python.method(cls, name)
        asynchronous = self.python.method(cls, name, asynchronous=True)
        if sync is None or asynchronous is None:
            self.diagnostics.error(
                location,
                f"{member}: the Python playwright {self.python.version} has no {cls}.{name}",
                "this method exists only in Java; remove the entry",
            )
            return None
        if [p.name for p in sync.params] != [p.name for p in asynchronous.params]:
            self.diagnostics.warning(location, f"{cls}.{name}: sync and async parameters differ")
        return sync, asynchronous

    def check_summary(self, location: str, member: str, summary: LiveSummary) -> bool:
        """Every summary attribute must be a property of the Python class (read, never called)."""
        for f in summary.fields:
            attribute = self.python.method(summary.python_class, f.python_attribute)
            if attribute is None or not attribute.is_property:
                self.diagnostics.error(
                    location,
                    f"{member}: the result summary reads {summary.python_class}.{f.python_attribute}, "
                    "which is not a property in this Python playwright",
                    "update generator/live_objects.py for this Playwright version",
                )
                return False
        return True

    def bind(
        self,
        location: str,
        member: str,
        method: PyMethod,
        params: tuple[ToolParam, ...],
        skip: frozenset[str],
    ) -> PythonBinding | None:
        python = f"{method.name}"
        call: list[CallArgument] = []
        kept: list[ToolParam] = []
        unmatched: list[ToolParam] = []
        for param in params:
            if param.wire_name in skip:
                kept.append(param)
                continue
            py = method.param(snake_case(param.wire_name)) or method.param(
                python_member(param.wire_name)
            )
            if py is None:
                singular = self._singular(location, member, method, param)
                if singular is None:
                    unmatched.append(param)
                    continue
                py, param = singular
            self._compare(
                f"{member}({param.wire_name})", python, param, py.has_default, py.annotation
            )
            typed_dict = self._typed_dict(py.annotation)
            literals = {v for values in literal_sets(py.annotation) for v in values}
            null_literal = (
                "null" if isinstance(param.type, Nullable) and "null" in literals else None
            )
            call.append(
                CallArgument(
                    py.name,
                    (param,),
                    python_typed_dict=typed_dict,
                    loosely_typed=typed_dict is None and self._loose(param.type, py.annotation),
                    null_literal=null_literal,
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
                self.diagnostics.error(
                    location,
                    f"{member}: required parameter '{param.wire_name}' has no counterpart in Python {python}",
                    "remove the entry; Java and Python disagree on this method",
                )
                return None
            self.diagnostics.info(
                f"{member}({param.wire_name})",
                f"option left out: Python {python} has no '{snake_case(param.wire_name)}'",
            )
        covered = {a.python_name for a in call}
        missing = [p.name for p in method.params if not p.has_default and p.name not in covered]
        if missing:
            self.diagnostics.error(
                location,
                f"{member}: Python {python} requires {', '.join(missing)}, which Java does not have",
                "remove the entry; Java and Python disagree on this method",
            )
            return None
        order = {p.wire_name: i for i, p in enumerate(params)}
        return PythonBinding(tuple(call), tuple(sorted(kept, key=lambda p: order[p.wire_name])))

    def _loose(self, node: TypeNode, annotation: str) -> bool:
        """Whether our precise JSON type and Python's annotation differ in form though they accept
        the same values (JSON `Object` vs Python `Dict`, our TypedDicts inside Python's
        `Sequence[SetCookieParam]`, a union written differently): then the shim passes it as Any."""
        if normal_annotation(annotation) == "Any":
            return False
        loose = any(isinstance(n, AnyJson | OneOf | ObjectOf) for n in walk(node))
        return loose or any(name in annotation for name in self.python.typed_dicts)

    def _singular(
        self, location: str, member: str, method: PyMethod, param: ToolParam
    ) -> tuple[PyParam, ToolParam] | None:
        """Java's plural parameter under Python's singular name (`selectOption(values)` is
        `select_option(value=...)`), keeping only the union members Python's annotation takes."""
        name = snake_case(param.wire_name)
        py = method.param(name[:-1]) if name.endswith("s") else None
        if py is None:
            return None
        options = param.type.options if isinstance(param.type, OneOf) else (param.type,)
        kept = tuple(o for o in options if self._takes(o, py.annotation))
        if not kept:
            return None
        dropped = [o for o in options if o not in kept]
        if dropped:
            names = ", ".join(typescript.type_expression(o) for o in dropped)
            self.diagnostics.info(
                location,
                f"{member}: Java '{param.wire_name}' is Python '{py.name}', which takes no {names} members; "
                "those overloads are left out",
            )
        narrowed = kept[0] if len(kept) == 1 else OneOf(kept)
        return py, ToolParam(param.wire_name, narrowed, param.required, param.description)

    def _takes(self, node: TypeNode, annotation: str) -> bool:
        """Whether Python's annotation can take JSON objects, where `node` contains one."""
        if not any(isinstance(n, ObjectOf | MapOf) for n in walk(node)):
            return True
        return any(
            word in annotation for word in ("Dict", "Mapping", "Any", *self.python.typed_dicts)
        )

    def _typed_dict(self, annotation: str) -> str | None:
        name = annotation.removeprefix("typing.Optional[").removesuffix("]")
        return name if name in self.python.typed_dicts else None

    def _pack(
        self, method: PyMethod, unmatched: list[ToolParam], taken: set[str]
    ) -> CallArgument | None:
        wanted = {snake_case(p.wire_name) for p in unmatched}
        for py in method.params:
            name = self._typed_dict(py.annotation)
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
        self, where: str, python: str, param: ToolParam, py_optional: bool, annotation: str
    ) -> None:
        """Report where Java and Python disagree on one parameter (the binding still follows Java)."""
        if not param.required and not py_optional:
            self.diagnostics.warning(where, f"optional in Java but required by Python {python}")
        if isinstance(param.type, EnumOf):
            python_values = {v for values in literal_sets(annotation) for v in values}
            if python_values and python_values != set(param.type.values):
                self.diagnostics.warning(
                    where,
                    f"enum values differ: Java {sorted(param.type.values)}, Python {sorted(python_values)}",
                )
