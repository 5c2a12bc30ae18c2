"""Keeps every session's pages away from the host's own endpoints.

The host serves HTTP (MCP, the scripting callback) and, with `--enable-execute`, its browser
listens for CDP; both on ports of this machine. A page the agent opened must not reach them: the
host's endpoints refuse what a page can send (any `Origin` on the scripting callback, a foreign
one on `/mcp`), and this guard is the second wall. Each session routes requests for the guarded
ports through it; a request whose host is this machine (a loopback name or address, `0.0.0.0`,
an address of one of its interfaces, or a name that resolves to one) is aborted. Requests for
other ports never reach Python (the route's pattern names the ports).

Playwright does not route the hops of a redirect, so a page elsewhere that redirects to the host
is stopped only by the endpoints' own checks; that is why both walls exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import socket
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, Route

_NAME_TTL_S = 60.0
_NAME_CACHE = 1024


def _bindable(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `address` belongs to this machine (a socket can be bound to it)."""
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def _local_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified or _bindable(address)


class SelfGuard:
    """The host's own ports, and the check that keeps pages off them.

    Guarantees: `install` routes a context's requests for the guarded ports (on any host) through
    `_decide`; a request whose host is this machine is aborted (`blockedbyclient`) and reported
    through the context's `on_block` callback; any other continues untouched. Ports can be added
    while the host runs (the CDP port is known only once the browser started); contexts made
    before keep the ports they were given. With no port, nothing is routed (and the browser's
    HTTP cache stays on).
    """

    def __init__(self, ports: Iterable[int] = ()) -> None:
        self.ports: set[int] = {p for p in ports if p}
        self._names: dict[str, tuple[float, bool]] = {}
        self._addresses: dict[str, bool] = {}

    def add(self, port: int) -> None:
        self.ports.add(port)

    def pattern(self) -> re.Pattern[str] | None:
        if not self.ports:
            return None
        explicit = "|".join(str(p) for p in sorted(self.ports))
        defaults = []
        if 80 in self.ports:
            defaults.append("(?:http|ws)://[^/?#:]*(?:[/?#]|$)")
        if 443 in self.ports:
            defaults.append("(?:https|wss)://[^/?#:]*(?:[/?#]|$)")
        alternatives = [rf"(?:https?|wss?)://[^/?#]*:(?:{explicit})(?:[/?#]|$)", *defaults]
        return re.compile("^(?:" + "|".join(alternatives) + ")", re.IGNORECASE)

    async def install(self, context: BrowserContext, on_block: Callable[[str], None]) -> None:
        pattern = self.pattern()
        if pattern is None:
            return
        ports = frozenset(self.ports)

        async def decide(route: Route) -> None:
            url = route.request.url
            if await self.targets_host(url, ports):
                on_block(url)
                await route.abort("blockedbyclient")
            else:
                await route.fallback()

        await context.route(pattern, decide)

    async def targets_host(self, url: str, ports: frozenset[int] | None = None) -> bool:
        """Whether `url` names one of the guarded ports on this machine."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return True  # unparseable: the safe answer
        scheme = parts.scheme.lower()
        if port is None:
            port = 443 if scheme in ("https", "wss") else 80
        if port not in (ports if ports is not None else self.ports):
            return False
        return await self.is_local(parts.hostname or "")

    async def is_local(self, host: str) -> bool:
        """Whether `host` (a name or address) is this machine."""
        host = host.strip("[]").lower().rstrip(".")
        if not host or host == "localhost" or host.endswith(".localhost"):
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return await self._name_is_local(host)
        cached = self._addresses.get(str(address))
        if cached is None:
            cached = _local_address(address)
            if len(self._addresses) < _NAME_CACHE:
                self._addresses[str(address)] = cached
        return cached

    async def _name_is_local(self, name: str) -> bool:
        now = time.monotonic()
        cached = self._names.get(name)
        if cached is not None and now - cached[0] < _NAME_TTL_S:
            return cached[1]
        local = False
        with contextlib.suppress(OSError, TimeoutError, UnicodeError):
            async with asyncio.timeout(2.0):
                infos = await asyncio.get_running_loop().getaddrinfo(name, None)
            for info in infos:
                address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
                if _local_address(address):
                    local = True
                    break
        if len(self._names) >= _NAME_CACHE:
            self._names.clear()
        self._names[name] = (now, local)
        return local
