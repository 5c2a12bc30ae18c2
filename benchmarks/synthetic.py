"""A synthetic Playwright JAR with N times the methods of the real target interfaces.

The five target interfaces are written out as Java source from the reflected surface, every method
repeated under the names `m`, `m2` ... `mN`, their nested options classes reproduced; compiled with
`javac -parameters` against the real JAR and merged into a copy of it. The Python surface is
repeated the same way (`click2` <-> `click2`), so every copy binds like the original.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import zipfile
from pathlib import Path

from generator.read.java_model import JavaStruct, JavaSurface, JavaType
from generator.read.python_api import PyMethod, PythonSurface
from generator.shared.targets import TARGETS


def _source_type(t: JavaType) -> str:
    if t.element is not None:
        return f"{_source_type(t.element)}[]"
    name = t.name.replace("$", ".")
    return f"{name}<{', '.join(_source_type(a) for a in t.args)}>" if t.args else name


def _struct_source(struct: JavaStruct) -> str:
    simple = struct.name.rsplit("$", 1)[-1]
    lines = [f"  class {simple} {{"]
    for f in struct.fields:
        lines.append(f"    public {_source_type(f.type)} {f.name};")
        for setter in f.setter_types:
            lines.append(
                f"    public {simple} set{f.name[:1].upper()}{f.name[1:]}({_source_type(setter)} v) {{ return this; }}"
            )
    lines.append("  }")
    return "\n".join(lines)


def write_sources(surface: JavaSurface, copies: int, folder: Path) -> list[Path]:
    package = folder / "com" / "microsoft" / "playwright"
    package.mkdir(parents=True, exist_ok=True)
    written = []
    for target in TARGETS.values():
        interface = surface.interface(target.java_class)
        assert interface is not None
        body = [
            _struct_source(s) for s in surface.structs if s.name.startswith(interface.name + "$")
        ]
        for method in interface.methods:
            if any(p.type.is_variable for p in method.params) or method.returns.is_variable:
                continue
            params = ", ".join(f"{_source_type(p.type)} {p.name}" for p in method.params)
            for copy in range(1, copies + 1):
                suffix = "" if copy == 1 else str(copy)
                body.append(f"  {_source_type(method.returns)} {method.name}{suffix}({params});")
        name = target.java_interface
        path = package / f"{name}.java"
        path.write_text(
            f"package com.microsoft.playwright;\n\npublic interface {name} {{\n"
            + "\n".join(body)
            + "\n}\n"
        )
        written.append(path)
    return written


def build_jar(real_jar: Path, surface: JavaSurface, copies: int, work: Path) -> Path:
    sources = write_sources(surface, copies, work / "src")
    classes = work / "classes"
    command = [
        "javac",
        "-parameters",
        "-nowarn",
        "--release",
        "11",
        "-cp",
        str(real_jar),
        "-d",
        str(classes),
    ]
    done = subprocess.run(
        [*command, *map(str, sources)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    replaced = re.compile(
        r"com/microsoft/playwright/("
        + "|".join(t.java_interface for t in TARGETS.values())
        + r")(\$.*)?\.class"
    )
    jar = work / f"synthetic-x{copies}.jar"
    with zipfile.ZipFile(real_jar) as source, zipfile.ZipFile(jar, "w") as target:
        for item in source.infolist():
            if not replaced.fullmatch(item.filename):
                target.writestr(item, source.read(item.filename))
        for path in sorted(classes.rglob("*.class")):
            target.write(path, path.relative_to(classes).as_posix())
    return jar


def python_copies(python: PythonSurface, copies: int) -> PythonSurface:
    def repeat(classes: dict[str, dict[str, PyMethod]]) -> dict[str, dict[str, PyMethod]]:
        out: dict[str, dict[str, PyMethod]] = {}
        for cls, methods in classes.items():
            out[cls] = dict(methods)
            for name, method in methods.items():
                if name.endswith("_"):
                    continue  # and_/or_: the copies' names are not keywords
                for copy in range(2, copies + 1):
                    out[cls][f"{name}{copy}"] = dataclasses.replace(method, name=f"{name}{copy}")
        return out

    return dataclasses.replace(
        python, sync_classes=repeat(python.sync_classes), async_classes=repeat(python.async_classes)
    )
