"""The docs' blocks that start a host, an executor or a browser, run as typed against local pages
(tests/doc_blocks.py lists them; tests/test_docs_run.py holds the rule). Fixed ports (8931, 8091,
3000, 8000) become free ones, `...` placeholders real values; the rest is the block's text."""

from __future__ import annotations

import ast
import asyncio
import http.server
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from doc_blocks import block, commands
from host_executor.helpers import ExecutorProcess
from local_server import LocalServer, serve
from mcp import Client, StdioServerParameters

from host_tests.host_helpers import CHROMIUM, PYTHON, REPO, serve_host

# Starts hosts, the executor and Chromium, as the documented commands do.
pytestmark = [pytest.mark.browser]

SERVE_FIRST = ".venv/bin/python -m host serve --stdio                         # MCP over stdio, for a local agent"
TRAIL_FIRST = ".venv/bin/python -m host serve --stdio --record form.trail.yaml"


class Form:
    """A form whose button label a test can change; it records the headers it was sent."""

    def __init__(self) -> None:
        self.button = "Save"
        self.headers: list[dict[str, str]] = []
        self.server: LocalServer | None = None

    @property
    def origin(self) -> str:
        assert self.server is not None
        return self.server.origin


@pytest.fixture(scope="module")
def form() -> Iterator[Form]:
    state = Form()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.headers.append({k.lower(): v for k, v in self.headers.items()})
            body = (
                "<title>form</title><label>Email <input name=email></label>"
                "<button onclick=\"document.body.insertAdjacentHTML('beforeend', '<p>saved</p>')\">"
                f"{state.button}</button>"
            ).encode()
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    state.server = serve(Handler)
    yield state
    state.server.stop()


SAMPLE_SITE = REPO / "examples" / "sample-site"
SAMPLE_SITE_COMMAND = (
    "python3 -m http.server 8000 --bind 127.0.0.1 --directory examples/sample-site"
    "   # http://127.0.0.1:8000/"
)


