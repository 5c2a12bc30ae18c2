"""Reflection, javadoc, lowering, writers and binding over a fixture JAR compiled at test time.

The fixture (tests/fixtures/java) holds the lowering edge cases the real Playwright JAR has once or
not at all: nested generics, wildcards, generic arrays, type variables, a non-String Map key,
callbacks, an Options overload pair, an enum whose wire values differ from its Java names, value
classes (one with two constructors, one that refers to itself) and an interface compiled without
`-parameters`.
"""

from __future__ import annotations

import typing

import jsonschema
import pytest
from fixture_jar import FIXTURE, INTERFACES, NO_NAMES, FixtureJar, build_fixture_jar

from generator.model.binding import HAND_AUTHOR, Binder
from generator.model.ir import Tool
from generator.model.lowering import LoweredResult, Lowerer, Unlowerable, enum_wire_values
from generator.model.refusal import Refusal, RefusalKind
from generator.model.type_tree import (
    AnyJson,
    Base64Bytes,
    EnumOf,
    Field,
    ListOf,
    MapOf,
    Null,
    Nullable,
    ObjectOf,
    Scalar,
    TypeNode,
)
from generator.read.allowlist import AllowlistEntry
from generator.read.java_model import JavaMethod, JavaSurface, JavaType
from generator.read.java_surface import build_surface
from generator.read.python_api import (
    PyMethod,
    PyParam,
    PythonSurface,
    PyTypedDict,
    parse_annotation,
)
from generator.render.writers import json_schema, python, typescript
from generator.shared.diagnostics import Diagnostics, Level
from generator.shared.targets import Target

pytestmark = pytest.mark.jvm

OPTIONS = "com.microsoft.playwright.options"
MODE_WIRE = ("fast", "no-preference")
STRING = JavaType("java.lang.String")
STR, INT, NUM, BOOL = Scalar("string"), Scalar("integer"), Scalar("number"), Scalar("boolean")
MODE = EnumOf("Mode", MODE_WIRE)

FIXTURE_TARGET = Target(
    prefix="fixture",
    java_interface="Fixture",
    python_class="Fixture",
    receiver="page",
    tool_prefix="fx_",
)
NO_NAMES_TARGET = Target(
    prefix="nonames",
    java_interface="NoNames",
    python_class="NoNames",
    receiver="page",
    tool_prefix="nn_",
)


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def fixture_jar(tmp_path_factory: pytest.TempPathFactory) -> FixtureJar:
    """Compiled once per session (javac takes about a second)."""
    return build_fixture_jar(tmp_path_factory.mktemp("fixture_jar"))


@pytest.fixture(scope="session")
def fixture_surface(fixture_jar: FixtureJar) -> JavaSurface:
    return build_surface(fixture_jar.jar, fixture_jar.sources, INTERFACES, "0.0.0")


@pytest.fixture(scope="session")
def fixture_only_surface(fixture_jar: FixtureJar) -> JavaSurface:
    """The same JAR with only Fixture reflected (so NoNames is just a referenced interface)."""
    return build_surface(fixture_jar.jar, None, [FIXTURE], "0.0.0")


_NONE = parse_annotation("None")


def _param(
    name: str, annotation: str, has_default: bool = False, keyword_only: bool = False
) -> PyParam:
    return PyParam(name, parse_annotation(annotation), has_default, keyword_only)


