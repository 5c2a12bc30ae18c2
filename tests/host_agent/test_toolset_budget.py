"""Issue 11 item 1: the default toolset fits in a prompt; its figures are in a generated report."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from conftest import REPO
from host_tests.host_helpers import ServedHost
from mcp import Client

from host.calls.registry import ToolRegistry
from host.commands.report import (
    MAX_DESCRIPTION,
    MAX_TOKENS,
    MAX_TOOLS,
    REPORT,
    budget_problems,
    default_costs,
    render,
    toolset_costs,
    total_tokens,
)
from host.commands.report import main as report_main


def test_the_report_is_current_and_the_budget_is_kept() -> None:
    registry = ToolRegistry()
    assert REPORT.read_text(encoding="utf-8") == render(registry), "run `python -m host report`"
    assert budget_problems(registry) == []
    costs = default_costs(registry)
    assert len(costs) <= MAX_TOOLS and total_tokens(costs) <= MAX_TOKENS
    assert all(c.description <= MAX_DESCRIPTION for c in costs)
    row = f"| default listing (with --enable-execute and --record) | {len(costs)} | {total_tokens(costs)} |"
    assert row in REPORT.read_text(encoding="utf-8")


def test_the_budget_counts_the_tools_marked_for_models() -> None:
    registry = ToolRegistry()
    assert [c.name for c in default_costs(registry)] == list(registry.default_listing())
    assert set(toolset_costs(registry, "web_agent")) <= set(default_costs(registry))


def test_what_mcp_lists_is_what_the_report_measures(agent_host: ServedHost) -> None:
    async def listing() -> list[dict[str, object]]:
        async with Client(agent_host.mcp_url) as client:
            tools = (await client.list_tools()).tools
            return [
                {"name": t.name, "description": t.description, "inputSchema": t.input_schema}
                for t in tools
            ]

    listed = asyncio.run(listing())
    characters = sum(len(json.dumps(t, separators=(",", ":"), ensure_ascii=False)) for t in listed)
    registry = ToolRegistry()
    # The agent host runs with --enable-execute and without --record: no browser_objective.
    costs = [c for c in default_costs(registry) if c.name != "browser_objective"]
    assert sorted(t["name"] for t in listed) == sorted(c.name for c in costs)  # type: ignore[type-var]
    assert characters == sum(c.characters for c in costs)
    assert round(characters / 4) <= MAX_TOKENS and len(listed) <= MAX_TOOLS


def test_report_says_what_it_wrote_and_rewrites_nothing_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "REPORT.md"
    assert report_main(path=path) == 0
    wrote = capsys.readouterr().out.splitlines()
    text = path.read_text(encoding="utf-8")
    both = re.search(
        r"^\| default listing \(with --enable-execute and --record\) \| (\d+) \| (\d+) \|",
        text,
        re.M,
    )
    plain = re.search(r"^\| default listing \(neither\) \| (\d+) \| (\d+) \|", text, re.M)
    assert both is not None and plain is not None, text
    toolsets = len(list((REPORT.parent).glob("*.toolset.yaml")))
    # The listing a plain `serve` shows first (as README quotes it), then with both flags.
    figures = (
        f"({toolsets} toolsets; the default listing has {plain[1]} tools, {plain[2]} tokens; "
        f"{both[1]} tools, {both[2]} tokens with --enable-execute and --record)"
    )
    assert wrote == [f"wrote REPORT.md {figures}"]
    os.utime(path, (1_000_000, 1_000_000))
    assert report_main(path=path) == 0
    assert capsys.readouterr().out.splitlines() == [f"REPORT.md unchanged {figures}"]
    assert path.stat().st_mtime == 1_000_000  # not written again
    assert report_main(check=True, path=path) == 0
    assert capsys.readouterr().out.splitlines() == [f"REPORT.md is up to date {figures}"]


def test_a_stale_report_prints_a_fix_that_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`report --check` of a stale report names a command that runs as printed: this very
    interpreter (a venv or an installed copy alike), which rewrites the report."""
    path = tmp_path / "REPORT.md"
    path.write_text("stale\n", encoding="utf-8")
    assert report_main(check=True, path=path) == 1
    error = capsys.readouterr().err
    fix = re.search(r"is stale; run `([^`]+)`", error)
    assert fix is not None, error
    done = subprocess.run(
        shlex.split(fix[1]), cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "REPORT.md unchanged" in done.stdout  # the committed report is current
