"""Reads and validates allowlist.yaml, keeping the line and column of every entry."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.read.trailblaze_face import TrailblazeFace, read_face
from generator.read.yaml_nodes import boolean as _boolean
from generator.read.yaml_nodes import known_keys as _known_keys
from generator.read.yaml_nodes import scalar as _scalar
from generator.read.yaml_nodes import string as _string
from generator.read.yaml_nodes import suggest as _suggest
from generator.read.yaml_nodes import where as _where
from generator.shared import allowlist_rules as rules
from generator.shared.allowlist_rules import MAX_NAME, TextRule
from generator.shared.confined_files import RefusedFile, read_file, read_under
from generator.shared.diagnostics import GeneratorError
from generator.shared.names import ToolName, is_identifier
from generator.shared.targets import TARGETS, Target

_TOP_KEYS = ("playwright", "tools")
_OPTIONAL_TOP_KEYS = ("generate",)
# The options a `generate:` block may set: those that shape the output, by their command-line
# names without the dashes (the command line overrides each one).
GENERATE_KEYS = (
    "out",
    "outputs",
    "templates",
    "kotlin-package",
    "trailblaze-api",
)
# Options naming a path: read relative to the file that names them, not the current folder.
GENERATE_PATHS = frozenset({"out", "templates"})
# The rule each `generate:` option's text follows here (the output kinds and the Trailblaze API
# are checked with the command line's own options, whose lists live with the outputs).
GENERATE_RULES: dict[str, TextRule] = {
    "out": rules.PATH,
    "templates": rules.PATH,
    "kotlin-package": rules.KOTLIN_PACKAGE,
}
# The allowlist's JSON Schema, written into the output (`render.allowlist_schema`); JSON, so the
# ledger knows it as the generator's by its `$comment` rather than a first line.
SCHEMA_FILE = "allowlist.schema.json"
# libyaml's loader when PyYAML has it (five times faster on the default allowlist; the same nodes
# and marks), else the pure-Python one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _compose(text: str) -> yaml.Node | None:
    """The node tree of `text`; an error is reported by the pure-Python loader, whose marks point
    at the offending character itself (libyaml's can point past it)."""
    try:
        node: yaml.Node | None = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    return node


# The allowlist is read whole; far larger than any real one, small enough to never exhaust memory.
MAX_ALLOWLIST_BYTES = 4 << 20


def tool_name_problem(name: str) -> str | None:
    """Why `name` cannot be a tool name, or None: it must start with a letter, hold only ASCII
    letters, digits and '_', be at most MAX_NAME long, and give identifiers after escaping."""
    problem = rules.TOOL_NAME.problem(name)
    if problem:
        return problem
    tool = ToolName(name)
    if not is_identifier(tool.class_name) or not is_identifier(tool.module_name):
        return "does not give a Python class and module name"
    return None


_ENTRY_KEYS = (
    "method",
    "name",
    "description",
    "surfaceToLlm",
    "isRecordable",
    "wireNames",
    "trailblaze",
)
# `trailblaze:` of an entry: how its tool meets a Trailblaze built-in of the same name.
TRAILBLAZE_CHOICES = ("skip", "replace")


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
    wire_names: tuple[tuple[str, str], ...] = ()
    """(parameter, name on the wire) pairs: the JSON key a parameter is given under instead."""
    trailblaze: str = ""
    """"" (a tool of its own in the Trailblaze output), "skip" (left out of it: Trailblaze's
    built-in of the name serves it) or "replace" (it takes the built-in's place)."""
    trailblaze_face: TrailblazeFace | None = None
    """The `trailblaze:` mapping, when the entry gives one: how the tool looks in Trailblaze."""

    @property
    def spelled(self) -> str:
        return f"{self.target.prefix}.{self.method}"


@dataclass(frozen=True)
class GenerateOption:
    """One option of the `generate:` block: `key` is one of GENERATE_KEYS, `value` its text (a
    list joined with commas; a path made relative to the current folder as the file that names it
    means it), `where` the `file:line:col` of the value."""

    key: str
    value: str
    where: str


@dataclass(frozen=True)
class Allowlist:
    """The whole file: the pinned Playwright version, entries in file order, and the options of
    its `generate:` block (read from the file that block names, when it names one)."""

    playwright_version: str
    entries: tuple[AllowlistEntry, ...]
    path: str
    sha256: str = ""  # of the file's bytes: part of the run's fingerprint
    options: tuple[GenerateOption, ...] = ()
    options_file: str | None = None
    """The separate options file the block names, as a path from the current folder; None when
    the options (if any) are in the allowlist itself."""


def _text(path: str, node: yaml.Node) -> str:
    """A description: text with more than white space, with each pair of surrogate escapes
    (`"\\ud83d\\ude00"`, as JSON writes a character past U+FFFF) read as the one character it
    spells; a lone surrogate cannot be written to any output, so it is refused."""
    text = _string(path, node, "description")
    try:
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        raise GeneratorError(
            f"{_where(path, node)}: the description contains a lone surrogate (an escape such as \\ud800); "
            "write the character itself, or a valid pair."
        ) from None
    if not rules.DESCRIPTION.matches(text):
        raise GeneratorError(
            f"{_where(path, node)}: 'description' is blank; write the tool's description, or "
            "leave the key out to use the javadoc."
        )
    return text


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
    if len(method) > MAX_NAME:
        raise GeneratorError(
            f"{where}: the method name is {len(method)} characters long; no Playwright method "
            f"is longer than {MAX_NAME}."
        )
    name = _string(path, fields["name"], "name") if "name" in fields else None
    if name is not None:
        problem = tool_name_problem(name)
        if problem:
            shown = name if len(name) <= 40 else name[:40] + "..."
            raise GeneratorError(
                f"{_where(path, fields['name'])}: tool name '{shown}' {problem}, "
                "for example 'web_evaluate'."
            )
    face = None
    if isinstance(fields.get("trailblaze"), yaml.MappingNode):
        face = read_face(path, fields["trailblaze"])  # type: ignore[arg-type]
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
        wire_names=_wire_names(path, fields["wireNames"]) if "wireNames" in fields else (),
        trailblaze=_trailblaze(path, face, fields.get("trailblaze")),
        trailblaze_face=face,
    )


