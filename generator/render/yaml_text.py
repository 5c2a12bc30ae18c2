"""YAML text for the templates: scalars that stay on their key's line and indented blocks, both read
back by `yaml.safe_load` as exactly the value written.

The bytes are PyYAML's pure-Python emitter's. libyaml's emitter (`yaml.CSafeDumper`, five times
faster) writes the same bytes for most values, and is used exactly for those: `_libyaml_agrees`
admits a value only when nothing in it reaches a place where the two emitters differ. Where they
differ (found by comparing them on random values; tests/test_yaml_text.py keeps comparing):
- characters libyaml does not print (outside the Basic Multilingual Plane: emoji) but PyYAML does,
  and every character either escapes (tabs, controls, the YAML line breaks NEL, LS, PS, BOM);
- a double-quoted scalar long enough to wrap: PyYAML breaks it with an escaped line break, libyaml
  by folding a space. With the characters above excluded, a scalar is double-quoted only when it
  has a line break and cannot be a `|` block (surrounding white space, a space before a break);
- a mapping key that is empty, or about 123 characters long or longer (where each decides between
  `key:` and `? key` by a different measure: characters plus its tag's length, or UTF-8 bytes);
- a scalar at the top of a `yaml_block` (PyYAML ends its document with `...`).
Any other value, or a PyYAML without libyaml, takes the pure-Python emitter.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

WIDTH = 100
# YAML reads NEL, LS and PS as line breaks; written raw they would not survive a round trip.
_YAML_BREAKS = ("\x85", "\u2028", "\u2029")
# Characters both emitters write raw in every style (with `allow_unicode`); anything else (a tab, a
# control character, NEL/LS/PS, the BOM, a character beyond U+FFFF) keeps a value off libyaml.
_NOT_SHARED = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
# A key of fewer UTF-8 bytes is a simple key (`key: value`) for both emitters.
_SIMPLE_KEY_BYTES = 123


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings as `|` blocks (when YAML can represent them exactly), others as usual."""


def _represent_str(dumper: yaml.representer.SafeRepresenter, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text and text == text.strip() and "\t" not in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_BlockDumper.add_representer(str, _represent_str)

_CDumper: type[Any] | None = None
if getattr(yaml, "__with_libyaml__", False) and hasattr(yaml, "CSafeDumper"):

    class _CBlockDumper(yaml.CSafeDumper):
        """`_BlockDumper`'s representation through libyaml's emitter."""

    _CBlockDumper.add_representer(str, _represent_str)
    _CDumper = _CBlockDumper


def _has_yaml_breaks(value: Any) -> bool:
    if isinstance(value, str):
        return any(ch in value for ch in _YAML_BREAKS)
    if isinstance(value, dict):
        return any(_has_yaml_breaks(k) or _has_yaml_breaks(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_yaml_breaks(v) for v in value)
    return False


def _libyaml_agrees(value: Any) -> bool:
    """Whether libyaml's emitter writes `value` with exactly PyYAML's bytes (see the module's
    docstring). False for anything it is not sure of; a value with a YAML line break is refused
    by `_NOT_SHARED`, so libyaml always writes with `allow_unicode`."""
    if isinstance(value, str):
        if _NOT_SHARED.search(value):
            return False
        # With a line break: a `|` block (the representer asks for one when the text is stripped
        # and has no tab; a space before a break forbids it), never a double-quoted scalar.
        return "\n" not in value or (value == value.strip() and " \n" not in value)
    if isinstance(value, dict):
        return all(_simple_key(key) and _libyaml_agrees(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_libyaml_agrees(item) for item in value)
    # Numbers, booleans and None are represented by the same (Python) representer, as plain text.
    return value is None or isinstance(value, (bool, int, float))


def _simple_key(key: Any) -> bool:
    """A key both emitters place alike: `key: ` when it fits on one line, `? ` when it spans lines.
    (A non-string key is short: at most 100 characters, and its tag, which PyYAML counts, 7.)"""
    if isinstance(key, str):
        return 0 < len(key.encode("utf-8")) < _SIMPLE_KEY_BYTES and _libyaml_agrees(key)
    return (key is None or isinstance(key, (bool, int, float))) and len(str(key)) < 100


def _dump(value: Any, top_scalar_ok: bool = True) -> str:
    """`value` as PyYAML's pure-Python emitter writes it (through libyaml when that is the same)."""
    if (
        _CDumper is not None
        and (top_scalar_ok or isinstance(value, (dict, list)))
        and _libyaml_agrees(value)
    ):
        return yaml.dump(value, Dumper=_CDumper, sort_keys=False, allow_unicode=True, width=WIDTH)
    return _pure_dump(value)


def _pure_dump(value: Any) -> str:
    # Text holding a YAML line break is written with every non-ASCII character escaped.
    unicode = not _has_yaml_breaks(value)
    return yaml.dump(
        value, Dumper=_BlockDumper, sort_keys=False, allow_unicode=unicode, width=WIDTH
    )


def yaml_scalar(value: Any) -> str:
    """A YAML value to follow `key: ` on the same line; `yaml.safe_load` gives back exactly `value`."""
    # PyYAML ends a document holding one plain scalar with `...`; libyaml does not. Both are cut.
    text = _dump(value)
    text = text.removesuffix("\n").removesuffix("\n...")
    return text


def yaml_block(value: Any, indent: int) -> str:
    """A YAML mapping or list, indented by `indent` spaces, to stand under `key:`."""
    pad = " " * indent
    return "\n".join(
        pad + line if line else line
        for line in _dump(value, top_scalar_ok=False).rstrip("\n").splitlines()
    )
