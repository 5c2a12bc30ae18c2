"""Playwright tools: one shim class per tool, a registry to dispatch them by name."""

from playwright_tools._types import JsonValue
from playwright_tools._validate import ToolError
from playwright_tools.registry import TOOLS, adispatch, dispatch, set_default_deadline

__all__ = ["TOOLS", "JsonValue", "ToolError", "adispatch", "dispatch", "set_default_deadline"]