class SampleSite:
    """examples/sample-site served in process; it records the headers each request carried."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        self.server: LocalServer | None = None

    @property
    def origin(self) -> str:
        assert self.server is not None
        return self.server.origin.rstrip("/")


@pytest.fixture(scope="module")
def sample_site() -> Iterator[SampleSite]:
    state = SampleSite()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(SAMPLE_SITE), **kwargs)

        def do_GET(self) -> None:
            state.headers.append({k.lower(): v for k, v in self.headers.items()})
            super().do_GET()

        def log_message(self, *args: Any) -> None:
            pass

    state.server = serve(Handler)
    yield state
    state.server.stop()


def start_sample_site_as_documented() -> tuple[subprocess.Popen[bytes], str]:
    """README's command for the sample site, run as typed but for a free port: the process and
    its origin, once it answers."""
    port = free_port()
    (command,) = commands(block("README.md", SAMPLE_SITE_COMMAND).text)
    words = command.replace(" 8000 ", f" {port} ").split()
    assert words[0] == "python3", words
    process = subprocess.Popen(
        words, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while True:  # polls until it answers, up to a generous deadline
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, f"http://127.0.0.1:{port}"
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise AssertionError(f"{command} did not start serving") from None
            time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def text_of(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def stdio_params(
    command: str, cwd: Path, env: dict[str, str] | None = None
) -> StdioServerParameters:
    words = command.split()
    assert words[0] == ".venv/bin/python", command
    return StdioServerParameters(
        command=PYTHON, args=words[1:], cwd=str(cwd), env={**os.environ, **(env or {})}
    )


# -- serve ---------------------------------------------------------------------------------------


def test_the_serve_commands_start_a_host(tmp_path: Path) -> None:
    lines = commands(block("README.md", SERVE_FIRST).text)
    assert commands(block("docs/host.md", SERVE_FIRST).text) == lines  # one block, twice
    assert len(lines) == 6, lines
    for line in lines:
        start_one(line, tmp_path)


def start_one(line: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "uploads").mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "HOME": str(home)}
    line = line.replace("8931", str(free_port()))
    if line.startswith("PLAYWRIGHT_TOOL_HOST_TOKEN=..."):
        env["PLAYWRIGHT_TOOL_HOST_TOKEN"] = secrets.token_urlsafe(32)
        line = line.split(" ", 1)[1]
    line = line.replace("~/", f"{home}/").replace(".venv/bin/python", PYTHON)
    words = line.split()
    if words[3] == "report":  # it rewrites REPORT.md; its --check is the same run, writing nothing
        done = subprocess.run(
            [*words, "--check"], cwd=REPO, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return
    if "--stdio" in words:

        async def listed() -> set[str]:
            params = StdioServerParameters(command=words[0], args=words[1:], cwd=str(REPO), env=env)
            async with Client(params) as client:
                return {t.name for t in (await client.list_tools()).tools}

        names = asyncio.run(asyncio.wait_for(listed(), 120))
        assert "browser_navigate" in names, (line, sorted(names))
        if "--enable-execute" in words:
            assert "browser_execute_python" in names
        return
    process = subprocess.Popen(
        words, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        seen = []
        for text in process.stderr:
            seen.append(text)
            if "serving MCP at" in text:
                break
        else:
            raise AssertionError(f"{line}: the host did not start\n{''.join(seen)}")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)


# -- trails ------------------------------------------------------------------------------------


def test_the_trail_commands_record_replay_and_export(form: Form, tmp_path: Path) -> None:
    shown = [commands(block(doc, TRAIL_FIRST).text) for doc in ("README.md", "docs/trails.md")]
    assert shown[0] == shown[1]
    record, replay, to_python, to_typescript = shown[0]
    password = "hunter2"

    async def drive() -> None:
        async with Client(stdio_params(record, tmp_path)) as client:
            await client.call_tool("browser_navigate", {"url": form.origin + "/form"})
            snapshot = text_of(await client.call_tool("browser_snapshot", {}))
            email = re.search(r'textbox "Email"[^\n]*\[ref=(e\d+)\]', snapshot)
            save = re.search(r'button "Save"[^\n]*\[ref=(e\d+)\]', snapshot)
            assert email and save, snapshot
            typed = await client.call_tool(
                "browser_type", {"target": email.group(1), "text": password}
            )
            assert not typed.is_error, text_of(typed)
            clicked = await client.call_tool("browser_click", {"target": save.group(1)})
            assert not clicked.is_error, text_of(clicked)

    asyncio.run(asyncio.wait_for(drive(), 180))
    assert (tmp_path / "form.trail.yaml").is_file()
    env = {"PW": password}
    assert replay.startswith("PW=... "), replay
    replay = replay.removeprefix("PW=... ")

    def run(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", command.replace(".venv/bin/python", PYTHON)],
            cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
            env={**os.environ, **env},
        )  # fmt: skip

    done = run(replay)
    assert done.returncode == 0, done.stdout + done.stderr
    form.button = "Store"
    try:
        failed = run(replay + " --navigation-timeout 30")
    finally:
        form.button = "Save"
    assert failed.returncode == 1, failed.stdout + failed.stderr
    # What the docs say a failed replay prints, up to its `...`.
    for doc in ("README.md", "docs/trails.md"):
        quoted = re.search(r"# 0; 1 with `(.*?)\.\.\.`", block(doc, TRAIL_FIRST).text)
        assert quoted, f"{doc}: the replay line quotes no failure"
        # the line number is the example trail's; the rest is what replay prints
        shown_line = re.escape(quoted.group(1)).replace(r"yaml:14:", r"yaml:\d+:")
        assert re.search(shown_line, failed.stdout), (doc, quoted.group(1), failed.stdout)
    assert run(to_python).returncode == 0
    ast.parse((tmp_path / "test_form.py").read_text())
    assert run(to_typescript).returncode == 0
    assert "@playwright/test" in (tmp_path / "form.spec.ts").read_text()


# -- the executor ------------------------------------------------------------------------------


def shape(value: Any) -> Any:
    """A JSON value's keys, all the way down (lists by their first member)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def test_the_executor_and_its_curl_answer_as_shown(tmp_path: Path) -> None:
    readme = commands(
        block(
            "README.md", ".venv/bin/python -m host executor                       # 127.0.0.1:8091"
        ).text
    )
    assert readme[0] == ".venv/bin/python -m host executor", readme
    site, page_origin = start_sample_site_as_documented()
    service = ExecutorProcess(env={"WEB_EXECUTOR_BIND_ADDR": "127.0.0.1:0"})
    try:
        readme_text = block(
            "README.md", ".venv/bin/python -m host executor                       # 127.0.0.1:8091"
        ).text
        curls = [
            readme_text[readme_text.index("curl ") :],
            block(
                "docs/executor.md",
                "curl -s http://127.0.0.1:8091/execute -H 'content-type: application/json' -d '{",
            ).text.replace("\\\n", " "),
        ]
        answers = []
        for curl in curls:
            curl = curl.replace("http://127.0.0.1:8091", service.base).replace(
                "http://127.0.0.1:8000", page_origin.rstrip("/")
            )
            done = subprocess.run(
                ["bash", "-c", curl], capture_output=True, text=True, timeout=300, check=False
            )
            assert done.returncode == 0, done.stderr
            answers.append(json.loads(done.stdout))
        assert answers[0]["ok"] is True, answers[0]
        shown = json.loads(block("docs/executor.md", "{").text)
        answer = answers[1]
        assert shape(answer) == shape(shown)
        for key in ("ok", "title", "http_status", "excerpt", "fields", "retries", "submit"):
            assert answer[key] == shown[key], key
        strip = re.compile(r"http://127\.0\.0\.1:\d+")
        assert strip.sub("", answer["url"]) == strip.sub("", shown["url"])
        assert [{**a} for a in answer["attempts"]] == shown["attempts"]
        logged = json.loads(
            block("docs/executor.md", '{"level": "info", "logger": "host.executor", "event": '
                  '"executor_web.retry", "action": "b31bf6ffbc6286bf", "step": "fields[0]", '
                  '"attempt": 1, "delay_ms": 200, "reason": "not_found", "previous": '
                  '"#full-name", "candidates_left": ["[data-testid=\\"full-name\\"]"]}').text
        )  # fmt: skip
        retries = [
            e for e in service.events("executor_web.retry") if e["action"] == answer["action_id"]
        ]
        assert retries, service.log()
        assert {k: v for k, v in retries[0].items() if k not in ("action", "ts", "time")} == {
            k: v for k, v in logged.items() if k != "action"
        }
    finally:
        service.stop()
        site.terminate()
        site.wait(timeout=30)


