"""JSON values as the host passes them around (the same shape as `playwright_tools.JsonValue`).

Defined here so that importing the host does not import the generated package and its 200 tool
modules: those are loaded on the first call that needs them.
"""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"
