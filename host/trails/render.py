"""How a method call is spelled in Python (snake_case, keyword options) and TypeScript
(camelCase, an options object): shared by locator expressions and whole statements."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping


def snake(name: str) -> str:
    """`getByRole` → `get_by_role`."""
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def camel(name: str) -> str:
    """`wait_for_selector` → `waitForSelector`."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def method_call(
    method: str,
    args: list[str],
    options: Mapping[str, object],
    language: str,
    literal: Callable[[object, str], str],
) -> str:
    """`.method(args, options)` for a camelCase `method`: Python keywords, or a TypeScript
    options object; `literal` spells each option's value."""
    if language == "python":
        keywords = [f"{snake(k)}={literal(v, language)}" for k, v in options.items()]
        return f".{snake(method)}({', '.join(args + keywords)})"
    if options:
        fields = ", ".join(f"{k}: {literal(v, language)}" for k, v in options.items())
        args = [*args, "{ " + fields + " }"]
    return f".{method}({', '.join(args)})"