# -- TypeScript --------------------------------------------------------------------------------


def test_the_typescript_example_compiles_and_runs(sample_site: SampleSite, tmp_path: Path) -> None:
    example = block(
        "docs/host.md", "// host.ts: run against a host serving HTTP on 127.0.0.1:8931 (see below)"
    )
    run = commands(
        block("docs/host.md", "npx tsc --strict --target es2022 --module commonjs --types node --outDir build host.ts").text
    )  # fmt: skip
    root = tmp_path / "root"
    for part in ("clients/typescript/src", "generated/typescript"):
        shutil.copytree(REPO / part, root / part)
    (root / "node_modules").symlink_to(REPO / "node_modules")
    host = serve_host("--toolset", "all")
    try:
        source = example.text.replace("http://127.0.0.1:8931", host.base).replace(
            "http://127.0.0.1:8000", sample_site.origin
        )
        (root / "host.ts").write_text(source)
        for command in run:
            done = subprocess.run(
                ["bash", "-c", command], cwd=root, capture_output=True, text=True, timeout=300,
                check=False,
            )  # fmt: skip
            assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"
        said = re.search(r'console\.log\(error\.code\); \}  // "(\w+)"', example.text)
        assert said, example.text
        assert done.stdout.strip() == said.group(1), done.stdout
        assert any(h.get("x-test") == "1" for h in sample_site.headers)
    finally:
        host.stop()


# -- the config file ---------------------------------------------------------------------------


def test_the_config_example_starts_a_host(form: Form, tmp_path: Path) -> None:
    example = block(
        "docs/host.md", "# host.yaml: .venv/bin/python -m host serve --stdio --config host.yaml"
    )
    command = example.first.split(": ", 1)[1]
    config = tmp_path / "host.yaml"
    config.write_text(example.text.replace("/var/tmp/host", str(tmp_path / "out")))

    async def consent() -> str:
        params = stdio_params(command.replace("host.yaml", str(config)), REPO)
        async with Client(params) as client:
            await client.call_tool("browser_navigate", {"url": form.origin + "/form"})
            result = await client.call_tool(
                "browser_evaluate", {"function": "() => String(window.__consentAnswered)"}
            )
            return text_of(result)

    assert "true" in asyncio.run(asyncio.wait_for(consent(), 180))


# -- Python ------------------------------------------------------------------------------------


def test_the_readme_dispatch_example_runs_as_typed(tmp_path: Path) -> None:
    """README's example starts its own Chromium and prints what its comment says."""
    example = block("README.md", "from playwright.sync_api import sync_playwright")
    script = tmp_path / "example.py"
    script.write_text(example.text, encoding="utf-8")
    done = subprocess.run(
        [str(REPO / ".venv" / "bin" / "python"), str(script)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Hello\n"


def test_the_dispatch_examples_run_against_a_page(form: Form) -> None:
    from playwright.sync_api import sync_playwright

    examples = [block("docs/generator.md", "from playwright_tools import dispatch, ToolError")]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            for example in examples:
                page = browser.new_page()
                exec(compile(example.text, example.where, "exec"), {"page": page})
                form.headers.clear()
                page.goto(form.origin + "/form")
                assert form.headers and form.headers[0].get("x-a") == "1", example.where
                page.close()
        finally:
            browser.close()
