"""The surface manifest: what `generated/` was made from and a fingerprint of every tool.

Written as `generated/manifest.json` with the rest of the output and read back by `diff`. Schemas
in it are stripped of descriptions, so a javadoc edit never looks like a type change.
"""

from __future__ import annotations

import json
from typing import Any

from generator import __version__
from generator.model.ir import Tool
from generator.model.surface_report import SurfaceReport
from generator.render.writers import json_schema
from generator.shared.cache import sha256_bytes
from generator.shared.json_text import dumps_indented

FORMAT = 1


def _without_descriptions(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _without_descriptions(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_without_descriptions(v) for v in schema]
    return schema


def _tool_entry(tool: Tool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "target": tool.target.prefix,
        "java": list(tool.java_signatures),
        "python": f"{tool.target.receiver}.{tool.python_method}",
        "parameters": {
            p.wire_name: {
                "required": p.required,
                "schema": _without_descriptions(json_schema.schema(p.type)),
            }
            for p in tool.params
        },
        "result": _without_descriptions(json_schema.schema(tool.result)),
    }
    entry["fingerprint"] = sha256_bytes(json.dumps(entry, sort_keys=True).encode())[:16]
    # Outside the fingerprint, which covers the callable surface only: `diff` reports a change of
    # where descriptions come from (the javadoc, or the Python docstrings) on its own line.
    entry["descriptionFrom"] = tool.description_from
    return entry


def build_manifest(
    tools: list[Tool],
    report: SurfaceReport,
    java_version: str,
    python_version: str,
    jar_sha256: str,
    kotlin: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The manifest; `kotlin` (the Kotlin shims' signatures and refusals) only when that output
    is written, so a manifest without it compares as before; `options`, the shaping options the
    tree was written with (`pipeline.recorded_options`), so `--check` can say which differ."""
    surface = {}
    for row in report.rows:
        key = f"{row.interface}.{row.method}"
        surface[key] = (
            f"tool {row.tool}" if row.status == "tool" else f"{row.status}: {row.category}"
        )
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "generator": __version__,
        "playwright": {"java": java_version, "python": python_version, "jarSha256": jar_sha256},
        "tools": {tool.name.value: _tool_entry(tool) for tool in tools},
        "surface": dict(sorted(surface.items())),
    }
    if kotlin is not None:
        manifest["kotlin"] = kotlin
    if options is not None:
        manifest["options"] = options
    return manifest


def manifest_text(manifest: dict[str, Any]) -> str:
    return dumps_indented(manifest, 1, ensure_ascii=False) + "\n"
