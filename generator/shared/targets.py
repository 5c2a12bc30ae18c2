"""The Playwright objects a tool can run on, and how a shim reaches each from a page."""

from __future__ import annotations

from dataclasses import dataclass

JAVA_PACKAGE = "com.microsoft.playwright"


@dataclass(frozen=True)
class Target:
    """One allowlist prefix (`page`, `context`, ...) bound to its Java interface and Python class.

    `receiver` is the Python expression, in terms of the shim's `page` argument (and its own
    fields), whose method the shim calls; `tool_prefix` makes tool names from different targets
    distinct by construction; `selector_param` gives every tool a leading `selector` argument.
    """

    prefix: str
    java_interface: str
    python_class: str
    receiver: str
    tool_prefix: str
    selector_param: bool = False

    @property
    def java_class(self) -> str:
        return f"{JAVA_PACKAGE}.{self.java_interface}"


TARGETS: dict[str, Target] = {
    t.prefix: t
    for t in (
        Target("page", "Page", "Page", "page", "web_"),
        Target("context", "BrowserContext", "BrowserContext", "page.context", "web_context_"),
        Target("keyboard", "Keyboard", "Keyboard", "page.keyboard", "web_keyboard_"),
        Target("mouse", "Mouse", "Mouse", "page.mouse", "web_mouse_"),
        Target(
            "locator", "Locator", "Locator", "page.locator(self.selector)", "web_locator_", True
        ),
    )
}
