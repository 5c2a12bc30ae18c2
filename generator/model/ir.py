"""The Tool IR: what every renderer reads. Built by `binding`, never by templates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.model.live_objects import LiveSummary
from generator.model.type_tree import TypeNode
from generator.read.trailblaze_face import TrailblazeFace
from generator.shared.names import ToolName, python_identifier, typescript_identifier
from generator.shared.targets import Target

DescriptionFrom = Literal["allowlist", "javadoc", "python", "generated"]
"""Where a tool's description came from: the allowlist's `description:`, the sources JAR's
javadoc, the Python docstring (when the release published no sources JAR), or made up by the
generator from the method's name."""


@dataclass(frozen=True)
class ToolParam:
    """One tool argument. `wire_name` is the JSON key (the Java parameter or option field name);
    `python_name` and `typescript_name` are escaped so that they are legal identifiers."""

    wire_name: str
    type: TypeNode
    required: bool
    description: str

    @property
    def python_name(self) -> str:
        return python_identifier(self.wire_name)

    @property
    def typescript_name(self) -> str:
        return typescript_identifier(self.wire_name)


@dataclass(frozen=True)
class CallArgument:
    """One keyword argument of the Python call: `python_name=<value>`.

    The value is the tool parameter `params[0]` when `packed_keys` is empty; otherwise it is a dict
    built from several tool parameters, `{packed_keys[i]: params[i]}` (Java `setViewportSize(width,
    height)` is Python `set_viewport_size(viewport_size={"width": .., "height": ..})`).
    `python_typed_dict` names the Python API's own TypedDict for this argument, when it has one:
    its required keys can differ from Java's (Python's `Geolocation` is `total=False`), so the shim
    hands the value over as that type. `loosely_typed` means the two annotations differ in form
    only, and the value is handed over as `Any`. `null_literal` is the Python value that stands for
    JSON null when Python uses None for "not given" (`emulate_media(media="null")` resets media).
    `spread_keys` pairs the keys of an object the value may be (or hold a list of) with the Python
    keywords they are passed as: `selectOption({"label": "Blue"})` is `select_option(label="Blue")`,
    while a value that is no object still goes to `python_name`.
    """

    python_name: str
    params: tuple[ToolParam, ...]
    packed_keys: tuple[str, ...] = ()
    python_typed_dict: str | None = None
    loosely_typed: bool = False
    null_literal: str | None = None
    spread_keys: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ResultShape:
    """How the Python return value becomes the tool's JSON result.

    `discard`: the tool returns null; `value`: the value is JSON already; `base64`: bytes, encoded;
    `summary` / `summaries`: one live object / a list of them, read through `summary`;
    `handle` / `handles`: one Locator or FrameLocator / a list of them, each as its selector handle
    (a string every `selector` parameter accepts). `nullable` means Python may return None, which
    stays null.
    """

    kind: Literal["discard", "value", "base64", "summary", "summaries", "handle", "handles"]
    summary: LiveSummary | None = None
    nullable: bool = False


@dataclass(frozen=True)
class JavaArgument:
    """A value a Java member takes: the JSON field `wire_name`, as the Java parameter type
    `java_type` (as a signature spells it: `double`, `Position`, `List<Cookie>`, `byte[]`) whose
    JSON form is `type`."""

    wire_name: str
    java_type: str
    type: TypeNode


@dataclass(frozen=True)
class JavaSetter:
    """The one-argument setter `method` (`setUrl`) that gives a Java object its field `argument`."""

    method: str
    argument: JavaArgument


@dataclass(frozen=True)
class JavaObject:
    """How a JSON object becomes the Java object that Playwright takes, as reflected from the JAR.

    `name` is the `ObjectOf` it builds (`Position`), or for a tool's `*Options` argument that
    class as signatures spell it (`Page.ClickOptions`); `java_class` is the class as source code
    names it (`com.microsoft.playwright.options.Position`). The object is made by the public
    constructor whose parameters are `constructor`, in order (`Position(x, y)`, `Margin()`), then
    each field that is given and not a constructor argument is set by one of `setters` (a field may
    have several, one per Java type: `setDomain(String)`). `constructor` is None when no public
    constructor takes exactly the object's required fields; a field with neither is missing
    from `setters` (no setter is public).
    """

    name: str
    java_class: str
    constructor: tuple[JavaArgument, ...] | None
    setters: tuple[JavaSetter, ...]


@dataclass(frozen=True)
class Tool:
    """A tool ready to render. Parameters are in call order; names are unique within the tool.

    `java_signatures` lists the overloads merged into it, `python_method` is the snake_case member
    of `target.receiver` (a property when `python_is_property`, read rather than called), and
    `result_note` says what of the Java result the tool leaves out. `java_objects` says how each
    object type of the parameters (`ObjectOf`, at any depth) is built in Java, sorted by name, and
    `java_options` how the `*Options` argument is, when the Java method takes one (its setters are
    by tool parameter name). `description_from` says where the description came from.
    """

    name: ToolName
    description: str
    surface_to_llm: bool
    is_recordable: bool
    target: Target
    java_method: str
    java_signatures: tuple[str, ...]
    python_method: str
    python_is_property: bool
    python_awaitable: bool
    params: tuple[ToolParam, ...]
    call: tuple[CallArgument, ...]
    result: TypeNode
    result_shape: ResultShape
    result_note: str
    source: str
    java_objects: tuple[JavaObject, ...] = ()
    java_options: JavaObject | None = None
    description_from: DescriptionFrom = "javadoc"
    trailblaze: str = ""
    """The allowlist's `trailblaze:` ("", "skip" or "replace"): see AllowlistEntry."""
    wire_renames: tuple[tuple[str, str], ...] = ()
    """The allowlist's `wireNames` applied to `params`: (Playwright's name, the name on the
    wire) pairs, so that what the allowlist may rename can be said of the tool."""
    trailblaze_face: TrailblazeFace | None = None
    """The allowlist's `trailblaze:` mapping: how the tool looks in Trailblaze's output only."""
    java_pattern_overloads: tuple[str, ...] = ()
    """The Java overloads taking a `java.util.regex.Pattern` (left out of `java_signatures`, as
    JSON has no regex), as `Page#waitForURL(Pattern, Page.WaitForURLOptions)`: what a regex
    argument of the Trailblaze output may call."""

    @property
    def playwright_param_names(self) -> tuple[str, ...]:
        """The parameters by the names the allowlist's `wireNames` knows them by."""
        back = {new: old for old, new in self.wire_renames}
        return tuple(back.get(p.wire_name, p.wire_name) for p in self.params)

    @property
    def java_reference(self) -> str:
        return f"{self.target.java_class}#{self.java_method}"
