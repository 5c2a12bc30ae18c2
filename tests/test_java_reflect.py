"""Reflection reads a member from its one-line generic text (one JVM crossing) and must get what
reading its Type objects one by one gets: compared member by member on the real JAR, the fixture
JAR, JDK classes, and edge cases compiled here (parameterized owners, varargs of arrays, generic
arrays, wildcards, throws clauses, a class in the unnamed package, a type variable, a non-ASCII
class name). Members the text reading refuses are read part by part, with the same result."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import require_tool, run_checked
from fixture_jar import build_fixture_jar

from generator.read.jar_resolver import ResolvedJar
from generator.read.java_model import JavaSurface
from generator.read.java_reflect import JarReflector, reflect_jar
from generator.shared.diagnostics import GeneratorError

pytestmark = pytest.mark.jvm

PACKAGE = "com.microsoft.playwright"
SOURCES = {
    "com/microsoft/playwright/Edges.java": """
package com.microsoft.playwright;

import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

public interface Edges {
  Map<String, List<String>> nested();
  Outer<String>.Inner<Integer> inner();
  Outer<String>.Plain plain();
  Map.Entry<String, ?> entry();
  String[][] grid(int[]... rows);
  void names(String first, String... names);
  List<? extends Number>[] wild();
  List<? super Integer> lower();
  List<?> any();
  @SuppressWarnings("rawtypes")
  void raw(List list);
  void risky() throws IOException, IllegalStateException;
  default int dflt() { return 0; }
  static void st() {}
  Function<Map<String, Integer>, BiFunction<String, long[], Optional<Double>>> deep();
  Ünïcode ünïcode();
  Dollar$Name dollar();
  <T extends Comparable<? super T> & Serializable> T max(Collection<? extends T> items);
}
""",
    "com/microsoft/playwright/Outer.java": """
package com.microsoft.playwright;

import java.util.List;
import java.util.Map;

public class Outer<T> {
  public class Inner<U> { public T owner; public List<U> items; public U[] array; }
  public class Plain { public T value; public int count; }
  public List<T> values;
  public int count;
  public static String NAME = "x";
  public long[][] grid;
  public Map<String, List<Integer>> table;
  public Outer<String>.Inner<Integer> nested;
  public Outer(T first) {}
  public Outer<T> setValues(List<T> values) { return this; }
  public Outer<T> setCount(int count) { return this; }
}
""",
    "com/microsoft/playwright/Ünïcode.java": (
        "package com.microsoft.playwright;\npublic class Ünïcode { public Ünïcode self; }\n"
    ),
    "com/microsoft/playwright/Dollar$Name.java": (
        "package com.microsoft.playwright;\npublic class Dollar$Name { public double[] xs; }\n"
    ),
    "com/microsoft/playwright/Broken.java": (
        "package com.microsoft.playwright;\npublic interface Broken { java.util.List<Gone> gone(); }\n"
    ),
    "com/microsoft/playwright/Gone.java": "package com.microsoft.playwright;\npublic class Gone {}\n",
    "Bare.java": "public interface Bare { Thing thing(); java.util.List<Thing> things(); }\n",
    "Thing.java": "public class Thing { public Thing self; public java.util.List<Thing> all; }\n",
}
EDGE_CLASSES = [
    f"{PACKAGE}.Edges",
    f"{PACKAGE}.Outer",
    f"{PACKAGE}.Outer$Inner",
    f"{PACKAGE}.Outer$Plain",
    f"{PACKAGE}.Ünïcode",
    f"{PACKAGE}.Dollar$Name",
    "Bare",
    "Thing",
]
JDK_CLASSES = [
    "java.lang.Class",
    "java.lang.Enum",
    "java.lang.String",
    "java.util.Arrays",
    "java.util.Collections",
    "java.util.HashMap",
    "java.util.Map",
    "java.util.Optional",
    "java.util.concurrent.CompletableFuture",
    "java.util.concurrent.ConcurrentHashMap",
    "java.util.stream.Collectors",
    "java.util.stream.Stream",
]


def _zip(root: Path, target: Path, keep: Any = lambda name: True) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(root.rglob("*.class")):
            name = path.relative_to(root).as_posix()
            if keep(name):
                archive.write(path, name)
    return target


@pytest.fixture(scope="module")
def edge_jars(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The edge cases compiled with `-parameters`, and the same JAR without `Gone`."""
    work = tmp_path_factory.mktemp("edges")
    sources = work / "src"
    for name, text in SOURCES.items():
        (sources / name).parent.mkdir(parents=True, exist_ok=True)
        (sources / name).write_text(text, encoding="utf-8")
    classes = work / "classes"
    javac = [require_tool("javac"), "--release", "11", "-encoding", "UTF-8", "-parameters"]
    done = run_checked([*javac, "-d", str(classes), *(str(sources / n) for n in sorted(SOURCES))])
    assert done.returncode == 0, done.stderr
    complete = _zip(classes, work / "edges.jar")
    broken = _zip(
        classes, work / "broken.jar", lambda n: n != f"{PACKAGE.replace('.', '/')}/Gone.class"
    )
    return complete, broken


