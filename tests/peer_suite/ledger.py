"""The peer suite's ledger: every case of every translated spec file, and what became of it.

Each `tests/peer_suite/test_<spec>.py` module sets `SPEC` (the spec file's name, such as
"core.spec.ts") and `PEER_CASES`, which maps each case title of that spec (as written in its
`test('…')` call) to one of:

- the name of a test function of the same module that translates it;
- "<path under tests/>::<test name>", a test elsewhere that already checks that behaviour;
- "differs: <reason>", where this host differs on purpose (the reason is what docs/peer-suite.md
  shows a user);
- "todo: <what is missing>", a case not translated yet (counted apart, never as passing).

This module only reads the modules; test_ledger.py checks them, scripts/peer_suite_doc.py
writes docs/peer-suite.md from them.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
SUITE = TESTS / "peer_suite"
DIFFERS = "differs: "
TODO = "todo: "


@dataclass(frozen=True)
class Case:
    """One peer case: its spec, its title, and where it is checked (or why it differs)."""

    spec: str
    title: str
    where: str

    @property
    def differs(self) -> bool:
        return self.where.startswith(DIFFERS)

    @property
    def todo(self) -> bool:
        return self.where.startswith(TODO)

    @property
    def reason(self) -> str:
        """Why it differs, or what is missing."""
        if self.differs:
            return self.where[len(DIFFERS) :]
        return self.where[len(TODO) :] if self.todo else ""


def suite_modules() -> list[Path]:
    """The translated spec modules, in name order."""
    return sorted(p for p in SUITE.glob("test_*.py") if p.name != "test_ledger.py")


def cases_of(module: Path) -> tuple[str, list[Case]]:
    """The spec a module translates and its cases, in the module's order."""
    loaded = importlib.import_module(f"peer_suite.{module.stem}")
    spec: str = loaded.SPEC
    return spec, [Case(spec, title, where) for title, where in loaded.PEER_CASES.items()]


def defined_tests(path: Path) -> set[str]:
    """The names of the test functions a file defines (at module level or in classes)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


# A case: test('title', …), test.skip('title', …) and the like; a conditional skip such as
# test.skip(browser !== 'chromium', '…') starts with an expression, not a string, and is no case.
CASE = re.compile(
    r"""^\s*test(?:\.(?:only|skip|fixme|fail|slow))?\(\s*(['"`])((?:\\.|(?!\1).)*)\1""",
    re.MULTILINE,
)


def spec_titles(source: str) -> list[str]:
    """The case titles of one spec file, in order; a repeated title gets " (2)", " (3)"."""
    titles: list[str] = []
    seen: dict[str, int] = {}
    for match in CASE.finditer(source):
        title = re.sub(r"\\(.)", r"\1", match.group(2))
        seen[title] = seen.get(title, 0) + 1
        titles.append(title if seen[title] == 1 else f"{title} ({seen[title]})")
    return titles


def _template(title: str) -> re.Pattern[str] | None:
    """A title made in a loop (`type: ${type}`) as a pattern its expansions match."""
    if "${" not in title:
        return None
    parts = re.split(r"\$\{[^}]*\}", title)
    return re.compile(".+?".join(re.escape(p) for p in parts) + r"\Z")


def compare(cases: Sequence[Case], titles: Sequence[str]) -> list[str]:
    """One line per title the spec has and the ledger lacks, or the ledger has and the spec not.
    A title the spec makes in a loop (`${...}` in it) is listed in the ledger once per value."""
    listed = {c.title for c in cases}
    spec = cases[0].spec if cases else "?"
    templates = [t for t in (_template(title) for title in titles) if t is not None]
    lines = []
    for title in titles:
        pattern = _template(title)
        found = title in listed if pattern is None else any(pattern.match(c) for c in listed)
        if not found:
            lines.append(f"{spec}: not in the ledger: {title!r}")
    for case in cases:
        if case.title not in titles and not any(t.match(case.title) for t in templates):
            lines.append(f"{spec}: no longer in the spec: {case.title!r}")
    return lines
