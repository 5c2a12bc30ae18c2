"""The names the Kotlin shims are written with (`--kotlin-*`), apart from the Kotlin writer so
that a run that writes no Kotlin does not load it."""

from __future__ import annotations

from dataclasses import dataclass

from generator.render.kotlin.trailblaze_api import APIS, DEFAULT_API, TrailblazeApi
from generator.shared.allowlist_rules import KOTLIN_KEYWORDS, KOTLIN_PACKAGE

DEFAULT_PACKAGE = "xyz.block.trailblaze.playwright.generated"
KEYWORDS = KOTLIN_KEYWORDS
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
        problem = KOTLIN_PACKAGE.problem(self.package)
        if problem:
            shown = self.package if len(self.package) <= 60 else self.package[:57] + "..."
            return f"--kotlin-package {shown!r} {problem}"
        return None
