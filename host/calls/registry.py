"""One registry of every tool the host can run: the generated ones and the host's own.

Both kinds are described by `.tool.yaml` files, validated by the same JSON Schema checker (the
generated package's), grouped by the same `.toolset.yaml` mechanism, and looked up by name.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

from host.calls import generated
from host.settings.config import HostConfig
from host.shared.descriptors import (
    HOST_TOOLS_DIR,
    HOST_TOOLSETS_DIR,
    ToolDescriptor,
    Toolset,
    find_generated_dir,
    read_descriptors,
    read_toolsets,
)
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue
from host.shared.yaml_cache import YamlCache

if TYPE_CHECKING:
    from host.sessions.session import Session
    from host.sessions.tab import Tab
    from host.trails.recorder import Recorder

# Host tools that replace a generated tool of the same name, and why. Any other clash is an error.
# (The host's web_unroute needs none: Page.unroute is left out of the allowlist, since no generated
# tool can register a route.)
OVERRIDES: dict[str, str] = {}


DEFAULT_TOOLSET = "web_agent"


@dataclass(frozen=True)
class CallContext:
    """What a hand-authored tool runs with: the caller's session, its current tab, the config."""

    session: Session
    tab: Tab
    config: HostConfig
    recorder: Recorder | None = None


HostImpl = Callable[[CallContext, JsonObject], Awaitable[JsonValue]]
Runner = Callable[[CallContext], Awaitable[object]]


def generated_registry() -> ModuleType:
    """`playwright_tools.registry`, imported on first use (it imports ~170 tool modules); the
    host itself imports one tool's module at a time (`host.calls.generated`)."""
    return generated.full_registry()


Checker = generated.Checker
_check: Checker | None = None


def _checker() -> Checker:
    """The generated package's argument checker (the one its own tools use); jsonschema if absent."""
    global _check
    if _check is None:
        try:
            _check = generated.checker()
        except (ImportError, AttributeError):
            _check = _jsonschema_check
    return _check


def _jsonschema_check(tool: str, value: object, schema: JsonObject, path: str) -> None:
    import jsonschema  # type: ignore[import-untyped]

    errors = sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(value), key=lambda e: e.path
    )
    if errors:
        error = errors[0]
        where = ".".join(str(p) for p in error.absolute_path)
        code = "missing_argument" if error.validator == "required" else "invalid_argument"
        if error.validator == "additionalProperties":
            code = "unknown_argument"
        raise HostError(code, error.message, tool=tool, path=where)


