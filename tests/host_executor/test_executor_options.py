"""The executor takes the browser options that make sense for one action at a time
(`--viewport-size`, `--user-agent`, `--init-script`, ...), also from `--config`, and refuses a
bad one at start naming it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import HEADLESS_CHROMIUM

from host_executor.helpers import PYTHON, REPO, ExecutorProcess, PageServer

pytestmark = pytest.mark.browser


def test_the_executors_pages_see_its_browser_options(pages: PageServer, tmp_path: Path) -> None:
    script = tmp_path / "init.js"
    script.write_text("window.__fromInit = 'init-ran';")
    config = tmp_path / "executor.yaml"
    config.write_text(f"viewport-size: 640x360\nuser-agent: from-file/1\ninit-script: [{script}]\n")
    process = ExecutorProcess(
        "--bind",
        "127.0.0.1:0",
        "--config",
        str(config),
        "--user-agent",
        "from-cli/2",
        *("--executable-path", HEADLESS_CHROMIUM),
    )
    try:
        reply = process.execute({"url": pages.url("/size")})
    finally:
        process.stop()
    assert reply.status == 200, reply.body
    assert reply.body["title"] == "640x360 from-cli/2 init-ran"


def test_a_bad_browser_option_stops_the_executor_at_start(tmp_path: Path) -> None:
    config = tmp_path / "executor.yaml"
    config.write_text("device: No Such Phone\n")
    done = subprocess.run(
        [PYTHON, "-m", "host", "executor", "--bind", "127.0.0.1:0", "--config", str(config)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "--device: Playwright knows no device 'No Such Phone'" in done.stderr
    assert f"(set by 'device' in {config}, value \"No Such Phone\")" in done.stderr
