"""The peer suite's ledger is whole and true: every spec the drop-in promise names has a module,
every case of it is translated by a test that exists or differs with a reason, and every test of
the suite translates some case (no check hides here unaccounted for)."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from peer_suite.ledger import (
    TESTS,
    Case,
    cases_of,
    compare,
    defined_tests,
    spec_titles,
    suite_modules,
)

# The spec files issue 36 names (microsoft/playwright tests/mcp/). "emulation.spec.ts" is named
# there too but does not exist in the peer's repository; device.spec.ts stands for it (and
# docs/peer-suite.md says so).
NAMED_SPECS = [
    "core", "click", "dialogs", "tabs", "console", "evaluate", "files", "form", "iframes",
    "mouse", "network", "pdf", "route", "find", "wait", "screenshot", "verify", "cookies",
    "storage", "webstorage", "network-offline", "autowait", "request-blocking", "init-script",
    "secrets", "device",
]  # fmt: skip


def test_every_named_spec_has_a_module() -> None:
    specs = {cases_of(m)[0] for m in suite_modules()}
    missing = [f"{name}.spec.ts" for name in NAMED_SPECS if f"{name}.spec.ts" not in specs]
    assert not missing, f"no module of tests/peer_suite translates {missing}"


@pytest.mark.parametrize("module", suite_modules(), ids=lambda p: p.stem)
def test_every_case_is_checked_or_differs_with_a_reason(module) -> None:  # type: ignore[no-untyped-def]
    spec, cases = cases_of(module)
    assert spec.endswith(".spec.ts") and cases, f"{module.name}: SPEC and PEER_CASES are unset"
    own = defined_tests(module)
    claimed: set[str] = set()
    for case in cases:
        where = case.where
        if case.differs or case.todo:
            assert len(case.reason) >= 20, f"{module.name}: {case.title!r} has no reason"
        elif "::" in where:
            path, name = where.split("::", 1)
            assert (TESTS / path).is_file(), f"{module.name}: {case.title!r} names {path}, missing"
            assert name in defined_tests(TESTS / path), f"{module.name}: no {where}"
        else:
            assert where in own, f"{module.name}: {case.title!r} names {where}, not a test here"
            claimed.add(where)
    orphans = sorted(own - claimed)
    assert not orphans, f"{module.name}: tests no case names: {orphans}"


# -- docs/peer-suite.md and the comparison with a peer checkout ---------------------------------

DOC_SCRIPT = TESTS.parent / "scripts" / "peer_suite_doc.py"


@dataclass
class Ran:
    """What one run of the document's script printed, and its exit status."""

    returncode: int
    stdout: str


@functools.cache
def _doc_script() -> Any:
    spec = importlib.util.spec_from_file_location("peer_suite_doc", DOC_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def peer_suite_doc(*args: str) -> Ran:
    """The document's script run in this process (its `main`): the ledger is loaded once here
    already, where a new interpreter would import every module of the suite again."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = _doc_script().main(list(args))
    return Ran(code, printed.getvalue())


def test_the_document_is_what_the_ledger_says() -> None:
    """Run as a user types it (a new interpreter), once."""
    checked = subprocess.run(
        [sys.executable, str(DOC_SCRIPT), "--check"], capture_output=True, text=True, timeout=120
    )
    assert checked.returncode == 0, f"{checked.stdout}{checked.stderr}"


def test_a_stale_document_is_found_and_rewritten(tmp_path: Path) -> None:
    stale = tmp_path / "peer-suite.md"
    stale.write_text("# old\n")
    found = peer_suite_doc("--check", "--out", str(stale))
    assert found.returncode == 1 and "is stale" in found.stdout
    assert peer_suite_doc("--out", str(stale)).returncode == 0
    assert (
        "form.spec.ts" in stale.read_text()
        and peer_suite_doc("--check", "--out", str(stale)).returncode == 0
    )


def test_case_titles_are_read_as_the_peer_writes_them() -> None:
    source = (
        "test.describe('group', () => {\n"
        "  test.skip(({ mcpBrowser }) => mcpBrowser !== 'chrome', 'Only chrome');\n"
        "  test('browser_type', async () => {});\n"
        "  test.fixme(`it's slow`, async () => {});\n"
        "  test('a \\'quoted\\' title', async () => {});\n"
        "  test('browser_type', async () => {});\n"
        "});\n"
    )
    titles = spec_titles(source)
    assert titles == ["browser_type", "it's slow", "a 'quoted' title", "browser_type (2)"]


def test_a_title_made_in_a_loop_is_listed_once_per_value() -> None:
    titles = spec_titles(
        "for (const type of ['png', 'jpeg'])\n  test(`shot (type: ${type})`, async () => {});\n"
        "test('shot', async () => {});\ntest('shot (full)', async () => {});\n"
    )
    assert titles == ["shot (type: ${type})", "shot", "shot (full)"]
    listed = [Case("x.spec.ts", t, "test_x") for t in ["shot (type: png)", "shot", "shot (full)"]]
    assert compare(listed, titles) == []
    assert compare(listed[1:], titles) == ["x.spec.ts: not in the ledger: 'shot (type: ${type})'"]
    stale = [*listed, Case("x.spec.ts", "gone", "test_x")]
    assert compare(stale, titles) == ["x.spec.ts: no longer in the spec: 'gone'"]


def test_a_newer_peer_checkout_is_compared_case_by_case(tmp_path: Path) -> None:
    specs = tmp_path / "tests" / "mcp"
    specs.mkdir(parents=True)
    _, cases = cases_of(next(m for m in suite_modules() if m.stem == "test_form"))
    for module in suite_modules():
        spec, listed = cases_of(module)
        lines = [f"test({c.title!r}, async () => {{}});" for c in listed]
        if spec == "form.spec.ts":
            lines.append("test('browser_fill_form (radio)', async () => {});")
        (specs / spec).write_text("\n".join(lines) + "\n")
    compared = peer_suite_doc("--against", str(tmp_path))
    assert compared.returncode == 1, compared.stdout
    assert compared.stdout.strip() == "form.spec.ts: not in the ledger: 'browser_fill_form (radio)'"
    (specs / "form.spec.ts").write_text(
        "".join(f"test({c.title!r}, async () => {{}});\n" for c in cases)
    )
    assert peer_suite_doc("--against", str(tmp_path)).returncode == 0


def test_the_documents_counts_add_up_to_the_cases() -> None:
    """Each case is counted once: checked here, checked elsewhere, differs, or not yet."""
    text = (TESTS.parent / "docs" / "peer-suite.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `") or "**all**" in line]
    assert rows
    for row in rows:
        cells = [cell.strip().strip("*") for cell in row.strip("|").split("|")]
        cases, here, elsewhere, differs, todo = (int(cell) for cell in cells[1:6])
        assert here + elsewhere + differs + todo == cases, row
