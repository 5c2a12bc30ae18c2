"""YAML text for the templates: scalars that stay on their key's line and indented blocks, both read
back by `yaml.safe_load` as exactly the value written."""

from __future__ import annotations

from typing import Any

import yaml

WIDTH = 100
# YAML reads NEL, LS and PS as line breaks; written raw they would not survive a round trip.
_YAML_BREAKS = ("\x85", "\u2028", "\u2029")


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings as `|` blocks (when YAML can represent them exactly), others as usual."""


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text and text == text.strip() and "\t" not in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_BlockDumper.add_representer(str, _represent_str)


def _has_yaml_breaks(value: Any) -> bool:
    if isinstance(value, str):
        return any(ch in value for ch in _YAML_BREAKS)
    if isinstance(value, dict):
        return any(_has_yaml_breaks(k) or _has_yaml_breaks(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_yaml_breaks(v) for v in value)
    return False


def _dump(value: Any) -> str:
    # Text holding a YAML line break is written with every non-ASCII character escaped.
    unicode = not _has_yaml_breaks(value)
    return yaml.dump(
        value, Dumper=_BlockDumper, sort_keys=False, allow_unicode=unicode, width=WIDTH
    )


def yaml_scalar(value: Any) -> str:
    """A YAML value to follow `key: ` on the same line; `yaml.safe_load` gives back exactly `value`."""
    text = _dump(value)
    text = text.removesuffix("\n").removesuffix("\n...")
    return text


def yaml_block(value: Any, indent: int) -> str:
    """A YAML mapping or list, indented by `indent` spaces, to stand under `key:`."""
    pad = " " * indent
    return "\n".join(
        pad + line if line else line for line in _dump(value).rstrip("\n").splitlines()
    )