def _python_surface(
    mode_literal: str = 'Literal["fast", "no-preference"]', elsewhere: str | None = None
) -> PythonSurface:
    """A hand-built Python API for Fixture: what the real package would say about it.

    `mode_literal` is fill's `mode` annotation; `elsewhere` adds another TypedDict field annotation.
    """
    methods = {
        "fill": PyMethod(
            "fill",
            (
                _param("value", "str"),
                _param("timeout", "typing.Optional[float]", True, True),
                _param("force", "typing.Optional[bool]", True, True),
                _param("mode", f"typing.Optional[{mode_literal}]", True, True),
            ),
            parse_annotation("str"),
            False,
        ),
        "set_location": PyMethod("set_location", (_param("location", "Location"),), _NONE, False),
        "set_headers": PyMethod(
            "set_headers", (_param("headers", "typing.Dict[str, typing.List[str]]"),), _NONE, False
        ),
        "watch": PyMethod(
            "watch", (_param("timeout", "typing.Optional[float]", True, True),), _NONE, False
        ),
        "wait_for_thing": PyMethod(
            "wait_for_thing", (_param("predicate", "typing.Callable[[str], bool]"),), _NONE, False
        ),
    }
    location = PyTypedDict(
        "Location",
        (
            ("latitude", parse_annotation("float")),
            ("longitude", parse_annotation("float")),
            ("label", parse_annotation("str")),
            ("accuracy", parse_annotation("float")),
        ),
        ("latitude", "longitude", "label"),
    )
    return PythonSurface(
        version="0.0.0",
        sync_classes={"Fixture": methods},
        async_classes={"Fixture": dict(methods)},
        typed_dicts={"Location": location}
        | (
            {"Elsewhere": PyTypedDict("Elsewhere", (("mode", parse_annotation(elsewhere)),), ())}
            if elsewhere
            else {}
        ),
    )


@pytest.fixture(scope="session")
def lowerer(fixture_surface: JavaSurface) -> Lowerer:
    return Lowerer(fixture_surface, enum_wire_values(_python_surface()))


def _method(surface: JavaSurface, signature: str, interface: str = FIXTURE) -> JavaMethod:
    found = surface.interface(interface)
    assert found is not None
    matches = [m for m in found.methods if m.signature == signature]
    assert len(matches) == 1, f"{signature} not in {[m.signature for m in found.methods]}"
    return matches[0]


def _param_type(surface: JavaSurface, signature: str, index: int = 0) -> JavaType:
    return _method(surface, signature).params[index].type


def _bind(
    surface: JavaSurface,
    method: str,
    target: Target = FIXTURE_TARGET,
    python_surface: PythonSurface | None = None,
) -> tuple[Tool | Refusal, Diagnostics]:
    diagnostics = Diagnostics()
    binder = Binder(surface, python_surface or _python_surface(), diagnostics)
    entry = AllowlistEntry(target=target, method=method, location="allowlist.yaml:1:3")
    return binder.bind(entry), diagnostics


# --- reflection ---------------------------------------------------------------------------------


def test_reflection_finds_what_the_signatures_reach(fixture_surface: JavaSurface) -> None:
    assert [i.name for i in fixture_surface.interfaces] == INTERFACES
    assert [s.name for s in fixture_surface.structs] == [
        f"{FIXTURE}$FillOptions",
        f"{FIXTURE}$WatchOptions",
        f"{OPTIONS}.Fruit",
        f"{OPTIONS}.Location",
        f"{OPTIONS}.Tree",
    ]
    assert [(e.name, e.constants) for e in fixture_surface.enums] == [
        (f"{OPTIONS}.Mode", ("FAST", "NO_PREFERENCE"))
    ]
    # NoNames is reflected too, and is also a live object where Fixture.partner() returns it.
    assert fixture_surface.opaque == (
        "com.microsoft.playwright.Handle",
        "com.microsoft.playwright.NoNames",
    )


def test_static_and_inherited_jdk_methods_are_not_api(fixture_surface: JavaSurface) -> None:
    fixture, no_names = fixture_surface.interface(FIXTURE), fixture_surface.interface(NO_NAMES)
    assert fixture is not None and no_names is not None
    assert "create" not in fixture.method_names  # static
    assert no_names.method_names == ("count", "type")  # AutoCloseable.close is left out
    assert fixture.method_names.count("fill") == 1 and len(fixture.overloads("fill")) == 2


