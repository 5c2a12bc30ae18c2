"""Checks of the JSON shape a cache entry is read back from: each returns its value when it has
the expected shape and raises ValueError when not, so a damaged or forged entry is refused, not
believed, without writing the value out again to compare."""

from __future__ import annotations

from typing import Any


def fields(raw: Any, keys: frozenset[str]) -> dict[str, Any]:
    """An object with exactly `keys`."""
    if type(raw) is not dict or raw.keys() != keys:
        raise ValueError(f"expected an object with the keys {sorted(keys)}")
    return raw


def as_dict(raw: Any) -> dict[str, Any]:
    """An object (its keys are strings, as JSON's always are)."""
    if type(raw) is not dict:
        raise ValueError("expected an object")
    return raw


def as_list(raw: Any) -> list[Any]:
    if type(raw) is not list:
        raise ValueError("expected a list")
    return raw


def as_str(raw: Any) -> str:
    if type(raw) is not str:
        raise ValueError("expected a string")
    return raw


def as_bool(raw: Any) -> bool:
    if type(raw) is not bool:
        raise ValueError("expected true or false")
    return raw
