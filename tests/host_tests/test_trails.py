"""Trails: a form task recorded over MCP stdio by the official SDK client (refs from
web_snapshot), the host killed with SIGKILL half-way, the trail replayed without a model, replayed
again against a page whose button was renamed (located failure), exported to a pytest module that
runs, and to a TypeScript spec that `tsc` accepts. Also: what models are shown by default, the
user agent tool, and downloads."""

from __future__ import annotations

import asyncio
import http.server
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from local_server import LocalServer, serve
from mcp import Client, StdioServerParameters

from host.calls.registry import ToolRegistry
from host.trails.trail import read_trail
from host_tests.host_helpers import HEADLESS_CHROMIUM, PYTHON, REPO, browser_choice, descendants

pytestmark = pytest.mark.browser

PASSWORD = "hunter2-Secret!"


class FormPages:
    """A sign-in form whose button label a test can change."""

    def __init__(self) -> None:
        self.button = "Save"
        self.server: LocalServer | None = None

    def url(self, path: str) -> str:
        assert self.server is not None
        return self.server.origin + path


@pytest.fixture(scope="module")
def pages() -> Iterator[FormPages]:
    state = FormPages()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            headers = {"content-type": "text/html; charset=utf-8"}
            if path == "/form":
                body = (
                    "<title>form</title><label>Email <input name=email></label>"
                    "<label>Password <input type=password name=pw></label>"
                    f"<button onclick=\"document.body.insertAdjacentHTML('beforeend', '<p>saved ' "
                    "+ document.querySelector('[name=email]').value + ' ' + "
                    f"document.querySelector('[name=pw]').value.length + '</p>')\">{state.button}"
                    "</button>"
                )
            elif path == "/ua":
                agent = self.headers.get("user-agent", "")
                body = f"<title>ua</title><p id=header>{agent}</p>"
            elif path == "/links":
                body = "<title>links</title><a href=/ua>Go</a><button onclick='this.remove()'>Gone</button>"
            elif path == "/download-page":
                body = "<title>dl</title><a href=/report.csv download>report</a>"
            elif path == "/report.csv":
                body = "a,b\n1,2\n"
                headers = {"content-type": "text/csv"}
            else:
                self.send_response(404)
                self.end_headers()
                return
            data = body.encode()
            self.send_response(200)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    state.server = serve(Handler)
    yield state
    state.server.shutdown()


def ref(snapshot: str, role: str, name: str) -> str:
    found = re.search(rf'{role} "{re.escape(name)}"[^\n]*\[ref=((?:f\d+)?e\d+)\]', snapshot)
    assert found, snapshot
    return found.group(1)