def test_nested_generic_java_type(fixture_surface: JavaSurface) -> None:
    t = _param_type(fixture_surface, "setHeaders(Map<String, List<String>>)")
    assert t == JavaType("java.util.Map", (STRING, JavaType("java.util.List", (STRING,))))
    assert str(t) == "Map<String, List<String>>"
    assert t.qualified == "java.util.Map<java.lang.String, java.util.List<java.lang.String>>"


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        # `? super Integer` becomes its lower bound, `? extends Number` and `?` their upper bound.
        ("setLimits(List<Integer>)", JavaType("java.util.List", (JavaType("java.lang.Integer"),))),
        ("setNumbers(List<Number>)", JavaType("java.util.List", (JavaType("java.lang.Number"),))),
        (
            "setAnything(Map<String, Object>)",
            JavaType("java.util.Map", (STRING, JavaType("java.lang.Object"))),
        ),
        ("setTable(List<String>[])", JavaType("[]", element=JavaType("java.util.List", (STRING,)))),
        ("setModes(Set<Mode>)", JavaType("java.util.Set", (JavaType(f"{OPTIONS}.Mode"),))),
        ("fill(String, Fixture.FillOptions)", STRING),
    ],
)
def test_wildcards_generic_arrays_and_nested_classes(
    fixture_surface: JavaSurface, signature: str, expected: JavaType
) -> None:
    assert _param_type(fixture_surface, signature) == expected


def test_nested_class_and_type_variable(fixture_surface: JavaSurface) -> None:
    fill = _method(fixture_surface, "fill(String, Fixture.FillOptions)")
    assert fill.params[1].type == JavaType(f"{FIXTURE}$FillOptions")
    assert [p.name for p in fill.params] == ["value", "options"]
    cast = _method(fixture_surface, "cast(Class<T>)")
    assert cast.returns == JavaType("T", is_variable=True)
    assert cast.params[0].type == JavaType("java.lang.Class", (JavaType("T", is_variable=True),))
    assert _method(fixture_surface, "snapshot()").returns == JavaType(
        "[]", element=JavaType("byte")
    )


def test_class_compiled_without_parameters_has_no_names(fixture_surface: JavaSurface) -> None:
    typed = _method(fixture_surface, "type(String, double)", NO_NAMES)
    assert [p.name for p in typed.params] == [None, None]
    assert [p.type for p in typed.params] == [STRING, JavaType("double")]
    assert typed.has_parameter_names is False
    # Without parameters there is nothing to lose; and -parameters classes keep their names.
    assert _method(fixture_surface, "count()", NO_NAMES).has_parameter_names is True
    assert (
        _method(fixture_surface, "setHeaders(Map<String, List<String>>)").has_parameter_names
        is True
    )


def test_value_class_required_fields_come_from_the_constructor(
    fixture_surface: JavaSurface,
) -> None:
    location = fixture_surface.struct(f"{OPTIONS}.Location")
    assert location is not None
    # label is a reference type the constructor takes; accuracy is only settable afterwards.
    assert {f.name: f.required for f in location.fields} == {
        "accuracy": False,
        "label": True,
        "latitude": True,
        "longitude": True,
    }
    options = fixture_surface.struct(f"{FIXTURE}$FillOptions")
    assert options is not None
    assert [(f.name, f.required) for f in options.fields] == [
        ("force", False),
        ("mode", False),
        ("timeout", False),
    ]


def test_field_is_required_only_if_every_constructor_takes_it(fixture_surface: JavaSurface) -> None:
    fruit = fixture_surface.struct(f"{OPTIONS}.Fruit")
    assert fruit is not None
    assert {f.name: f.required for f in fruit.fields} == {"color": False, "name": True}


def test_surface_json_round_trip(fixture_surface: JavaSurface) -> None:
    # The round trip must carry what this fixture adds: nameless params, nested and variable
    # types, arrays, docs with @param pairs.
    assert any(
        p.name is None for i in fixture_surface.interfaces for m in i.methods for p in m.params
    )
    assert any(m.doc.params for i in fixture_surface.interfaces for m in i.methods)
    text = fixture_surface.to_json()
    again = JavaSurface.from_json(text)
    assert again == fixture_surface
    assert again.to_json() == text


# --- javadoc from the sources JAR ---------------------------------------------------------------


def test_method_javadoc_and_param_docs(fixture_surface: JavaSurface) -> None:
    headers = _method(fixture_surface, "setHeaders(Map<String, List<String>>)")
    assert headers.doc.text == "Sets the extra headers."
    assert headers.doc.param("headers") == "Header names mapped to all their values."
    fill = _method(fixture_surface, "fill(String, Fixture.FillOptions)")
    # The Usage section and its code block are cut; {@code} becomes backticks.
    assert fill.doc.text == "Fills the field with `value`."
    assert fill.doc.param("value") == "Value to fill."
    # Overloads are told apart by parameter names: the short one has no comment of its own.
    assert _method(fixture_surface, "fill(String)").doc.text == ""
    assert _method(fixture_surface, "count()", NO_NAMES).doc.text == "How many things there are."


