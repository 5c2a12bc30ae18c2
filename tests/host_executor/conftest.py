"""Fixtures of the executor's tests: one page server per session, one service per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from host_executor.helpers import ExecutorProcess, PageServer, start_page_server


@pytest.fixture(scope="session")
def pages() -> Iterator[PageServer]:
    state, server = start_page_server()
    yield state
    state.release.set()
    server.stop()


@pytest.fixture(scope="module")
def service() -> Iterator[ExecutorProcess]:
    """One executor per module, bound through WEB_EXECUTOR_BIND_ADDR (port 0: any free one), with
    a slot for each of the concurrency test's 50 actions, so that all of them run at once."""
    process = ExecutorProcess(
        "--max-concurrent",
        "50",
        # 50 contexts on two cores (shared with whatever else runs): steps may wait long.
        "--step-timeout-ms",
        "60000",
        env={"WEB_EXECUTOR_BIND_ADDR": "127.0.0.1:0"},
    )
    yield process
    process.stop()
