"""Reflection on a JAR through JPype. The only module that touches the JVM.

It returns plain `JavaSurface` data: no JVM object escapes this module. Each JAR gets its own
class loader, so one process can reflect several JARs (the real one and test fixtures).

Every call into the JVM crosses JPype's bridge, and those crossings are what reflection costs. A
member is therefore read from its one-line generic text (`Method.toGenericString()`,
`Field.toGenericString()`: one crossing each) rather than Type object by Type object; only the
modifier bits and parameter names are asked for separately. `JarReflector.java_type` walks the
Type objects one by one: it reads a member whose text is not in the expected form (there it also
raises what the JVM raises for a broken signature), and tests hold the text reading to it.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from generator.read.java_model import (
    PRIMITIVES,
    JavaEnum,
    JavaField,
    JavaInterface,
    JavaMethod,
    JavaParam,
    JavaStruct,
    JavaType,
)
from generator.shared import checkpoints
from generator.shared.diagnostics import ExitCode, GeneratorError

PLAYWRIGHT_PACKAGE = "com.microsoft.playwright"
# -Xrs: the JVM leaves SIGINT and SIGTERM to Python, so an interrupted run still cleans up and
# says so instead of being ended by the JVM's own handlers. The JVM only reflects for a moment:
# C1 alone and the serial collector start it and load the JAR's classes with about a third less
# CPU than the JIT tiers and G1, which are made for long runs; and it writes no performance-data
# file under /tmp for that moment.
JVM_OPTIONS = (
    "-Xrs",
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-XX:-UsePerfData",
)

# java.lang.reflect.Modifier's bits; Method.isBridge() and isSynthetic() test the last two.
_STATIC, _BRIDGE, _SYNTHETIC = 0x0008, 0x0040, 0x1000
# A modifier word as Modifier.toString and toGenericString print it before a member's type.
_MODIFIER = re.compile(
    r"(?:public|protected|private|abstract|static|final|transient|volatile|synchronized|native"
    r"|strictfp|default) "
)
# A binary class name (dotted) or a type variable in a type's text: it stops at `<`, `>`, `,`,
# `[`, `(`, `)`, a space, and before a varargs `...`.
_NAME = re.compile(r"[^\s<>,\[\]()&?:;.]+(?:\.[^\s<>,\[\]()&?:;.]+)*")


def _start_jvm() -> Any:
    import jpype

    if not jpype.isJVMStarted():
        java_home = os.environ.get("JAVA_HOME")
        if java_home and not Path(java_home).is_dir():
            raise GeneratorError(
                f"JAVA_HOME is set to {java_home}, which is not a directory. Point JAVA_HOME at a JDK 11 or "
                "newer, or unset it so the JDK on PATH is used.",
                ExitCode.ENVIRONMENT,
            )
        if not java_home and shutil.which("java") is None:
            raise GeneratorError(
                "No Java runtime was found: JAVA_HOME is unset and 'java' is not on PATH. Install a JDK "
                "(11 or newer), for example Debian's openjdk-17-jdk-headless.",
                ExitCode.ENVIRONMENT,
            )
        checkpoints.reached("jvm-starting")
        try:
            jpype.startJVM(*JVM_OPTIONS, convertStrings=False)
        except (OSError, RuntimeError, jpype.JVMNotFoundException) as exc:
            raise GeneratorError(
                f"The Java VM could not be started ({exc}). Check JAVA_HOME and the JDK installation.",
                ExitCode.ENVIRONMENT,
            ) from None
        checkpoints.reached("jvm-started")
    return jpype


class _Unparsable(Exception):
    """A member's text is not in the form `_Text` reads."""


