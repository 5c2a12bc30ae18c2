"""A trail: the YAML record of tool calls that reached an objective, in Trailblaze's shape.

    - tools:
      - navigate:
          url: http://127.0.0.1:8000/form
      - fill:
          target: label=Email
          value: ada@example.org
    - prompt:
        text: Sign in
        recording:
          tools:
          - fill:
              target: label=Password
              value: ${PASSWORD}

A top-level item is `tools` (calls made outside any objective) or `prompt` (an objective in
words, and the calls that reached it under `recording`; a prompt without a recording needs a
model to replay). `read_trail` gives every call with its line; `TrailWriter` appends one call at a
time as a complete YAML block, so the file is a valid trail after every append, whatever happens
to the process after it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from host.shared.jsontypes import JsonObject

MAX_TRAIL_BYTES = 16 * 1024 * 1024
SECRET = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class TrailError(Exception):
    """A trail that cannot be used, with its place (`file:line`) and what to do about it."""

    def __init__(self, place: str, message: str) -> None:
        super().__init__(f"{place}: {message}")
        self.place = place
        self.message = message


@dataclass(frozen=True)
class Step:
    """One recorded call: the tool, its arguments, and where it is written (1-based line)."""

    tool: str
    arguments: JsonObject
    line: int
    prompt: str | None = None
    """The objective the call belongs to (None for a top-level `tools` item)."""


@dataclass(frozen=True)
class Prompt:
    """An objective in words; `recorded` is False when it holds no recording (needs a model)."""

    text: str
    line: int
    recorded: bool


@dataclass
class Trail:
    """A read trail: its steps in order, and its prompts (to tell which need a model)."""

    path: Path
    steps: list[Step] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)

    def place(self, line: int) -> str:
        return f"{self.path.name}:{line}"


def read_trail(path: Path) -> Trail:
    """Read and check the shape of a trail; raises TrailError naming the line of what is wrong."""
    try:
        size = path.stat().st_size
        if size > MAX_TRAIL_BYTES:
            raise TrailError(str(path), f"larger than {MAX_TRAIL_BYTES} bytes; is it a trail?")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TrailError(str(path), "no such file; record one with serve --record") from None
    except UnicodeDecodeError as error:
        raise TrailError(str(path), f"not UTF-8 ({error.reason})") from None
    except OSError as error:
        raise TrailError(str(path), f"cannot be read ({error.strerror})") from None
    trail = Trail(path)
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise TrailError(
            trail.place(line), f"not valid YAML ({getattr(error, 'problem', error)})"
        ) from None
    if root is None:
        return trail
    if not isinstance(root, yaml.SequenceNode):
        raise TrailError(
            trail.place(_line(root)), "a trail is a list of `tools:` and `prompt:` items"
        )
    for item in root.value:
        _read_item(trail, item)
    return trail


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _mapping(node: yaml.Node) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {str(k.value): v for k, v in node.value if isinstance(k, yaml.ScalarNode)}


def _read_item(trail: Trail, item: yaml.Node) -> None:
    fields = _mapping(item)
    if set(fields) == {"tools"}:
        _read_tools(trail, fields["tools"], None)
        return
    if set(fields) == {"prompt"}:
        prompt = _mapping(fields["prompt"])
        text_node = prompt.get("text")
        if not isinstance(text_node, yaml.ScalarNode) or not str(text_node.value).strip():
            raise TrailError(trail.place(_line(item)), "a prompt needs `text:` (the objective)")
        text = str(text_node.value)
        unknown = set(prompt) - {"text", "recording"}
        if unknown:
            raise TrailError(
                trail.place(_line(item)),
                f"a prompt holds only text and recording, not {sorted(unknown)}",
            )
        recording = _mapping(prompt["recording"]) if "recording" in prompt else {}
        tools = recording.get("tools")
        trail.prompts.append(Prompt(text, _line(item), tools is not None))
        if tools is not None:
            _read_tools(trail, tools, text)
        return
    raise TrailError(
        trail.place(_line(item)),
        "each item of a trail is `- tools: [...]` or `- prompt: {text, recording: {tools: [...]}}`",
    )


def _read_tools(trail: Trail, node: yaml.Node, prompt: str | None) -> None:
    if not isinstance(node, yaml.SequenceNode):
        raise TrailError(
            trail.place(_line(node)), "`tools:` holds a list of `- toolName: {arguments}`"
        )
    for entry in node.value:
        call = _mapping(entry)
        if len(call) != 1:
            raise TrailError(
                trail.place(_line(entry)), "each tool entry is one `toolName: {arguments}` mapping"
            )
        ((tool, arguments_node),) = call.items()
        arguments = yaml.load(yaml.serialize(arguments_node), Loader=_Loader)
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise TrailError(
                trail.place(_line(entry)), f"the arguments of {tool} must be a mapping"
            )
        trail.steps.append(Step(tool, arguments, _line(entry), prompt))


def render_call(tool: str, arguments: JsonObject, indent: int) -> str:
    """One `- tool: {arguments}` entry as block YAML, indented by `indent` spaces."""
    text = yaml.dump(
        [{tool: arguments}],
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
    pad = " " * indent
    return "".join(pad + line for line in text.splitlines(keepends=True))


class TrailWriter:
    """Appends calls to one trail file, each as one complete block in one `write`.

    Guarantees: after every `add` or `objective` returns, the file is a valid trail holding every
    call added so far (a process killed at any moment leaves a trail of the calls that finished);
    consecutive calls share one `tools` item, or the `recording` of the open `prompt`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._open: str | None = None  # "tools", "prompt" or None (a new item comes next)
        self._prompt_has_tools = False

    def objective(self, text: str) -> None:
        """Open a `prompt` item: the calls after it are its recording."""
        scalar = yaml.dump({"text": text}, Dumper=_Dumper, allow_unicode=True, width=100)
        self._write("- prompt:\n" + "".join("    " + line for line in scalar.splitlines(True)))
        self._open = "prompt"
        self._prompt_has_tools = False

    def add(self, tool: str, arguments: JsonObject) -> None:
        """Append one call: to the open prompt's recording, else to the current `tools` item."""
        if self._open == "prompt":
            head = "" if self._prompt_has_tools else "    recording:\n      tools:\n"
            self._write(head + render_call(tool, arguments, 6))
            self._prompt_has_tools = True
            return
        head = "" if self._open == "tools" else "- tools:\n"
        self._write(head + render_call(tool, arguments, 2))
        self._open = "tools"

    def _write(self, text: str) -> None:
        data = text.encode("utf-8")
        while data:
            written = os.write(self._fd, data)
            data = data[written:]

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
