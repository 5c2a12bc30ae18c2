"""Reading allowlist YAML nodes: each value as the allowlist's schema has it, and every error as
one line naming `file:line:col` and what to write instead."""

from __future__ import annotations

import yaml

from generator.shared.allowlist_rules import TextRule
from generator.shared.diagnostics import GeneratorError


def where(path: str, node: yaml.Node) -> str:
    return f"{path}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"


def suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    import difflib  # only a wrong allowlist needs it

    close = difflib.get_close_matches(word, choices, n=1)
    return f"did you mean '{close[0]}'? " if close else ""


def scalar(path: str, node: yaml.Node, what: str) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise GeneratorError(
            f"{where(path, node)}: {what} must be a single value, not a list or mapping."
        )
    return str(node.value)


_STR = "tag:yaml.org,2002:str"
_KINDS = {
    "tag:yaml.org,2002:bool": "a boolean",
    "tag:yaml.org,2002:int": "a number",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:timestamp": "a date",
}


def string(path: str, node: yaml.Node, key: str, rule: TextRule | None = None) -> str:
    """The text of `key`'s value: a YAML string (quoted, or plain and not read as a number, a
    boolean, a date or null), following `rule` when one is given; as the allowlist's schema
    has it, so `out: 5` or `out: ~` is refused rather than turned into a folder named `5` or
    `None`."""
    value = scalar(path, node, f"'{key}'")
    problem = rule.problem(value) if rule is not None else None
    if problem:
        shown = value if len(value) <= 60 else value[:57] + "..."
        raise GeneratorError(f"{where(path, node)}: '{key}' ({shown!r}) {problem}.")
    if node.tag != _STR:
        at = where(path, node)
        if node.tag.endswith(":null"):
            raise GeneratorError(f"{at}: '{key}' is empty (null); give a value or leave it out.")
        kind = _KINDS.get(node.tag, "not text")
        raise GeneratorError(f"{at}: '{key}' is {kind}, not text; quote it: {key}: '{value}'.")
    return value


def boolean(path: str, node: yaml.Node, key: str) -> bool:
    """`key`'s value, a YAML boolean (true or false, not text that looks like one)."""
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
        return bool(yaml.safe_load(yaml.serialize(node)))
    raise GeneratorError(f"{where(path, node)}: '{key}' must be true or false.")


def known_keys(path: str, node: yaml.MappingNode, allowed: tuple[str, ...]) -> dict[str, yaml.Node]:
    """The mapping's values by key; an unknown key (with a did-you-mean) or a repeated one is an error."""
    fields: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        key = scalar(path, key_node, "a key")
        if key not in allowed:
            raise GeneratorError(
                f"{where(path, key_node)}: unknown key '{key}'; {suggest(key, allowed)}"
                f"allowed keys are {', '.join(allowed)}."
            )
        if key in fields:
            raise GeneratorError(f"{where(path, key_node)}: key '{key}' is given twice.")
        fields[key] = value_node
    return fields
