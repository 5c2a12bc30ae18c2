"""The names the Kotlin shims are written with (`--kotlin-*`), apart from the Kotlin writer so
that a run that writes no Kotlin does not load it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.render.kotlin.trailblaze_api import APIS, DEFAULT_API, TrailblazeApi

DEFAULT_PACKAGE = "xyz.block.trailblaze.playwright.generated"
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
    """The names the shims use: their package, and the Trailblaze release whose API they target
    (a name of `generator.render.kotlin.trailblaze_api.APIS`)."""

    package: str = DEFAULT_PACKAGE
    trailblaze_api: str = DEFAULT_API

    @property
    def api(self) -> TrailblazeApi:
        return APIS[self.trailblaze_api]

    def problem(self) -> str | None:
        """Why these settings cannot be used (one line naming the option and the fix), or None."""
        if self.trailblaze_api not in APIS:
            return (
                f"--trailblaze-api {self.trailblaze_api!r} is not a Trailblaze API this generator "
                f"knows; choose one of {', '.join(sorted(APIS))}"
            )
        if not _QUALIFIED.match(self.package) or any(
            p in KEYWORDS for p in self.package.split(".")
        ):
            return (
                f"--kotlin-package {self.package!r} is not a Kotlin package name; use dot-separated "
                "identifiers that are not keywords, such as com.example.tools"
            )
        return None