def text_of(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


async def drive(trail: Path, steps: Any, *, kill_after: bool) -> None:
    params = StdioServerParameters(
        command=PYTHON,
        args=["-m", "host", "serve", "--stdio", "--record", str(trail), *browser_choice(())],
        cwd=str(REPO),
    )
    async with Client(params) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert "browser_objective" in names  # listed while recording (formerly web_objective)
        await steps(client)
        if kill_after:
            hosts = [p for p in descendants(os.getpid()) if b"serve" in _cmdline(p)]
            for pid in hosts:
                os.kill(pid, signal.SIGKILL)
            raise _Killed


class _Killed(Exception):
    pass


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def replay(
    trail: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "host", "replay", str(trail), *extra, *browser_choice(extra)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PW": PASSWORD, **(env or {})},
        check=False,
    )


@pytest.fixture(scope="module")
def recorded(pages: FormPages, tmp_path_factory: pytest.TempPathFactory) -> Path:
    trail = tmp_path_factory.mktemp("trails") / "form.trail.yaml"

    async def first_half(client: Any) -> None:
        await client.call_tool("navigate", {"url": pages.url("/form")})
        snapshot = text_of(await client.call_tool("web_snapshot", {}))
        await client.call_tool(
            "fill", {"target": ref(snapshot, "textbox", "Email"), "text": "ada@x.org"}
        )
        await client.call_tool(
            "fill", {"target": ref(snapshot, "textbox", "Password"), "text": PASSWORD}
        )

    with pytest.raises(BaseException) as killed:  # the SDK client sees its server die
        asyncio.run(drive(trail, first_half, kill_after=True))
    assert killed.value is not None
    half = read_trail(trail)
    assert [s.tool for s in half.steps] == ["browser_navigate", "browser_type", "browser_type"]

    async def second_half(client: Any) -> None:
        await client.call_tool("navigate", {"url": pages.url("/form")})
        await client.call_tool("web_objective", {"text": "Save the form"})
        snapshot = text_of(await client.call_tool("web_snapshot", {}))
        await client.call_tool(
            "fill", {"target": ref(snapshot, "textbox", "Email"), "text": "ada@x.org"}
        )
        await client.call_tool(
            "fill", {"target": ref(snapshot, "textbox", "Password"), "text": PASSWORD}
        )
        await client.call_tool("click", {"target": ref(snapshot, "button", "Save")})
        done = await client.call_tool("wait_for", {"text": "saved ada@x.org 15"})
        assert not done.is_error, text_of(done)

    asyncio.run(drive(trail, second_half, kill_after=False))
    return trail


def test_the_trail_holds_exactly_the_finished_calls_and_no_ref_or_secret(recorded: Path) -> None:
    text = recorded.read_text()
    assert PASSWORD not in text and "[ref=" not in text
    assert not re.search(r"\b(?:f\d+)?e\d+\b", text)
    trail = read_trail(recorded)
    assert [s.tool for s in trail.steps] == [
        "browser_navigate", "browser_type", "browser_type", "browser_navigate", "browser_type",
        "browser_type", "browser_click", "browser_wait_for",
    ]  # fmt: skip
    # (called by their former names above; recorded by their listed ones)
    assert [p.text for p in trail.prompts] == ["Save the form"]
    # Playwright's generator prefers role and accessible name, as codegen does.
    password = 'internal:role=textbox[name="Password"i]'
    assert trail.steps[2].arguments == {"target": password, "text": "${PW}"}
    assert trail.steps[1].arguments["target"] == 'internal:role=textbox[name="Email"i]'
    assert trail.steps[1].arguments["text"] == "ada@x.org"
    assert trail.steps[6].arguments == {"target": 'internal:role=button[name="Save"i]'}
    assert isinstance(yaml.safe_load(text), list)


def test_the_trail_replays_without_a_model(recorded: Path, pages: FormPages) -> None:
    done = replay(recorded)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replayed 8 steps" in done.stdout
    assert PASSWORD not in done.stdout + done.stderr


def test_a_renamed_button_fails_the_replay_at_its_line(recorded: Path, pages: FormPages) -> None:
    pages.button = "Store"
    try:
        done = replay(recorded, "--navigation-timeout", "3")
    finally:
        pages.button = "Save"
    assert done.returncode == 1, done.stdout + done.stderr
    line = next(s.line for s in read_trail(recorded).steps if s.tool == "browser_click")
    assert (
        f'form.trail.yaml:{line}: browser_click get_by_role("button", name="Save"): '
        "[playwright_error] Locator.click: Timeout" in done.stdout
    )
    assert "replay failed at step" in done.stdout


def test_bad_trails_are_refused_before_the_browser(tmp_path: Path) -> None:
    cases = {
        "- tools:\n  - nope_tool: {}\n": (3, "form.trail.yaml:2: nope_tool"),
        "- tools:\n  - click: {target: 5}\n": (3, "form.trail.yaml:2: click"),
        "- tools:\n  - fill: {target: '#a', text: '${MISSING_SECRET}'}\n": (3, "MISSING_SECRET"),
        "- prompt: {text: Log in}\n": (2, "needs a model"),
        "- tools: [\n": (3, "not valid YAML"),
        "- other: 1\n": (3, "form.trail.yaml:1"),
    }
    for body, (status, words) in cases.items():
        path = tmp_path / "form.trail.yaml"
        path.write_text(body)
        done = replay(path)
        assert done.returncode == status and words in done.stderr, (body, done.stderr)
        assert "Traceback" not in done.stderr


def test_the_python_export_runs_under_pytest(recorded: Path, tmp_path: Path) -> None:
    exported = subprocess.run(
        [PYTHON, "-m", "host", "export", str(recorded), "--to", "python"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert 'page.get_by_role("button", name="Save").click()' in exported
    assert 'os.environ["PW"]' in exported and PASSWORD not in exported
    module = tmp_path / "test_exported_form.py"
    module.write_text(exported)
    done = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PW": PASSWORD, "PLAYWRIGHT_CHROMIUM_EXECUTABLE": HEADLESS_CHROMIUM},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_the_typescript_export_type_checks_and_runs(recorded: Path) -> None:
    exported = subprocess.run(
        [PYTHON, "-m", "host", "export", str(recorded), "--to", "typescript"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert 'page.getByRole("button", { name: "Save" }).click()' in exported
    folder = REPO / "tests/host_tests/ts/.exported"
    folder.mkdir(exist_ok=True)
    try:
        (folder / "form.spec.ts").write_text(exported)
        done = subprocess.run(
            [
                str(REPO / "node_modules/.bin/tsc"), "--strict", "--noEmit", "--target", "es2022",
                "--module", "commonjs", "--moduleResolution", "node", "--types", "node",
                "--skipLibCheck", str(folder / "form.spec.ts"),
            ],
            cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        # And it runs, as exported: @playwright/test with no config file, on this machine's
        # Chromium (the one the trail was exported for), the secret from the environment.
        ran = subprocess.run(
            [str(REPO / "node_modules/.bin/playwright"), "test", "--reporter=line",
             f"--output={folder / 'results'}", str(folder / "form.spec.ts")],
            cwd=folder, capture_output=True, text=True, timeout=300, check=False,
            env={**os.environ, "PW": PASSWORD},
        )  # fmt: skip
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "1 passed" in ran.stdout, ran.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_models_see_the_agent_toolset_and_every_surfaced_tool(tmp_path: Path) -> None:
    generated = tmp_path / "generated"
    shutil.copytree(REPO / "generated", generated)
    registry = ToolRegistry(generated)
    default = registry.select(["default"])
    assert set(registry.toolsets["web_agent"].tools) <= default
    assert "web_title" not in default and "web_evaluate" not in default
    descriptor = generated / "tools/web_title.tool.yaml"
    descriptor.write_text(
        descriptor.read_text().replace("surfaceToLlm: false", "surfaceToLlm: true")
    )
    registry = ToolRegistry(generated)
    assert "web_title" in registry.select(["default"])
    assert "web_title" not in registry.select(["web_agent"])  # an explicit toolset is exactly it

    async def listed(*extra: str) -> set[str]:
        params = StdioServerParameters(
            command=PYTHON,
            args=[
                "-m",
                "host",
                "serve",
                "--stdio",
                "--generated",
                str(generated),
                *extra,
                *browser_choice(extra),
            ],
            cwd=str(REPO),
        )
        async with Client(params) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert "web_title" in asyncio.run(listed())
    assert "web_title" not in asyncio.run(listed("--toolset", "web_agent"))


def test_the_user_agent_is_sent_and_reported_by_every_tab(pages: FormPages) -> None:
    from host.calls.core import Host
    from host.settings.config import HostConfig

    agent = "TrailBot/1.0 (tests)"

    async def run() -> list[Any]:
        async with Host(HostConfig(toolsets=("all",))) as host:
            set_it = await host.call("ua", "web_setUserAgent", {"userAgent": agent})
            assert set_it.ok, set_it.text()
            await host.call("ua", "navigate", {"url": pages.url("/ua")})
            header = await host.call("ua", "get_text", {})
            seen = await host.call("ua", "evaluate", {"expression": "() => navigator.userAgent"})
            await host.call("ua", "web_tabs", {"action": "new", "url": pages.url("/ua")})
            header2 = await host.call("ua", "get_text", {})
            seen2 = await host.call("ua", "evaluate", {"expression": "() => navigator.userAgent"})
            return [header.text(), seen.text(), header2.text(), seen2.text()]

    for text in asyncio.run(run()):
        assert agent in text, text


def download(pages: FormPages, tmp_path: Path, cap: int) -> list[Any]:
    """The notes of a click that starts a download, and of the calls after it until the download
    is reported (on a loaded machine the download event may come just after the click)."""
    from host.calls.core import Host
    from host.settings.config import HostConfig

    async def run() -> list[Any]:
        async with Host(HostConfig(output_dir=tmp_path, max_download_bytes=cap)) as host:
            await host.call("dl", "navigate", {"url": pages.url("/download-page")})
            clicked = await host.call("dl", "click", {"target": "text=report"})
            assert clicked.ok, clicked.text()
            notes = list(clicked.extras.get("notes") or [])
            for _ in range(100):
                if any(n.get("event") in ("download", "download_refused") for n in notes):
                    break
                await asyncio.sleep(0.1)
                notes += (await host.call("dl", "web_tabs", {})).extras.get("notes") or []
            return notes

    return asyncio.run(run())


def test_a_download_past_the_cap_is_refused_and_deleted(pages: FormPages, tmp_path: Path) -> None:
    notes = [n for n in download(pages, tmp_path, cap=4) if n.get("event") == "download_refused"]
    assert (
        len(notes) == 1
        and notes[0]["size"] == 8
        and "more than this host keeps" in notes[0]["detail"]
    )
    assert not list(tmp_path.rglob("report*"))


def test_a_download_is_saved_and_reported(pages: FormPages, tmp_path: Path) -> None:
    seen = download(pages, tmp_path, cap=1024)
    notes = [n for n in seen if n.get("event") == "download"]
    assert len(notes) == 1, seen
    assert notes[0]["name"] == "report.csv" and notes[0]["size"] == 8
    saved = Path(notes[0]["path"])
    assert saved.read_text() == "a,b\n1,2\n" and tmp_path in saved.parents


def test_codegen_puts_the_playwright_line_beside_the_result(pages: FormPages) -> None:
    from host.calls.core import Host
    from host.settings.config import HostConfig

    async def run() -> list[Any]:
        async with Host(HostConfig(codegen="python")) as host:
            await host.call("code", "navigate", {"url": pages.url("/form")})
            snapshot = await host.call("code", "web_snapshot", {})
            button = ref(snapshot.text(), "button", "Save")
            clicked = await host.call("code", "click", {"target": button})
            read = await host.call("code", "get_text", {})
            return [clicked, read]

    clicked, read = asyncio.run(run())
    assert clicked.extras["code"] == 'page.get_by_role("button", name="Save").click()'
    assert "code" not in read.extras  # a read is not recordable


def test_with_http_each_caller_has_its_own_trail(pages: FormPages, tmp_path: Path) -> None:
    from host.calls.core import Host
    from host.sessions.keys import SessionKey
    from host.settings.config import HostConfig

    async def run() -> None:
        config = HostConfig(record=tmp_path, record_per_caller=True)
        async with Host(config) as host:
            for caller in ("alice", "bob/../x"):
                key = SessionKey("mcp", caller)
                await host.call(key, "navigate", {"url": pages.url("/form")})
                await host.call(
                    key.sub("agent"), "webBrowser", {"action": "navigate", "url": pages.url("/ua")}
                )

    asyncio.run(run())
    trails = sorted(tmp_path.glob("*.trail.yaml"))
    assert len(trails) == 2 and all(t.parent == tmp_path for t in trails)
    for trail in trails:
        assert [s.tool for s in read_trail(trail).steps] == ["browser_navigate", "webBrowser"]


def test_a_record_path_that_cannot_be_written_is_refused_at_start(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    done = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--stdio", "--record", str(blocked / "trail.yaml")],
        cwd=REPO, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "--record" in done.stderr and "cannot be written" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_tools_that_change_things_are_recordable_and_reads_are_not() -> None:
    registry = ToolRegistry()
    tools = {name: registry.lookup(name, None) for name in [*registry.tools, *registry.aliases]}
    for name in ("navigate", "click", "fill", "select_option", "send_keys", "drag", "hover",
                 "upload_file", "web_tabs", "web_handle_dialog", "web_route", "web_unroute"):  # fmt: skip
        assert tools[name].is_recordable, name
    for name in ("web_snapshot", "get_text", "screenshot", "web_console_messages",
                 "web_network_requests", "web_route_list", "dropdown_options", "evaluate"):  # fmt: skip
        assert not tools[name].is_recordable, name


def test_a_generated_tool_exports_as_its_playwright_call() -> None:
    from host.trails.code import line_for

    tool = ToolRegistry().tools["web_locator_fill"]
    args = {"selector": "#email", "value": "${EMAIL}", "timeout": 500}
    python = line_for("web_locator_fill", args, "python", tool)
    assert python == 'page.locator("#email").fill(value=os.environ["EMAIL"], timeout=500)'
    typescript = line_for("web_locator_fill", args, "typescript", tool)
    assert typescript == 'await page.locator("#email").fill(process.env.EMAIL!, { timeout: 500 });'


def test_targets_that_navigate_or_vanish_are_still_recorded(
    pages: FormPages, tmp_path: Path
) -> None:
    """The stable locator is read alongside the call, ahead of its work on the page: a link that
    navigates away and a button that removes itself are recorded all the same."""
    from host.calls.core import Host
    from host.settings.config import HostConfig

    trail = tmp_path / "nav.trail.yaml"

    async def run() -> list[Any]:
        async with Host(HostConfig(record=trail)) as host:
            notes: list[Any] = []
            for name in ("Gone", "Go"):
                await host.call("nav", "navigate", {"url": pages.url("/links")})
                snapshot = await host.call("nav", "web_snapshot", {})
                role = "button" if name == "Gone" else "link"
                clicked = await host.call(
                    "nav", "click", {"target": ref(snapshot.text(), role, name)}
                )
                assert clicked.ok, clicked.text()
                notes += clicked.extras.get("notes") or []
            return notes

    notes = asyncio.run(run())
    assert not [n for n in notes if n.get("event") == "not_recorded"], notes
    clicks = [s.arguments["target"] for s in read_trail(trail).steps if s.tool == "browser_click"]
    assert clicks == ['internal:role=button[name="Gone"i]', 'internal:role=link[name="Go"i]']


def test_text_typed_where_the_keys_moved_focus_is_checked_there(
    pages: FormPages, tmp_path: Path
) -> None:
    from host.calls.core import Host
    from host.settings.config import HostConfig

    trail = tmp_path / "keys.trail.yaml"

    async def run() -> str:
        async with Host(HostConfig(record=trail)) as host:
            await host.call("keys", "navigate", {"url": pages.url("/form")})
            await host.call("keys", "click", {"target": "label=Email"})
            typed = await host.call("keys", "send_keys", {"keys": "Tab", "text": PASSWORD})
            assert typed.ok, typed.text()
            value = await host.call(
                "keys",
                "evaluate",
                {"expression": "() => document.querySelector('[name=pw]').value"},
            )
            return str(value.value)

    assert asyncio.run(run()) == PASSWORD  # the text did go into the password field
    steps = read_trail(trail).steps
    assert steps[-1].tool == "browser_send_keys" and steps[-1].arguments["text"] == "${PW}"
    assert PASSWORD not in trail.read_text()
