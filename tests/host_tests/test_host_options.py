"""The browser and context options (`--device`, `--viewport-size`, `--storage-state`, ...), the
config file, secrets and traces, with real Chromium: what users of @playwright/mcp configure.

Each option is checked where it shows: in the page (`navigator.userAgent`, `innerWidth`, a
cookie), on disk (a trace zip, a video, a profile), or in a refusal at start that names the
option and the fix. Tool names are the stable scripting names (`navigate`, `evaluate`, ...).
"""

from __future__ import annotations

import asyncio
import base64
import http.server
import json
import os
import re
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from local_server import serve
from mcp import Client

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host.settings.browser_options import BrowserOptions, InitScript, storage_state_option
from host_tests.host_helpers import (
    HEADLESS_CHROMIUM,
    PYTHON,
    REPO,
    AppServer,
    LoopThread,
    ServedHost,
    browser_choice,
    host_config,
    serve_host,
)

pytestmark = pytest.mark.browser

SECRET = "Hunter2-s3cret-7713"


def start_failure(*options: str, env: dict[str, str] | None = None, cwd: Path = REPO) -> str:
    """Start `serve --stdio` with `options`: it must refuse to start (exit 2) before reading any
    request; returns what it printed."""
    done = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--stdio", *options, *browser_choice(options)],
        cwd=cwd,
        stdin=subprocess.PIPE,  # never written to: a start that does not refuse would hang
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("options")
    (folder / "throws.js").write_text("throw new Error('init script boom')\n")
    (folder / "fine.js").write_text("window.__fromInit = 42;\n")
    (folder / "broken-state.json").write_text("{not json")
    (folder / "bad.env").write_text("PASSWORD=okay\nthis line is no assignment\n")
    (folder / "good.env").write_text(f"PASSWORD='{SECRET}'\n")
    (folder / "blank.env").write_text("USER=ada-lovelace\nPASSWORD='  \t '\n")
    (folder / "bad-size.yaml").write_text("viewport-size: 640 by 480\n")
    (folder / "unknown.yaml").write_text("viewport-size: 640x480\nwindow-size: 1x1\n")
    (folder / "bad-number.json").write_text('{"max-sessions": "many"}')
    (folder / "a-file").write_text("")
    (folder / "gone-uploads.yaml").write_text(f"upload-dir: [{folder / 'gone'}]\n")
    return folder


# -- refused at start --------------------------------------------------------------------------


BAD_STARTS: list[tuple[str, list[str], dict[str, str], list[str]]] = [
    ("malformed size", ["--viewport-size", "12x"], {}, ["--viewport-size", "WIDTHxHEIGHT"]),
    ("size out of range", ["--viewport-size", "0x600"], {}, ["--viewport-size", "1 to 10000"]),
    ("unknown device", ["--device", "Pixle 7"], {}, ["--device", "did you mean 'Pixel 7'"]),
    ("missing init script", ["--init-script", "{f}/nope.js"], {}, ["--init-script", "not a file"]),
    ("init script throws", ["--init-script", "{f}/throws.js"], {}, ["throws.js", "boom"]),
    ("storage state not JSON", ["--storage-state", "{f}/broken-state.json"], {}, ["not JSON"]),
    ("unknown permission", ["--grant-permissions", "telepathy"], {}, ["--grant-permissions"]),
    ("headed without display", ["--headed"], {"DISPLAY": "", "WAYLAND_DISPLAY": ""}, ["xvfb"]),
    ("unknown capability", ["--caps", "pdf,telepathy"], {}, ["--caps", "known: network, pdf"]),
    ("secrets line", ["--secrets", "{f}/bad.env"], {}, ["--secrets", "bad.env:2"]),
    ("secrets whitespace", ["--secrets", "{f}/blank.env"], {}, ["blank.env:2", "only whitespace"]),
    ("secrets with trace", ["--secrets", "{f}/good.env", "--save-trace"], {}, ["--save-trace"]),
    (
        "not an origin",
        ["--blocked-origins", "ftp://ads.example"],
        {},
        ["--blocked-origins", "scheme"],
    ),
    ("profile is a file", ["--user-data-dir", "{f}/a-file"], {}, ["--user-data-dir"]),
    (
        "upload dir missing",
        ["--upload-dir", "{f}", "--upload-dir", "{f}/gone"],
        {},
        ["error: --upload-dir: ", "/gone does not exist; create the directory"],
    ),
    (
        "upload dir is a file",
        ["--upload-dir", "{f}/a-file"],
        {},
        ["error: --upload-dir: ", "/a-file is not a directory; give the directory"],
    ),
    ("settle too long", ["--timeout-settle", "20000"], {}, ["--timeout-settle", "0 to 10000"]),
    (
        "idle in the peer's milliseconds",
        ["--idle-timeout", "3600000"],
        {},
        ["--idle-timeout", "at most 86400", "milliseconds"],
    ),
    ("idle not a duration", ["--idle-timeout", "nan"], {}, ["--idle-timeout", "above 0"]),
    ("action timeout negative", ["--action-timeout", "-1"], {}, ["--action-timeout", "above 0"]),
    ("navigation too long", ["--navigation-timeout", "1e9"], {}, ["--navigation-timeout", "300"]),
    ("config: bad value", ["--config", "{f}/bad-size.yaml"], {}, ["'viewport-size' in"]),
    ("config: unknown key", ["--config", "{f}/unknown.yaml"], {}, ["'window-size' in", "known:"]),
    ("config: not a number", ["--config", "{f}/bad-number.json"], {}, ["'max-sessions' in"]),
    ("config: missing", ["--config", "{f}/none.yaml"], {}, ["--config", "not a file"]),
    (
        "config: upload dir missing",
        ["--config", "{f}/gone-uploads.yaml"],
        {},
        ["error: --upload-dir: ", "/gone does not exist", "(set by 'upload-dir' in "],
    ),
]


