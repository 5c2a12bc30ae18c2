"""Reflection on a JAR through JPype. The only module that touches the JVM.

It returns plain `JavaSurface` data: no JVM object escapes this module. Each JAR gets its own
class loader, so one process can reflect several JARs (the real one and test fixtures).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from generator import checkpoints
from generator.diagnostics import ExitCode, GeneratorError
from generator.java_model import (
    JavaEnum,
    JavaField,
    JavaInterface,
    JavaMethod,
    JavaParam,
    JavaStruct,
    JavaType,
)

PLAYWRIGHT_PACKAGE = "com.microsoft.playwright"


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
            # -Xrs: the JVM leaves SIGINT and SIGTERM to Python, so an interrupted run still
            # cleans up and says so instead of being ended by the JVM's own handlers.
            jpype.startJVM("-Xrs", convertStrings=False)
        except (OSError, RuntimeError, jpype.JVMNotFoundException) as exc:
            raise GeneratorError(
                f"The Java VM could not be started ({exc}). Check JAVA_HOME and the JDK installation.",
                ExitCode.ENVIRONMENT,
            ) from None
        checkpoints.reached("jvm-started")
    return jpype


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

    def load(self, name: str) -> Any | None:
        try:
            return self._class.forName(name, False, self._loader)
        except Exception:  # ClassNotFoundException, NoClassDefFoundError, LinkageError
            return None

    def close(self) -> None:
        self._loader.close()

    # --- types ------------------------------------------------------------------------------------

    def java_type(self, t: Any) -> JavaType:
        reflect = "java.lang.reflect."
        kind = str(t.getClass().getName())
        if isinstance(t, self._class):
            if t.isArray():
                return JavaType("[]", element=self.java_type(t.getComponentType()))
            return JavaType(str(t.getName()))
        if self._implements(t, reflect + "ParameterizedType"):
            raw = self.java_type(t.getRawType())
            return JavaType(
                raw.name, args=tuple(self.java_type(a) for a in t.getActualTypeArguments())
            )
        if self._implements(t, reflect + "GenericArrayType"):
            return JavaType("[]", element=self.java_type(t.getGenericComponentType()))
        if self._implements(t, reflect + "WildcardType"):
            lower = list(t.getLowerBounds())
            return self.java_type(lower[0] if lower else t.getUpperBounds()[0])
        if self._implements(t, reflect + "TypeVariable"):
            return JavaType(str(t.getName()), is_variable=True)
        raise GeneratorError(f"unexpected java.lang.reflect.Type {kind}", ExitCode.ENVIRONMENT)

    def _implements(self, obj: Any, interface: str) -> bool:
        return bool(self._class.forName(interface).isInstance(obj))

    # --- members ----------------------------------------------------------------------------------

    def interface(self, cls: Any) -> JavaInterface:
        methods = []
        for m in cls.getMethods():
            modifiers = m.getModifiers()
            declaring = str(m.getDeclaringClass().getName())
            if self._modifier.isStatic(modifiers) or m.isSynthetic() or m.isBridge():
                continue
            if not declaring.startswith(PLAYWRIGHT_PACKAGE):
                continue  # AutoCloseable.close and Object's methods are not Playwright API
            params = tuple(
                JavaParam(
                    str(p.getName()) if p.isNamePresent() else None,
                    self.java_type(p.getParameterizedType()),
                )
                for p in m.getParameters()
            )
            methods.append(
                JavaMethod(
                    name=str(m.getName()),
                    params=params,
                    returns=self.java_type(m.getGenericReturnType()),
                )
            )
        methods.sort(key=lambda m: (m.name, m.signature))
        return JavaInterface(str(cls.getName()), tuple(methods))

    def struct(self, cls: Any) -> JavaStruct:
        # A field is required when no public constructor lets a caller leave it out. Without
        # parameter names the constructors cannot say, and primitives (which cannot be null) are.
        constructors = list(cls.getConstructors())
        named = all(p.isNamePresent() for c in constructors for p in c.getParameters())
        taken = [{str(p.getName()) for p in c.getParameters()} for c in constructors]
        in_every_constructor = set.intersection(*taken) if taken and named else set()
        takes_values = any(taken)
        setters: dict[str, list[JavaType]] = {}
        for m in cls.getMethods():
            method = str(m.getName())
            if method.startswith("set") and m.getParameterCount() == 1 and not m.isBridge():
                field = method[3:4].lower() + method[4:]
                setters.setdefault(field, []).append(
                    self.java_type(m.getGenericParameterTypes()[0])
                )
        fields = []
        for f in cls.getFields():
            if self._modifier.isStatic(f.getModifiers()):
                continue
            name = str(f.getName())
            primitive = bool(f.getType().isPrimitive())
            # A primitive cannot be null: with no constructor that takes values (BoundingBox), it is
            # always present; otherwise the constructors say what a caller must give.
            required = (
                name in in_every_constructor or (primitive and not takes_values)
                if named
                else primitive
            )
            setter_types = tuple(sorted(set(setters.get(name, [])), key=lambda t: t.qualified))
            fields.append(
                JavaField(name, self.java_type(f.getGenericType()), required, "", setter_types)
            )
        fields.sort(key=lambda f: f.name)
        return JavaStruct(str(cls.getName()), tuple(fields))

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
