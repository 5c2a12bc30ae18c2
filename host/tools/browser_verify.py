"""The `testing` capability's checks (`--caps testing`), as @playwright/mcp's `verify` tools.

`browser_verify_element_visible`, `browser_verify_text_visible`, `browser_verify_list_visible`
and `browser_verify_value`, each described by its `.tool.yaml` beside this file. A check that
holds answers `{verified: ...}`; one that does not fails with `verification_failed` and says
what the page has instead. They change nothing, yet they are recorded in trails: a replay checks
them again, and an export turns each into an `expect(...)` line of the test.
"""

from __future__ import annotations

from typing import Any, cast

from playwright.async_api import Frame, Locator

from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

MAX_FRAMES = 50
"""Frames searched, the main frame first: a page cannot make one check look at thousands."""


def _failed(message: str, path: str = "") -> HostError:
    return HostError("verification_failed", message, path=path)


async def _in_some_frame(call: CallContext, find: Any) -> bool:
    frames: list[Frame] = call.tab.page.frames[:MAX_FRAMES]
    for frame in frames:
        if await cast(Locator, find(frame)).count() > 0:
            return True
    return False


async def browser_verify_element_visible(call: CallContext, args: JsonObject) -> JsonValue:
    role, name = str(args["role"]), str(args["accessibleName"])
    # As the snapshot shows it: in the accessibility tree (role locators leave out what is
    # hidden from it), which an empty `role=alert` region is, though it has no size.
    if not await _in_some_frame(call, lambda frame: frame.get_by_role(cast(Any, role), name=name)):
        raise _failed(
            f'no element with role "{role}" and accessible name "{name}" in the page or its '
            "frames; take a browser_snapshot to see the page's roles and names"
        )
    return {"verified": f"{role} {name!r} is visible"}


async def browser_verify_text_visible(call: CallContext, args: JsonObject) -> JsonValue:
    text = str(args["text"])
    if not await _in_some_frame(call, lambda frame: frame.get_by_text(text).filter(visible=True)):
        raise _failed(f"no visible text {text!r} on the page", "text")
    return {"verified": f"text {text!r} is visible"}


async def browser_verify_list_visible(call: CallContext, args: JsonObject) -> JsonValue:
    target = await locate(call.tab, str(args["target"]))
    items = [str(item) for item in cast(list[JsonValue], args["items"])]
    for index, item in enumerate(items):
        if await target.get_by_text(item).filter(visible=True).count() == 0:
            raise _failed(f"item {item!r} is not visible in the list", f"items[{index}]")
    return {"verified": f"{len(items)} item(s) visible in the list"}


async def browser_verify_value(call: CallContext, args: JsonObject) -> JsonValue:
    kind, expected = str(args["type"]), call.config.secrets.reveal(str(args["value"]))
    target = await locate(call.tab, str(args["target"]))
    timeout = call.config.action_timeout * 1000
    if kind in ("checkbox", "radio"):
        if expected not in ("true", "false"):
            raise HostError(
                "invalid_argument",
                f'a {kind} is checked ("true") or not ("false"), not {expected!r}',
                path="value",
            )
        checked = await target.is_checked(timeout=timeout)
        if checked != (expected == "true"):
            raise _failed(f"expected checked {expected}, but it is {str(checked).lower()}")
        return {"verified": f"{kind} checked is {expected}"}
    actual = await target.input_value(timeout=timeout)
    if actual != expected:
        raise _failed(f"expected value {expected!r}, but got {actual[:1000]!r}")
    return {"verified": f"{kind} value is as expected"}
