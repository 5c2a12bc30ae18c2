"""A model's JavaScript regular expression, run in the page rather than in the host.

`browser_find {regex}` and `browser_network_requests {filter}` take JavaScript's RegExp, as
@playwright/mcp does. Guarantees: the pattern runs in the current tab (one that backtracks without
end costs that tab, never the host's event loop, which every session shares); it is stopped
through the tab's DevTools session at the action timeout, answered as `timeout`; a pattern
JavaScript refuses is `invalid_argument` naming the argument.
"""

from __future__ import annotations

import asyncio
from typing import cast

from host.calls.registry import CallContext
from host.sessions.tab_control import stop_scripts
from host.shared.errors import HostError
from host.shared.jsontypes import JsonValue


async def hits_in_page(
    call: CallContext, script: str, arg: list[JsonValue], *, path: str, hint: str
) -> list[JsonValue]:
    """Run `script` (a page function answering `{hits: [...]}` or `{error}`) on `arg`; the hits.
    `path` names the argument in errors, `hint` is what to do instead of a runaway pattern."""
    tab = call.tab
    try:
        async with asyncio.timeout(call.config.action_timeout):
            answer = await tab.page.evaluate(script, arg)
    except TimeoutError:
        await stop_scripts(tab)
        raise HostError(
            "timeout",
            f"the regular expression did not finish within {call.config.action_timeout:g} s "
            f"(it backtracks too much); {hint}",
            path=path,
        ) from None
    if not isinstance(answer, dict) or "hits" not in answer:
        error = answer.get("error") if isinstance(answer, dict) else answer
        raise HostError("invalid_argument", f"not a regular expression: {error}", path=path)
    return cast(list[JsonValue], answer["hits"])
