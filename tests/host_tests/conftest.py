"""Fixtures of the host's tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_helpers import AppServer, LoopThread, ServedHost, make_app_server, serve_host

_TOP_CONFTEST = Path(__file__).resolve().parent.parent / "conftest.py"


def pytest_plugin_registered(plugin: object, manager: pytest.PytestPluginManager) -> None:
    """Keep `import conftest` meaning tests/conftest.py for the project's other test modules.

    Importing this directory's conftest replaces `sys.modules["conftest"]`; the tests beside
    tests/conftest.py say `from conftest import REPO`, so put the top one back.
    """
    if plugin is not sys.modules.get(__name__):
        return
    for candidate in manager.get_plugins():
        path = getattr(candidate, "__file__", None)
        if path is not None and Path(path).resolve() == _TOP_CONFTEST:
            sys.modules["conftest"] = candidate  # type: ignore[assignment]


@pytest.fixture(scope="session")
def app() -> Iterator[AppServer]:
    server, httpd = make_app_server()
    yield server
    httpd.shutdown()


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
