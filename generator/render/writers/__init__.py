"""Per-target writers: each turns neutral type nodes into one target's form, through one protocol.

Every writer is a `match` over the node kinds that ends in `assert_never`, so adding a node kind to
`type_tree` is a type error in each writer until it handles the kind.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from generator.model.type_tree import TypeNode

Out_co = TypeVar("Out_co", covariant=True)


class TypeWriter(Protocol[Out_co]):
    """Writes a value of one node in a target's syntax (an annotation, a type, a schema)."""

    def write(self, node: TypeNode) -> Out_co: ...
