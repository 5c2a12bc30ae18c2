"""The Trailblaze API the Trailblaze outputs are written for (`--trailblaze-api`): one named
setting per Trailblaze release, each the facts of one commit of block/trailblaze.

Everything the `trailblaze` output kind names of Trailblaze comes from here: the interface the
shims implement and its member, the execution context and result types, the tool annotation and
its LLM-visibility parameter (`surfaceToLlm` today, `isForLlm` before 2026.05.22), koog's
description annotation, where descriptors and toolsets live in a trailmap, the toolset's drivers,
and the names of Trailblaze's own tools (a generated tool of the same name would clash).
`scripts/kotlin-check/` holds stand-ins of the same symbols, and `scripts/trailblaze_check.py
--against DIR` compares both with a Trailblaze checkout.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class TrailblazeApi:
    """The Trailblaze symbols and layout of one Trailblaze commit (all names fully qualified).

    Guarantees: `commit` is the block/trailblaze commit every other field was read from, and
    `builtins` is every `@TrailblazeToolClass(name = ...)` of that commit's main sources.
    """

    name: str
    commit: str
    llm_flag: str
    tools_dir: str
    toolsets_dir: str
    builtins: frozenset[str]
    tool_interface: str = "xyz.block.trailblaze.playwright.tools.PlaywrightExecutableTool"
    # What a tool with Trailblaze's optional `reasoning` argument implements as well.
    reasoning: str = "xyz.block.trailblaze.toolcalls.ReasoningTrailblazeTool"
    member: str = "executeWithPlaywright"
    context: str = "xyz.block.trailblaze.toolcalls.TrailblazeToolExecutionContext"
    result: str = "xyz.block.trailblaze.toolcalls.TrailblazeToolResult"
    annotation: str = "xyz.block.trailblaze.toolcalls.TrailblazeToolClass"
    description: str = "ai.koog.agents.core.tools.annotations.LLMDescription"
    drivers: tuple[str, ...] = ("playwright-native", "playwright-electron")
    # Whether Trailblaze's descriptor builder (`asToolType`) describes `Map<String, T>` and
    # `JsonElement`: not at any release yet (patches/trailblaze/ adds it); until then the shims
    # declare such arguments as JSON text, which it describes as a string.
    describes_json: bool = False
    # The patch (a path in this repository) a Trailblaze checkout of `commit` needs for this
    # setting; "" for a release as published.
    patch: str = ""

    @property
    def release(self) -> str:
        """The Trailblaze release this setting is of (its name without a `+patch` suffix)."""
        return self.name.split("+", 1)[0]


_CURRENT = TrailblazeApi(
    name="2026.07.21",
    commit="a022ca69b7fecd0ba7659f2c000fb459213c87d6",
    llm_flag="surfaceToLlm",
    tools_dir="trails/config/trailmaps/web/tools",
    toolsets_dir="trails/config/trailmaps/web/toolsets",
    builtins=frozenset(
        (
            "android_adbShell",
            "android_grantAppOpsPermission",
            "android_grantPermissions",
            "android_sendBroadcast",
            "android_systemUiDemoMode",
            "android_writeBytesToFile",
            "android_writeFileToDownloads",
            "android_writeImageToMediaStore",
            "assertEquals",
            "assertMath",
            "assertNotEquals",
            "assertNotVisibleBySelector",
            "assertNotVisibleWithText",
            "assertVisible",
            "assertVisibleBySelector",
            "assertVisibleWithAccessibilityText",
            "assertVisibleWithResourceId",
            "assertVisibleWithText",
            "assertWaypoint",
            "assertWithAi",
            "booleanAssertion",
            "clearText",
            "compose_click",
            "compose_request_details",
            "compose_scroll",
            "compose_type",
            "compose_verify_element_visible",
            "compose_verify_text_visible",
            "compose_wait",
            "dragByPoints",
            "dragTo",
            "dumpMemory",
            "elementRetriever",
            "exec",
            "findMatches",
            "hideKeyboard",
            "inputText",
            "inputTextRandom",
            "launchApp",
            "longPress",
            "longPressElementWithAccessibilityText",
            "longPressOnElementWithText",
            "mobile_clearAppData",
            "mobile_listInstalledApps",
            "mobile_listInstalledAppsDetailed",
            "mobile_maestro",
            "mobile_pasteClipboard",
            "mobile_setClipboard",
            "networkConnection",
            "objectiveStatus",
            "playwright_desktop_launchGoose",
            "pressKey",
            "rememberNumber",
            "rememberText",
            "rememberWithAi",
            "requestDetailedViewHierarchy",
            "revyl_assert",
            "revyl_back",
            "revyl_doubleTap",
            "revyl_navigate",
            "revyl_pressKey",
            "revyl_swipe",
            "revyl_tap",
            "revyl_type",
            "runTrail",
            "script",
            "scrollUntilTextIsVisible",
            "stopApp",
            "stringEvaluation",
            "swipe",
            "swipeWithRelativeCoordinates",
            "takeSnapshot",
            "tap",
            "tapOn",
            "tapOnAccessibilityNode",
            "tapOnElementBySelector",
            "tapOnElementWithAccessibilityText",
            "tapOnElementWithText",
            "tapOnPoint",
            "wait",
            "waitForChange",
            "waitUntilNotVisible",
            "web_applyCookies",
            "web_assertNetworkEvent",
            "web_click",
            "web_currentUrl",
            "web_evaluate",
            "web_fillSecret",
            "web_getStorageState",
            "web_hover",
            "web_navigate",
            "web_pressKey",
            "web_requestDetails",
            "web_resize",
            "web_scroll",
            "web_selectOption",
            "web_snapshot",
            "web_type",
            "web_verifyElementVisible",
            "web_verifyListVisible",
            "web_verifyTextVisible",
            "web_verifyValue",
            "web_wait",
            "web_waitForUrl",
        )
    ),
)
# The last release before `isForLlm` became `surfaceToLlm` (and before trailmaps).
_ISFORLLM = TrailblazeApi(
    name="2026.05.19",
    commit="72d146a153e191515a2c94bccf6d1942c65837be",
    llm_flag="isForLlm",
    tools_dir="trailblaze-config/tools",
    toolsets_dir="trailblaze-config/toolsets",
    builtins=frozenset(
        (
            "android_adbShell",
            "android_sendBroadcast",
            "android_systemUiDemoMode",
            "androidworldbenchmarks_addContactToDevice",
            "androidworldbenchmarks_assertAdbShellOutput",
            "androidworldbenchmarks_assertFileContent",
            "androidworldbenchmarks_assertFileExistsOnDevice",
            "androidworldbenchmarks_assertSqliteQuery",
            "androidworldbenchmarks_clearDirectory",
            "androidworldbenchmarks_createFileOnDevice",
            "androidworldbenchmarks_executeSqliteOnDevice",
            "androidworldbenchmarks_pushAssetToDevice",
            "androidworldbenchmarks_runAdbShell",
            "androidworldbenchmarks_sendSmsToDevice",
            "assertEquals",
            "assertMath",
            "assertNotEquals",
            "assertNotVisibleWithText",
            "assertVisible",
            "assertVisibleBySelector",
            "assertVisibleWithAccessibilityText",
            "assertVisibleWithResourceId",
            "assertVisibleWithText",
            "assertWithAi",
            "booleanAssertion",
            "compose_click",
            "compose_request_details",
            "compose_scroll",
            "compose_type",
            "compose_verify_element_visible",
            "compose_verify_text_visible",
            "compose_wait",
            "dumpMemory",
            "elementRetriever",
            "hideKeyboard",
            "inputText",
            "launchApp",
            "longPressElementWithAccessibilityText",
            "longPressOnElementWithText",
            "maestro",
            "mobile_clearAppData",
            "mobile_listInstalledApps",
            "mobile_pasteClipboard",
            "mobile_setClipboard",
            "networkConnection",
            "objectiveStatus",
            "openUrl",
            "playwright_desktop_launchGoose",
            "pressKey",
            "rememberNumber",
            "rememberText",
            "rememberWithAi",
            "revyl_assert",
            "revyl_back",
            "revyl_doubleTap",
            "revyl_navigate",
            "revyl_pressKey",
            "revyl_swipe",
            "revyl_tap",
            "revyl_type",
            "runTrail",
            "script",
            "scrollUntilTextIsVisible",
            "stopApp",
            "stringEvaluation",
            "swipe",
            "swipeWithRelativeCoordinates",
            "takeSnapshot",
            "tap",
            "tapOn",
            "tapOnElementBySelector",
            "tapOnElementWithAccessibilityText",
            "tapOnElementWithText",
            "tapOnPoint",
            "wait",
            "web_applyCookies",
            "web_assert_network_event",
            "web_click",
            "web_currentUrl",
            "web_evaluate",
            "web_fillSecret",
            "web_getStorageState",
            "web_hover",
            "web_navigate",
            "web_press_key",
            "web_request_details",
            "web_scroll",
            "web_select_option",
            "web_snapshot",
            "web_type",
            "web_verify_element_visible",
            "web_verify_list_visible",
            "web_verify_text_visible",
            "web_verify_value",
            "web_wait",
            "web_waitForUrl",
        )
    ),
)
# 2026.07.21 with patches/trailblaze/0001-describe-map-and-json.patch applied: its descriptor
# builder describes `Map<String, T>` and any JSON value, so the shims keep those types.
_MAP_JSON = replace(
    _CURRENT,
    name="2026.07.21+map-json",
    describes_json=True,
    patch="patches/trailblaze/0001-describe-map-and-json.patch",
)
APIS: dict[str, TrailblazeApi] = {a.name: a for a in (_CURRENT, _MAP_JSON, _ISFORLLM)}
DEFAULT_API = _CURRENT.name
