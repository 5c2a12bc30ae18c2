"""`.tool.yaml` descriptors and `.toolset.yaml` toolsets: the generator's and the host's own.

Both are read the same way; nothing here imports the generated Python package, so listing tools is
fast and does not start Playwright. Given a `YamlCache`, a file whose text was parsed before is not
parsed again.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from host.shared.jsontypes import JsonObject
from host.shared.yaml_cache import YamlCache

HOST_DIR = Path(__file__).resolve().parent.parent
HOST_TOOLS_DIR = HOST_DIR / "tools"
HOST_TOOLSETS_DIR = HOST_DIR / "toolsets"
TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a tool name or alias may be (MCP's rule for tool names)."""


@dataclass(frozen=True)
class ToolDescriptor:
    """One tool as its `.tool.yaml` describes it.

    Guarantees: `parameters` is the JSON Schema arguments are validated against (an object schema);
    `origin` is `generated` (run by a `playwright_tools` shim) or `host` (run by the Python function
    named by `implementation`, `module:function`).
    """

    name: str
    description: str
    parameters: JsonObject
    returns: JsonObject
    surface_to_llm: bool
    origin: str
    implementation: str = ""
    session_param: str = ""
    """A parameter naming a sub-session of the caller's (`webBrowser`'s `agentId`), or empty."""
    feedback: bool = False
    """An agent action: a call a dialog interrupted still answers with the page's feedback."""
    settles: bool = False
    """An action that may set things off (a navigation, a dialog, a tab, a download, requests): the
    host waits briefly for them before its feedback is made (host/sessions/settle.py)."""
    navigates: tuple[str, ...] = ()
    """Parameters holding a URL the tool opens: checked against the navigation policy first."""
    is_recordable: bool = False
    """A successful call is kept in a recorded trail (`--record`): it changes the page or the
    session, so a replay needs it."""
    python_call: str = ""
    """A generated tool's Playwright call (`page.locator(self.selector).fill`), for exports."""
    aliases: tuple[str, ...] = ()
    """Former names the tool still answers to (MCP calls, the scripting callback, trail replay);
    only `name` is listed, and a recorder writes `name`."""
    peer_arguments: tuple[tuple[str, str], ...] = ()
    """@playwright/mcp's names for this tool's arguments (`ref` → `target`, `doubleClick` →
    `double`), accepted and never listed; a name mapped to `""` is a human description of an
    element (`element`), kept for messages and trails (`accept_peer_arguments`)."""

    checked_parameters: JsonObject | None = None
    """The schema arguments are checked against: `parameters` and the descriptor's
    `peerParameters` (@playwright/mcp's arguments this tool takes, never listed); None when it
    has none."""
    peer_shape: str = ""
    """`module:function` turning @playwright/mcp's shapes of this tool's arguments (a flat form,
    other field names inside an array) into ours, before the schema is checked; it raises
    ValueError(`path: message`) for what it cannot take."""

    def accept_peer_arguments(self, args: object) -> tuple[object, dict[str, str]]:
        """`args` with the peer's names turned into ours, and the element descriptions given.

        Raises ValueError (naming the argument) when a peer's name and ours are both given with
        different values, or a description is not a string."""
        if not self.peer_arguments or not isinstance(args, dict):
            return args, {}
        present = [(peer, ours) for peer, ours in self.peer_arguments if peer in args]
        if not present:
            return args, {}
        moved = dict(args)
        described: dict[str, str] = {}
        for peer, ours in present:
            value = moved.pop(peer)
            if not ours:
                if not isinstance(value, str):
                    raise ValueError(f"{peer}: a description of the element, as text")
                described[peer] = value
            elif ours in moved and moved[ours] != value:
                raise ValueError(f"{peer}: give {ours} or {peer} (its other name), not both")
            else:
                moved[ours] = value
        return moved, described


@dataclass(frozen=True)
class Toolset:
    """A named list of tools; `always_enabled` toolsets are what the scripting callback reaches."""

    name: str
    always_enabled: bool
    tools: tuple[str, ...]


def parse_yaml(text: str) -> Any:
    """YAML text as Python data (safe loading; libyaml when PyYAML has it)."""
    import yaml  # not needed when every file comes from the cache

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _load(path: Path, cache: YamlCache | None = None) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    data = parse_yaml(text) if cache is None else cache.parse(text, parse_yaml)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping")
    return cast(dict[str, Any], data)