@pytest.mark.parametrize(
    ("options", "env", "expected"),
    [case[1:] for case in BAD_STARTS],
    ids=[case[0] for case in BAD_STARTS],
)
def test_a_bad_option_value_stops_the_host_at_start_naming_it(
    files: Path, options: list[str], env: dict[str, str], expected: list[str]
) -> None:
    printed = start_failure(*(o.replace("{f}", str(files)) for o in options), env=env)
    for words in expected:
        assert words in printed, printed
    if "--config" in options and "missing" not in options[-1]:
        assert str(files) in printed  # the file is named


# -- in the page -------------------------------------------------------------------------------


def outcome_value(outcome: ToolOutcome) -> Any:
    assert outcome.ok, outcome.text()
    return outcome.value


async def page_facts(host: Host, url: str) -> dict[str, Any]:
    outcome_value(await host.call("t", "navigate", {"url": url}))
    facts = await host.call(
        "t",
        "evaluate",
        {
            "expression": "({ua: navigator.userAgent, width: innerWidth, height: innerHeight, "
            "screen: screen.width, ratio: devicePixelRatio, touch: 'ontouchstart' in window, cookie: document.cookie, "
            "init: window.__fromInit ?? null})"
        },
    )
    return dict(outcome_value(facts))


def test_a_device_an_init_script_and_a_storage_state_show_in_the_page(
    loop: LoopThread, app: AppServer, tmp_path: Path, files: Path
) -> None:
    state = tmp_path / "state.json"
    state.write_text(
        json.dumps(
            {
                "cookies": [
                    {
                        "name": "flavour",
                        "value": "oat",
                        "domain": "127.0.0.1",
                        "path": "/",
                        "expires": -1,
                        "httpOnly": False,
                        "secure": False,
                        "sameSite": "Lax",
                    }
                ],
                "origins": [],
            }
        )
    )
    options = BrowserOptions(
        device="Pixel 7",
        storage_state=storage_state_option(state),
        init_scripts=(InitScript(files / "fine.js", (files / "fine.js").read_text()),),
    )

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Host(host_config(browser=options)) as host:
            facts = await page_facts(host, app.url("/page"))
            return facts, host.pool.devices()["Pixel 7"]  # Playwright's own descriptor

    facts, device = loop.run(run())
    assert facts["ua"] == device["user_agent"] and "Pixel 7" in facts["ua"]
    assert (facts["screen"], facts["ratio"]) == (
        device["viewport"]["width"],
        device["device_scale_factor"],
    )
    assert facts["touch"] is True
    assert facts["cookie"] == "flavour=oat"
    assert facts["init"] == 42


