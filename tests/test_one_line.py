"""Adding a method is one allowlist line: the test changes nothing else, and the new tool works."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CHROMIUM_ARGS, HEADLESS_CHROMIUM, REPO, PageServer, generate

pytestmark = [pytest.mark.browser, pytest.mark.jvm]

LINE = "  - method: page.title\n"


def test_one_line_adds_a_working_tool(tmp_path: Path, page_server: PageServer) -> None:
    full = (REPO / "allowlist.yaml").read_text()
    assert LINE in full
    without = tmp_path / "without.yaml"
    without.write_text(full.replace(LINE, ""))
    assert generate(tmp_path / "before", without) == 0
    assert not (tmp_path / "before/tools/web_title.tool.yaml").exists()

    with_line = tmp_path / "with.yaml"
    with_line.write_text(without.read_text() + LINE)
    assert generate(tmp_path / "after", with_line) == 0
    assert (tmp_path / "after/tools/web_title.tool.yaml").is_file()

    page_server.pages["/one-line"] = "<!doctype html><title>One line away</title>"
    script = f"""
import sys
sys.path.insert(0, {str(tmp_path / "after/python")!r})
from playwright.sync_api import sync_playwright
from playwright_tools import dispatch
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path={HEADLESS_CHROMIUM!r}, args={CHROMIUM_ARGS!r})
    page = browser.new_page()
    page.goto({page_server.url("/one-line")!r})
    print(dispatch("web_title", {{}}, page))
    browser.close()
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "One line away"