class _Text:
    """A cursor over one member's text. `type()` reads a `java.lang.reflect.Type` as
    `Type.getTypeName()` prints it into the `JavaType` that `JarReflector.java_type` would build
    from the Type objects.

    A class prints its binary name, with its package; a type variable prints its bare name, as
    would a class in the unnamed package. Rather than tell those apart by the scope a name is
    declared in, a text with a bare name other than a primitive is not read at all (`_Unparsable`):
    the Playwright API has no type variables, and a member that has one is read part by part."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def at(self, literal: str) -> bool:
        """Whether `literal` comes next; if so, it is read."""
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        if not self.at(literal):
            raise _Unparsable(self.text)

    def name(self) -> str:
        found = _NAME.match(self.text, self.pos)
        if found is None:
            raise _Unparsable(self.text)
        self.pos = found.end()
        return found.group()

    def modifiers(self) -> set[str]:
        words = set()
        while found := _MODIFIER.match(self.text, self.pos):
            words.add(found.group()[:-1])
            self.pos = found.end()
        return words

    def type(self) -> JavaType:
        if self.at("?"):
            # A wildcard is its lower bound, else its upper one; `?` alone is bounded by Object.
            if self.at(" extends ") or self.at(" super "):
                return self.type()
            return JavaType("java.lang.Object")
        name = self.name()
        args: tuple[JavaType, ...] = ()
        while self.at("<"):
            found = [self.type()]
            while self.at(", "):
                found.append(self.type())
            self.expect(">")
            args = tuple(found)
            if self.text.startswith("$", self.pos):
                # `Outer<T>$Inner<U>`: the arguments so far were the owner's, not the type's.
                name += self.name()
                args = ()
        if "." not in name and name not in PRIMITIVES:
            raise _Unparsable(self.text)  # a type variable, or a class in the unnamed package
        result = JavaType(name, args=args)
        while self.at("[]"):
            result = JavaType("[]", element=result)
        return result

    def declaring_class(self) -> str:
        """The declaring class's binary name in `Declaring.member`, the last word before `(` (a
        method) or of the text (a field); read from there, without moving the cursor."""
        end = self.text.find("(")
        end = len(self.text) if end < 0 else end
        return self.text[self.text.rfind(" ", 0, end) + 1 : end].rpartition(".")[0]

    def member(self, declaring: str) -> str:
        """`Declaring.name`, up to `(` or the end; the name."""
        self.expect(declaring + ".")
        return self.name()


@dataclass(frozen=True)
class _Signature:
    """What a method's `toGenericString()` says: declaring class, name, return and parameter
    types (a varargs parameter `T...` as `T[]`)."""

    declaring: str
    name: str
    returns: JavaType
    params: tuple[JavaType, ...]


class _FieldRead(NamedTuple):
    """What a field's `toGenericString()` says."""

    name: str
    type: JavaType
    static: bool


