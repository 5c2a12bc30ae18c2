"""The cached Java and Python surfaces are checked while they are read, not by writing them again:
`from_json` refuses any text that is not a surface `to_json` could have written (a missing or
extra key, a value of another type), and such an entry is rebuilt, never fatal."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.commands.pipeline import _cached
from generator.read.java_model import (
    JavaDoc,
    JavaEnum,
    JavaField,
    JavaInterface,
    JavaMethod,
    JavaParam,
    JavaStruct,
    JavaSurface,
    JavaType,
)
from generator.read.python_api import PyMethod, PyParam, PythonSurface, PyTypedDict
from generator.read.python_types import PyGeneric, PyLiteral, PyName, PyNone, PyUnion
from generator.shared.cache import Cache

STRING = JavaType("java.lang.String")
SURFACE = JavaSurface(
    version="1.2.3",
    interfaces=(
        JavaInterface(
            "com.microsoft.playwright.Page",
            (
                JavaMethod(
                    "route",
                    (
                        JavaParam("url", STRING),
                        JavaParam(None, JavaType("java.util.Map", (STRING, STRING))),
                    ),
                    JavaType("[]", element=JavaType("byte")),
                    JavaDoc("Routes.", (("url", "The URL."),)),
                ),
                JavaMethod("cast", (), JavaType("T", is_variable=True)),
            ),
        ),
    ),
    structs=(
        JavaStruct(
            "com.microsoft.playwright.Page$RouteOptions",
            (JavaField("times", JavaType("java.lang.Integer"), False, "How often.", (STRING,)),),
            ((), (JavaParam("times", JavaType("int")), JavaParam(None, STRING))),
        ),
    ),
    enums=(JavaEnum("com.microsoft.playwright.options.Mode", ("FAST", "SLOW")),),
    opaque=("com.microsoft.playwright.Locator",),
)


def _edit(change: Callable[[dict[str, Any]], None]) -> str:
    raw = json.loads(SURFACE.to_json())
    change(raw)
    return json.dumps(raw)


def _method(raw: dict[str, Any]) -> dict[str, Any]:
    method: dict[str, Any] = raw["interfaces"][0]["methods"][0]
    return method


def _field(raw: dict[str, Any]) -> dict[str, Any]:
    field: dict[str, Any] = raw["structs"][0]["fields"][0]
    return field


MALFORMED: dict[str, Callable[[dict[str, Any]], None]] = {
    "extra top-level key": lambda r: r.update(extra=1),
    "missing top-level key": lambda r: r.pop("opaque"),
    "extra key in a method": lambda r: _method(r).update(static=True),
    "extra key in a type": lambda r: _method(r)["returns"].update(bound=None),
    "missing key in a type": lambda r: _method(r)["returns"].pop("is_variable"),
    "name not a string": lambda r: _method(r).update(name=5),
    "parameter name not a string": lambda r: _method(r)["params"][0].update(name=["url"]),
    "required as a number": lambda r: _field(r).update(required=1),
    "constructor not a list": lambda r: r["structs"][0].update(constructors=[{}]),
    "missing constructors": lambda r: r["structs"][0].pop("constructors"),
    "is_variable as a string": lambda r: _method(r)["returns"].update(is_variable="false"),
    "element an empty object": lambda r: _method(r)["params"][0]["type"].update(element={}),
    "args an object": lambda r: _method(r)["params"][0]["type"].update(args={}),
    "doc pair of three": lambda r: _method(r)["doc"]["params"][0].append("more"),
    "opaque holding a number": lambda r: r["opaque"].append(1),
    "enum constants a string": lambda r: r["enums"][0].update(constants="FAST"),
    "interfaces an object": lambda r: r.update(interfaces={}),
}


def test_the_surface_reads_back_as_written() -> None:
    text = SURFACE.to_json()
    again = JavaSurface.from_json(text)
    assert again == SURFACE
    assert again.to_json() == text


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_surface_is_refused(case: str) -> None:
    with pytest.raises(ValueError):
        JavaSurface.from_json(_edit(MALFORMED[case]))


@pytest.mark.parametrize("text", ["[]", "null", '"surface"', "{}", "{", ""])
def test_a_text_that_is_no_surface_object_is_refused(text: str) -> None:
    with pytest.raises(ValueError):  # json.JSONDecodeError is a ValueError
        JavaSurface.from_json(text)


def test_a_surface_in_another_layout_of_the_same_json_is_the_same_surface() -> None:
    """Whitespace and key order are not structure: such an entry is believed, and it is the same
    value (the old check, which dumped again, refused it only for its spaces)."""
    text = json.dumps(json.loads(SURFACE.to_json()), indent=3)
    assert JavaSurface.from_json(text) == SURFACE


class _Counting:
    def __init__(self) -> None:
        self.builds = 0
        self.dumps = 0

    def build(self) -> JavaSurface:
        self.builds += 1
        return copy.deepcopy(SURFACE)

    def dump(self, surface: JavaSurface) -> str:
        self.dumps += 1
        return surface.to_json()


def _load(cache: Cache, counting: _Counting) -> JavaSurface:
    return _cached(
        cache,
        "java",
        "key",
        JavaSurface.from_json,
        counting.build,
        counting.dump,
        parse_checks=True,
    )


def test_a_cached_surface_is_not_dumped_again(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    counting = _Counting()
    assert _load(cache, counting) == SURFACE
    assert (counting.builds, counting.dumps) == (1, 1)  # built and stored
    assert _load(cache, counting) == SURFACE
    assert (counting.builds, counting.dumps) == (1, 1)  # read, checked while parsed, not dumped


@pytest.mark.parametrize("case", ["extra key in a method", "required as a number"])
def test_a_forged_entry_with_a_valid_checksum_is_rebuilt(tmp_path: Path, case: str) -> None:
    cache = Cache(tmp_path)
    cache.store("java", "key", _edit(MALFORMED[case]))
    counting = _Counting()
    assert _load(cache, counting) == SURFACE
    assert counting.builds == 1
    assert cache.load("java", "key") == SURFACE.to_json()  # replaced by the rebuilt one


def test_without_a_cache_nothing_is_dumped(tmp_path: Path) -> None:
    counting = _Counting()
    assert _load(Cache(tmp_path, enabled=False), counting) == SURFACE
    assert (counting.builds, counting.dumps) == (1, 0)


PY_SURFACE = PythonSurface(
    version="1.2.3",
    sync_classes={
        "Page": {
            "goto": PyMethod(
                "goto",
                (
                    PyParam("url", PyName("str"), False, False),
                    PyParam(
                        "wait_until",
                        PyUnion((PyLiteral(("load", "commit")), PyNone())),
                        True,
                        True,
                    ),
                ),
                PyGeneric("Optional", (PyName("Response"),)),
                False,
                False,
                "Navigates.",
            )
        }
    },
    async_classes={"Page": {"url": PyMethod("url", (), PyName("str"), True, False, "")}},
    typed_dicts={"Cookie": PyTypedDict("Cookie", (("name", PyName("str")),), ("name",))},
)


def _py_edit(change: Callable[[dict[str, Any]], None]) -> str:
    raw = json.loads(PY_SURFACE.to_json())
    change(raw)
    return json.dumps(raw)


PY_MALFORMED: dict[str, Callable[[dict[str, Any]], None]] = {
    "extra top-level key": lambda r: r.update(extra=1),
    "missing async classes": lambda r: r.pop("async_classes"),
    "a method named otherwise": lambda r: r["sync_classes"]["Page"]["goto"].update(name="go"),
    "is_async as a string": lambda r: r["sync_classes"]["Page"]["goto"].update(is_async="no"),
    "a parameter of three": lambda r: r["sync_classes"]["Page"]["goto"]["params"][0].pop(),
    "an annotation as a number": lambda r: r["async_classes"]["Page"]["url"].update(returns=3),
    "a literal of numbers": lambda r: r["sync_classes"]["Page"]["goto"]["params"][1][1]["union"][
        0
    ].update(literal=[1]),
    "a union with an extra key": lambda r: r["sync_classes"]["Page"]["goto"]["params"][1][1].update(
        args=[]
    ),
    "classes as a list": lambda r: r.update(sync_classes=[]),
    "a TypedDict field of one": lambda r: r["typed_dicts"]["Cookie"]["fields"][0].pop(),
}


def test_a_python_surface_reads_back_equal() -> None:
    assert PythonSurface.from_json(PY_SURFACE.to_json()) == PY_SURFACE


@pytest.mark.parametrize("case", sorted(PY_MALFORMED))
def test_a_malformed_python_surface_is_refused(case: str) -> None:
    with pytest.raises(ValueError):
        PythonSurface.from_json(_py_edit(PY_MALFORMED[case]))


def test_a_forged_python_entry_with_a_valid_checksum_is_rebuilt(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    cache.store("python", "key", _py_edit(PY_MALFORMED["a method named otherwise"]))
    builds = []

    def build() -> PythonSurface:
        builds.append(1)
        return PY_SURFACE

    loaded = _cached(
        cache,
        "python",
        "key",
        PythonSurface.from_json,
        build,
        PythonSurface.to_json,
        parse_checks=True,
    )
    assert loaded == PY_SURFACE and builds == [1]
    assert cache.load("python", "key") == PY_SURFACE.to_json()