def _trailblaze(path: str, face: TrailblazeFace | None, node: yaml.Node | None) -> str:
    """ "", "skip" or "replace": a mapping that names a built-in to `replace` is "replace"."""
    if node is None:
        return ""
    if face is not None:
        return "replace" if face.replace else ""
    value = _string(path, node, "trailblaze")
    if value not in TRAILBLAZE_CHOICES:
        raise GeneratorError(
            f"{_where(path, node)}: 'trailblaze' must be skip (leave the tool out of the "
            "Trailblaze output), replace (it takes the place of Trailblaze's built-in tool) or "
            "a mapping such as '{replace: web_wait, reasoning: true}'."
        )
    return value


def _wire_names(path: str, node: yaml.Node) -> tuple[tuple[str, str], ...]:
    """`wireNames: {expression: script}`: each parameter's name on the wire, an identifier."""
    if not isinstance(node, yaml.MappingNode) or not node.value:
        raise GeneratorError(
            f"{_where(path, node)}: 'wireNames' must map parameter names to the names they "
            "take on the wire, for example 'wireNames: {expression: script}'."
        )
    pairs = []
    for key_node, value_node in node.value:
        key = _scalar(path, key_node, "a parameter name")
        value = _string(path, value_node, f"wireNames.{key}", rules.WIRE_NAME)
        pairs.append((key, value))
    if len({k for k, _ in pairs}) != len(pairs) or len({v for _, v in pairs}) != len(pairs):
        raise GeneratorError(
            f"{_where(path, node)}: 'wireNames' names a parameter, or a wire name, twice."
        )
    return tuple(pairs)


