"""The Python stack Playwright's client keeps with every message the service sends its driver.

For each message, Playwright's client takes the caller's stack (`traceback.extract_stack`, ten
frames, each file looked up on disk with a `stat`) so that a failure's `Error.stack` can show
where the call was made: a millisecond or so of the service's CPU per action, for a text the
service never shows (its answers and logs carry no traceback). A task that carries its own
`__pw_stack_trace__` has Playwright take that one instead (the hook its sync API uses); every task
of the service's loop carries a fixed one here. What the driver is told (the API's name, the
call's location in the caller's code) and the errors' messages (`Locator.fill: Timeout ...`) are
unchanged: Playwright still finds those by walking the stack itself.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Coroutine
from typing import Any

STACK = traceback.StackSummary.from_list([("<web executor>", 0, "action", "")])
"""What a Playwright error's `stack` says in the service: the action, no Python frames."""


def _task(
    loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, Any], **options: Any
) -> asyncio.Task[Any]:
    task = asyncio.Task(coroutine, loop=loop, **options)
    task.__pw_stack_trace__ = STACK  # type: ignore[attr-defined]
    return task


def install(loop: asyncio.AbstractEventLoop) -> None:
    """Have every task `loop` starts from now on carry the fixed stack (a factory set by someone
    else is left alone)."""
    if loop.get_task_factory() is None:
        loop.set_task_factory(_task)  # type: ignore[arg-type]
