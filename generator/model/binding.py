"""Binds allowlist entries to the Java and Python surfaces, producing Tools plus diagnostics.

For each entry: find the Java overloads, refuse events and callbacks, merge the overloads
(`overloads`), lower the result, then bind the Python counterpart (`python_binding`).
"""

from __future__ import annotations

import dataclasses
import re

from generator.model.ir import CallArgument, DescriptionFrom, Tool, ToolParam
from generator.model.java_objects import JavaObjects
from generator.model.lowering import Lowerer, Unlowerable, enum_wire_values
from generator.model.model_text import ModelText
from generator.model.overloads import OverloadMerger
from generator.model.python_binding import PythonBinder
from generator.model.refusal import Refusal, RefusalKind, refuse
from generator.model.type_tree import Scalar
from generator.read.allowlist import Allowlist, AllowlistEntry
from generator.read.java_model import JavaInterface, JavaMethod, JavaSurface
from generator.read.python_api import PyMethod, PythonSurface
from generator.shared.diagnostics import Diagnostics, ExitCode, GeneratorError
from generator.shared.names import ToolName, python_member, snake_case

EVENT_METHOD = re.compile(r"^(on|off|once)[A-Z]")
# Methods that wait for a person at the browser; as tools they would hang an agent.
INTERACTIVE = {
    "pause": "opens the Playwright Inspector and waits for a person to resume",
    "pickLocator": "waits for a person to pick an element in the browser",
}
HAND_AUTHOR = "hand-author this tool; callbacks and events cannot cross a tool boundary"
SELECTOR = ToolParam(
    "selector",
    Scalar("string"),
    True,
    "A selector that locates the element(s) to act on, as `page.locator(selector)` takes it,"
    " or a selector handle that a web_getBy*, web_locator* or web_frameLocator tool returned.",
)


def _python_param_docs(
    params: tuple[ToolParam, ...], call: tuple[CallArgument, ...], method: PyMethod
) -> tuple[ToolParam, ...]:
    """`params`, each without a javadoc description given the Python docstring's text for the
    Python parameter it is passed as (a sources JAR is not always published), with that text's
    Python parameter names written as the tool's."""
    python_names = {
        p.wire_name: (call_argument.python_name if not call_argument.packed_keys else "")
        for call_argument in call
        for p in call_argument.params
    }
    filled = []
    for param in params:
        if not param.description:
            text = method.param_doc(python_names.get(param.wire_name) or "") or method.param_doc(
                snake_case(param.wire_name)
            )
            if text:
                param = dataclasses.replace(param, description=text)
        filled.append(param)
    wire = _wire_names(tuple(filled))
    return tuple(_tool_names_in_prose_param(p, wire) for p in filled)


def _with_descriptions(
    call: tuple[CallArgument, ...], params: tuple[ToolParam, ...]
) -> tuple[CallArgument, ...]:
    """`call` with each parameter's description as `params` has it (unchanged parts kept as the
    same objects)."""
    texts = {p.wire_name: p.description for p in params}
    rebuilt = []
    for argument in call:
        inner = tuple(
            p
            if texts.get(p.wire_name, p.description) == p.description
            else dataclasses.replace(p, description=texts[p.wire_name])
            for p in argument.params
        )
        same = all(a is b for a, b in zip(inner, argument.params, strict=True))
        rebuilt.append(argument if same else dataclasses.replace(argument, params=inner))
    return tuple(rebuilt)


_CODE_SPAN = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`")


def _wire_names(params: tuple[ToolParam, ...]) -> dict[str, str]:
    """{Python's snake_case name: the tool's wire name} of `params`."""
    return {snake_case(p.wire_name): p.wire_name for p in params}


def _tool_names_in_prose(text: str, wire: dict[str, str]) -> str:
    """Python's snake_case parameter names in `text` (`run_before_unload`) as the tool's wire
    names (`runBeforeUnload`, from `_wire_names`): the names a caller of the tool types."""
    if "`" not in text:
        return text
    return _CODE_SPAN.sub(lambda m: f"`{wire.get(m.group(1), m.group(1))}`", text)


