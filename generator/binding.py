"""Binds allowlist entries to the Java and Python surfaces and produces Tools plus diagnostics.

For each entry: find the Java overloads, refuse callbacks and events, merge overloads (flattening
`*Options` fields into optional parameters, dropping overloads whose types cannot cross JSON), lower
the types, then find the Python counterpart and decide how each parameter reaches it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from generator.allowlist import Allowlist, AllowlistEntry
from generator.diagnostics import Diagnostics
from generator.ir import CallArgument, Tool, ToolParam
from generator.java_model import JavaInterface, JavaMethod, JavaSurface
from generator.lowering import Lowerer, Unlowerable, enum_wire_values, literal_sets
from generator.names import ToolName, snake_case
from generator.python_api import PyMethod, PythonSurface
from generator.type_tree import EnumOf, TypeNode

_EVENT_METHOD = re.compile(r"^(on|off|once)[A-Z]")
_HAND_AUTHOR = "hand-author this tool; callbacks and events cannot cross a tool boundary"


@dataclass
class _MergedParam:
    wire_name: str
    types: list[TypeNode]
    present_in: int
    description: str
    optional_field: bool


class Binder:
    """Holds the surfaces and produces Tools; one instance per generator run."""

    def __init__(self, java: JavaSurface, python: PythonSurface, diagnostics: Diagnostics) -> None:
        self.java = java
        self.python = python
        self.diagnostics = diagnostics
        self.lowerer = Lowerer(java, enum_wire_values(python))

    def bind_all(self, allowlist: Allowlist) -> list[Tool]:
        tools: dict[str, Tool] = {}
        for entry in allowlist.entries:
            tool = self.bind(entry)
            if tool is None:
                continue
            clash = tools.get(tool.name.value)
            if clash is not None:
                self.diagnostics.error(
                    entry.location,
                    f"tool name '{tool.name}' is already used by the entry at {clash.source}",
                    "give one of the two entries a different 'name:'",
                )
                continue
            tools[tool.name.value] = tool
        return [tools[name] for name in sorted(tools)]

    # --- one entry --------------------------------------------------------------------------------

    def bind(self, entry: AllowlistEntry) -> Tool | None:
        interface = self.java.interface(entry.target.java_class)
        if interface is None:
            self.diagnostics.error(entry.location, f"{entry.target.java_class} was not reflected")
            return None
        overloads = interface.overloads(entry.method)
        if not overloads:
            self._unknown_method(entry, interface)
            return None
        member = f"{interface.name}#{entry.method}"
        if _EVENT_METHOD.match(entry.method):
            self.diagnostics.error(
                entry.location,
                f"{member} registers an event listener and cannot be generated",
                _HAND_AUTHOR,
            )
            return None
        if not all(m.has_parameter_names for m in overloads):
            self.diagnostics.error(
                entry.location,
                f"{member}: the JAR has no parameter names for this method",
                "use a JAR compiled with 'javac -parameters' (the published Playwright JAR is)",
            )
            return None
        merged = self._merge(entry, member, overloads)
        if merged is None:
            return None
        params, signatures, result_overload = merged
        result = self.lowerer.lower_result(result_overload.returns)
        if isinstance(result, Unlowerable):
            self.diagnostics.error(
                entry.location,
                f"{member}: result type {result.java_type}: {result.reason}",
                "remove the entry",
            )
            return None
        python_name = snake_case(entry.method)
        call = self._bind_python(entry, member, python_name, params)
        if call is None:
            return None
        documented = max(overloads, key=lambda m: (bool(m.doc.text), len(m.params)))
        return Tool(
            name=ToolName(entry.name or entry.target.tool_prefix + entry.method),
            description=self._description(entry, documented),
            surface_to_llm=entry.surface_to_llm,
            is_recordable=entry.is_recordable,
            target=entry.target,
            java_method=entry.method,
            java_signatures=signatures,
            python_method=python_name,
            params=params,
            call=call,
            result=result[0],
            result_note=result[1],
            source=entry.location,
        )

    @staticmethod
    def _description(entry: AllowlistEntry, documented: JavaMethod) -> str:
        """The override, else the javadoc; a method with neither still says what it calls."""
        if entry.description is not None:
            return entry.description
        fallback = f"Calls Playwright's `{entry.target.java_interface}.{entry.method}()`."
        return documented.doc.text or fallback

    def _unknown_method(self, entry: AllowlistEntry, interface: JavaInterface) -> None:
        names = interface.method_names
        same_but_case = [n for n in names if n.lower() == entry.method.lower()]
        close = same_but_case or difflib.get_close_matches(entry.method, names, n=3, cutoff=0.6)
        hint = (
            f"did you mean {', '.join(f'{entry.target.prefix}.{n}' for n in close)}?"
            if close
            else ""
        )
        self.diagnostics.error(
            entry.location,
            f"{interface.name} has no method '{entry.method}'",
            hint or "check the Playwright Java API",
        )

    # --- overloads --------------------------------------------------------------------------------

    def _merge(
        self, entry: AllowlistEntry, member: str, overloads: tuple[JavaMethod, ...]
    ) -> tuple[tuple[ToolParam, ...], tuple[str, ...], JavaMethod] | None:
        kept: list[JavaMethod] = []
        merged: dict[str, _MergedParam] = {}
        callbacks: list[str] = []
        for overload in overloads:
            lowered = self._lower_overload(entry, member, overload)
            if lowered is None:
                callbacks += self._callbacks(overload)
                continue
            kept.append(overload)
            for wire_name, node, description, optional_field in lowered:
                slot = merged.setdefault(
                    wire_name, _MergedParam(wire_name, [], 0, description, optional_field)
                )
                if node not in slot.types:
                    slot.types.append(node)
                slot.present_in += 0 if optional_field else 1
                slot.description = slot.description or description
        if not kept:
            if callbacks:
                message = f"{member} cannot be generated: every overload takes a callback ({callbacks[0]})"
                self.diagnostics.error(entry.location, message, _HAND_AUTHOR)
            else:
                message = (
                    f"{member} cannot be generated: no overload has parameters that can cross JSON"
                )
                self.diagnostics.error(entry.location, message, "remove the entry")
            return None
        params = []
        for slot in merged.values():
            if len(slot.types) > 1:
                self.diagnostics.error(
                    entry.location,
                    f"{member}: parameter '{slot.wire_name}' has different types in different overloads",
                    "this overload shape is not supported yet; remove the entry",
                )
                return None
            required = slot.present_in == len(kept) and not slot.optional_field
            params.append(ToolParam(slot.wire_name, slot.types[0], required, slot.description))
        # Required parameters first keeps Python dataclass fields valid and matches call order.
        params.sort(key=lambda p: not p.required)
        signatures = tuple(f"{member.split('#')[0]}#{m.signature}" for m in kept)
        return tuple(params), signatures, max(kept, key=lambda m: len(m.params))

    def _callbacks(self, overload: JavaMethod) -> list[str]:
        """The callback parameters of an overload, as `Page#route(String, Consumer): Consumer<Route>`."""
        found = []
        for param in overload.params:
            lowered = self.lowerer.lower(param.type)
            if isinstance(lowered, Unlowerable) and lowered.callback:
                found.append(f"{overload.signature} takes {param.type}")
        return found

    def _lower_overload(
        self, entry: AllowlistEntry, member: str, overload: JavaMethod
    ) -> list[tuple[str, TypeNode, str, bool]] | None:
        """The overload's parameters as (wire name, type, description, from-options), or None if dropped."""
        out: list[tuple[str, TypeNode, str, bool]] = []
        where = f"{member.split('#')[0]}#{overload.signature}"
        for param in overload.params:
            assert param.name is not None
            if (
                param.type.name.endswith("Options")
                and self.java.struct(param.type.name) is not None
            ):
                struct = self.java.struct(param.type.name)
                assert struct is not None
                for f in struct.fields:
                    lowered = self.lowerer.lower(f.type)
                    if isinstance(lowered, Unlowerable):
                        self.diagnostics.info(
                            where, f"option '{f.name}' ({f.type}) is left out: {lowered.reason}"
                        )
                        continue
                    out.append((f.name, lowered, f.doc, True))
                continue
            lowered = self.lowerer.lower(param.type)
            if isinstance(lowered, Unlowerable):
                self.diagnostics.info(
                    where,
                    f"overload left out: parameter '{param.name}' ({lowered.java_type}): {lowered.reason}",
                )
                return None
            out.append((param.name, lowered, overload.doc.param(param.name), False))
        return out

    # --- Python -----------------------------------------------------------------------------------

    def _bind_python(
        self, entry: AllowlistEntry, member: str, python_name: str, params: tuple[ToolParam, ...]
    ) -> tuple[CallArgument, ...] | None:
        cls = entry.target.python_class
        sync = self.python.method(cls, python_name)
        asynchronous = self.python.method(cls, python_name, asynchronous=True)
        if sync is None or asynchronous is None:
            self.diagnostics.error(
                entry.location,
                f"{member}: the Python playwright {self.python.version} has no {cls}.{python_name}",
                "align the Python playwright version with the JAR, or remove the entry",
            )
            return None
        if [p.name for p in sync.params] != [p.name for p in asynchronous.params]:
            self.diagnostics.warning(
                entry.location, f"{cls}.{python_name}: sync and async parameters differ"
            )
        call: list[CallArgument] = []
        unmatched: list[ToolParam] = []
        for param in params:
            py = sync.param(snake_case(param.wire_name))
            if py is None:
                unmatched.append(param)
                continue
            self._compare(
                f"{member}({param.wire_name})",
                f"{cls}.{python_name}",
                param,
                py.has_default,
                py.annotation,
            )
            typed_dict = self._typed_dict(py.annotation)
            call.append(CallArgument(py.name, (param,), python_typed_dict=typed_dict))
        if unmatched:
            packed = self._pack(sync, unmatched, {a.python_name for a in call})
            if packed is None:
                names = ", ".join(p.wire_name for p in unmatched)
                self.diagnostics.error(
                    entry.location,
                    f"{member}: parameter(s) {names} have no counterpart in Python {cls}.{python_name}",
                    "remove the entry, or report the mismatch",
                )
                return None
            self.diagnostics.info(
                entry.location,
                f"{member}: Java parameters {', '.join(p.wire_name for p in unmatched)} are passed to Python "
                f"as one '{packed.python_name}' object",
            )
            call.append(packed)
        covered = {a.python_name for a in call}
        missing = [p.name for p in sync.params if not p.has_default and p.name not in covered]
        if missing:
            self.diagnostics.error(
                entry.location,
                f"{member}: Python {cls}.{python_name} requires {', '.join(missing)}, which Java does not have",
                "remove the entry, or report the mismatch",
            )
            return None
        return tuple(call)

    def _typed_dict(self, annotation: str) -> str | None:
        name = annotation.removeprefix("typing.Optional[").removesuffix("]")
        return name if name in self.python.typed_dicts else None

    def _pack(
        self, sync: PyMethod, unmatched: list[ToolParam], taken: set[str]
    ) -> CallArgument | None:
        wanted = {snake_case(p.wire_name) for p in unmatched}
        for py in sync.params:
            name = self._typed_dict(py.annotation)
            typed_dict = self.python.typed_dicts[name] if name else None
            if py.name in taken or typed_dict is None:
                continue
            keys = [name for name, _ in typed_dict.fields]
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
        if param.required is False and not py_optional:
            self.diagnostics.warning(where, f"optional in Java but required by Python {python}")
        if param.required and py_optional:
            self.diagnostics.info(where, f"required in Java, optional in Python {python}")
        if isinstance(param.type, EnumOf):
            python_values = {v for values in literal_sets(annotation) for v in values}
            if python_values and python_values != set(param.type.values):
                self.diagnostics.warning(
                    where,
                    f"enum values differ: Java {sorted(param.type.values)}, Python {sorted(python_values)}",
                )