def test_field_javadoc_of_nested_options_and_value_classes(fixture_surface: JavaSurface) -> None:
    options = fixture_surface.struct(f"{FIXTURE}$FillOptions")
    location = fixture_surface.struct(f"{OPTIONS}.Location")
    assert options is not None and location is not None
    docs = {f.name: f.doc for f in options.fields}
    assert docs["force"] == (
        "Whether to bypass the [actionability](https://playwright.dev/java/docs/actionability) checks."
    )
    assert docs["mode"] == 'How to fill. Defaults to `"fast"`.'
    assert {f.name: f.doc for f in location.fields}["label"] == "A name for the place."


def test_without_sources_jar_there_is_no_javadoc(fixture_only_surface: JavaSurface) -> None:
    assert _method(fixture_only_surface, "setHeaders(Map<String, List<String>>)").doc.text == ""


def test_javadoc_survives_array_valued_annotation(fixture_surface: JavaSurface) -> None:
    legacy = _method(fixture_surface, "legacy(String)")
    assert legacy.doc.text == "Legacy entry point."
    assert legacy.doc.param("value") == "Legacy value."


# --- lowering -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("setHeaders(Map<String, List<String>>)", MapOf(ListOf(STR))),
        ("evaluate(Object)", AnyJson()),
        ("setModes(Set<Mode>)", ListOf(MODE)),
        ("setAnything(Map<String, Object>)", MapOf(AnyJson())),
        ("setLimits(List<Integer>)", ListOf(INT)),
        ("setTable(List<String>[])", ListOf(ListOf(STR))),
        ("fill(String)", STR),
    ],
)
def test_lowered_parameter(
    lowerer: Lowerer, fixture_surface: JavaSurface, signature: str, expected: TypeNode
) -> None:
    assert lowerer.lower(_param_type(fixture_surface, signature)) == expected


@pytest.mark.parametrize(
    ("signature", "java_type", "reason_part", "callback"),
    [
        (
            "setCounts(Map<Integer, String>)",
            "java.util.Map<java.lang.Integer, java.lang.String>",
            "keys are not",
            False,
        ),
        (
            "onThing(Consumer<String>)",
            "java.util.function.Consumer<java.lang.String>",
            "callback",
            True,
        ),
        (
            "waitForThing(Predicate<String>)",
            "java.util.function.Predicate<java.lang.String>",
            "callback",
            True,
        ),
        ("setNumbers(List<Number>)", "java.lang.Number", "no JSON form", False),
        ("useHandle(Handle)", "com.microsoft.playwright.Handle", "live browser object", False),
        ("cast(Class<T>)", "java.lang.Class<T>", "no JSON form", False),
    ],
)
def test_unlowerable_parameter(
    lowerer: Lowerer,
    fixture_surface: JavaSurface,
    signature: str,
    java_type: str,
    reason_part: str,
    callback: bool,
) -> None:
    lowered = lowerer.lower(_param_type(fixture_surface, signature))
    assert isinstance(lowered, Unlowerable)
    assert lowered.java_type == java_type
    assert reason_part in lowered.reason
    assert lowered.callback is callback


@pytest.mark.parametrize(
    ("signature", "python_returns", "expected"),
    [
        ("snapshot()", "bytes", (Base64Bytes(), "base64", "")),
        ("initial()", "str", (STR, "value", "")),
        ("initial()", "typing.Optional[str]", (Nullable(STR), "value", "")),
        ("evaluate(Object)", "typing.Any", (AnyJson(), "value", "")),
        ("setHeaders(Map<String, List<String>>)", "None", (Null(), "discard", "")),
        (
            "handle()",
            '"Handle"',
            (Null(), "discard", "The Java method returns a live Handle; the tool returns nothing."),
        ),
        (
            "subscribe()",
            '"Disposable"',
            (
                Null(),
                "discard",
                "The Java method returns a disposable handle; the tool returns nothing.",
            ),
        ),
    ],
)
def test_lowered_result(
    lowerer: Lowerer,
    fixture_surface: JavaSurface,
    signature: str,
    python_returns: str,
    expected: tuple[TypeNode, str, str],
) -> None:
    lowered = lowerer.lower_result(
        _method(fixture_surface, signature).returns, parse_annotation(python_returns)
    )
    assert isinstance(lowered, LoweredResult)
    assert (lowered.type, lowered.shape.kind, lowered.note) == expected