def _read_yaml(
    path: Path, what: str, named: tuple[Path, str] | None = None
) -> tuple[bytes, yaml.Node | None]:
    """The bytes of `path` (capped, a regular file) and its node tree; errors name the file,
    line and column. With `named` (a folder and the name an allowlist gave the file in it), the
    file is read by the rule of `shared/confined_files.py`: under that folder, no symlink
    followed."""
    shown = path.name
    try:
        if named is None:
            raw = read_file(path, MAX_ALLOWLIST_BYTES)
        else:
            raw = read_under(*named, MAX_ALLOWLIST_BYTES)
    except RefusedFile as refused:
        if refused.strerror:
            raise GeneratorError(f"{path}: cannot read the {what} ({refused.strerror}).") from None
        raise GeneratorError(f"{path}: the {what} {refused}.") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise GeneratorError(
            f"{shown}:{line}: the {what} is not UTF-8 (byte {raw[exc.start]:#x}); save it as UTF-8."
        ) from None
    try:
        return raw, _compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}:{mark.column + 1}" if mark else shown
        raise GeneratorError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)}).") from None


def _generate_options(path: Path, node: yaml.Node) -> tuple[tuple[GenerateOption, ...], str | None]:
    """The `generate:` block of the allowlist at `path`: a mapping of options, or the path of a
    YAML file (relative to the allowlist) that holds that mapping."""
    shown = path.name
    options_file = None
    if isinstance(node, yaml.ScalarNode):
        named = _string(shown, node, "generate", rules.RELATIVE_PATH)
        options_path = path.parent / named
        options_file = str(options_path)
        _, loaded = _read_yaml(
            options_path, "options file named by 'generate'", (path.parent, named)
        )
        if loaded is None:
            return (), options_file
        path, node = options_path, loaded
        shown = path.name
    if not isinstance(node, yaml.MappingNode):
        raise GeneratorError(
            f"{_where(shown, node)}: 'generate' must be a mapping of options "
            f"({', '.join(GENERATE_KEYS)}), or the path of a YAML file holding one."
        )
    options = []
    for key, value_node in _known_keys(shown, node, GENERATE_KEYS).items():
        where = _where(shown, value_node)
        if isinstance(value_node, yaml.SequenceNode) and key == "outputs":
            value = ",".join(_string(shown, item, key) for item in value_node.value)
        else:
            value = _string(shown, value_node, key, GENERATE_RULES.get(key))
        if not value.strip():
            raise GeneratorError(f"{where}: '{key}' is empty; give a value or leave the key out.")
        if key in GENERATE_PATHS and not Path(value).is_absolute():
            value = str(path.parent / value)
        options.append(GenerateOption(key, value, where))
    return tuple(options), options_file


def load_allowlist(path: Path) -> Allowlist:
    """Parse and validate `path`; raises GeneratorError naming `file:line:col` and a fix."""
    shown = path.name
    raw, root = _read_yaml(path, "allowlist")
    if root is None:
        raise GeneratorError(
            f"{shown}:1:1: the allowlist is empty; it needs 'playwright:' and 'tools:'."
        )
    if not isinstance(root, yaml.MappingNode):
        raise GeneratorError(
            f"{_where(shown, root)}: the top level must be a mapping with 'playwright' and 'tools'."
        )
    top = _known_keys(shown, root, _TOP_KEYS + _OPTIONAL_TOP_KEYS)
    for key in _TOP_KEYS:
        if key not in top:
            raise GeneratorError(f"{_where(shown, root)}: missing '{key}:'.")
    version = _string(shown, top["playwright"], "playwright", rules.VERSION)
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
    options, options_file = (
        _generate_options(path, top["generate"]) if "generate" in top else ((), None)
    )
    return Allowlist(
        version, entries, shown, hashlib.sha256(raw).hexdigest(), options, options_file
    )
