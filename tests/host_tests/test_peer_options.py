"""Issue 36: `serve` under @playwright/mcp 0.0.83's option names (host/settings/peer_options.py).

Each option the peer's `--help` lists is either taken with the peer's meaning and units, checked
where it shows (a real host over MCP with the official SDK client, in Chromium), or refused at
start naming the option and what to use instead; a bad value names the option and the fix.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import re
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from local_server import serve
from mcp import Client

from host.commands.cli import build_parser, subcommands
from host.commands.serve_options import config_from
from host.settings.browser_options import OptionError
from host.settings.config_file import ConfigFileError, with_config
from host_tests.host_helpers import (
    CHROMIUM,
    PYTHON,
    REPO,
    AppServer,
    remote_debugging_chromium,
    serve_host,
    wait_until,
)
from host_tests.test_host_options import start_failure

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::ResourceWarning")]

BAD_STARTS: list[tuple[str, list[str], list[str]]] = [
    ("action ms not a number", ["--timeout-action", "5s"], ["--timeout-action", "milliseconds"]),
    ("navigation ms zero", ["--timeout-navigation", "0"], ["--timeout-navigation", "1 to 300000"]),
    ("host check off", ["--allowed-hosts", "a.example,*"], ["--allowed-hosts", "DNS rebinding"]),
    ("bad attribute", ["--test-id-attribute", "data qa"], ["--test-id-attribute", "data-qa"]),
    ("image mode", ["--image-responses", "some"], ["--image-responses", "allow"]),
    ("another browser", ["--browser", "firefox"], ["--browser", "only 'chromium'"]),
    ("snapshot mode", ["--snapshot-mode", "incremental"], ["--snapshot-mode", "invalid choice"]),
    ("relative paths", ["--file-paths", "relative"], ["--file-paths", "absolute"]),
    ("host without port", ["--host", "127.0.0.1"], ["--host", "--port"]),
    ("port and stdio", ["--port", "8931"], ["--port", "not allowed with argument --stdio"]),
    ("mobile and device", ["--mobile", "--device", "Pixel 7"], ["--mobile", "not both"]),
    ("header without endpoint", ["--cdp-header", "X-Key: 1"], ["--cdp-header", "--cdp-endpoint"]),
    ("header malformed", ["--cdp-header", "No Colon"], ["--cdp-header", "Name: value"]),
    ("cdp timeout", ["--cdp-timeout", "-1"], ["--cdp-timeout", "milliseconds"]),
    ("codegen java", ["--codegen", "java"], ["--codegen", "invalid choice"]),
    ("unrestricted files", ["--allow-unrestricted-file-access"], ["--allow-file-dir"]),
    ("extension", ["--extension"], ["--extension", "not supported"]),
    (
        "profile name",
        ["--profile-dir-name", "Profile 1"],
        ["--profile-dir-name", "--user-data-dir"],
    ),
    ("bound endpoint", ["--endpoint", "ws://x"], ["--endpoint", "--browser-endpoint"]),
    ("init page", ["--init-page", "init.ts"], ["--init-page", "--init-script"]),
    ("output size", ["--output-max-size", "1000"], ["--output-max-size", "not supported"]),
    ("session log", ["--save-session"], ["--save-session", "--record"]),
]


@pytest.mark.parametrize(
    ("options", "expected"), [c[1:] for c in BAD_STARTS], ids=[c[0] for c in BAD_STARTS]
)
def test_a_bad_or_refused_peer_option_stops_the_host_naming_it(
    options: list[str], expected: list[str]
) -> None:
    printed = start_failure(*options)
    for words in expected:
        assert words in printed, printed


def config_of(*argv: str, config: Path | None = None) -> Any:
    """`serve`'s settings for `argv`, parsed as `python -m host serve` parses them."""
    parser = build_parser()
    arguments = ["--stdio", *argv] if "--port" not in argv and config is None else list(argv)
    if config is not None:
        arguments, _ = with_config(
            subcommands(parser).choices["serve"], [*arguments, "--config", str(config)]
        )
    args = parser.parse_args(["serve", *arguments])
    return args, config_from(args)