class JarReflector:
    """Loads classes of one JAR in an isolated class loader and converts them to plain data."""

    def __init__(self, jar: Path) -> None:
        jpype = _start_jvm()
        self._jpype = jpype
        url_class = jpype.JClass("java.net.URL")
        loader_class = jpype.JClass("java.net.URLClassLoader")
        jar_url = jpype.JClass("java.io.File")(str(jar.resolve())).toURI().toURL()
        urls = jpype.JArray(url_class)([jar_url])
        parent = jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader()
        self._loader = loader_class(urls, parent)
        self._class = jpype.JClass("java.lang.Class")
        self._modifier = jpype.JClass("java.lang.reflect.Modifier")
        reflect = "java.lang.reflect."
        self._parameterized = jpype.JClass(reflect + "ParameterizedType")
        self._generic_array = jpype.JClass(reflect + "GenericArrayType")
        self._wildcard = jpype.JClass(reflect + "WildcardType")
        self._type_variable = jpype.JClass(reflect + "TypeVariable")

    def load(self, name: str) -> Any | None:
        try:
            return self._class.forName(name, False, self._loader)
        except Exception:  # ClassNotFoundException, NoClassDefFoundError, LinkageError
            return None

    def close(self) -> None:
        self._loader.close()

    # --- types ------------------------------------------------------------------------------------

    def java_type(self, t: Any) -> JavaType:
        """A `java.lang.reflect.Type`, read object by object."""
        if isinstance(t, self._class):
            if t.isArray():
                return JavaType("[]", element=self.java_type(t.getComponentType()))
            return JavaType(str(t.getName()))
        if isinstance(t, self._parameterized):
            raw = self.java_type(t.getRawType())
            return JavaType(
                raw.name, args=tuple(self.java_type(a) for a in t.getActualTypeArguments())
            )
        if isinstance(t, self._generic_array):
            return JavaType("[]", element=self.java_type(t.getGenericComponentType()))
        if isinstance(t, self._wildcard):
            lower = list(t.getLowerBounds())
            return self.java_type(lower[0] if lower else t.getUpperBounds()[0])
        if isinstance(t, self._type_variable):
            return JavaType(str(t.getName()), is_variable=True)
        kind = str(t.getClass().getName())
        raise GeneratorError(f"unexpected java.lang.reflect.Type {kind}", ExitCode.ENVIRONMENT)

    def signature(self, m: Any) -> _Signature:
        """Method `m`, from its generic text when that reads, else part by part."""
        return self._read_signature(m) or self.signature_by_parts(m)

    def _read_signature(self, m: Any) -> _Signature | None:
        # `[modifiers ]Return Declaring.name(P1,P2...)[ throws E]`. A generic method's text has its
        # type variables (`<T> `) before the return type, and the JDK prints `<exception>` when a
        # generic signature cannot be resolved: neither reads, both are read part by part.
        reader = _Text(str(m.toGenericString()))
        try:
            reader.modifiers()
            declaring = reader.declaring_class()
            returns = reader.type()
            reader.expect(" ")
            name = reader.member(declaring)
            reader.expect("(")
            params: list[JavaType] = []
            while not reader.at(")"):
                if params:
                    reader.expect(",")
                param = reader.type()
                params.append(JavaType("[]", element=param) if reader.at("...") else param)
            if reader.pos != len(reader.text) and not reader.at(" throws "):
                raise _Unparsable(reader.text)
        except _Unparsable:
            return None
        return _Signature(declaring, name, returns, tuple(params))

    def signature_by_parts(self, m: Any) -> _Signature:
        """Method `m`, asked of the JVM part by part (raising what the JVM raises for a broken
        generic signature: TypeNotPresentException, MalformedParameterizedTypeException)."""
        return _Signature(
            str(m.getDeclaringClass().getName()),
            str(m.getName()),
            self.java_type(m.getGenericReturnType()),
            tuple(self.java_type(t) for t in m.getGenericParameterTypes()),
        )

    def field(self, f: Any) -> _FieldRead:
        """Field `f`, from its generic text when that reads, else part by part."""
        return self._read_field(f) or self.field_by_parts(f)

    def _read_field(self, f: Any) -> _FieldRead | None:
        # `[modifiers ]Type Declaring.name`
        reader = _Text(str(f.toGenericString()))
        try:
            static = "static" in reader.modifiers()
            declaring = reader.declaring_class()
            field_type = reader.type()
            reader.expect(" ")
            name = reader.member(declaring)
            if reader.pos != len(reader.text):
                raise _Unparsable(reader.text)
        except _Unparsable:
            return None
        return _FieldRead(name, field_type, static)

    def field_by_parts(self, f: Any) -> _FieldRead:
        """Field `f`, asked of the JVM part by part."""
        return _FieldRead(
            str(f.getName()),
            self.java_type(f.getGenericType()),
            bool(self._modifier.isStatic(f.getModifiers())),
        )

    @staticmethod
    def parameter_names(executable: Any) -> list[str | None]:
        """Parameter names; None for one the class file does not name (no `-parameters`)."""
        return [str(p.getName()) if p.isNamePresent() else None for p in executable.getParameters()]

    # --- members ----------------------------------------------------------------------------------

    def interface(self, cls: Any) -> JavaInterface:
        methods = []
        for m in cls.getMethods():
            if int(m.getModifiers()) & (_STATIC | _BRIDGE | _SYNTHETIC):
                continue
            signature = self._read_signature(m)
            declaring = signature.declaring if signature else str(m.getDeclaringClass().getName())
            if not declaring.startswith(PLAYWRIGHT_PACKAGE):
                continue  # AutoCloseable.close and Object's methods are not Playwright API
            names = self.parameter_names(m)
            if signature is None or len(signature.params) != len(names):
                signature = self.signature_by_parts(m)
            params = tuple(JavaParam(n, t) for n, t in zip(names, signature.params, strict=True))
            methods.append(
                JavaMethod(name=signature.name, params=params, returns=signature.returns)
            )
        methods.sort(key=lambda m: (m.name, m.signature))
        return JavaInterface(str(cls.getName()), tuple(methods))

    def struct(self, cls: Any) -> JavaStruct:
        # A field is required when no public constructor lets a caller leave it out. Without
        # parameter names the constructors cannot say, and primitives (which cannot be null) are.
        public = list(cls.getConstructors())
        constructors = [self.parameter_names(c) for c in public]
        named = all(n is not None for names in constructors for n in names)
        taken = [{n for n in names if n is not None} for names in constructors]
        in_every_constructor = set.intersection(*taken) if taken and named else set()
        takes_values = any(constructors)
        setters: dict[str, list[JavaType]] = {}
        for m in cls.getMethods():
            method = str(m.getName())
            if not method.startswith("set") or int(m.getModifiers()) & _BRIDGE:
                continue
            signature = self._read_signature(m)
            if signature is None:
                if m.getParameterCount() != 1:
                    continue
                signature = self.signature_by_parts(m)
            if len(signature.params) == 1:
                field = method[3:4].lower() + method[4:]
                setters.setdefault(field, []).append(signature.params[0])
        fields = []
        for f in cls.getFields():
            name, field_type, static = self.field(f)
            if static:
                continue
            primitive = field_type.name in PRIMITIVES and not field_type.is_variable
            # A primitive cannot be null: with no constructor that takes values (BoundingBox), it is
            # always present; otherwise the constructors say what a caller must give.
            required = (
                name in in_every_constructor or (primitive and not takes_values)
                if named
                else primitive
            )
            setter_types = tuple(sorted(set(setters.get(name, [])), key=lambda t: t.qualified))
            fields.append(JavaField(name, field_type, required, "", setter_types))
        fields.sort(key=lambda f: f.name)
        # Constructors are few and short (most options classes have one without parameters), so
        # their types are asked for part by part.
        made = sorted(
            (
                tuple(
                    JavaParam(n, self.java_type(t))
                    for n, t in zip(names, c.getGenericParameterTypes(), strict=True)
                )
                for names, c in zip(constructors, public, strict=True)
            ),
            key=lambda params: ", ".join(p.type.qualified for p in params),
        )
        return JavaStruct(str(cls.getName()), tuple(fields), tuple(made))

    def enum(self, cls: Any) -> JavaEnum:
        return JavaEnum(str(cls.getName()), tuple(str(c.name()) for c in cls.getEnumConstants()))

    def kind_of(self, cls: Any) -> str:
        if cls.isEnum():
            return "enum"
        if cls.isInterface():
            return "interface"
        return "struct"


