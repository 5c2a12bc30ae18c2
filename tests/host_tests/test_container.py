"""The Dockerfile at the repository's root: the image builds, refuses to start without a token,
runs the host as a non-root user with Debian's Chromium, answers `/healthz` and lists its tools
over MCP (the official Python SDK client, streamable HTTP, bearer token).

Needs a working container engine (`docker` or `podman` whose `info` succeeds); skipped otherwise.
The first build downloads the base image, Debian's chromium and the Python dependencies."""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from host_tests.host_helpers import REPO

pytestmark = pytest.mark.container

IMAGE = "playwright-tool-host:test"


def working_engine() -> tuple[str | None, str]:
    """The first of docker, podman that is on PATH and answers `info`; else why none is."""
    reasons = []
    for name in ("docker", "podman"):
        path = shutil.which(name)
        if path is None:
            reasons.append(f"{name}: not on PATH")
            continue
        try:
            done = subprocess.run([path, "info"], capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            reasons.append(f"{name}: `{name} info` did not answer within 30 s")
            continue
        if done.returncode == 0:
            return path, ""
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        reasons.append(f"{name}: `{name} info` exited {done.returncode} ({last})")
    return None, "no working container engine: " + "; ".join(reasons)


@pytest.fixture(scope="module")
def engine() -> str:
    path, reason = working_engine()
    if path is None:
        pytest.skip(reason)
    return path


def base_image() -> str:
    """The image the Dockerfile builds on (its first FROM)."""
    for line in (REPO / "Dockerfile").read_text().splitlines():
        if line.startswith("FROM "):
            return line.split()[1]
    raise AssertionError("the Dockerfile has no FROM line")


@pytest.fixture(scope="module")
def image(engine: str) -> str:
    base = base_image()
    present = subprocess.run([engine, "image", "inspect", base], capture_output=True, timeout=60)
    if present.returncode != 0:
        pulled = subprocess.run([engine, "pull", base], capture_output=True, text=True, timeout=600)
        if pulled.returncode != 0:
            last = (pulled.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"the base image {base} is not here and cannot be pulled ({last})")
    built = subprocess.run(
        [engine, "build", "-t", IMAGE, str(REPO)], capture_output=True, text=True, timeout=3600
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    return IMAGE


@pytest.fixture(scope="module")
def token() -> str:
    return secrets.token_urlsafe(32)


@pytest.fixture(scope="module")
def container(engine: str, image: str, token: str) -> Iterator[tuple[str, str]]:
    """The image running with a token, its port published on loopback: (container id, base URL)."""
    started = subprocess.run(
        [
            engine,
            "run",
            "-d",
            "-p",
            "127.0.0.1::8931",
            "-e",
            f"PLAYWRIGHT_TOOL_HOST_TOKEN={token}",
            image,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode == 0, started.stderr
    cid = started.stdout.strip()
    try:
        port = subprocess.run(
            [engine, "port", cid, "8931/tcp"], capture_output=True, text=True, timeout=30
        ).stdout.split()[0]
        base = "http://" + port.replace("0.0.0.0", "127.0.0.1")
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=30) as answer:
                    if answer.status == 200:
                        break
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                logs = subprocess.run([engine, "logs", cid], capture_output=True, text=True)
                raise AssertionError("/healthz never answered 200:\n" + logs.stdout + logs.stderr)
            time.sleep(1)
        yield cid, base
    finally:
        subprocess.run([engine, "rm", "-f", cid], capture_output=True, timeout=60)


def test_without_a_token_the_container_refuses_to_start(engine: str, image: str) -> None:
    done = subprocess.run(
        [engine, "run", "--rm", image], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "needs a bearer token" in done.stderr
    assert "PLAYWRIGHT_TOOL_HOST_TOKEN" in done.stderr


def test_healthz_reports_a_connected_browser(container: tuple[str, str]) -> None:
    _, base = container
    with urllib.request.urlopen(base + "/healthz", timeout=30) as answer:
        health = json.loads(answer.read())
    assert health["ok"] is True, health


def test_runs_as_a_non_root_user(engine: str, container: tuple[str, str]) -> None:
    cid, _ = container
    uid = subprocess.run(
        [engine, "exec", cid, "id", "-u"], capture_output=True, text=True, timeout=30
    )
    assert uid.returncode == 0, uid.stderr
    assert uid.stdout.strip() not in ("", "0")


def test_mcp_needs_the_token(container: tuple[str, str]) -> None:
    _, base = container
    request = urllib.request.Request(base + "/mcp", data=b"{}", method="POST")
    request.add_header("content-type", "application/json")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 401


def test_tools_list_over_http_with_the_token(container: tuple[str, str], token: str) -> None:
    _, base = container

    async def list_tools() -> list[str]:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(
            headers=headers, timeout=httpx2.Timeout(30, read=300)
        ) as http:
            transport = streamable_http_client(base + "/mcp", http_client=http)
            async with Client(transport) as client:
                return [tool.name for tool in (await client.list_tools()).tools]

    names = asyncio.run(list_tools())
    assert {"browser_navigate", "navigate"} & set(names), names
    assert {"browser_snapshot", "web_snapshot"} & set(names), names