def test_the_peers_names_set_our_values_in_the_peers_units(tmp_path: Path) -> None:
    args, config = config_of(
        "--timeout-action",
        "1500",
        "--timeout-navigation",
        "20000",
        "--allowed-hosts",
        "a.example,b.example:8931",
        "--allowed-host",
        "c.example",
        "--allowed-origins",
        "https://shop.example;http://127.0.0.1:*",
        "--headless",
        "--codegen",
        "none",
        "--mobile",
        "--no-sandbox",
        "--no-webmcp",
        "--browser",
        "chromium",
    )
    assert (config.action_timeout, config.navigation_timeout) == (1.5, 20.0)
    assert set(config.allowed_hosts) == {"a.example", "b.example:8931", "c.example"}
    assert config.browser.browser_allowed_origins == ("https://shop.example", "http://127.0.0.1:*")
    assert config.headless and config.codegen is None and not config.sandbox
    assert config.browser.device == "Pixel 10"
    assert not config.allowed_origins  # the HTTP server's Origin check is another option
    # --port and --host are --http; the last timeout given wins, whichever its name.
    args, config = config_of("--port", "0", "--host", "localhost", "--action-timeout", "7")
    assert args.http == ("localhost", 0) and config.action_timeout == 7
    # ... and a config file takes the peer's names as keys.
    path = tmp_path / "peer.yaml"
    path.write_text("timeout-action: 2500\nport: 0\nimage-responses: omit\ncdp-timeout: 9000\n")
    args, config = config_of(config=path)
    assert args.http == ("127.0.0.1", 0) and args.stdio is False
    assert (config.action_timeout, config.image_responses, config.cdp_timeout) == (2.5, "omit", 9)


def test_a_config_file_refuses_a_refused_option_and_the_peers_nested_format(
    tmp_path: Path,
) -> None:
    serve_parser = subcommands(build_parser()).choices["serve"]
    path = tmp_path / "host.yaml"
    path.write_text("save-session: true\n")
    with pytest.raises(ConfigFileError, match=r"'save-session' in .*--record PATH"):
        with_config(serve_parser, ["--stdio", "--config", str(path)])
    path.write_text("timeouts: {action: 5000}\n")
    with pytest.raises(ConfigFileError, match="@playwright/mcp's nested config"):
        with_config(serve_parser, ["--stdio", "--config", str(path)])
    path.write_text("allowed-hosts: '*'\n")
    with pytest.raises(ConfigFileError, match=r"'allowed-hosts' in .*DNS rebinding"):
        with_config(serve_parser, ["--stdio", "--config", str(path)])
    with pytest.raises(OptionError, match="--host"):
        config_of("--host", "127.0.0.1")


def test_port_serves_http_on_loopback_and_off_loopback_still_needs_a_token(
    app: AppServer,
) -> None:
    served = serve_host(transport=["--port", "0"])
    try:
        assert served.base.startswith("http://127.0.0.1:"), served.base

        async def run() -> str:
            async with Client(served.mcp_url) as client:
                result = await client.call_tool("browser_navigate", {"url": app.url("/page")})
                assert not result.is_error, result.content
                return str(result.content[0].text)  # type: ignore[union-attr]

        assert "host e2e" in asyncio.run(run())
    finally:
        served.stop()
    refused = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--port", "0", "--host", "0.0.0.0"],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "PLAYWRIGHT_TOOL_HOST_TOKEN"},
    )
    assert refused.returncode == 2 and "binding to 0.0.0.0 (not loopback) needs a bearer token" in (
        refused.stderr
    ), refused.stderr


PAGE = (
    "<title>peer options</title><button data-qa=go onclick=\"document.title = 'clicked'\">Go"
    "</button><button data-testid=go onclick=\"document.title = 'wrong one'\">Other</button>"
    "<button id=hidden style=display:none>Hidden</button>"
)


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = PAGE.encode() if self.path == "/" else b"not found"
            self.send_response(200 if self.path == "/" else 404)
            self.send_header("content-type", "text/html" if self.path == "/" else "text/plain")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = serve(Handler)
    try:
        yield server.origin + "/"
    finally:
        server.stop()