def test_a_config_file_applies_and_the_command_line_wins(tmp_path: Path, app: AppServer) -> None:
    config = tmp_path / "host.yaml"
    config.write_text(
        "viewport-size: 800x600\nuser-agent: from-the-file/1.0\ngrant-permissions: [geolocation]\n"
    )
    served = serve_host(
        "--config",
        str(config),
        "--user-agent",
        "from-the-command-line/2.0",
        *("--executable-path", HEADLESS_CHROMIUM),
    )
    try:

        async def run() -> dict[str, Any]:
            async with Client(served.mcp_url) as client:
                await client.call_tool("navigate", {"url": app.url("/page")})
                result = await client.call_tool(
                    "evaluate",
                    {
                        "expression": "navigator.permissions.query({name: 'geolocation'})"
                        ".then(p => ({ua: navigator.userAgent, width: innerWidth, "
                        "height: innerHeight, geolocation: p.state}))"
                    },
                )
                assert result.structured_content is not None
                return dict(result.structured_content["result"])

        facts = asyncio.run(run())
    finally:
        served.stop()
    assert facts == {
        "ua": "from-the-command-line/2.0",
        "width": 800,
        "height": 600,
        "geolocation": "granted",
    }


def page_handler(title: str, hits: list[str]) -> type[http.server.BaseHTTPRequestHandler]:
    """A handler answering every GET with a page titled `title`, recording the paths asked."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = f"<title>{title}</title><p>{title}</p>".encode()
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def origin_server() -> tuple[Any, list[str]]:
    """A server that records the paths asked of it."""
    hits: list[str] = []
    return serve(page_handler("elsewhere", hits)), hits


def test_blocked_and_allowed_browser_origins(loop: LoopThread, app: AppServer) -> None:
    other, hits = origin_server()
    try:

        async def run(options: BrowserOptions) -> tuple[ToolOutcome, ToolOutcome, ToolOutcome]:
            async with Host(host_config(browser=options)) as host:
                to_app = await host.call("t", "navigate", {"url": app.url("/page")})
                fetched = await host.call(
                    "t",
                    "evaluate",
                    {
                        "expression": f"fetch('{other.origin}/fetched', {{mode: 'no-cors'}})"
                        ".then(r => 'sent', e => 'refused')"
                    },
                )
                to_other = await host.call("t", "navigate", {"url": other.origin + "/direct"})
                return to_app, fetched, to_other

        blocked = BrowserOptions(blocked_origins=(other.origin,))
        allowed_only = BrowserOptions(browser_allowed_origins=(app.base,))
        for options in (blocked, allowed_only):
            to_app, fetched, to_other = loop.run(run(options))
            assert to_app.ok, to_app.text()
            assert fetched.value == "refused", fetched.text()
            assert not to_other.ok and "ERR_BLOCKED_BY_CLIENT" in to_other.text(), to_other.text()
        assert hits == []
        to_app, fetched, to_other = loop.run(run(BrowserOptions()))  # no filter: it is reachable
        assert fetched.value == "sent" and to_other.ok, (fetched.text(), to_other.text())
        assert [h for h in hits if h != "/favicon.ico"] == ["/fetched", "/direct"]
    finally:
        other.stop()


def test_a_persistent_profile_keeps_its_storage_and_admits_one_session(
    loop: LoopThread, app: AppServer, tmp_path: Path
) -> None:
    options = BrowserOptions(user_data_dir=tmp_path / "profile")
    config = host_config(browser=options, max_sessions=1)

    async def first() -> tuple[ToolOutcome, ToolOutcome]:
        async with Host(config) as host:
            await host.call("a", "navigate", {"url": app.url("/page")})
            stored = await host.call(
                "a", "evaluate", {"expression": "localStorage.setItem('kept', 'yes') ?? 'set'"}
            )
            other = await host.call("b", "navigate", {"url": app.url("/page")})
            return stored, other

    async def second() -> ToolOutcome:
        async with Host(config) as host:
            await host.call("c", "navigate", {"url": app.url("/page")})
            return await host.call("c", "evaluate", {"expression": "localStorage.getItem('kept')"})

    stored, other = loop.run(first())
    assert stored.ok, stored.text()
    assert not other.ok and other.error is not None
    assert other.error.code == "too_many_sessions", other.text()
    assert loop.run(second()).value == "yes"  # a new host, the same profile


# -- secrets -----------------------------------------------------------------------------------

SECRET_PAGE = (
    "<title>login</title><label>Password <input id=pw></label><p id=echo></p>"
    "<script>document.getElementById('pw').addEventListener('input', e => {"
    "document.getElementById('echo').textContent = 'typed ' + e.target.value;"
    "console.log('typed', e.target.value); });</script>"
)


@pytest.fixture
def secret_host(tmp_path: Path, files: Path) -> Iterator[tuple[ServedHost, Path]]:
    trails = tmp_path / "trails"
    served = serve_host(
        "--toolset",
        "all",
        "--secrets",
        str(files / "good.env"),
        "--record",
        str(trails),
        "--codegen",
        "python",
        "--log-level",
        "debug",
    )
    yield served, trails
    served.stop()


def test_a_secret_reaches_the_page_and_nothing_else(
    secret_host: tuple[ServedHost, Path],
) -> None:
    served, trails = secret_host
    shown: list[str] = []

    async def run() -> dict[str, Any]:
        async with Client(served.mcp_url) as client:
            seen: dict[str, Any] = {"instructions": client.instructions}

            async def call(name: str, args: dict[str, Any]) -> Any:
                result = await client.call_tool(name, args)
                shown.append(json.dumps(result.model_dump(mode="json")))
                return result

            await call("web_setContent", {"html": SECRET_PAGE})
            seen["fill"] = await call("fill", {"target": "#pw", "text": "${PASSWORD}"})
            seen["snapshot"] = await call("web_snapshot", {})
            seen["value"] = await call("evaluate", {"expression": "document.title = pw.value"})
            seen["proof"] = await call("evaluate", {"expression": "btoa(pw.value)"})
            seen["thrown"] = await call(
                "evaluate", {"expression": "(() => { throw new Error('no ' + pw.value) })()"}
            )
            seen["console"] = await call("web_console_messages", {})
            seen["typed"] = await call("send_keys", {"target": "#pw", "text": "${PASSWORD}"})
            seen["unknown"] = await call("send_keys", {"text": "${PASWORD}"})
            seen["tabs"] = await call("web_tabs", {"action": "list"})
            return seen

    seen = asyncio.run(run())
    served.stop()
    assert "${PASSWORD}" in seen["instructions"] and SECRET not in seen["instructions"]
    proof = seen["proof"].structured_content["result"]
    assert base64.b64decode(proof).decode() == SECRET  # the page got the value ...
    everything = "\n".join(shown)
    assert SECRET not in everything  # ... and no result, error or note shows it
    assert "typed ${PASSWORD}" in json.dumps(seen["snapshot"].model_dump(mode="json"))
    assert seen["value"].structured_content["result"] == "${PASSWORD}"
    assert seen["thrown"].is_error and "no ${PASSWORD}" in everything
    assert "typed ${PASSWORD}" in json.dumps(seen["console"].model_dump(mode="json"))
    assert "${PASSWORD}" in json.dumps(seen["tabs"].model_dump(mode="json"))  # the title
    assert seen["unknown"].is_error and "unknown_secret" in json.dumps(
        seen["unknown"].model_dump(mode="json")
    )
    log = "".join(served.log)
    assert "PASSWORD" in log or "fill" in log  # the debug log did talk about the calls
    assert SECRET not in log
    written = "".join(p.read_text() for p in trails.rglob("*") if p.is_file())
    assert "${PASSWORD}" in written and SECRET not in written


# -- traces, videos, a headed browser ----------------------------------------------------------


def test_save_trace_writes_a_trace_playwright_opens(tmp_path: Path, app: AppServer) -> None:
    served = serve_host("--save-trace", "--output-dir", str(tmp_path))

    async def run() -> None:
        async with Client(served.mcp_url) as client:
            await client.call_tool("navigate", {"url": app.url("/page")})
            await client.call_tool("click", {"target": "#h"})

    try:
        asyncio.run(run())
    finally:
        assert served.stop() == 0
    traces = sorted(tmp_path.glob("sessions/*/traces/*.zip"))
    assert len(traces) == 1, served.log
    with zipfile.ZipFile(traces[0]) as archive:
        names = archive.namelist()
        events = archive.read("trace.trace").decode()
        network = archive.read("trace.network").decode()
    assert "trace.trace" in names and "trace.network" in names
    assert app.url("/page") in events and '"type":"before"' in events
    assert app.url("/page") in network
    # The viewer Playwright ships opens such zips: `show-trace` is there and knows the option.
    shown = subprocess.run(
        [PYTHON, "-m", "playwright", "show-trace", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0 and "trace" in shown.stdout, shown.stderr


def test_save_video_writes_a_video(tmp_path: Path, app: AppServer) -> None:
    served = serve_host("--save-video", "--viewport-size", "640x360", "--output-dir", str(tmp_path))

    async def run() -> None:
        async with Client(served.mcp_url) as client:
            await client.call_tool("navigate", {"url": app.url("/page")})

    try:
        asyncio.run(run())
    finally:
        assert served.stop() == 0
    videos = list((tmp_path / "videos").glob("*.webm"))
    assert videos and videos[0].read_bytes()[:4] == b"\x1a\x45\xdf\xa3", served.log  # WebM


@pytest.fixture
def display() -> Iterator[str]:
    """An X display of Xvfb's own (it picks a free number and tells it on a descriptor)."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as told:
        number = told.readline().strip()
    assert re.fullmatch(r"\d+", number), "Xvfb did not start"
    yield f":{number}"
    server.terminate()
    server.wait(10)


