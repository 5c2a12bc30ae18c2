"""A call's recording: what the trail (`--record`) and `--codegen` keep of a successful call.

The page is read for the trail (the stable locator a ref resolves to, whether a value goes into
a password field) alongside the call's own work, from its start: its requests reach the page
first, so it reads the page as the call found it. The call is kept once it succeeded; a call
whose reading failed runs all the same and says it is not in the trail.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from host.calls.call import Call, HostParts
from host.calls.failures import first_line, retrieve
from host.calls.results import ToolOutcome
from host.sessions.session import Session
from host.shared.errors import HostError
from host.trails.code import NotExportable, line_for
from host.trails.recorder import Prepared, Recorder


class Recording:
    """The trail's reading of one call: `keep` records the call once it succeeded.

    Guarantees: nothing is recorded for a call that failed (the reading is cancelled), nor when
    neither `--record` nor `--codegen` is on."""

    def __init__(
        self, host: HostParts, call: Call, session: Session, reading: asyncio.Task[Prepared] | None
    ) -> None:
        self.host = host
        self.call = call
        self.session = session
        self.reading = reading

    async def keep(self, outcome: ToolOutcome) -> None:
        """Record the call that ended in the successful `outcome` (in the trail, and with
        `--codegen` its line of code in the outcome's `code`)."""
        prepared = await self._finish()
        if prepared is None or not outcome.ok:
            return
        host, descriptor = self.host, self.call.descriptor
        if host.recorder is not None:
            host.recorder.commit(self.session.key, descriptor.name, prepared)
            for note in prepared.notes:
                self.session.note({"event": "recorded", "detail": note})
        if host.config.codegen:
            try:
                code = line_for(
                    descriptor.name, prepared.arguments, host.config.codegen, descriptor
                )
            except NotExportable:
                return
            outcome.extras["code"] = code

    async def _finish(self) -> Prepared | None:
        reading, session = self.reading, self.session
        if reading is None:
            return None
        remaining = max(0.5, self.call.deadline - asyncio.get_running_loop().time())
        try:
            prepared = await asyncio.wait_for(reading, min(remaining, 10.0))
            tab = session.current
            return prepared if tab is None else await Recorder.after_call(tab, prepared)
        except HostError as error:
            detail = error.message
        except TimeoutError:
            detail = "the page did not say which stable locator the target has in time"
        except Exception as error:
            detail = f"the target could not be resolved to a stable locator ({first_line(error)})"
        session.note(
            {"event": "not_recorded", "detail": f"{detail}; this call is not in the trail"}
        )
        return None


@contextlib.asynccontextmanager
async def recording(host: HostParts, call: Call, session: Session) -> AsyncIterator[Recording]:
    """Start reading the page for the trail before the call's own work (a ref not in the tab's
    snapshot fails here, `stale_ref`, as the call itself would); a call that fails inside
    cancels the reading."""
    reading = await _start(host, call, session)
    try:
        yield Recording(host, call, session, reading)
    except BaseException:
        if reading is not None:
            reading.cancel()
            reading.add_done_callback(retrieve)
        raise


async def _start(host: HostParts, call: Call, session: Session) -> asyncio.Task[Prepared] | None:
    descriptor, args, described = call.descriptor, call.args, call.described
    if not descriptor.is_recordable or (host.recorder is None and not host.config.codegen):
        return None
    tab = session.current
    if tab is None:
        return None
    recorded = {**args, **described} if described and isinstance(args, dict) else args
    Recorder.check_refs(tab, recorded)
    reading = asyncio.ensure_future(Recorder.prepare(tab, descriptor, recorded))
    for _ in range(2):  # let its first requests go out ahead of the call's
        await asyncio.sleep(0)
    return reading