def text(result: Any) -> str:
    return "\n".join(getattr(part, "text", "") for part in result.content)


def test_peer_options_take_effect_in_a_real_host(page_url: str) -> None:
    served = serve_host(
        "--timeout-action",
        "1200",
        "--test-id-attribute",
        "data-qa",
        "--image-responses",
        "omit",
        "--shared-browser-context",
        "--block-service-workers",
    )
    try:

        async def run() -> dict[str, Any]:
            facts: dict[str, Any] = {}
            async with Client(served.mcp_url) as first, Client(served.mcp_url) as second:
                await first.call_tool("browser_navigate", {"url": page_url})
                clicked = await first.call_tool("browser_click", {"target": "testid=go"})
                assert not clicked.is_error, text(clicked)
                # The second connection shares the first one's session: the same page.
                seen = await second.call_tool("browser_evaluate", {"expression": "document.title"})
                facts["title"] = seen.structured_content
                hidden = await second.call_tool("browser_click", {"target": "#hidden"})
                facts["timeout"] = (hidden.is_error, text(hidden))
                shot = await first.call_tool("browser_take_screenshot", {})
                facts["shot"] = [part.type for part in shot.content]
                sw = await first.call_tool(
                    "browser_evaluate",
                    {
                        "expression": "navigator.serviceWorker.register('/sw.js').then("
                        "r => r === undefined ? 'blocked' : 'registered', e => 'failed')"
                    },
                )
                facts["sw"] = sw.structured_content
            return facts

        facts = asyncio.run(run())
    finally:
        served.stop()
    assert facts["title"] is not None and facts["title"]["result"] == "clicked"
    is_error, message = facts["timeout"]
    assert is_error and "1200ms" in message, message
    assert facts["shot"] == ["text"]  # omit: the screenshot's text alone
    assert facts["sw"] is not None and facts["sw"]["result"] == "blocked"


def test_snapshot_mode_full_puts_the_snapshot_in_each_action_result(page_url: str) -> None:
    """The peer's default: an action's result carries the page's snapshot, whose refs the next
    call takes; without the option (this host's default) it carries none. With
    --snapshot-boxes, each element shows its box."""
    served = serve_host("--snapshot-mode", "full", "--snapshot-boxes")
    plain = serve_host()
    try:

        async def run() -> tuple[str, str, Any, str]:
            async with Client(served.mcp_url) as client, Client(plain.mcp_url) as other:
                navigated = text(await client.call_tool("browser_navigate", {"url": page_url}))
                ref = re.search(r'button "Go" \[ref=(e\d+)\]', navigated)
                assert ref, navigated
                clicked = await client.call_tool("browser_click", {"ref": ref.group(1)})
                title = await client.call_tool("browser_evaluate", {"expression": "document.title"})
                box = await client.call_tool(
                    "browser_evaluate",
                    {
                        "expression": "(r => [r.x, r.y, r.width, r.height].map(Math.round).join())"
                        "(document.querySelector('[data-testid=go]').getBoundingClientRect())"
                    },
                )
                snapshot = text(await client.call_tool("browser_snapshot", {}))
                bare = text(await other.call_tool("browser_navigate", {"url": page_url}))
                assert box.structured_content is not None
                boxes = (box.structured_content["result"], snapshot)
                return text(clicked), bare, title.structured_content, navigated, boxes

        clicked, bare, title, navigated, (box, snapshot) = asyncio.run(run())
    finally:
        served.stop()
        plain.stop()
    assert title is not None and title["result"] == "clicked"
    assert "snapshot:" in navigated and "snapshot:" in clicked, clicked
    assert 'button "Other"' in clicked  # the page after the click, in the click's own result
    assert "snapshot:" not in bare and "[ref=" not in bare
    # --snapshot-boxes: each element's box as the page measures it, in browser_snapshot and in
    # the action's own snapshot alike.
    line = next(x for x in snapshot.splitlines() if 'button "Other"' in x)
    assert f"[box={box}]" in line, (box, line)
    assert f"[box={box}]" in clicked
    assert "[box=" not in bare