def test_headed_runs_a_windowed_browser_on_a_display(display: str, app: AppServer) -> None:
    served = serve_host("--headed", env={"DISPLAY": display})

    async def run() -> str:
        async with Client(served.mcp_url) as client:
            await client.call_tool("navigate", {"url": app.url("/page")})
            result = await client.call_tool("evaluate", {"expression": "navigator.userAgent"})
            assert result.structured_content is not None
            return str(result.structured_content["result"])

    try:
        agent = asyncio.run(run())
    finally:
        served.stop()
    assert "Chrome/" in agent and "HeadlessChrome" not in agent


# -- a proxy and a certificate nobody signed ---------------------------------------------------


def test_the_browser_goes_through_the_proxy_server(loop: LoopThread) -> None:
    """A plain HTTP proxy of the test's own: it answers for a host that does not exist."""
    asked: list[str] = []
    proxy = serve(page_handler("via the proxy", asked))  # a proxy is asked for the absolute URL
    try:

        async def run() -> ToolOutcome:
            config = host_config(proxy_server=proxy.origin)
            async with Host(config) as host:
                await host.call("t", "navigate", {"url": "http://no-such-host.invalid/page"})
                return await host.call("t", "evaluate", {"expression": "document.title"})

        title = loop.run(run())
    finally:
        proxy.stop()
    assert title.value == "via the proxy", title.text()
    assert "http://no-such-host.invalid/page" in asked


