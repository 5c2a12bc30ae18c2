"""A secret typed into a GET form comes back spelled otherwise, and is masked there too (issue 54;
docs/ERRORS.md, rows H6S*).

A served host with `--secrets`: the model fills `${PW}` into a form on a local page and sends it.
The browser sends the value percent-encoded as a form does (a space as `+`), the page's server
sets cookies from it (as received, and quoted as Python's http.cookies quotes) and answers with
it JSON-escaped, the page sets a cookie with encodeURIComponent and keeps JSON.stringify's
spelling in localStorage. Every result the model reads, the storage-state file and the log show
`${PW}` where the value stands, in no spelling of the value. "w0rd", a run of letters and digits
of the value, is kept as it is by every encoding: where it does not occur, no spelling does.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, quote_plus, urlsplit

import pytest
from local_server import LocalServer, PageHandler, serve
from mcp import Client

from host_tests.host_helpers import ServedHost, serve_host, wait_until

pytestmark = pytest.mark.browser

PW = 'p@ss w0rd/1"\\'
RUN = "w0rd"
SPELLINGS = {
    "as typed": PW,
    "percent-encoded": quote(PW, safe=""),
    "percent-encoded, lower-case hex": re.sub(
        "%[0-9A-F]{2}", lambda m: m[0].lower(), quote(PW, safe="")
    ),
    "a form's (space as +)": quote_plus(PW, safe=""),
    "JSON-escaped": json.dumps(PW)[1:-1],
}

FORM = (
    "<title>sign in</title><form action=/landing method=get>"
    "<label>Password <input name=pw id=pw></label><button id=go>Send</button></form>"
)
LANDING_SCRIPT = (
    "<script>const v = new URLSearchParams(location.search).get('pw');"
    "document.cookie = 'js=' + encodeURIComponent(v) + '; path=/';"
    "localStorage.setItem('pw', JSON.stringify({pw: v}));"
    "fetch('/echo').then(r => r.text()).then(t => { document.getElementById('echo')"
    ".textContent = 'echo ' + t.length; });</script>"
)


class Site:
    """The page server: what the form's request brought (decoded)."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.server: LocalServer | None = None

    def url(self, path: str) -> str:
        assert self.server is not None
        return self.server.origin + path


@pytest.fixture
def site() -> Iterator[Site]:
    state = Site()

    class Handler(PageHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/form":
                self._send(200, "text/html; charset=utf-8", FORM.encode())
            elif parts.path == "/landing":
                raw = parts.query.removeprefix("pw=")  # as the form sent it: p%40ss+w0rd...
                value = parse_qs(parts.query)["pw"][0]
                state.received.append(value)
                body = (
                    f"<title>Hello {html.escape(value)}</title>"
                    f"<p>you sent {html.escape(value)}</p><p id=echo></p>{LANDING_SCRIPT}"
                ).encode()
                quoted = SimpleCookie({"quoted": value}).output(header="").strip()
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("set-cookie", f"echoed={raw}; Path=/")
                self.send_header("set-cookie", f"{quoted}; Path=/")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif parts.path == "/echo":  # the cookies it was sent, JSON-escaped (ensure_ascii)
                cookies = SimpleCookie(self.headers.get("cookie", ""))
                echoed = {name: morsel.value for name, morsel in cookies.items()}
                self._send(200, "application/json", json.dumps(echoed).encode())
            else:
                self._send(404, "text/plain", b"not found")

    state.server = serve(Handler)
    yield state
    state.server.stop()


@pytest.fixture
def secret_host(tmp_path: Path) -> Iterator[ServedHost]:
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"PW='{PW}'\n", encoding="utf-8")
    served = serve_host(
        "--toolset", "all", "--caps", "storage", "--secrets", str(secrets), "--log-level", "debug"
    )
    yield served
    served.stop()


def strings(value: Any) -> Iterator[str]:
    """Every string of a JSON value, keys too: what the model reads."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def leaks(text: str) -> list[str]:
    """The spellings of the secret in `text` (none, or the test fails naming them)."""
    found = [how for how, spelling in SPELLINGS.items() if spelling in text]
    return found + (["a run of its letters and digits"] if RUN in text else [])


def test_a_secret_sent_by_a_get_form_is_masked_in_every_spelling(
    site: Site, secret_host: ServedHost
) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(secret_host.mcp_url) as client:

            async def call(name: str, args: dict[str, Any]) -> Any:
                result = await client.call_tool(name, args)
                dumped = result.model_dump(mode="json")
                assert not result.is_error, (name, dumped)
                seen[name] = dumped
                return result.structured_content["result"]

            await call("browser_navigate", {"url": site.url("/form")})
            await call("fill", {"target": "#pw", "text": "${PW}"})
            await call("click", {"target": "#go"})
            # The page's fetch of /echo is answered after the cookies are set: wait for it.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 120
            while "echo " not in await call("evaluate", {"expression": "document.body.innerText"}):
                assert loop.time() < deadline, "the page's fetch of /echo was not answered"
                await asyncio.sleep(0.05)
            await call("browser_snapshot", {})
            await call("browser_tabs", {"action": "list"})
            listed = await call("browser_network_requests", {})
            echo = next(r for r in listed["requests"] if r["url"].endswith("/echo"))
            await call("browser_network_request", {"id": echo["id"]})
            await call("browser_cookie_list", {})
            saved = await call("browser_storage_state", {})
            seen["file"] = Path(saved["path"]).read_text(encoding="utf-8")
        return seen

    seen = asyncio.run(scenario())
    assert site.received == [PW]  # the page got the value ...
    for name, result in seen.items():
        if name == "file":
            continue
        shown = "\n".join(strings(result))
        assert not leaks(shown), (name, leaks(shown), shown)  # ... and no result shows it
    # Where the value stood, its name stands, in each place.
    tabs = seen["browser_tabs"]["structured_content"]["result"]["tabs"]
    assert tabs[0]["url"].endswith("/landing?pw=${PW}") and tabs[0]["title"] == "Hello ${PW}"
    assert "/landing?pw=${PW}" in json.dumps(seen["click"])
    requests = seen["browser_network_requests"]["structured_content"]["result"]["requests"]
    assert any(r["url"].endswith("/landing?pw=${PW}") for r in requests), requests
    cookies = seen["browser_cookie_list"]["structured_content"]["result"]["cookies"]
    by_name = {cookie["name"]: cookie["value"] for cookie in cookies}
    assert by_name == {"echoed": "${PW}", "quoted": '"${PW}"', "js": "${PW}"}, by_name
    echo = json.dumps(seen["browser_network_request"])
    assert "${PW}" in echo
    # The saved storage state: still JSON, the name where each cookie and stored value held it.
    assert not leaks(seen["file"]), leaks(seen["file"])
    state = json.loads(seen["file"])
    assert {c["name"]: c["value"] for c in state["cookies"]} == by_name
    stored = {item["name"]: item["value"] for o in state["origins"] for item in o["localStorage"]}
    assert stored == {"pw": '{"pw":"${PW}"}'}
    # The debug log talked about the calls, and never in a spelling of the value.
    wait_until(lambda: "browser_storage_state" in "".join(secret_host.log), "the last call logged")
    secret_host.stop()
    log = "".join(secret_host.log)
    assert not leaks(log), leaks(log)