def test_type_variable_result_is_unlowerable(
    lowerer: Lowerer, fixture_surface: JavaSurface
) -> None:
    lowered = lowerer.lower_result(
        _method(fixture_surface, "cast(Class<T>)").returns, parse_annotation("typing.Any")
    )
    assert lowered == Unlowerable("T", "a type variable has no JSON form")


def test_interface_returned_is_live_when_only_mentioned(fixture_only_surface: JavaSurface) -> None:
    # With only Fixture reflected, NoNames is an opaque live object, like Playwright's Locator.
    assert fixture_only_surface.opaque == ("com.microsoft.playwright.Handle", f"{NO_NAMES}")
    lowered = Lowerer(fixture_only_surface, {}).lower_result(
        _method(fixture_only_surface, "partner()").returns, parse_annotation('"NoNames"')
    )
    assert isinstance(lowered, LoweredResult)
    assert (lowered.type, lowered.note) == (
        Null(),
        "The Java method returns a live NoNames; the tool returns nothing.",
    )


def test_reflected_interface_returned_is_live_too(
    lowerer: Lowerer, fixture_surface: JavaSurface
) -> None:
    lowered = lowerer.lower_result(
        _method(fixture_surface, "partner()").returns, parse_annotation('"NoNames"')
    )
    assert isinstance(lowered, LoweredResult)
    assert (lowered.type, lowered.note) == (
        Null(),
        "The Java method returns a live NoNames; the tool returns nothing.",
    )


def test_enum_wire_values_come_from_python_literal(fixture_surface: JavaSurface) -> None:
    mode = JavaType(f"{OPTIONS}.Mode")
    wire = enum_wire_values(_python_surface())
    assert wire[frozenset({"FAST", "NOPREFERENCE"})] == {
        "FAST": "fast",
        "NOPREFERENCE": "no-preference",
    }
    # NO_PREFERENCE is "no-preference" on the wire: from the Literal, not from re-casing the Java name.
    assert Lowerer(fixture_surface, wire).lower(mode) == EnumOf("Mode", ("fast", "no-preference"))
    # Declaration order is Java's, whatever the Literal's order.
    reordered = enum_wire_values(_python_surface('Literal["no-preference", "fast"]'))
    assert Lowerer(fixture_surface, reordered).lower(mode) == EnumOf(
        "Mode", ("fast", "no-preference")
    )


@pytest.mark.parametrize(
    "wire",
    [
        {},  # no Python Literal at all
        enum_wire_values(_python_surface('Literal["fast", "no-preference", "slow"]')),  # a superset
        enum_wire_values(_python_surface('Literal["fast"]')),  # a subset
    ],
    ids=["none", "superset", "subset"],
)
def test_enum_without_matching_literal_is_unlowerable(
    fixture_surface: JavaSurface, wire: dict[frozenset[str], dict[str, str]]
) -> None:
    lowerer = Lowerer(fixture_surface, wire)
    lowered = lowerer.lower(JavaType(f"{OPTIONS}.Mode"))
    assert isinstance(lowered, Unlowerable)
    assert lowered.java_type == f"{OPTIONS}.Mode" and "Literal" in lowered.reason
    # ... and so is everything that contains it.
    assert isinstance(
        lowerer.lower(_param_type(fixture_surface, "setModes(Set<Mode>)")), Unlowerable
    )
    assert isinstance(lowerer.lower_struct(f"{FIXTURE}$FillOptions"), Unlowerable)


def test_value_class_lowers_to_object_with_constructor_fields_required(lowerer: Lowerer) -> None:
    assert lowerer.lower(JavaType(f"{OPTIONS}.Location")) == ObjectOf(
        "Location",
        (
            Field("accuracy", NUM, False, "Non-negative accuracy value."),
            Field("label", STR, True, "A name for the place."),
            Field("latitude", NUM, True, "Latitude between -90 and 90."),
            Field("longitude", NUM, True, "Longitude between -180 and 180."),
        ),
    )


