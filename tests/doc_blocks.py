"""The fenced blocks of README.md and docs/*.md, and which test runs each.

Every block is either run (or, for a block of data, validated) by the test that `RUN_BY` names
for it, or marked illustrative in its first line (`# illustrative: <reason>`, `// ...` in code
that comments so), and `tests/test_docs_run.py` fails naming `file:line` for a block that is
neither. A test takes its block with `block(doc, first_line)`, which fails when the block is
gone or was edited past recognition, so `RUN_BY` and the docs cannot drift apart silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OPEN = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
ILLUSTRATIVE = re.compile(r"^\s*(?:#|//|<!--)?\s*illustrative:\s*(\S.{9,})")


@dataclass(frozen=True)
class Block:
    """One fenced block: its file (as `README.md`, `docs/x.md`), the line of its opening fence,
    its language tag ("" for none) and its text without the fences."""

    doc: str
    line: int
    language: str
    text: str

    @property
    def first(self) -> str:
        """The first non-blank line, stripped: the key `RUN_BY` and `block()` use."""
        return next((s.strip() for s in self.text.splitlines() if s.strip()), "")

    @property
    def illustrative(self) -> str | None:
        """The reason the block gives for not being run, or None."""
        found = ILLUSTRATIVE.match(self.first)
        return found.group(1) if found else None

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def docs() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def shown(path: Path) -> str:
    return str(path.relative_to(REPO))


def blocks_of(path: Path, shown_as: str | None = None) -> list[Block]:
    """Every fenced block of one Markdown file, in order."""
    found: list[Block] = []
    fence: str | None = None
    start, language, body = 0, "", []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if fence is None:
            opened = OPEN.match(line)
            if opened:
                fence, start, language, body = opened.group(2), number, opened.group(3), []
            continue
        if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            found.append(Block(shown_as or shown(path), start, language, "\n".join(body) + "\n"))
            fence = None
        else:
            body.append(line)
    return found


def all_blocks() -> list[Block]:
    return [b for path in docs() for b in blocks_of(path)]


def block(doc: str, first: str) -> Block:
    """The block of `doc` whose first line is `first` (exactly one)."""
    matching = [b for b in blocks_of(REPO / doc) if b.first == first]
    assert len(matching) == 1, f"{doc}: {len(matching)} block(s) start with {first!r}"
    return matching[0]


def commands(text: str) -> list[str]:
    """A shell block's commands: continuation lines joined, `# comments` kept out."""
    joined = text.replace("\\\n", " ")
    lines = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            lines.append(re.sub(r"\s+#\s.*$", "", line).strip())
    return lines


_HERE = "tests/test_docs_run.py"
_HOST = "tests/host_tests/test_docs_run_host.py"

