"""The README's `mcpServers` blocks, pasted into the official MCP Inspector (its CLI and its
`mcpdo` connection CLI, `@modelcontextprotocol/inspector` pinned in package.json and installed by
`npm ci`): the stdio entry starts the console script `playwright-tool-host`, the HTTP entry reaches
a host serving with a token. Nothing is fetched at test time: node runs the installed package."""

from __future__ import annotations

import http.server
import json
import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from local_server import LocalServer, serve

from host_tests.host_helpers import PYTHON, REPO

pytestmark = pytest.mark.browser

INSPECTOR = REPO / "node_modules" / "@modelcontextprotocol" / "inspector"
INSPECTOR_CLI = INSPECTOR / "clients" / "launcher" / "build" / "index.js"
MCPDO = INSPECTOR / "clients" / "mcpdo" / "build" / "mcp-bin.js"
SCRIPT_DIR = Path(PYTHON).parent  # .venv/bin, where setup.sh's editable install put the script
TITLE = "Inspector test page"
HEADING = "Hello from the Inspector"
PAGE = f"<!doctype html><title>{TITLE}</title><h1>{HEADING}</h1><p>pasted config works</p>"


def readme_servers() -> dict[str, Any]:
    """The `mcpServers` JSON block of README.md, as a user would paste it."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"mcpServers"' in b]
    assert len(blocks) == 1, "README.md should hold exactly one mcpServers block"
    servers = json.loads(blocks[0])["mcpServers"]
    assert isinstance(servers, dict)
    return servers


@pytest.fixture(scope="module")
def page() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = PAGE.encode() if self.path == "/" else b""
            self.send_response(200 if body else 204)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server: LocalServer = serve(Handler)
    yield server.origin + "/"
    server.stop()


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A home of its own for node and the Inspector's files; the console script on PATH, as
    `pipx install` leaves it."""
    if not INSPECTOR_CLI.is_file() or not MCPDO.is_file():
        pytest.fail("the MCP Inspector is not installed: run scripts/setup.sh --with-test-tools")
    assert (SCRIPT_DIR / "playwright-tool-host").is_file(), "rerun scripts/setup.sh"
    home = tmp_path_factory.mktemp("inspector-home")
    return {
        **os.environ,
        "HOME": str(home),
        "PATH": f"{SCRIPT_DIR}{os.pathsep}{os.environ.get('PATH', '')}",
        "MCP_INSPECTOR_SECRET_STORE": "file",
        "npm_config_offline": "true",
    }


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inspector-config") / "mcp.json"
    path.write_text(json.dumps({"mcpServers": readme_servers()}), encoding="utf-8")
    return path