def _referenced(t: JavaType) -> list[str]:
    names = [] if t.is_variable or t.element is not None else [t.name]
    for inner in (*t.args, *((t.element,) if t.element else ())):
        names += _referenced(inner)
    return names


def reflect_jar(
    jar: Path, interface_names: list[str]
) -> tuple[list[JavaInterface], list[JavaStruct], list[JavaEnum], list[str]]:
    """Reflect `interface_names` and every Playwright class their signatures reach.

    Returns interfaces, structs (options and value classes), enums, and opaque Playwright
    interfaces (live objects such as Locator), each sorted by name.
    """
    reflector = JarReflector(jar)
    try:
        interfaces, structs, enums, opaque = [], [], [], set()
        queue: list[str] = []
        for name in interface_names:
            cls = reflector.load(name)
            if cls is None:
                raise GeneratorError(
                    f"{jar} has no class {name}; it does not look like the Playwright Java JAR. "
                    "Pass the com.microsoft.playwright:playwright JAR with --jar, or omit --jar to use Maven.",
                    ExitCode.ENVIRONMENT,
                )
            interface = reflector.interface(cls)
            interfaces.append(interface)
            for method in interface.methods:
                for t in (method.returns, *(p.type for p in method.params)):
                    queue += _referenced(t)
        # Reflected interfaces are not pre-seen: one returned by another (Page.opener()) is a live
        # object there and must be listed as opaque.
        seen: set[str] = set()
        while queue:
            name = queue.pop()
            if name in seen or not name.startswith(PLAYWRIGHT_PACKAGE):
                continue
            seen.add(name)
            cls = reflector.load(name)
            if cls is None:
                continue
            kind = reflector.kind_of(cls)
            if kind == "enum":
                enums.append(reflector.enum(cls))
            elif kind == "interface":
                opaque.add(name)
            else:
                struct = reflector.struct(cls)
                structs.append(struct)
                for f in struct.fields:
                    queue += _referenced(f.type)
        return (
            sorted(interfaces, key=lambda i: i.name),
            sorted(structs, key=lambda s: s.name),
            sorted(enums, key=lambda e: e.name),
            sorted(opaque),
        )
    except Exception as exc:
        import jpype

        if not isinstance(exc, jpype.JException):
            raise
        # A class the reflected signatures name is missing or broken: the JAR is incomplete.
        raise GeneratorError(
            f"{jar}: reflecting it failed with {exc.getClass().getName()}: {exc.getMessage()}. "
            "The JAR is incomplete or not the Playwright Java JAR; pass the complete "
            "com.microsoft.playwright:playwright JAR with --jar, or omit --jar to use Maven.",
            ExitCode.ENVIRONMENT,
        ) from None
    finally:
        reflector.close()
