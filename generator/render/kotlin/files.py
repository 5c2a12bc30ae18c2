"""The Kotlin output as a whole: every tool's shim or its refusal (a class name two tools would
share is refused for the second), the shims Trailblaze registers (`trailblaze:` in the
allowlist; a name of a Trailblaze built-in is an input error), and the surface the manifest
records of them."""

from __future__ import annotations

from typing import Any

from generator.model.ir import Tool
from generator.render.kotlin.settings import KotlinSettings
from generator.render.kotlin.shim import Refusal, kotlin_tool
from generator.shared.diagnostics import ExitCode, GeneratorError


def signature(context: dict[str, Any]) -> str:
    """What a Kotlin caller of one shim relies on: its class and constructor, as Kotlin spells
    them (`GeneratedPageClickTool(selector: String, timeout: Double? = null)`); the version-bump
    report calls any change of it breaking (a caller may construct it positionally)."""
    fields = ", ".join(f"{f['name']}: {f['declared']}" for f in context["fields"])
    return f"{context['class_name']}({fields})"


def surface(
    contexts: list[dict[str, Any]], refused: list[Refusal], settings: KotlinSettings
) -> dict[str, Any]:
    """The Kotlin output as the manifest records it: each shim's signature by tool name, and
    each refused tool's reason."""
    return {
        "package": settings.package,
        "shims": {
            c["source_tool"]: signature(c) for c in sorted(contexts, key=lambda c: c["source_tool"])
        },
        "refused": {r.tool: r.reason for r in sorted(refused, key=lambda r: r.tool)},
    }


def kotlin_files(
    tools: tuple[Tool, ...], settings: KotlinSettings
) -> tuple[list[dict[str, Any]], list[Refusal]]:
    """Every tool's shim context, and the tools refused; a class name that two tools would share
    (`web_a_b`, `web_aB`) is refused for the second."""
    contexts: list[dict[str, Any]] = []
    refused: list[Refusal] = []
    seen: dict[str, str] = {}
    for tool in tools:
        made = kotlin_tool(tool, settings)
        if isinstance(made, Refusal):
            refused.append(made)
            continue
        key = made["class_name"].lower()
        if key in seen:
            refused.append(
                Refusal(
                    tool.name.value,
                    tool.java_reference,
                    f"its class name is {seen[key]}'s, {made['class_name']}",
                )
            )
            continue
        seen[key] = tool.name.value
        contexts.append(made)
    return contexts, refused


def trailblaze_shims(
    tools: tuple[Tool, ...], contexts: list[dict[str, Any]], settings: KotlinSettings
) -> list[dict[str, Any]]:
    """The shims Trailblaze is to register (a descriptor, a toolset entry and a TS entry each):
    all but those of tools the allowlist marks `trailblaze: skip`. A tool named like one of
    Trailblaze's own (at the targeted commit) is an input error unless marked `skip` (Trailblaze's
    tool serves the name) or `replace` (the generated tool takes its place, its class deleted)."""
    api = settings.api
    by_name = {t.name.value: t for t in tools}
    kept = []
    for context in contexts:
        tool = by_name[context["source_tool"]]
        if tool.trailblaze == "skip":
            continue
        if tool.name.value in api.builtins and tool.trailblaze != "replace":
            raise GeneratorError(
                f"{tool.source}: the tool {tool.name.value} ({tool.target.prefix}.{tool.java_method}) "
                f"has the name of a Trailblaze built-in tool (--trailblaze-api {api.name}); give "
                "its entry 'trailblaze: skip' to leave it out of the Trailblaze output, "
                "'trailblaze: replace' if it takes the built-in's place, or another 'name:'.",
                ExitCode.USER_INPUT,
            )
        kept.append(context)
    return kept
