"""Builds the JavaSurface: reflection (through java_reflect) joined with javadoc from sources."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from generator.read.java_model import JavaInterface, JavaMethod, JavaStruct, JavaSurface
from generator.read.java_reflect import reflect_jar
from generator.read.javadoc import MemberKey, read_sources, to_javadoc


def _owner(binary_name: str) -> str:
    return binary_name.rsplit(".", 1)[-1].replace("$", ".")


def _with_method_docs(interface: JavaInterface, docs: dict[MemberKey, str]) -> JavaInterface:
    owner = _owner(interface.name)

    def documented(m: JavaMethod) -> JavaMethod:
        names = tuple(p.name or "" for p in m.params)
        raw = docs.get(MemberKey(owner, m.name, names))
        return dataclasses.replace(m, doc=to_javadoc(raw)) if raw is not None else m

    return dataclasses.replace(interface, methods=tuple(documented(m) for m in interface.methods))


def _with_field_docs(struct: JavaStruct, docs: dict[MemberKey, str]) -> JavaStruct:
    owner = _owner(struct.name)
    fields = tuple(
        dataclasses.replace(f, doc=to_javadoc(docs[MemberKey(owner, f.name, None)]).text)
        if MemberKey(owner, f.name, None) in docs
        else f
        for f in struct.fields
    )
    return dataclasses.replace(struct, fields=fields)


def build_surface(
    jar: Path, sources_jar: Path | None, interface_names: list[str], version: str
) -> JavaSurface:
    interfaces, structs, enums, opaque = reflect_jar(jar, interface_names)
    if sources_jar is not None:
        classes = {i.name for i in interfaces} | {s.name for s in structs}
        by_file = read_sources(sources_jar, classes)
        interfaces = [
            _with_method_docs(i, by_file.get(i.name.split("$")[0], {})) for i in interfaces
        ]
        structs = [_with_field_docs(s, by_file.get(s.name.split("$")[0], {})) for s in structs]
    return JavaSurface(
        version=version,
        interfaces=tuple(interfaces),
        structs=tuple(structs),
        enums=tuple(enums),
        opaque=tuple(opaque),
    )
