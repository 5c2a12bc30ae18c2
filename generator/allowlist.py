"""Reads and validates allowlist.yaml, keeping the line and column of every entry."""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.diagnostics import GeneratorError
from generator.names import is_identifier
from generator.targets import TARGETS, Target

_TOP_KEYS = ("playwright", "tools")
_ENTRY_KEYS = ("method", "name", "description", "surfaceToLlm", "isRecordable")


@dataclass(frozen=True)
class AllowlistEntry:
    """One validated allowlist line: a target and a Java method name, plus overrides.

    `target` is a known prefix; `method` is a plausible Java identifier (whether it exists is
    checked against the JAR later); `location` is `file:line:col` of the entry.
    """

    target: Target
    method: str
    location: str
    name: str | None = None
    description: str | None = None
    surface_to_llm: bool = False
    is_recordable: bool = False

    @property
    def spelled(self) -> str:
        return f"{self.target.prefix}.{self.method}"


@dataclass(frozen=True)
class Allowlist:
    """The whole file: the pinned Playwright version and entries in file order."""

    playwright_version: str
    entries: tuple[AllowlistEntry, ...]
    path: str
    sha256: str = ""  # of the file's bytes: part of the run's fingerprint


def _where(path: str, node: yaml.Node) -> str:
    return f"{path}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"


def _suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f"did you mean '{close[0]}'? " if close else ""


def _scalar(path: str, node: yaml.Node, what: str) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise GeneratorError(
            f"{_where(path, node)}: {what} must be a single value, not a list or mapping."
        )
    return str(node.value)


def _text(path: str, node: yaml.Node) -> str:
    """A free-text value; it must be encodable (YAML's `\\ud800` escapes give lone surrogates)."""
    text = _scalar(path, node, "'description'")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise GeneratorError(
            f"{_where(path, node)}: the description contains a lone surrogate (an escape such as \\ud800); "
            "write the character itself, or a valid pair."
        ) from None
    return text


def _boolean(path: str, node: yaml.Node, key: str) -> bool:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
        return bool(yaml.safe_load(yaml.serialize(node)))
    raise GeneratorError(f"{_where(path, node)}: '{key}' must be true or false.")


def _known_keys(
    path: str, node: yaml.MappingNode, allowed: tuple[str, ...]
) -> dict[str, yaml.Node]:
    """The mapping's values by key; an unknown key (with a did-you-mean) or a repeated one is an error."""
    fields: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        key = _scalar(path, key_node, "a key")
        if key not in allowed:
            raise GeneratorError(
                f"{_where(path, key_node)}: unknown key '{key}'; {_suggest(key, allowed)}"
                f"allowed keys are {', '.join(allowed)}."
            )
        if key in fields:
            raise GeneratorError(f"{_where(path, key_node)}: key '{key}' is given twice.")
        fields[key] = value_node
    return fields


def _entry(path: str, node: yaml.Node) -> AllowlistEntry:
    if isinstance(node, yaml.ScalarNode):
        return _method_entry(path, node, {})
    if not isinstance(node, yaml.MappingNode):
        raise GeneratorError(
            f"{_where(path, node)}: a tool entry must be a mapping such as 'method: page.evaluate'."
        )
    fields = _known_keys(path, node, _ENTRY_KEYS)
    if "method" not in fields:
        raise GeneratorError(
            f"{_where(path, node)}: this entry has no 'method: <target>.<javaMethod>'."
        )
    return _method_entry(path, fields["method"], fields)


def _method_entry(
    path: str, method_node: yaml.Node, fields: dict[str, yaml.Node]
) -> AllowlistEntry:
    where = _where(path, method_node)
    spelled = _scalar(path, method_node, "'method'")
    prefix, _, method = spelled.partition(".")
    if prefix not in TARGETS or not is_identifier(method):
        raise GeneratorError(
            f"{where}: '{spelled}' is not '<target>.<javaMethod>'; {_suggest(prefix, list(TARGETS))}"
            f"targets are {', '.join(TARGETS)} (for example 'page.evaluate')."
        )
    name = _scalar(path, fields["name"], "'name'") if "name" in fields else None
    if name is not None and not is_identifier(name):
        raise GeneratorError(
            f"{_where(path, fields['name'])}: tool name '{name}' must be an identifier "
            "(letters, digits and '_', not starting with a digit), for example 'web_evaluate'."
        )
    return AllowlistEntry(
        target=TARGETS[prefix],
        method=method,
        location=where,
        name=name,
        description=_text(path, fields["description"]) if "description" in fields else None,
        surface_to_llm=_boolean(path, fields["surfaceToLlm"], "surfaceToLlm")
        if "surfaceToLlm" in fields
        else False,
        is_recordable=_boolean(path, fields["isRecordable"], "isRecordable")
        if "isRecordable" in fields
        else False,
    )


def load_allowlist(path: Path) -> Allowlist:
    """Parse and validate `path`; raises GeneratorError naming `file:line:col` and a fix."""
    shown = path.name
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise GeneratorError(f"{path}: cannot read the allowlist ({exc.strerror}).") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise GeneratorError(
            f"{shown}:{line}: the allowlist is not UTF-8 (byte {raw[exc.start]:#x}); save it as UTF-8."
        ) from None
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}:{mark.column + 1}" if mark else shown
        raise GeneratorError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)}).") from None
    if root is None:
        raise GeneratorError(
            f"{shown}:1:1: the allowlist is empty; it needs 'playwright:' and 'tools:'."
        )
    if not isinstance(root, yaml.MappingNode):
        raise GeneratorError(
            f"{_where(shown, root)}: the top level must be a mapping with 'playwright' and 'tools'."
        )
    top = _known_keys(shown, root, _TOP_KEYS)
    for key in _TOP_KEYS:
        if key not in top:
            raise GeneratorError(f"{_where(shown, root)}: missing '{key}:'.")
    version = _scalar(shown, top["playwright"], "'playwright'")
    tools = top["tools"]
    if not isinstance(tools, yaml.SequenceNode):
        raise GeneratorError(
            f"{_where(shown, tools)}: 'tools' must be a list of entries ('- method: page.evaluate')."
        )
    entries = tuple(_entry(shown, node) for node in tools.value)
    seen: dict[str, str] = {}
    for entry in entries:
        if entry.spelled in seen:
            raise GeneratorError(
                f"{entry.location}: '{entry.spelled}' is listed twice (first at {seen[entry.spelled]}); "
                "remove one of them."
            )
        seen[entry.spelled] = entry.location
    return Allowlist(version, entries, shown, hashlib.sha256(raw).hexdigest())