# (doc, first line) -> the test that runs or validates that block.
RUN_BY: dict[tuple[str, str], str] = {
    ("README.md", "playwright: 1.63.0"): f"{_HERE}::test_the_allowlist_examples_are_read_as_shown",
    (
        "README.md",
        ".venv/bin/python -m generator            # writes generated/ (only files whose bytes change)",
    ): f"{_HERE}::test_the_generator_commands_run_as_typed",
    (
        "README.md",
        "python3 -m http.server 8000 --bind 127.0.0.1 --directory examples/sample-site   # http://127.0.0.1:8000/",
    ): f"{_HOST}::test_the_executor_and_its_curl_answer_as_shown",
    (
        "README.md",
        "from playwright.sync_api import sync_playwright",
    ): f"{_HOST}::test_the_readme_dispatch_example_runs_as_typed",
    (
        "README.md",
        ".venv/bin/python -m host serve --stdio                         # MCP over stdio, for a local agent",
    ): f"{_HOST}::test_the_serve_commands_start_a_host",
    ("README.md", "{"): "tests/host_tests/test_mcp_inspector.py::readme_servers",  # and run there
    (
        "README.md",
        ".venv/bin/python -m host serve --stdio --record form.trail.yaml",
    ): f"{_HOST}::test_the_trail_commands_record_replay_and_export",
    (
        "README.md",
        ".venv/bin/python -m host executor                       # 127.0.0.1:8091",
    ): f"{_HOST}::test_the_executor_and_its_curl_answer_as_shown",
    (
        "docs/ERRORS.md",
        "error: allowlist.yaml:4:11: 'name' must be a single value, not a list or mapping.",
    ): f"{_HERE}::test_the_errors_shown_are_what_the_generator_prints",
    (
        "docs/ERRORS.md",
        "allowlist.yaml:3:13: error: com.microsoft.playwright.Page has no method 'evaluat'",
    ): f"{_HERE}::test_the_errors_shown_are_what_the_generator_prints",
    (
        "docs/executor.md",
        '{"level": "info", "logger": "host.executor", "event": "executor_web.retry", '
        '"action": "b31bf6ffbc6286bf", "step": "fields[0]", "attempt": 1, "delay_ms": 200, '
        '"reason": "not_found", "previous": "#full-name", "candidates_left": '
        '["[data-testid=\\"full-name\\"]"]}',
    ): f"{_HOST}::test_the_executor_and_its_curl_answer_as_shown",
    (
        "docs/executor.md",
        "curl -s http://127.0.0.1:8091/execute -H 'content-type: application/json' -d '{",
    ): f"{_HOST}::test_the_executor_and_its_curl_answer_as_shown",
    ("docs/executor.md", "{"): f"{_HOST}::test_the_executor_and_its_curl_answer_as_shown",
    (
        "docs/trails.md",
        ".venv/bin/python -m host serve --stdio --record form.trail.yaml",
    ): f"{_HOST}::test_the_trail_commands_record_replay_and_export",
    (
        "docs/generator.md",
        "playwright: 1.63.0            # the Playwright Java version to reflect; Python playwright must match",
    ): f"{_HERE}::test_the_allowlist_examples_are_read_as_shown",
    (
        "docs/generator.md",
        ".venv/bin/python -m generator --check                          # exit 1 with a diff if generated/ is stale",
    ): f"{_HERE}::test_the_generator_commands_run_as_typed",
    (
        "docs/generator.md",
        "# yaml-language-server: $schema=generated/allowlist.schema.json",
    ): f"{_HERE}::test_the_allowlist_examples_are_read_as_shown",
    (
        "docs/generator.md",
        "generated/",
    ): f"{_HERE}::test_the_generated_layout_is_what_the_generator_writes",
    (
        "docs/generator.md",
        "# tools/ holds the two files of `make dist`: playwright_tool_generator-<version>-py3-none-any.whl and the requirements file",
    ): "tests/test_build_step.py::test_the_ci_job_passes_a_current_tree_and_fails_a_stale_one_with_a_fix_that_runs",
    (
        "docs/generator.md",
        "from playwright_tools import dispatch, ToolError",
    ): f"{_HOST}::test_the_dispatch_examples_run_against_a_page",
    (
        "docs/host.md",
        ".venv/bin/python -m host serve --stdio                         # MCP over stdio, for a local agent",
    ): f"{_HOST}::test_the_serve_commands_start_a_host",
    (
        "docs/host.md",
        "# host.yaml: .venv/bin/python -m host serve --stdio --config host.yaml",
    ): f"{_HOST}::test_the_config_example_starts_a_host",
    (
        "docs/host.md",
        "// host.ts: run against a host serving HTTP on 127.0.0.1:8931 (see below)",
    ): f"{_HOST}::test_the_typescript_example_compiles_and_runs",
}
RUN_BY[
    (
        "docs/host.md",
        "npx tsc --strict --target es2022 --module commonjs --types node --outDir build host.ts",
    )
] = f"{_HOST}::test_the_typescript_example_compiles_and_runs"
