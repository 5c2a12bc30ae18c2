"""Hand-made IR for unit tests of the writers and views: a `Tool` on the page target with
defaults for everything a test does not care about."""

from __future__ import annotations

import dataclasses
from typing import Any

from generator.model.ir import ResultShape, Tool, ToolParam
from generator.model.type_tree import Null
from generator.shared.names import ToolName
from generator.shared.targets import TARGETS


def page_tool(
    params: tuple[ToolParam, ...], signature: str, method: str = "go", **changes: Any
) -> Tool:
    """`web_<method>` calling `Page#<signature>`, returning nothing; `changes` replace fields."""
    tool = Tool(
        name=ToolName(f"web_{method}"),
        description="",
        surface_to_llm=True,
        is_recordable=False,
        target=TARGETS["page"],
        java_method=method,
        java_signatures=(f"com.microsoft.playwright.Page#{signature}",),
        python_method=method,
        python_is_property=False,
        python_awaitable=False,
        params=params,
        call=(),
        result=Null(),
        result_shape=ResultShape("discard"),
        result_note="",
        source="allowlist.yaml:1:1",
    )
    return dataclasses.replace(tool, **changes)
