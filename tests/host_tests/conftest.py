"""Fixtures of the host's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from host_tests.host_helpers import AppServer, LoopThread, ServedHost, make_app_server, serve_host


@pytest.fixture(scope="session")
def app() -> Iterator[AppServer]:
    server, httpd = make_app_server()
    yield server
    httpd.stop()


@pytest.fixture(scope="module")
def loop() -> Iterator[LoopThread]:
    runner = LoopThread()
    yield runner
    runner.close()


@pytest.fixture(scope="module")
def served() -> Iterator[ServedHost]:
    """One HTTP host per module, listing every tool."""
    host = serve_host("--toolset", "all", "--max-sessions", "40")
    yield host
    host.stop()