def test_nested_options_class_lowers_with_enum_field(lowerer: Lowerer) -> None:
    lowered = lowerer.lower_struct(f"{FIXTURE}$FillOptions")
    assert isinstance(lowered, ObjectOf)
    assert lowered.name == "FixtureFillOptions"
    assert [(f.wire_name, f.type, f.required) for f in lowered.fields] == [
        ("force", BOOL, False),
        ("mode", MODE, False),
        ("timeout", NUM, False),
    ]


def test_struct_with_callback_field_is_a_callback(lowerer: Lowerer) -> None:
    lowered = lowerer.lower_struct(f"{FIXTURE}$WatchOptions")
    assert isinstance(lowered, Unlowerable)
    assert lowered.java_type == f"{FIXTURE}$WatchOptions.listener"
    assert lowered.callback is True


def test_self_referencing_value_class_is_unlowerable(lowerer: Lowerer) -> None:
    lowered = lowerer.lower(JavaType(f"{OPTIONS}.Tree"))
    assert isinstance(lowered, Unlowerable)


# --- writers ------------------------------------------------------------------------------------


def test_writers_on_nested_generic(lowerer: Lowerer, fixture_surface: JavaSurface) -> None:
    node = lowerer.lower(_param_type(fixture_surface, "setHeaders(Map<String, List<String>>)"))
    assert isinstance(node, MapOf)
    assert python.annotation(node) == "dict[str, list[str]]"
    assert typescript.type_expression(node) == "Record<string, string[]>"
    schema = json_schema.schema(node)
    assert schema == {
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "string"}},
    }
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"accept": ["a", "b"], "x-empty": []})
    assert not validator.is_valid({"accept": "a"})
    assert not validator.is_valid({"accept": [1]})


def test_writers_on_enum(lowerer: Lowerer, fixture_surface: JavaSurface) -> None:
    node = lowerer.lower(_param_type(fixture_surface, "setModes(Set<Mode>)"))
    assert node == ListOf(MODE)
    item = node.item
    annotation = python.annotation(item)
    assert typing.get_args(eval(annotation, {"Literal": typing.Literal})) == MODE_WIRE
    assert python.annotation(node) == f"list[{annotation}]"
    assert typescript.type_expression(item) == '"fast" | "no-preference"'
    assert typescript.type_expression(node) == '("fast" | "no-preference")[]'
    assert json_schema.schema(item) == {"type": "string", "enum": ["fast", "no-preference"]}
    validator = jsonschema.Draft202012Validator(json_schema.schema(node))
    assert validator.is_valid(["fast", "no-preference"])
    assert not validator.is_valid(["NO_PREFERENCE"])  # Java's name is not a wire value


def test_schema_of_value_class_requires_constructor_fields(lowerer: Lowerer) -> None:
    node = lowerer.lower(JavaType(f"{OPTIONS}.Location"))
    assert isinstance(node, ObjectOf)
    schema = json_schema.schema(node)
    assert schema["required"] == ["label", "latitude", "longitude"]
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"latitude": 1.5, "longitude": 2, "label": "home"})
    assert not validator.is_valid({"latitude": 1.5, "longitude": 2})
    assert not validator.is_valid({"latitude": 1.5, "longitude": 2, "label": "home", "altitude": 3})
    assert python.annotation(node) == typescript.type_expression(node) == "Location"


# --- binding ------------------------------------------------------------------------------------


def test_options_overload_pair_merges_into_one_tool(fixture_surface: JavaSurface) -> None:
    tool, diagnostics = _bind(fixture_surface, "fill")
    assert diagnostics.at_least(Level.WARNING) == []
    assert isinstance(tool, Tool)
    assert tool.name.value == "fx_fill"
    assert tool.java_signatures == (
        f"{FIXTURE}#fill(String)",
        f"{FIXTURE}#fill(String, Fixture.FillOptions)",
    )
    assert [(p.wire_name, p.type, p.required) for p in tool.params] == [
        ("value", STR, True),
        ("force", BOOL, False),
        ("mode", MODE, False),
        ("timeout", NUM, False),
    ]
    described = {p.wire_name: p.description for p in tool.params}
    assert described["value"] == "Value to fill."
    assert described["timeout"] == "Maximum time in milliseconds. Defaults to `30000`."
    assert tool.description == "Fills the field with `value`."
    assert [(a.python_name, a.params[0].wire_name) for a in tool.call] == [
        ("value", "value"),
        ("force", "force"),
        ("mode", "mode"),
        ("timeout", "timeout"),
    ]
    assert tool.result == STR and tool.result_note == ""


