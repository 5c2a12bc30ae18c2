"""Fixtures of the agent toolset's tests: a page server, one served host per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from host_tests.host_helpers import ServedHost, serve_host

from host_agent.agent_pages import Pages, start_pages


@pytest.fixture(scope="session")
def pages() -> Iterator[Pages]:
    server, httpd = start_pages()
    yield server
    httpd.stop()


@pytest.fixture(scope="module")
def upload_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("uploads")
    (folder / "report.txt").write_text("quarterly numbers\n")
    return folder


@pytest.fixture(scope="module")
def agent_host(upload_dir: Path) -> Iterator[ServedHost]:
    """`python -m host serve` with the default toolset, execute on, uploads from `upload_dir`."""
    host = serve_host("--enable-execute", "--upload-dir", str(upload_dir), "--max-sessions", "40")
    yield host
    host.stop()
