"""Selector drift: a step's selector that does not resolve to exactly one element is retried
after the settings' backoff delays, with candidates ranked from the page (`drift.rank`); each
try is an `Attempt` in the response and each retry an `executor_web.retry` log event."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from host.executor.action_calls import ActionCalls, Attempt
from host.executor.drift import COLLECT_JS, ElementInfo, Purpose, rank
from host.executor.errors import ExecutorError
from host.executor.logs import event


class Locating(ActionCalls):
    """Finds the one element a step acts on, retrying with candidates when the requested
    selector matches none or several.

    Guarantees: `_locate_and_act` returns the selector that did the step, or raises
    `SelectorsExhausted` naming every selector tried (PII-cleaned); an element found but never
    actionable ends the step at once (another selector for it would wait the same).
    """

    async def _count(self, selector: str) -> int:
        """Elements `selector` matches now; -1 if the browser refuses it as a selector."""
        try:
            value = await self.call("web_locator_count", {"selector": selector})
        except ExecutorError as error:
            if error.code == "action_failed":
                return -1
            raise
        return int(value) if isinstance(value, int) else 0

    async def _candidates(self, requested: str, purpose: Purpose, tried: list[str]) -> list[str]:
        try:
            found = await self.call(
                "web_evaluate",
                {"script": COLLECT_JS, "arg": {"purpose": purpose, "limit": 500}},
            )
        except ExecutorError as error:
            if error.code == "action_failed":  # the document is being replaced: none this time
                return []
            raise
        elements = [
            e for e in map(ElementInfo.from_json, found if isinstance(found, list) else []) if e
        ]
        ranked = rank(
            requested, elements, limit=self.settings.max_candidates, exclude=frozenset(tried)
        )
        return [c.selector for c in ranked]

    async def _try(
        self,
        step: str,
        number: int,
        selector: str,
        delay: int,
        act: Callable[[str], Awaitable[None]],
    ) -> Attempt:
        # A first attempt whose selector was counted ahead at one element acts at once.
        ahead = number == 0 and self.ahead.single(selector)
        count = 1 if ahead else await self._count(selector)
        attempt = Attempt(step, number, selector, "done", delay_ms=delay, matched=max(count, 0))
        unresolved = _unresolved(count)
        if unresolved is not None:
            attempt.outcome = unresolved
            self.attempts.append(attempt)
            return attempt
        try:
            await act(selector)
        except ExecutorError as error:
            if error.code != "action_failed":
                raise
            if ahead:
                # Counted before the earlier steps ran, which may have changed the page (the
                # element gone, another like it added): judged by a count taken now instead,
                # as every other attempt is.
                count = await self._count(selector)
                unresolved = _unresolved(count)
                if unresolved is not None:
                    attempt.outcome, attempt.matched = unresolved, max(count, 0)
                    self.attempts.append(attempt)
                    return attempt
            attempt.outcome, attempt.detail = "failed", error.message[:300]
            lowered = error.message.lower()
            if "timeout" in lowered and "exceeded" in lowered:
                # The one element exists but never became actionable (hidden, disabled,
                # covered): another selector for it would wait the same. Final.
                self.attempts.append(attempt)
                raise ExecutorError(
                    "action_failed",
                    f"{step}: the element its selector found did not become actionable in "
                    f"time ({self.settings.step_timeout_ms} ms at most per step)",
                    path=f"{step}.selector",
                    details={"step": step},
                ) from None
        self.attempts.append(attempt)
        return attempt

    async def _locate_and_act(
        self, step: str, requested: str, purpose: Purpose, act: Callable[[str], Awaitable[None]]
    ) -> str:
        """Act on `requested`, or on candidates after the backoff delays; the selector that did it."""
        tried: list[str] = [requested]
        result = await self._try(step, 0, requested, 0, act)
        if result.outcome == "done":
            return requested
        left = await self._candidates(requested, purpose, tried)
        for number, delay in enumerate(self.settings.backoff_ms, start=1):
            event(
                "executor_web.retry",
                action=self.id,
                step=step,
                attempt=number,
                delay_ms=delay,
                reason=result.outcome,
                previous=self.clean(result.selector),
                candidates_left=[self.clean(c) for c in left],
            )
            await asyncio.sleep(delay / 1000)
            # The requested selector first: the element may only have been late.
            if await self._count(requested) == 1:
                selector = requested
            else:
                fresh = await self._candidates(requested, purpose, tried)
                selector = fresh[0] if fresh else requested
            if selector not in tried:
                tried.append(selector)
            result = await self._try(step, number, selector, delay, act)
            if result.outcome == "done":
                return selector
            if number < len(self.settings.backoff_ms):
                left = await self._candidates(requested, purpose, tried)
        raise ExecutorError(
            "SelectorsExhausted",
            f"no selector found a single element for {step} after "
            f"{len(self.settings.backoff_ms)} retries",
            path=f"{step}.selector",
            details={
                "step": step,
                "retries": len(self.settings.backoff_ms),
                "tried": [self.clean(s) for s in tried],
            },
        )


def _unresolved(count: int) -> str | None:
    """The outcome of an attempt whose selector matched `count` elements (-1: not a selector),
    unless it matched exactly one (then the step acts)."""
    if count < 0:
        return "invalid_selector"
    if count == 0:
        return "not_found"
    if count > 1:
        return "ambiguous"
    return None
