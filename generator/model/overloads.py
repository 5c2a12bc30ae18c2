"""Merges a Java method's overloads into one parameter list.

Parameters present in every kept overload are required, the rest optional; `*Options` fields become
optional parameters; an overload with a parameter that cannot cross JSON is left out (with a note);
the same parameter with different types in different overloads becomes a `OneOf`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.model.ir import ToolParam
from generator.model.lowering import Lowerer, Unlowerable
from generator.model.type_tree import ListOf, LocatorSelector, OneOf, TypeNode, walk
from generator.read.java_model import JavaMethod, JavaStruct, JavaSurface
from generator.shared.diagnostics import Diagnostics


@dataclass
class _Slot:
    wire_name: str
    types: list[TypeNode] = field(default_factory=list)
    present_in: int = 0
    description: str = ""
    from_options: bool = False


@dataclass(frozen=True)
class Merged:
    """The merged parameters (required first, then in order of appearance), the overloads kept,
    and the callbacks found in overloads that were left out (for the refusal message)."""

    params: tuple[ToolParam, ...]
    kept: tuple[JavaMethod, ...]
    callbacks: tuple[str, ...]


def options_struct(java: JavaSurface, overload_param_type: str) -> JavaStruct | None:
    """The `*Options` class a parameter of this type is, if it is one (flattened into the tool)."""
    if not overload_param_type.endswith("Options"):
        return None
    return java.struct(overload_param_type)


def _selectors_on_top(node: TypeNode | Unlowerable, java_type: str) -> TypeNode | Unlowerable:
    """A Locator argument becomes `page.locator(selector)` in the shim, which is written only for
    a parameter that is a selector or a list of them; deeper ones are refused."""
    if isinstance(node, Unlowerable):
        return node
    top = node.item if isinstance(node, ListOf) else node
    inner = walk(top)[1:] if isinstance(top, LocatorSelector) else walk(top)
    if any(isinstance(n, LocatorSelector) for n in inner):
        return Unlowerable(java_type, "a Locator nested inside another value cannot be passed")
    return node


class OverloadMerger:
    def __init__(self, java: JavaSurface, lowerer: Lowerer, diagnostics: Diagnostics) -> None:
        self.java = java
        self.lowerer = lowerer
        self.diagnostics = diagnostics

    def merge(self, owner: str, overloads: tuple[JavaMethod, ...]) -> Merged:
        kept: list[JavaMethod] = []
        slots: dict[str, _Slot] = {}
        callbacks: list[str] = []
        for overload in overloads:
            lowered = self._lower_overload(f"{owner}#{overload.signature}", overload)
            if lowered is None:
                callbacks += self._callbacks(overload)
                continue
            kept.append(overload)
            for wire_name, node, description, from_options in lowered:
                slot = slots.setdefault(wire_name, _Slot(wire_name, from_options=from_options))
                if node not in slot.types:
                    slot.types.append(node)
                slot.present_in += 0 if from_options else 1
                slot.description = slot.description or description
        params = [
            ToolParam(
                slot.wire_name,
                slot.types[0] if len(slot.types) == 1 else OneOf(tuple(slot.types)),
                slot.present_in == len(kept) and not slot.from_options,
                slot.description,
            )
            for slot in slots.values()
        ]
        params.sort(key=lambda p: not p.required)
        return Merged(tuple(params), tuple(kept), tuple(callbacks))

    def _callbacks(self, overload: JavaMethod) -> list[str]:
        """Callback parameters of an overload, as `route(Pattern, Consumer<Route>) takes Consumer<Route>`."""
        found = []
        for param in overload.params:
            if options_struct(self.java, param.type.name) is not None:
                continue  # callback fields of options are dropped, not fatal
            lowered = self.lowerer.lower(param.type)
            if isinstance(lowered, Unlowerable) and lowered.callback:
                found.append(f"{overload.signature} takes {param.type}")
        return found

    def _lower_overload(
        self, where: str, overload: JavaMethod
    ) -> list[tuple[str, TypeNode, str, bool]] | None:
        """Parameters as (wire name, type, description, from options), or None to leave it out."""
        out: list[tuple[str, TypeNode, str, bool]] = []
        for param in overload.params:
            assert param.name is not None
            struct = options_struct(self.java, param.type.name)
            if struct is not None:
                for f in struct.fields:
                    lowered = _selectors_on_top(self.lowerer.lower_field(f), f.type.qualified)
                    if isinstance(lowered, Unlowerable):
                        self.diagnostics.info(
                            where, f"option '{f.name}' ({f.type}) is left out: {lowered.reason}"
                        )
                        continue
                    out.append((f.name, lowered, f.doc, True))
                continue
            lowered = _selectors_on_top(self.lowerer.lower(param.type), param.type.qualified)
            if isinstance(lowered, Unlowerable):
                self.diagnostics.info(
                    where,
                    f"overload left out: parameter '{param.name}' ({lowered.java_type}): {lowered.reason}",
                )
                return None
            out.append((param.name, lowered, overload.doc.param(param.name), False))
        return out