@pytest.fixture(scope="module")
def https_origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An HTTPS server on 127.0.0.1 with a certificate signed by itself (openssl makes it)."""
    import ssl
    import threading

    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), page_handler("self-signed", []))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"https://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_ignore_https_errors_accepts_a_self_signed_certificate(
    loop: LoopThread, https_origin: str
) -> None:
    async def run(options: BrowserOptions) -> ToolOutcome:
        async with Host(host_config(browser=options)) as host:
            return await host.call("t", "navigate", {"url": https_origin + "/"})

    refused = loop.run(run(BrowserOptions()))
    assert not refused.ok and "ERR_CERT" in refused.text(), refused.text()
    accepted = loop.run(run(BrowserOptions(ignore_https_errors=True)))
    assert accepted.ok and "self-signed" in accepted.text(), accepted.text()


@pytest.mark.parametrize("key", ["config", "help", "h", "stdio-please"])
def test_a_config_file_cannot_name_config_help_or_an_unknown_key(tmp_path: Path, key: str) -> None:
    from host.commands.cli import build_parser, subcommands
    from host.settings.config_file import ConfigFileError, config_key, with_config

    serve = subcommands(build_parser()).choices["serve"]
    keys = {config_key(action) for action in serve._actions} - {None}
    assert "viewport-size" in keys and "stdio" in keys
    assert not keys & {"config", "help", "h"}
    path = tmp_path / "host.yaml"
    path.write_text(f"{key}: x\nviewport-size: 800x600\n", encoding="utf-8")
    with pytest.raises(ConfigFileError, match=f"unknown option '{key}' in"):
        with_config(serve, ["--stdio", "--config", str(path)])
    path.write_text("viewport-size: 800x600\n", encoding="utf-8")
    argv, origins = with_config(serve, ["--stdio", "--config", str(path)])
    assert argv[:1] == ["--viewport-size=800x600"]  # one token: a value is never an option
    assert origins == {"--viewport-size": f"'viewport-size' in {path}, value \"800x600\""}