def _tool_names_in_prose_param(param: ToolParam, wire: dict[str, str]) -> ToolParam:
    renamed = _tool_names_in_prose(param.description, wire)
    return (
        param if renamed == param.description else dataclasses.replace(param, description=renamed)
    )


class Binder:
    """Holds the surfaces and produces Tools; one instance per generator run. With `objects`
    false, tools carry no Java object recipes (`java_objects`, `java_options`): only the Kotlin
    writer reads them, so a run that writes no Kotlin does not reflect on them."""

    def __init__(
        self,
        java: JavaSurface,
        python: PythonSurface,
        diagnostics: Diagnostics,
        lowerer: Lowerer | None = None,
        objects: bool = True,
    ) -> None:
        self.java = java
        self.python_surface = python
        self.diagnostics = diagnostics
        self.lowerer = lowerer or Lowerer(java, enum_wire_values(python))
        self.merger = OverloadMerger(java, self.lowerer, diagnostics)
        self.python = PythonBinder(python, diagnostics)
        self.java_objects = JavaObjects(java, self.lowerer) if objects else None

    def with_diagnostics(self, diagnostics: Diagnostics) -> Binder:
        """The same binder reporting elsewhere, without Java object recipes: the surface report
        probes with scratch diagnostics, for why a method is or is not a tool."""
        return Binder(self.java, self.python_surface, diagnostics, self.lowerer, objects=False)

    def bind_all(self, allowlist: Allowlist) -> list[Tool]:
        tools: dict[str, Tool] = {}
        modules: dict[str, Tool] = {}
        for entry in allowlist.entries:
            tool = self.bind(entry)
            if isinstance(tool, Refusal):
                continue
            clash = (
                tools.get(tool.name.value)
                or modules.get(tool.name.module_name)
                or modules.get("class:" + tool.name.class_name)
            )
            if clash is not None:
                self.diagnostics.error(
                    entry.location,
                    f"tool name '{tool.name}' is already used, or gives the same Python module or class, by "
                    f"'{clash.name}' (the entry at {clash.source})",
                    "give one of the two entries a different 'name:'",
                )
                continue
            tools[tool.name.value] = tool
            modules[tool.name.module_name] = tool
            modules["class:" + tool.name.class_name] = tool

        # Descriptions name other tools, so they are rewritten once every name is known.
        def is_property(cls: str, member: str) -> bool:
            method = self.python_surface.method(cls, member)
            return method is not None and method.is_property

        names = {(t.target.java_interface, t.java_method): n for n, t in tools.items()}
        text = ModelText(names, is_property)
        return [text.apply(tools[name]) for name in sorted(tools)]

    @staticmethod
    def _never(entry: AllowlistEntry) -> Refusal | None:
        """Why a method can never be a tool (an event, or waiting for a person), or None."""
        if EVENT_METHOD.match(entry.method):
            detail = "registers an event listener and cannot be generated"
            return Refusal(RefusalKind.EVENT, detail, HAND_AUTHOR)
        waits = INTERACTIVE.get(entry.method)
        if waits is not None:
            detail = f"{waits} and cannot be generated"
            return Refusal(RefusalKind.INTERACTIVE, detail, "remove the entry")
        return None

    def bind(self, entry: AllowlistEntry) -> Tool | Refusal:
        """The entry's tool, or why it cannot be one (also reported to the diagnostics)."""
        interface = self.java.interface(entry.target.java_class)
        if interface is None:
            return self._refuse(
                entry, entry.target.java_class, Refusal(RefusalKind.OTHER, "was not reflected"), " "
            )
        overloads = interface.overloads(entry.method)
        if not overloads:
            return self._unknown_method(entry, interface)
        member = f"{interface.name}#{entry.method}"
        never = self._never(entry)
        if never is not None:
            return self._refuse(entry, member, never, " ")
        if not all(m.has_parameter_names for m in overloads):
            detail = "the JAR has no parameter names for this method"
            hint = "use a JAR compiled with 'javac -parameters' (the published Playwright JAR is)"
            return self._refuse(entry, member, Refusal(RefusalKind.OTHER, detail, hint))
        merged = self.merger.merge(interface.name, overloads)
        if not merged.kept:
            if merged.callbacks:
                detail = (
                    f"cannot be generated: every overload takes a callback ({merged.callbacks[0]})"
                )
                refusal = Refusal(RefusalKind.CALLBACK, detail, HAND_AUTHOR)
            else:
                detail = "cannot be generated: no overload has parameters that can cross JSON"
                refusal = Refusal(RefusalKind.OTHER, detail, "remove the entry")
            return self._refuse(entry, member, refusal, " ")
        params = merged.params
        if entry.target.selector_param:
            if any(p.wire_name == SELECTOR.wire_name for p in params):
                refusal = Refusal(RefusalKind.OTHER, "already has a 'selector' parameter")
                return self._refuse(entry, member, refusal, " ")
            params = (SELECTOR, *params)
        python_name = python_member(entry.method)
        methods = self.python.counterpart(
            entry.location, member, entry.target.python_class, python_name
        )
        if isinstance(methods, Refusal):
            return self._refuse(entry, member, methods)
        method, async_method = methods
        returns = {m.returns.qualified for m in merged.kept}
        if len(returns) > 1:
            detail = f"overloads return different types {sorted(returns)}"
            return self._refuse(entry, member, Refusal(RefusalKind.OTHER, detail))
        result = self.lowerer.lower_result(merged.kept[0].returns, method.returns)
        if isinstance(result, Unlowerable):
            detail = f"result type {result.java_type}: {result.reason}"
            return self._refuse(
                entry, member, Refusal(RefusalKind.OTHER, detail, "remove the entry")
            )
        summary = result.shape.summary
        if summary is not None:
            unreadable = self.python.check_summary(summary)
            if unreadable is not None:
                return self._refuse(entry, member, unreadable)
        skip = frozenset({SELECTOR.wire_name}) if entry.target.selector_param else frozenset()
        binding = self.python.bind(entry.location, member, method, params, skip)
        if isinstance(binding, Refusal):
            return self._refuse(entry, member, binding)
        documented = max(overloads, key=lambda m: (bool(m.doc.text), len(m.params)))
        description, description_from = self._description(entry, documented, method)
        params = binding.params
        if not self.java.documented:  # no sources JAR: the Python docstrings' Parameters
            params = _python_param_docs(params, binding.call, method)
        if description_from == "python":
            description = _tool_names_in_prose(description, _wire_names(params))
        tool = Tool(
            name=ToolName(entry.name or entry.target.tool_prefix + entry.method),
            description=description,
            description_from=description_from,
            surface_to_llm=entry.surface_to_llm,
            is_recordable=entry.is_recordable,
            trailblaze=entry.trailblaze,
            trailblaze_face=entry.trailblaze_face,
            java_pattern_overloads=tuple(
                f"{interface.name}#{m.signature}" for m in overloads if "Pattern" in m.signature
            ),
            target=entry.target,
            java_method=entry.method,
            java_signatures=tuple(f"{interface.name}#{m.signature}" for m in merged.kept),
            python_method=python_name,
            python_is_property=method.is_property,
            python_awaitable=async_method.is_async,
            params=params,
            call=_with_descriptions(binding.call, params),
            result=result.type,
            result_shape=result.shape,
            result_note=result.note,
            source=entry.location,
            java_objects=self.java_objects.of_params(binding.params) if self.java_objects else (),
            java_options=self.java_objects.of_options(merged.kept) if self.java_objects else None,
        )
        if not entry.wire_names:
            return tool
        return _on_the_wire(tool, entry)

    def _refuse(
        self, entry: AllowlistEntry, member: str, refusal: Refusal, separator: str = ": "
    ) -> Refusal:
        return refuse(self.diagnostics, entry.location, member, refusal, separator)

    def _description(
        self, entry: AllowlistEntry, documented: JavaMethod, python: PyMethod
    ) -> tuple[str, DescriptionFrom]:
        """The override, else the javadoc, else the Python docstring's prose, and which it is; a
        method with none of them says what it reads or runs, with a note (shown with -v) to give it
        a `description:`."""
        if entry.description is not None:
            return entry.description, "allowlist"
        if documented.doc.text:
            return documented.doc.text, "javadoc"
        if python.doc:
            return python.doc, "python"
        member = f"{entry.target.prefix}.{python.name}"
        self.diagnostics.info(
            entry.location,
            f"{entry.target.prefix}.{entry.method} has no javadoc and no Python docstring",
            "give the entry a 'description:' in allowlist.yaml",
        )
        if python.is_property:
            return f"Returns the value of `{member}`.", "generated"
        return f"Runs `{member}()`.", "generated"

    def _unknown_method(self, entry: AllowlistEntry, interface: JavaInterface) -> Refusal:
        import difflib  # only an unknown method asks for close names: not imported by every run

        names = interface.method_names
        same_but_case = [n for n in names if n.lower() == entry.method.lower()]
        close = same_but_case or difflib.get_close_matches(entry.method, names, n=3, cutoff=0.6)
        suggestions = ", ".join(f"{entry.target.prefix}.{n}" for n in close)
        hint = f"did you mean {suggestions}?" if close else "check the Playwright Java API"
        refusal = Refusal(RefusalKind.OTHER, f"has no method '{entry.method}'", hint)
        return self._refuse(entry, interface.name, refusal, " ")