def inspector(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(INSPECTOR_CLI), "--cli", *args, "--format", "json"],
        cwd=env["HOME"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def result_of(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, f"status {done.returncode}\n{done.stdout}\n{done.stderr}"
    answer = json.loads(done.stdout)
    assert "error" not in answer, answer
    result = answer.get("result", answer)
    assert isinstance(result, dict)
    return result


def listed_names(result: dict[str, Any]) -> set[str]:
    return {tool["name"] for tool in result["tools"]}


def pick(names: set[str], *choices: str) -> str:
    """The listed name of a tool (the host lists `browser_navigate`; `navigate` is its alias)."""
    for choice in choices:
        if choice in names:
            return choice
    raise AssertionError(f"none of {choices} listed: {sorted(names)}")


def test_readme_stdio_block_is_the_console_script() -> None:
    stdio = readme_servers()["playwright-tools"]
    assert stdio == {"command": "playwright-tool-host", "args": ["serve", "--stdio"]}


def test_inspector_cli_lists_and_navigates_over_the_readme_stdio_block(
    env: dict[str, str], config: Path, page: str
) -> None:
    chosen = ["--config", str(config), "--server", "playwright-tools"]
    names = listed_names(result_of(inspector(env, *chosen, "--method", "tools/list")))
    assert pick(names, "browser_snapshot", "web_snapshot")
    navigate = pick(names, "browser_navigate", "navigate")

    called = result_of(
        inspector(
            env,
            *chosen,
            "--method",
            "tools/call",
            "--tool-name",
            navigate,
            "--tool-arg",
            f"url={page}",
        )
    )
    assert called.get("isError") is not True, called
    text = "".join(c.get("text", "") for c in called["content"])
    assert TITLE in text and page in text, called


def test_mcpdo_navigates_then_snapshots_over_one_connection(
    env: dict[str, str], config: Path, page: str
) -> None:
    """The Inspector CLI starts a server per call; its `mcpdo` keeps one connection (one host
    process, so one browser session) across calls: the snapshot sees the page navigated to."""
    exported = subprocess.run(
        ["node", str(MCPDO), "private"], env=env, capture_output=True, text=True, timeout=60
    )
    assert exported.returncode == 0, exported.stderr
    private = dict(re.findall(r"export (\w+)='([^']*)'", exported.stdout))
    assert "MCP_INSPECTOR_DAEMON_DIR" in private, exported.stdout
    daemon_env = {**env, **private}

    def mcpdo(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["node", str(MCPDO), "--format", "json", *args],
            cwd=env["HOME"],
            env=daemon_env,
            capture_output=True,
            text=True,
            timeout=180,
        )

    try:
        connected = mcpdo("connect", "playwright-tools", "--config", str(config))
        assert connected.returncode == 0, connected.stdout + connected.stderr
        assert json.loads(connected.stdout)["name"] == "playwright-tools", connected.stdout
        names = listed_names(result_of(mcpdo("@playwright-tools", "tools/list")))
        navigate = pick(names, "browser_navigate", "navigate")
        snapshot = pick(names, "browser_snapshot", "web_snapshot")
        went = result_of(mcpdo("@playwright-tools", "tools/call", navigate, f"url:={page}"))
        assert went.get("isError") is not True, went
        seen = result_of(mcpdo("@playwright-tools", "tools/call", snapshot))
        assert seen.get("isError") is not True, seen
        text = "".join(c.get("text", "") for c in seen["content"])
        assert f'heading "{HEADING}"' in text and TITLE in text, seen
        assert seen["structuredContent"]["result"]["url"] == page
    finally:
        mcpdo("daemon", "stop")
        shutil.rmtree(private["MCP_INSPECTOR_DAEMON_DIR"], ignore_errors=True)


def test_inspector_cli_over_the_readme_http_block_with_a_token(
    env: dict[str, str], tmp_path: Path
) -> None:
    token = secrets.token_urlsafe(24)
    host = subprocess.Popen(
        [str(SCRIPT_DIR / "playwright-tool-host"), "serve", "--http", "127.0.0.1:0"],
        cwd=tmp_path,
        env={**env, "PLAYWRIGHT_TOOL_HOST_TOKEN": token},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stderr is not None
        log = []
        for line in host.stderr:
            log.append(line)
            found = re.search(r"serving MCP at (http://\S+)/mcp", line)
            if found:
                break
        else:
            raise AssertionError("the host did not start:\n" + "".join(log))
        port = found.group(1).rsplit(":", 1)[1]

        entry = readme_servers()["playwright-tools-http"]
        assert entry["url"] == "http://127.0.0.1:8931/mcp"
        assert entry["headers"] == {"Authorization": "Bearer YOUR_TOKEN"}

        def configured(secret: str) -> Path:
            pasted = json.loads(
                json.dumps(entry).replace("8931", port).replace("YOUR_TOKEN", secret)
            )
            path = tmp_path / f"http-{len(secret)}.json"
            path.write_text(json.dumps({"mcpServers": {"playwright-tools-http": pasted}}))
            return path

        chosen = ["--server", "playwright-tools-http", "--method", "tools/list"]
        names = listed_names(result_of(inspector(env, "--config", str(configured(token)), *chosen)))
        assert pick(names, "browser_navigate", "navigate")

        # A wrong token: the host answers 401, which the Inspector reports as needing sign-in.
        wrong = str(configured("wrong"))
        refused = inspector(env, "--config", wrong, *chosen, "--stored-auth-only")
        assert refused.returncode != 0, refused.stdout
        assert "auth_required" in refused.stdout + refused.stderr, refused.stdout + refused.stderr
    finally:
        host.terminate()
        host.wait(30)
