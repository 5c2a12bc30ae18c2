"""How the browser is kept off the service's own ports: by Chromium's network stack when it can.

The host's guard (`host.sessions.selfguard`) routes the requests of every session through a Playwright
route. Any route turns on request interception for every request of the context (each one
paused in the browser until Playwright's driver lets it go, and the HTTP cache off): on two
cores, with four actions at once, that cost a seventh of the service's throughput. Chromium can
refuse a port itself: `--host-rules` maps every `host:port` with the service's port to a name
that never resolves, so no request of any page, frame, worker or redirect hop reaches it, under
any host name (also one that resolves to this machine), at no cost to other requests. Port 80 and
443 cannot be refused this way without refusing the whole web on them: for those, and for other
engines, the host's routed guard stays.
"""

from __future__ import annotations

from collections.abc import Iterable

HOST_RULES = "--host-rules="
_WEB_PORTS = frozenset({80, 443})


def chromium_guard(
    ports: Iterable[int], browser_args: Iterable[str]
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Chromium's flags with the ports refused by the browser itself, and the ports left to the
    host's routed guard.

    Guarantees: every port of `ports` is in exactly one of the two: refused for every host by a
    `--host-rules` flag added to the arguments, or returned for the host to guard. A port is
    refused by the browser only if it is not 80 or 443 and the arguments hold no `--host-rules`
    of their own (which this flag would replace).
    """
    wanted = sorted({p for p in ports if p})
    args = tuple(browser_args)
    if any(a.startswith(HOST_RULES) for a in args):
        return args, tuple(wanted)
    refused = [p for p in wanted if p not in _WEB_PORTS]
    routed = tuple(p for p in wanted if p in _WEB_PORTS)
    if not refused:
        return args, routed
    rules = ", ".join(f"MAP *:{port} ~NOTFOUND" for port in refused)
    return (*args, HOST_RULES + rules), routed
