"""A session's network: the requests its pages make, kept bounded under stable ids, and the
responses a tool waits for."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass

from playwright.async_api import Request, Response

from host.sessions.session_state import SessionState, clip
from host.settings.config import HostConfig
from host.shared.globs import url_matches
from host.shared.jsontypes import JsonObject, JsonValue


@dataclass
class _ResponseWaiter:
    url: str
    status: int | None
    future: asyncio.Future[Response]


class NetworkLog(SessionState):
    """The network part of a session: `network` (bounded by `buffer_limit`, `network_dropped`
    counting what it dropped), each request under an id that stays its own, and the responses
    not yet taken."""

    def _init_network(self, config: HostConfig) -> None:
        """The network's buffers, empty."""
        self.network: deque[tuple[Request, JsonObject]] = deque(maxlen=config.buffer_limit)
        self.network_dropped = 0
        self._network_index: dict[Request, JsonObject] = {}
        """Each kept request's entry (the same dict in `network` while it is not taken), so a
        status or failure that comes after browser_network_requests took it is still noted for
        `kept_network`; pruned with `requests_by_id`."""
        self.requests_by_id: dict[int, Request] = {}
        """The latest `buffer_limit` requests by their `id` (browser_network_request), kept when
        browser_network_requests takes the list."""
        self._next_request_id = 1
        self.responses: deque[Response] = deque(maxlen=min(config.buffer_limit, 200))
        self._response_waiters: list[_ResponseWaiter] = []

    def _on_request(self, request: Request) -> None:
        if self._flooded("network"):
            return
        if len(self.network) == self.network.maxlen:
            self.network_dropped += 1
        entry: JsonObject = {
            "id": self._next_request_id,
            "method": request.method,
            "url": clip(request.url, 2048),
            "resourceType": request.resource_type,
            "status": None,
            "failure": None,
        }
        self.network.append((request, entry))
        self._network_index[request] = entry
        self.requests_by_id[self._next_request_id] = request
        self._next_request_id += 1
        if len(self.requests_by_id) > self.config.buffer_limit:
            del self.requests_by_id[next(iter(self.requests_by_id))]
        if len(self._network_index) > self.config.buffer_limit:
            del self._network_index[next(iter(self._network_index))]

    def _on_response(self, response: Response) -> None:
        entry = self._network_index.get(response.request)
        if entry is not None:
            entry["status"] = response.status
        for waiter in self._response_waiters:
            if waiter.future.done():
                continue
            if _response_fits(response, waiter.url, waiter.status):
                waiter.future.set_result(response)
                return
        self.responses.append(response)

    def _on_request_failed(self, request: Request) -> None:
        entry = self._network_index.get(request)
        if entry is not None:
            entry["failure"] = request.failure or "failed"

    def take_network(self) -> tuple[list[JsonValue], int]:
        entries: list[JsonValue] = [dict(entry) for _, entry in self.network]
        dropped = self.network_dropped
        self.network.clear()
        self.network_dropped = 0
        return entries, dropped

    def kept_network(self) -> list[JsonObject]:
        """Every kept request (the latest `buffer_limit`), oldest first, taken or not: as
        @playwright/mcp lists them, each under the id it keeps (browser_network_request)."""
        return [dict(entry) for entry in self._network_index.values()]

    async def wait_for_response(self, url: str, status: int | None, timeout: float) -> Response:
        """The first response matching `url` (and `status`) not yet taken, else the next one."""
        for response in list(self.responses):
            if _response_fits(response, url, status):
                self.responses.remove(response)
                return response
        future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        waiter = _ResponseWaiter(url, status, future)
        self._response_waiters.append(waiter)
        try:
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self._response_waiters.remove(waiter)


def _response_fits(response: Response, url: str, status: int | None) -> bool:
    return url_matches(url, response.url) and (status is None or response.status == status)