class ToolRegistry:
    """Every tool by name, every toolset by name.

    Guarantees: names are unique (a host tool may replace a generated one only if listed in
    `OVERRIDES`); every toolset names only known tools; `prepare` validates the arguments against
    the tool's schema before anything touches a browser and raises `HostError` (code
    `unknown_tool`, `tool_not_enabled`, `missing_argument`, `unknown_argument`, `invalid_argument`).
    With a `cache`, descriptors whose text it has seen are not parsed again (the same result).
    """

    def __init__(self, generated_dir: Path | None = None, cache: YamlCache | None = None) -> None:
        generated_dir = generated_dir or find_generated_dir()
        self.tools: dict[str, ToolDescriptor] = {}
        self.toolsets: dict[str, Toolset] = {}
        if generated_dir is not None:
            for descriptor in read_descriptors(generated_dir / "tools", "generated", cache):
                self.tools[descriptor.name] = descriptor
            toolsets = read_toolsets(generated_dir / "toolsets", cache)
        else:
            toolsets = self._descriptors_from_package()
        for descriptor in read_descriptors(HOST_TOOLS_DIR, "host", cache):
            existing = self.tools.get(descriptor.name)
            if existing is not None and existing.origin == "host":
                raise ValueError(
                    f"two host tool descriptors in {HOST_TOOLS_DIR} are named {descriptor.name}; "
                    "each tool has one <name>.tool.yaml (remove the stale one)"
                )
            if existing is not None and descriptor.name not in OVERRIDES:
                raise ValueError(f"host tool {descriptor.name} clashes with a generated tool")
            self.tools[descriptor.name] = descriptor
        self.aliases: dict[str, str] = {}
        """Each former name and the tool it names now (`resolve`)."""
        for descriptor in self.tools.values():
            for alias in descriptor.aliases:
                if alias in self.tools:
                    raise ValueError(f"{descriptor.name}'s alias {alias} is the name of a tool")
                if alias in self.aliases:
                    raise ValueError(
                        f"{descriptor.name}'s alias {alias} is already an alias of "
                        f"{self.aliases[alias]}"
                    )
                self.aliases[alias] = descriptor.name
        for toolset in [*toolsets, *read_toolsets(HOST_TOOLSETS_DIR, cache)]:
            unknown = [t for t in toolset.tools if self.resolve(t) not in self.tools]
            if unknown:
                raise ValueError(f"toolset {toolset.name} names unknown tools: {unknown}")
            tools = tuple(dict.fromkeys(self.resolve(t) for t in toolset.tools))
            earlier = self.toolsets.get(toolset.name)
            if earlier is not None:  # a host toolset named like a generated one adds to it
                tools = tuple(dict.fromkeys((*earlier.tools, *tools)))
            self.toolsets[toolset.name] = Toolset(toolset.name, toolset.always_enabled, tools)
        if cache is not None:
            cache.save()
        self._impls: dict[str, HostImpl] = {}
        self._impl_modules: dict[str, ModuleType] = {}

    def _descriptors_from_package(self) -> list[Toolset]:
        """Without `generated/` on disk (an installed wheel), describe tools from the shims."""
        registry = generated_registry()
        tools = cast(dict[str, object], registry.TOOLS)
        for name, shim in sorted(tools.items()):
            self.tools[name] = ToolDescriptor(
                name=name,
                description=(getattr(shim, "__doc__", "") or "").strip(),
                parameters=cast(JsonObject, getattr(shim, "parameters")),  # noqa: B009
                returns={},
                surface_to_llm=False,
                origin="generated",
            )
        return [Toolset("web_framework", True, tuple(sorted(tools)))]

    # -- selection -------------------------------------------------------------------------

    def surfaced(self) -> frozenset[str]:
        """Tools whose descriptor says `surfaceToLlm: true` (the allowlist's flag for generated
        tools, the descriptor's own for hand-authored ones)."""
        return frozenset(name for name, tool in self.tools.items() if tool.surface_to_llm)

    def default_listing(self) -> tuple[str, ...]:
        """What models see by default: the `web_agent` toolset, then every other tool that says
        `surfaceToLlm: true`, by name."""
        agent = self.toolsets[DEFAULT_TOOLSET].tools
        return (*agent, *sorted(self.surfaced() - set(agent)))

    def select(self, names: Iterable[str]) -> frozenset[str]:
        """Tools enabled by toolset names: `default` (the `web_agent` toolset, the one written for
        models, and every tool marked `surfaceToLlm`), `all`, or a toolset (exactly its tools)."""
        enabled: set[str] = set()
        for name in names:
            if name == "all":
                enabled.update(self.tools)
            elif name == "default":
                enabled.update(self.default_listing())
            elif name in self.toolsets:
                enabled.update(self.toolsets[name].tools)
            else:
                known = ", ".join(["default", "all", *sorted(self.toolsets)])
                raise ValueError(f"unknown toolset {name!r}; known: {known}")
        return frozenset(enabled)

    def always_enabled(self) -> frozenset[str]:
        """The tools of every `always_enabled` toolset (what the scripting callback reaches)."""
        return frozenset(t for ts in self.toolsets.values() if ts.always_enabled for t in ts.tools)

    # -- lookup and validation -------------------------------------------------------------

    def resolve(self, name: str) -> str:
        """The tool's listed name: `name` itself, or the tool a former name (alias) stands for."""
        return self.aliases.get(name, name)

    def lookup(self, name: str, enabled: frozenset[str] | None) -> ToolDescriptor:
        """The tool called `name` (or whose alias it is), if `enabled` holds it (None: every
        tool)."""
        name = self.resolve(name)
        descriptor = self.tools.get(name)
        if descriptor is None or (enabled is not None and name not in enabled):
            pool = sorted(enabled if enabled is not None else self.tools)
            pool += sorted(a for a, tool in self.aliases.items() if tool in pool)
            folded = {n.lower(): n for n in pool}
            guesses = [folded[name.lower()]] if name.lower() in folded else []
            guesses += [
                g
                for g in difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
                if g not in guesses
            ]
            hint = f"; did you mean {', '.join(guesses)}?" if guesses else ""
            if descriptor is None:
                raise HostError("unknown_tool", f"there is no tool named {name!r}{hint}", tool=name)
            raise HostError(
                "tool_not_enabled",
                f"{name!r} exists but is not enabled on this host (choose toolsets with --toolset){hint}",
                tool=name,
            )
        return descriptor

    def prepare(self, descriptor: ToolDescriptor, args: object) -> Runner:
        """Validate `args` and return what runs the call; raises HostError before any browser work."""
        try:
            if descriptor.origin == "generated":
                # What the generated registry's `prepare` does, with the tool's module alone.
                try:
                    shim_class = generated.shim_class(descriptor.name)
                except KeyError:
                    raise HostError(
                        "unknown_tool",
                        "the generated package has no such tool (regenerate it)",
                        tool=descriptor.name,
                    ) from None
                _checker()(descriptor.name, args, shim_class.parameters, "")
                shim = shim_class.from_args(cast(JsonObject, args))
                return lambda call: cast(Awaitable[object], shim.arun(call.tab.page))
            checked = descriptor.checked_parameters or descriptor.parameters
            _checker()(descriptor.name, args, checked, "")
        except HostError:
            raise
        except Exception as error:
            code = getattr(error, "code", None)
            if code is None:
                raise
            raise HostError(
                str(code),
                str(getattr(error, "detail", error)),
                tool=descriptor.name,
                path=str(getattr(error, "path", "")),
            ) from None
        impl = self._impl(descriptor)
        arguments = cast(JsonObject, args)
        return lambda call: impl(call, arguments)

    def peer_shaped(self, descriptor: ToolDescriptor, args: object) -> object:
        """`args` in this tool's own shape when the descriptor names a `peerShape` for
        @playwright/mcp's (else as given); raises ValueError(`path: message`)."""
        if not descriptor.peer_shape or not isinstance(args, dict):
            return args
        module_name, _, function = descriptor.peer_shape.partition(":")
        shape = getattr(importlib.import_module(module_name), function)
        return shape(args)

    def _impl(self, descriptor: ToolDescriptor) -> HostImpl:
        impl = self._impls.get(descriptor.name)
        if impl is None:
            module_name, _, function = descriptor.implementation.partition(":")
            module = importlib.import_module(module_name)
            impl = cast(HostImpl, getattr(module, function))
            self._impls[descriptor.name] = impl
            self._impl_modules[module_name] = module
        return impl

    async def close_tools(self) -> None:
        """Await `shutdown()` of every tool module this registry loaded that defines one (the
        execute tool's worker started ahead of time). The tools sit above the call path, which
        loads them by the name in their descriptor and so never imports them itself."""
        for module in self._impl_modules.values():
            shutdown = getattr(module, "shutdown", None)
            if shutdown is not None:
                await shutdown()
