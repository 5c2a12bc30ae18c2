"""`python -m host export TRAIL --to python|typescript`: a trail as a runnable Playwright test.

Python: a pytest module that needs only `pytest` and `playwright`; it launches Chromium itself
(the executable in `PLAYWRIGHT_CHROMIUM_EXECUTABLE`, else the one the trail was exported for,
else Playwright's own) and runs the steps with the sync API. TypeScript: a `@playwright/test`
spec that picks its Chromium the same way (`test.use`), so it runs without a config file. Each objective becomes a comment, each call one or a few statements with locators
(`page.get_by_role("button", name="Save").click()`); a call with no Playwright equivalent is
kept as a comment saying so. Secrets are read from the environment, never written.
"""

from __future__ import annotations

import json
import re

from host.calls.registry import ToolRegistry
from host.trails.code import NotExportable, line_for
from host.trails.trail import Trail

_NAME = re.compile(r"[^A-Za-z0-9_]+")


def _test_name(trail: Trail) -> str:
    stem = trail.path.name.removesuffix(".yaml").removesuffix(".yml").removesuffix(".trail")
    return _NAME.sub("_", stem).strip("_").lower() or "trail"


def _comment(text: str) -> str:
    return " ".join(text.split())


def _body(trail: Trail, registry: ToolRegistry, language: str) -> list[str]:
    lines: list[str] = []
    prompt: str | None = None
    for step in trail.steps:
        if step.prompt != prompt and step.prompt is not None:
            lines.append(
                f"# {_comment(step.prompt)}"
                if language == "python"
                else f"// {_comment(step.prompt)}"
            )
        prompt = step.prompt
        marker = "#" if language == "python" else "//"
        try:
            descriptor = registry.tools.get(registry.resolve(step.tool))
            code = line_for(step.tool, step.arguments, language, descriptor)
        except NotExportable as why:
            lines.append(
                f"{marker} {trail.place(step.line)}: {step.tool} has no Playwright equivalent ({why})"
            )
            continue
        lines.extend(code.splitlines())
    return lines


def _imports(body: list[str], runner: str) -> str:
    """What the test imports from Playwright: `expect` too when a verify step checks the page."""
    uses_expect = any(re.search(r"\bexpect\(", line) for line in body)
    return f"expect, {runner}" if uses_expect else runner


def export(trail: Trail, registry: ToolRegistry, language: str, executable: str) -> str:
    """The test module's text for `trail`."""
    if language == "python":
        return _python(trail, registry, executable)
    return _typescript(trail, registry, executable)


def _python(trail: Trail, registry: ToolRegistry, executable: str) -> str:
    body = _body(trail, registry, "python")
    name = _test_name(trail)
    out = [
        f'"""Exported from {trail.path.name} by `python -m host export --to python`."""',
        "",
        "import os",
        "",
        "import pytest",
        f"from playwright.sync_api import {_imports(body, 'sync_playwright')}",
        "",
        f'EXECUTABLE = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", {json.dumps(executable)})',
        "",
        "",
        "@pytest.fixture",
        "def context():",
        "    with sync_playwright() as playwright:",
        "        browser = playwright.chromium.launch(",
        "            executable_path=EXECUTABLE if os.path.exists(EXECUTABLE) else None,",
        '            args=["--no-sandbox", "--disable-background-networking", "--disable-component-update",',
        '                  "--disable-sync", "--no-first-run"],',
        "        )",
        "        context = browser.new_context()",
        "        yield context",
        "        browser.close()",
        "",
        "",
        f"def test_{name}(context):",
    ]
    out.append("    page = context.new_page()")
    out.extend(("    " + line) if line else "" for line in body)
    return "\n".join(out) + "\n"


def _typescript(trail: Trail, registry: ToolRegistry, executable: str) -> str:
    body = _body(trail, registry, "typescript")
    name = _test_name(trail)
    out = [
        f"// Exported from {trail.path.name} by `python -m host export --to typescript`.",
        'import { existsSync } from "node:fs";',
        f'import {{ {_imports(body, "test")} }} from "@playwright/test";',
        "",
        "// The Chromium the trail was exported for (PLAYWRIGHT_CHROMIUM_EXECUTABLE names another),",
        "// else Playwright's own: no config file needed.",
        f"const executable = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE ?? {json.dumps(executable)};",
        "test.use({",
        "  launchOptions: {",
        "    executablePath: existsSync(executable) ? executable : undefined,",
        '    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update",',
        '      "--disable-sync", "--no-first-run"],',
        "  },",
        "});",
        "",
        f"test({json.dumps(name)}, async ({{ context }}) => {{",
        "  let page = await context.newPage();",
    ]
    out.extend(("  " + line) if line else "" for line in body)
    out.append("  void page;")
    out.append("});")
    return "\n".join(out) + "\n"
