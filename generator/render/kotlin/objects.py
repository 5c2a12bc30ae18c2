"""A Playwright object type (`Position`, `Cookie`) as a nested `@Serializable` data class of a shim,
whose `toJava()` calls the public constructor and setters the IR recorded from the JAR."""

from __future__ import annotations

from typing import Any

from generator.model.ir import JavaObject
from generator.model.type_tree import Nullable, ObjectOf
from generator.render.kotlin.java_values import convert, set_statement, setter_for
from generator.render.kotlin.text import field_annotations, identifier, kdoc
from generator.render.kotlin.types import KotlinTypes, Refused, non_null


def nested_object(obj: ObjectOf, recipe: JavaObject | None, types: KotlinTypes) -> dict[str, Any]:
    """A nested data class of one object type, with the `toJava()` the IR's recipe spells."""
    where = f"the object {obj.name}"
    if recipe is None or recipe.constructor is None:
        raise Refused(f"{where}: no public Java constructor takes exactly its required fields")
    fields = {f.wire_name: f for f in obj.fields}
    arguments = []
    for argument in recipe.constructor:
        f = fields.get(argument.wire_name)
        if f is None or not f.required or isinstance(f.type, Nullable):
            raise Refused(f"{where}: its constructor takes {argument.wire_name}, no required field")
        kotlin_type = types.write(f.type, where)
        name = types.value_of(f.type, f.wire_name, f.required)
        arguments.append(convert(f.type, name, argument.java_type, kotlin_type))
    taken = {a.wire_name for a in recipe.constructor}
    setters = []
    for f in obj.fields:
        if f.wire_name in taken:
            continue
        kotlin_type = types.write(f.type, where)
        found = setter_for(recipe, f.wire_name, non_null(f.type))
        if found is None:
            raise Refused(f"{where}: no public setter takes its field {f.wire_name}")
        method, argument = found
        name = types.value_of(f.type, f.wire_name, f.required)
        setters.append(set_statement("made", method, f, name, argument.java_type, kotlin_type))
    return {
        "name": obj.name,
        "keyword": "data class" if obj.fields else "class",
        "java": recipe.java_class,
        "kdoc": kdoc(
            f"`{obj.name}` as JSON; `toJava()` builds the {recipe.java_class} through its "
            "public constructor and setters.",
            "    ",
        ),
        "fields": [
            {
                "name": identifier(f.wire_name),
                "declared": types.declared(
                    f.type, types.write(f.type, where), f.required, f"{where}: field {f.wire_name}"
                ),
                "kdoc": field_annotations(
                    f, "        ", types.json_text_note(f.type), target="property:"
                ),
            }
            for f in obj.fields
        ],
        "arguments": ", ".join(arguments),
        "setters": setters,
    }
