"""Indented JSON text, byte for byte what `json.dumps(value, indent=n, sort_keys=True)` writes.

The standard library writes indented JSON through its pure-Python encoder (its C encoder only
serves `indent=None`), which made the manifest one of the slower steps of a run that changes one
tool. `dumps_indented` lays out the containers itself and leaves every leaf to the C parts of
`json`, so it costs a fraction of that. Guarantee: for any value made of dicts with string keys,
lists, tuples, strings, ints, floats, booleans and None, its text equals `json.dumps`'s with the
same `indent`, `sort_keys=True` and `ensure_ascii`; any other value (a dict with a key of another
type, a float that is not finite, a subclass) is handed to `json.dumps` whole, so the text is
still `json.dumps`'s.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any


class _Unusual(Exception):
    """A part of the value this module does not lay out itself."""


def dumps_indented(value: Any, indent: int, *, ensure_ascii: bool = True) -> str:
    """`json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=ensure_ascii)`."""
    chunks: list[str] = []
    string = encode_basestring_ascii if ensure_ascii else encode_basestring
    try:
        _lay_out(value, "\n", " " * indent, string, chunks)
    except _Unusual:
        return json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=ensure_ascii)
    return "".join(chunks)


def _lay_out(value: Any, newline: str, step: str, string: Any, chunks: list[str]) -> None:
    kind = type(value)
    if kind is str:
        chunks.append(string(value))
    elif kind is dict:
        if not value:
            chunks.append("{}")
            return
        inner = newline + step
        if any(type(key) is not str for key in value):
            raise _Unusual
        separator = "{" + inner
        for key in sorted(value):
            item = value[key]
            if type(item) is str:  # most leaves: written here, without a call per leaf
                chunks.append(f"{separator}{string(key)}: {string(item)}")
            else:
                chunks.append(f"{separator}{string(key)}: ")
                _lay_out(item, inner, step, string, chunks)
            separator = "," + inner
        chunks.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            chunks.append("[]")
            return
        inner = newline + step
        separator = "[" + inner
        for item in value:
            if type(item) is str:
                chunks.append(separator + string(item))
            else:
                chunks.append(separator)
                _lay_out(item, inner, step, string, chunks)
            separator = "," + inner
        chunks.append(newline + "]")
    elif value is None:
        chunks.append("null")
    elif value is True:
        chunks.append("true")
    elif value is False:
        chunks.append("false")
    elif kind is int:
        chunks.append(int.__repr__(value))
    elif kind is float and math.isfinite(value):
        chunks.append(float.__repr__(value))
    else:
        raise _Unusual