def read_descriptor(path: Path, origin: str, cache: YamlCache | None = None) -> ToolDescriptor:
    """Read one `.tool.yaml`; a host tool must name its implementation under `calls.python`."""
    data = _load(path, cache)
    calls = data.get("calls") or {}
    implementation = str(calls.get("python", "")) if origin == "host" else ""
    if origin == "host" and ":" not in implementation:
        raise ValueError(f"{path}: calls.python must be 'module:function'")
    if origin == "host" and ":" not in str(calls.get("peerShape", ":")):
        raise ValueError(f"{path}: calls.peerShape must be 'module:function'")
    parameters = data.get("parameters")
    if not isinstance(parameters, dict) or parameters.get("type") != "object":
        raise ValueError(f"{path}: parameters must be an object schema")
    name = str(data["name"])
    peers = data.get("peerArguments") or {}
    if not isinstance(peers, dict) or not all(
        isinstance(k, str) and isinstance(v, str | None) for k, v in peers.items()
    ):
        raise ValueError(f"{path}: peerArguments must map a name to an argument's name (or null)")
    aliases = data.get("aliases") or []
    if not isinstance(aliases, list) or not all(
        isinstance(a, str) and TOOL_NAME.fullmatch(a) for a in aliases
    ):
        raise ValueError(f"{path}: aliases must be a list of tool names ([A-Za-z0-9_-], 1-64)")
    if name in aliases or len(set(aliases)) != len(aliases):
        raise ValueError(f"{path}: aliases must differ from the name and from each other")
    peer_parameters = data.get("peerParameters") or {}
    if not isinstance(peer_parameters, dict) or not all(
        isinstance(k, str) and isinstance(v, dict) for k, v in peer_parameters.items()
    ):
        raise ValueError(f"{path}: peerParameters must map an argument's name to its schema")
    properties = parameters.get("properties") or {}
    if set(peer_parameters) & set(properties):
        raise ValueError(f"{path}: peerParameters must not repeat a listed parameter")
    checked = None
    if peer_parameters:
        checked = {**parameters, "properties": {**properties, **peer_parameters}}
    return ToolDescriptor(
        name=name,
        description=str(data.get("description", "")),
        parameters=cast(JsonObject, parameters),
        returns=cast(JsonObject, data.get("returns") or {}),
        surface_to_llm=bool(data.get("surfaceToLlm", False)),
        origin=origin,
        implementation=implementation,
        session_param=str(data.get("sessionParam", "")) if origin == "host" else "",
        feedback=bool(data.get("feedback", False)) and origin == "host",
        settles=bool(data.get("settles", False)) and origin == "host",
        navigates=tuple(str(n) for n in data.get("navigates") or ()) if origin == "host" else (),
        is_recordable=bool(data.get("isRecordable", False)),
        python_call=str(calls.get("python", "")) if origin == "generated" else "",
        aliases=tuple(aliases),
        peer_arguments=tuple((str(k), str(v or "")) for k, v in peers.items()),
        peer_shape=str(calls.get("peerShape", "")) if origin == "host" else "",
        checked_parameters=cast(JsonObject, checked) if checked is not None else None,
    )


def read_descriptors(
    directory: Path, origin: str, cache: YamlCache | None = None
) -> list[ToolDescriptor]:
    """Every `*.tool.yaml` in `directory`, sorted by file name."""
    return [read_descriptor(p, origin, cache) for p in sorted(directory.glob("*.tool.yaml"))]


def read_toolsets(directory: Path, cache: YamlCache | None = None) -> list[Toolset]:
    """Every `*.toolset.yaml` in `directory`, sorted by file name."""
    toolsets = []
    for path in sorted(directory.glob("*.toolset.yaml")):
        data = _load(path, cache)
        toolsets.append(
            Toolset(
                name=str(data["name"]),
                always_enabled=bool(data.get("always_enabled", False)),
                tools=tuple(str(t) for t in data.get("tools") or ()),
            )
        )
    return toolsets


def find_generated_dir() -> Path | None:
    """The folder of the generated descriptors (`tools/`, `toolsets/`) of the importable
    `playwright_tools` package, if any; found without importing the package.

    In a checkout `generated/python/playwright_tools` → `generated/`; installed from a wheel,
    the package's own `descriptors/` (the same files, shipped as package data).
    """
    spec = importlib.util.find_spec("playwright_tools")
    if spec is None or spec.origin is None:
        return None
    package = Path(spec.origin).resolve().parent
    for candidate in (package.parents[1], package / "descriptors"):
        if (candidate / "tools").is_dir():
            return candidate
    return None
