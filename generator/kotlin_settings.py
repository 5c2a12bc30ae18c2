"""The names the Kotlin shims are written with (`--kotlin-*`), apart from the Kotlin writer so
that a run that writes no Kotlin does not load it."""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_PACKAGE = "xyz.block.trailblaze.playwright.generated"
DEFAULT_TOOL_INTERFACE = "xyz.block.trailblaze.playwright.PlaywrightExecutableTool"
DEFAULT_TOOL_ANNOTATION = "xyz.block.trailblaze.toolcalls.TrailblazeToolClass"
# Kotlin's hard keywords: not usable as identifiers without backticks.
KEYWORDS = frozenset(
    [
        "as",
        "break",
        "class",
        "continue",
        "do",
        "else",
        "false",
        "for",
        "fun",
        "if",
        "in",
        "interface",
        "is",
        "null",
        "object",
        "package",
        "return",
        "super",
        "this",
        "throw",
        "true",
        "try",
        "typealias",
        "typeof",
        "val",
        "var",
        "when",
        "while",
    ]
)
_QUALIFIED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
# The file of the JSON helpers every shim uses (`jsonToJava`), beside the shims.
JSON_HELPER_FILE = "GeneratedJson"


@dataclass(frozen=True)
class KotlinSettings:
    """The names the shims use: their package and the Trailblaze symbols (fully qualified)."""

    package: str = DEFAULT_PACKAGE
    tool_interface: str = DEFAULT_TOOL_INTERFACE
    tool_annotation: str = DEFAULT_TOOL_ANNOTATION

    def problem(self) -> str | None:
        for option, value in (
            ("--kotlin-package", self.package),
            ("--kotlin-tool-interface", self.tool_interface),
            ("--kotlin-tool-annotation", self.tool_annotation),
        ):
            if not _QUALIFIED.match(value) or any(p in KEYWORDS for p in value.split(".")):
                return f"{option} {value!r} is not a Kotlin qualified name (a.b.C, no keywords)"
        return None
