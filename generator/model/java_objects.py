"""How a tool's JSON objects become the Java objects Playwright takes: the constructor and setters
reflected from the JAR, recorded in the IR (`JavaObject`) for writers that call Java themselves
(the Kotlin shims).

Reads the Java surface and the lowered parameter types only; what cannot be built (no public
constructor that takes exactly the required fields, a field without a public setter) is recorded
as such, and the writer decides what to do about it.
"""

from __future__ import annotations

from generator.model.ir import JavaArgument, JavaObject, JavaSetter, ToolParam
from generator.model.lowering import Lowerer, Unlowerable, simple_name
from generator.model.overloads import options_struct
from generator.model.python_binding import RENAMED
from generator.model.type_tree import ObjectOf, walk
from generator.read.java_model import JavaMethod, JavaStruct, JavaSurface


def setter_name(field: str) -> str:
    """The setter reflection pairs with a field (`java_reflect` reads `setUrl` as field `url`)."""
    return "set" + field[:1].upper() + field[1:]


class JavaObjects:
    """Builds the `JavaObject`s of tools against one Java surface; one instance per run."""

    def __init__(self, java: JavaSurface, lowerer: Lowerer) -> None:
        self._java = java
        self._lowerer = lowerer
        self._by_name = {simple_name(s.name): s for s in java.structs}

    def of_params(self, params: tuple[ToolParam, ...]) -> tuple[JavaObject, ...]:
        """The object types of `params`, at any depth, each once, sorted by name."""
        names = {n.name for p in params for n in walk(p.type) if isinstance(n, ObjectOf)}
        found = [self._by_name.get(name) for name in sorted(names)]
        return tuple(self.build(s, simple_name(s.name)) for s in found if s is not None)

    def of_options(self, kept: tuple[JavaMethod, ...]) -> JavaObject | None:
        """The `*Options` argument of the overloads, with its setters by tool parameter name (a
        field the tool renames, `pollingInterval`, under the tool's name, `polling`)."""
        for overload in kept:
            for param in overload.params:
                struct = options_struct(self._java, param.type.name)
                if struct is not None:
                    return self.build(struct, str(param.type), RENAMED)
        return None

    def build(
        self, struct: JavaStruct, name: str, renamed: dict[str, str] | None = None
    ) -> JavaObject:
        renamed = renamed or {}
        constructor = self._constructor(struct)
        taken = {a.wire_name for a in constructor or ()}
        setters = []
        for f in struct.fields:
            if f.name in taken:
                continue
            for java_type in f.setter_types:
                lowered = self._lowerer.lower(java_type)
                if isinstance(lowered, Unlowerable):
                    continue  # `setDomain(Pattern)`: no JSON value is one
                wire = renamed.get(f.name, f.name)
                setters.append(
                    JavaSetter(setter_name(f.name), JavaArgument(wire, str(java_type), lowered))
                )
        return JavaObject(name, _source_name(struct.name), constructor, tuple(setters))

    def _constructor(self, struct: JavaStruct) -> tuple[JavaArgument, ...] | None:
        """The public constructor that takes exactly the required fields (a field is required
        when every constructor takes it), when there is one, it names its parameters and each of
        them has a JSON form."""
        required = {f.name for f in struct.fields if f.required}
        for params in struct.constructors:
            names = [p.name for p in params]
            if set(names) != required or len(names) != len(required):
                continue
            arguments = []
            for param in params:
                lowered = self._lowerer.lower(param.type)
                if isinstance(lowered, Unlowerable):
                    return None
                arguments.append(JavaArgument(str(param.name), str(param.type), lowered))
            return tuple(arguments)
        return None


def _source_name(binary: str) -> str:
    """`com.microsoft.playwright.Page$ClickOptions` -> `com.microsoft.playwright.Page.ClickOptions`."""
    return binary.replace("$", ".")