def _on_the_wire(tool: Tool, entry: AllowlistEntry) -> Tool:
    """`tool` with the allowlist's `wireNames` applied: each named parameter takes its new JSON
    key in every output (the Python call, the Java setters and the prose that names it keep
    their own), so a tool can keep a consumer's existing wire shape (`web_evaluate`'s `script`)."""
    names = [p.wire_name for p in tool.params]
    for old, new in entry.wire_names:
        if old not in names:
            raise GeneratorError(
                f"{entry.location}: wireNames names '{old}', which is no parameter of "
                f"{tool.name.value} (its parameters: {', '.join(names) or 'none'}).",
                ExitCode.USER_INPUT,
            )
        if new in names and new != old and new not in dict(entry.wire_names):
            raise GeneratorError(
                f"{entry.location}: wireNames gives '{old}' the name '{new}', which "
                f"{tool.name.value} already has; choose another.",
                ExitCode.USER_INPUT,
            )
        if tool.target.selector_param and old == "selector":
            raise GeneratorError(
                f"{entry.location}: wireNames cannot rename 'selector', the locator every "
                f"{tool.target.prefix} tool is called on; remove it.",
                ExitCode.USER_INPUT,
            )
    renamed = dict(entry.wire_names)

    def prose(text: str) -> str:
        for old, new in entry.wire_names:
            text = text.replace(f"`{old}`", f"`{new}`")
        return text

    def param(p: ToolParam) -> ToolParam:
        return dataclasses.replace(
            p, wire_name=renamed.get(p.wire_name, p.wire_name), description=prose(p.description)
        )

    options = tool.java_options
    if options is not None:
        options = dataclasses.replace(
            options,
            setters=tuple(
                dataclasses.replace(
                    s,
                    argument=dataclasses.replace(
                        s.argument,
                        wire_name=renamed.get(s.argument.wire_name, s.argument.wire_name),
                    ),
                )
                for s in options.setters
            ),
        )
    return dataclasses.replace(
        tool,
        description=prose(tool.description),
        params=tuple(param(p) for p in tool.params),
        call=tuple(
            dataclasses.replace(c, params=tuple(param(p) for p in c.params)) for c in tool.call
        ),
        java_options=options,
        wire_renames=entry.wire_names,
    )
