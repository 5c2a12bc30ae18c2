"""request-blocking.spec.ts: `--blocked-origins` and `--allowed-origins` (ours:
`--browser-allowed-origins`), each a `;` list of hosts or origins (a `:*` port matches every
port); blocked wins over allowed; an allowed list blocks every origin not in it. A blocked
navigation fails with Chromium's ERR_BLOCKED_BY_CLIENT, as the peer's does. The peer's page server
is on localhost, ours on 127.0.0.1: the cases name 127.0.0.1 where the peer names localhost."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import pytest
from host_agent.agent_client import Agent, text_of
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import with_agent
from peer_suite.peer_site import PeerSite

pytestmark = pytest.mark.browser

SPEC = "request-blocking.spec.ts"
BLOCKED = "net::ERR_BLOCKED_BY_CLIENT"
PEER_CASES = {
    "default to allow all": "test_default_allows_all",
    "blocked works (hostname)": "test_blocked_hosts",
    "blocked works (origin)": "test_blocked_origins",
    "allowed works (hostname)": "test_allowed_hosts",
    "allowed works (origin)": "test_allowed_origins",
    "blocked takes precedence (hostname)": "test_blocked_takes_precedence",
    "blocked takes precedence (origin)": "test_blocked_takes_precedence",
    "allowed without blocked blocks all non-explicitly specified origins (hostname)": "test_allowed_hosts",
    "allowed without blocked blocks all non-explicitly specified origins (origin)": "test_allowed_origins",
    "blocked without allowed allows non-explicitly specified origins (hostname)": "test_blocked_hosts",
    "blocked without allowed allows non-explicitly specified origins (origin)": "test_blocked_origins",
    "allowed works (wildcard port)": "test_allowed_wildcard_port",
    "allowed blocks different hostname (wildcard port)": "test_allowed_wildcard_port",
    "allowed blocks different protocol (wildcard port)": "test_allowed_wildcard_port",
    "blocked works (wildcard port)": "test_blocked_wildcard_port",
}


@pytest.fixture(scope="module")
def hosts(site_server: PeerSite) -> Iterator[dict[str, ServedHost]]:
    """One host per set of options, started side by side (each start is mostly waiting)."""
    origin = site_server.PREFIX
    netloc = urlsplit(origin).netloc
    options = {
        "blocked_hosts": ["--blocked-origins", "microsoft.com;example.com;playwright.dev"],
        "blocked_origins": [
            "--blocked-origins",
            "https://microsoft.com;https://example.com;https://playwright.dev",
        ],
        "allowed_hosts": ["--allowed-origins", f"microsoft.com;{netloc};playwright.dev"],
        "allowed_origins": [
            "--allowed-origins",
            f"https://microsoft.com;{origin};https://playwright.dev",
        ],
        # Both lists name the same host (first entry) and the same origin (second entry).
        "precedence": [
            "--blocked-origins",
            "example.com;https://example.net",
            "--allowed-origins",
            "example.com;https://example.net",
        ],
        "allowed_wildcard": ["--allowed-origins", "http://127.0.0.1:*"],
        "blocked_wildcard": ["--blocked-origins", "http://127.0.0.1:*"],
    }
    with ThreadPoolExecutor(len(options)) as pool:
        futures = {name: pool.submit(serve_host, *args) for name, args in options.items()}
    started = {name: f.result() for name, f in futures.items() if f.exception() is None}
    if len(started) < len(futures):  # stop the ones that started before failing the module
        for served in started.values():
            served.stop()
        next(f.result() for f in futures.values() if f.exception() is not None)
    yield started
    for served in started.values():
        served.stop()


def _navigate(host: ServedHost, *urls: str) -> list[tuple[bool, str]]:
    """(failed, text) of a navigation to each URL, in one session; the text of one that loaded
    ends with the page's text."""

    async def body(agent: Agent) -> list[tuple[bool, str]]:
        seen = []
        for url in urls:
            result = await agent.call("browser_navigate", {"url": url})
            text = text_of(result)
            if not result.is_error:
                text += "\n" + str(await agent.ok("browser_get_text", {"target": "body"}))
            seen.append((bool(result.is_error), text))
        return seen

    return with_agent(host, body)


def _loaded(seen: tuple[bool, str], server: PeerSite) -> bool:
    failed, text = seen
    return not failed and server.PREFIX + "/ppp" in text and "content:PPP" in text


def _blocked(seen: tuple[bool, str]) -> bool:
    failed, text = seen
    return failed and BLOCKED in text


@pytest.fixture
def ppp(server: PeerSite) -> str:
    return server.set_content("/ppp", "content:PPP")


def test_default_allows_all(host: ServedHost, server: PeerSite, ppp: str) -> None:
    async def body(agent: Agent) -> Any:
        await agent.ok("browser_navigate", {"url": ppp})
        return await agent.ok("browser_get_text", {"target": "body"})

    assert "content:PPP" in str(with_agent(host, body))


def test_blocked_hosts(hosts: dict[str, ServedHost], server: PeerSite, ppp: str) -> None:
    other, own = _navigate(hosts["blocked_hosts"], "https://example.com/", ppp)
    assert _blocked(other), other
    assert _loaded(own, server), own


def test_blocked_origins(hosts: dict[str, ServedHost], server: PeerSite, ppp: str) -> None:
    other, own = _navigate(hosts["blocked_origins"], "https://example.com/", ppp)
    assert _blocked(other), other
    assert _loaded(own, server), own


def test_allowed_hosts(hosts: dict[str, ServedHost], server: PeerSite, ppp: str) -> None:
    own, other = _navigate(hosts["allowed_hosts"], ppp, "https://example.com/")
    assert _loaded(own, server), own
    assert _blocked(other), other


def test_allowed_origins(hosts: dict[str, ServedHost], server: PeerSite, ppp: str) -> None:
    own, other = _navigate(hosts["allowed_origins"], ppp, "https://example.com/")
    assert _loaded(own, server), own
    assert _blocked(other), other


def test_blocked_takes_precedence(hosts: dict[str, ServedHost]) -> None:
    by_host, by_origin = _navigate(
        hosts["precedence"], "https://example.com/", "https://example.net/"
    )
    assert _blocked(by_host), by_host
    assert _blocked(by_origin), by_origin


def test_allowed_wildcard_port(hosts: dict[str, ServedHost], server: PeerSite, ppp: str) -> None:
    own, other_host, other_scheme = _navigate(
        hosts["allowed_wildcard"], ppp, "http://example.com/", "https://127.0.0.1:8080/"
    )
    assert _loaded(own, server), own
    assert _blocked(other_host), other_host
    assert _blocked(other_scheme), other_scheme


def test_blocked_wildcard_port(hosts: dict[str, ServedHost], server: PeerSite, ppp: str) -> None:
    (own,) = _navigate(hosts["blocked_wildcard"], ppp)
    assert _blocked(own), own
    assert not server.seen("/ppp")  # the request never left the browser