def test_enum_values_that_differ_from_python_are_reported(fixture_surface: JavaSurface) -> None:
    # Wire values come from a Literal elsewhere in the API; fill's own `mode` says something else.
    python_surface = _python_surface(
        'Literal["fast", "slow"]', elsewhere='Literal["fast", "no-preference"]'
    )
    tool, diagnostics = _bind(fixture_surface, "fill", python_surface=python_surface)
    assert isinstance(tool, Tool)  # the binding follows Java
    assert {p.wire_name: p.type for p in tool.params}["mode"] == MODE
    [warning] = diagnostics.at_least(Level.WARNING)
    assert warning.location == f"{FIXTURE}#fill(mode)"
    assert "['fast', 'no-preference']" in warning.message and "['fast', 'slow']" in warning.message


def test_value_class_parameter_binds_to_python_typed_dict(fixture_surface: JavaSurface) -> None:
    tool, diagnostics = _bind(fixture_surface, "setLocation")
    assert diagnostics.at_least(Level.WARNING) == []
    assert isinstance(tool, Tool)
    [param] = tool.params
    assert param.wire_name == "location" and param.required
    assert isinstance(param.type, ObjectOf) and param.type.name == "Location"
    [call] = tool.call
    assert (call.python_name, call.python_typed_dict) == ("location", "Location")


def test_option_with_callback_is_left_out(fixture_surface: JavaSurface) -> None:
    tool, diagnostics = _bind(fixture_surface, "watch")
    assert isinstance(tool, Tool)
    assert [(p.wire_name, p.required) for p in tool.params] == [("timeout", False)]
    infos = [d for d in diagnostics if d.level == Level.INFO]
    assert any("'listener'" in d.message and "left out" in d.message for d in infos)


@pytest.mark.parametrize(
    ("method", "kind", "message_part"),
    [
        ("onThing", RefusalKind.EVENT, "registers an event listener"),
        ("waitForThing", RefusalKind.CALLBACK, "cannot be generated"),
    ],
)
def test_callback_method_asks_to_hand_author(
    fixture_surface: JavaSurface, method: str, kind: RefusalKind, message_part: str
) -> None:
    tool, diagnostics = _bind(fixture_surface, method)
    assert isinstance(tool, Refusal)
    assert (tool.kind, tool.hint) == (kind, HAND_AUTHOR)
    [error] = diagnostics.at_least(Level.ERROR)
    assert error.location == "allowlist.yaml:1:3"
    assert message_part in error.message and f"{FIXTURE}#{method}" in error.message
    assert "hand-author" in error.render()


def test_non_string_map_key_cannot_be_generated(fixture_surface: JavaSurface) -> None:
    tool, diagnostics = _bind(fixture_surface, "setCounts")
    assert isinstance(tool, Refusal) and tool.kind == RefusalKind.OTHER
    [error] = diagnostics.at_least(Level.ERROR)
    assert f"{FIXTURE}#setCounts cannot be generated" in error.message
    # Not a callback: hand-authoring is not the fix.
    assert "hand-author" not in error.render()
    [info] = [d for d in diagnostics if d.level == Level.INFO]
    assert info.location == f"{FIXTURE}#setCounts(Map<Integer, String>)"
    assert "keys" in info.message


def test_method_without_parameter_names_is_refused(fixture_surface: JavaSurface) -> None:
    tool, diagnostics = _bind(fixture_surface, "type", NO_NAMES_TARGET)
    assert isinstance(tool, Refusal) and "no parameter names" in tool.detail
    [error] = diagnostics.at_least(Level.ERROR)
    assert "no parameter names" in error.message and "-parameters" in error.hint