def test_image_responses_only_sends_the_image_alone(page_url: str) -> None:
    served = serve_host("--image-responses", "only")
    try:

        async def run() -> tuple[list[str], list[str]]:
            async with Client(served.mcp_url) as client:
                await client.call_tool("browser_navigate", {"url": page_url})
                shot = await client.call_tool("browser_take_screenshot", {})
                other = await client.call_tool("browser_evaluate", {"expression": "1 + 1"})
                return [p.type for p in shot.content], [p.type for p in other.content]

        shot, other = asyncio.run(run())
    finally:
        served.stop()
    assert shot == ["image"] and other == ["text"]


@pytest.fixture
def cdp_browser(tmp_path: Path) -> Iterator[int]:
    profile = tmp_path / "profile"
    browser = remote_debugging_chromium(profile)
    try:
        port_file = profile / "DevToolsActivePort"
        yield int(
            wait_until(
                lambda: port_file.exists() and port_file.read_text().split("\n")[0],
                "the debugging port",
            )
        )
    finally:
        browser.terminate()
        browser.wait(30)


def test_cdp_header_reaches_the_cdp_endpoint(cdp_browser: int, page_url: str) -> None:
    """A recording front for the browser's /json/version (what connect_over_cdp asks first,
    with the headers); the websocket it names is the browser's own."""
    asked: list[dict[str, str]] = []

    class Front(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append({k.lower(): v for k, v in self.headers.items()})
            with urllib.request.urlopen(
                f"http://127.0.0.1:{cdp_browser}{self.path}", timeout=30
            ) as answer:
                body = answer.read()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    front = serve(Front)
    served = serve_host(
        "--cdp-endpoint",
        front.origin,
        "--cdp-header",
        "X-Api-Key: k-123",
        "--cdp-header",
        "X-Team:blue",
        "--cdp-timeout",
        "20000",
    )
    try:

        async def run() -> tuple[str, list[dict[str, Any]]]:
            async with Client(served.mcp_url) as client:
                result = await client.call_tool("browser_navigate", {"url": page_url})
                listing = f"http://127.0.0.1:{cdp_browser}/json/list"
                with urllib.request.urlopen(listing, timeout=30) as answer:
                    return text(result), json.loads(answer.read())

        shown, targets = asyncio.run(run())
    finally:
        served.stop()
        front.stop()
    assert "peer options" in shown
    assert any(t["url"] == page_url for t in targets)  # the page opened in that browser
    assert asked and asked[0].get("x-api-key") == "k-123" and asked[0].get("x-team") == "blue"


def sandbox_works() -> bool:
    """Whether this machine lets Chromium run its sandbox (containers often do not)."""
    check = subprocess.run(
        [CHROMIUM, "--headless", "--dump-dom", "about:blank"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return check.returncode == 0 and "<html>" in check.stdout


def test_sandbox_launches_chromium_with_its_sandbox(page_url: str) -> None:
    """With --sandbox, Chromium is launched without --no-sandbox: where the sandbox works, the
    page opens; where it cannot (a container), the call says the browser did not start and why,
    as Chromium itself would refuse."""
    works = sandbox_works()
    served = serve_host("--sandbox")
    try:

        async def run() -> tuple[bool, str]:
            async with Client(served.mcp_url) as client:
                result = await client.call_tool("browser_navigate", {"url": page_url})
                return bool(result.is_error), text(result)

        is_error, message = asyncio.run(run())
    finally:
        served.stop()
    if works:
        assert not is_error and "peer options" in message, message
    else:
        assert (
            is_error
            and "browser_unavailable" in message
            and re.search("sandbox", message, re.IGNORECASE)
        ), message