@pytest.fixture(scope="module")
def edge_reflector(edge_jars: tuple[Path, Path]) -> Iterator[JarReflector]:
    reflector = JarReflector(edge_jars[0])
    yield reflector
    reflector.close()


def _compare(reflector: JarReflector, cls: Any) -> tuple[set[str], set[str]]:
    """Every public method and field of `cls`, read both ways and compared; the names of the
    methods read from their text and of those read part by part."""
    read, by_parts = set(), set()
    for m in cls.getMethods():
        expected = reflector.signature_by_parts(m)
        found = reflector._read_signature(m)
        (read if found is not None else by_parts).add(expected.name)
        assert reflector.signature(m) == expected, str(m.toGenericString())
        if found is not None:
            assert found == expected, str(m.toGenericString())
    for f in cls.getFields():
        assert reflector.field(f) == reflector.field_by_parts(f), str(f.toGenericString())
    return read, by_parts


@pytest.mark.parametrize("name", EDGE_CLASSES)
def test_edge_cases_read_from_text_as_from_type_objects(
    edge_reflector: JarReflector, name: str
) -> None:
    cls = edge_reflector.load(name)
    assert cls is not None
    _compare(edge_reflector, cls)


def test_what_the_text_reading_takes_and_leaves(edge_reflector: JarReflector) -> None:
    read, by_parts = _compare(edge_reflector, edge_reflector.load(f"{PACKAGE}.Edges"))
    # A generic method (its `<T>` comes first) and a bare class name are read part by part.
    assert by_parts == {"max"}
    assert {"nested", "inner", "plain", "entry", "grid", "names", "wild", "deep"} <= read
    assert {"ünïcode", "dollar", "risky", "dflt", "st", "raw", "lower", "any"} <= read
    bare = edge_reflector.load("Bare")
    assert _compare(edge_reflector, bare) == (set(), {"thing", "things"})
    outer = edge_reflector.load(f"{PACKAGE}.Outer")
    for f in outer.getFields():
        found = edge_reflector._read_field(f)
        # `values` is a List<T>: a type variable, read part by part.
        assert (found is None) == (str(f.getName()) == "values")


@pytest.mark.parametrize("name", JDK_CLASSES)
def test_jdk_classes_read_from_text_as_from_type_objects(
    edge_reflector: JarReflector, name: str
) -> None:
    cls = edge_reflector.load(name)
    assert cls is not None
    read, _ = _compare(edge_reflector, cls)
    assert read  # some of each class's methods are read from text


def test_the_real_jar_is_read_from_text(real_jar: ResolvedJar, java_surface: JavaSurface) -> None:
    """Every member reflection reads on the real JAR reads from its text: no fallback, the
    same values."""
    reflector = JarReflector(real_jar.jar)
    try:
        for interface in java_surface.interfaces:
            cls = reflector.load(interface.name)
            read, by_parts = _compare(reflector, cls)
            assert {m.name for m in interface.methods} <= read
            playwright = {
                str(m.getName())
                for m in cls.getMethods()
                if str(m.getDeclaringClass().getName()).startswith(PACKAGE)
            }
            assert not by_parts & playwright
        for struct in java_surface.structs:
            cls = reflector.load(struct.name)
            _compare(reflector, cls)
            for f in cls.getFields():
                assert reflector._read_field(f) is not None
    finally:
        reflector.close()


def test_the_fixture_jar_reads_as_before(tmp_path: Path) -> None:
    fixture = build_fixture_jar(tmp_path)
    reflector = JarReflector(fixture.jar)
    try:
        for name in [f"{PACKAGE}.Fixture", f"{PACKAGE}.NoNames", f"{PACKAGE}.Fixture$FillOptions"]:
            _compare(reflector, reflector.load(name))
    finally:
        reflector.close()


def test_a_generic_signature_naming_a_missing_class_is_reported(
    edge_jars: tuple[Path, Path],
) -> None:
    # The erased signature (List gone()) loads; only the generic one names the missing class, and
    # toGenericString() hides that failure in its text: the part-by-part reading reports it.
    broken = edge_jars[1]
    with pytest.raises(GeneratorError) as raised:
        reflect_jar(broken, [f"{PACKAGE}.Broken"])
    message = str(raised.value)
    assert "reflecting it failed with java.lang.TypeNotPresentException" in message
    assert f"{PACKAGE}.Gone" in message


def test_constructors_are_read_with_names_and_types(java_surface: JavaSurface) -> None:
    """An object's public constructors, as the JAR has them: what `Position(x, y)` and
    `Cookie(name, value)` take, and that `Margin` is made empty and filled by setters."""

    def constructors(name: str) -> list[list[tuple[str | None, str]]]:
        struct = java_surface.struct(f"{PACKAGE}.options.{name}")
        assert struct is not None
        return [[(p.name, str(p.type)) for p in c] for c in struct.constructors]

    assert constructors("Position") == [[("x", "double"), ("y", "double")]]
    assert constructors("Cookie") == [[("name", "String"), ("value", "String")]]
    assert constructors("FilePayload") == [
        [("name", "String"), ("mimeType", "String"), ("buffer", "byte[]")]
    ]
    assert constructors("Margin") == [[]]
