"""Write docs/peer-suite.md, the peer suite's ledger as a user reads it, from tests/peer_suite.

    .venv/bin/python scripts/peer_suite_doc.py                 # rewrite docs/peer-suite.md
    .venv/bin/python scripts/peer_suite_doc.py --check         # change nothing; exit 1 if stale
    .venv/bin/python scripts/peer_suite_doc.py --against DIR   # compare the ledger with the spec
                                                               # files of a microsoft/playwright
                                                               # checkout; exit 1 on a difference

The ledger lives beside its tests (each tests/peer_suite module's `PEER_CASES`); this script
only reads it, so the document cannot say a case is checked when no test names it. `--against`
is how a newer peer release is taken in: it lists every case title the checkout's spec files have
and the ledger lacks (or lists and the spec no longer has). Guarantees: the text depends only on
the ledger (same bytes on every machine); nothing is written when the ledger does not load.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The ledger is test code (tests/ is not an installed package): read it where the tests do.
sys.path.insert(0, str(REPO / "tests"))

from peer_suite.ledger import Case, cases_of, compare, spec_titles, suite_modules  # noqa: E402

PEER_SUITE_MD = REPO / "docs" / "peer-suite.md"
COMMAND = "python scripts/peer_suite_doc.py"
# The microsoft/playwright snapshot the ledger was last compared with (`--against`).
PEER_COMMIT = "d4e1023f6c03a8dced50eb3db88c2217e7c1a86a"


def render(ledger: Iterable[tuple[str, list[Case]]]) -> str:
    """The document's text."""
    rows, notes = [], []
    totals = [0, 0, 0, 0, 0]
    for spec, cases in ledger:
        here = sum(1 for c in cases if not c.differs and not c.todo and "::" not in c.where)
        elsewhere = sum(1 for c in cases if not c.differs and not c.todo and "::" in c.where)
        differs = [c for c in cases if c.differs]
        todo = [c for c in cases if c.todo]
        counts = [len(cases), here, elsewhere, len(differs), len(todo)]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        rows.append(f"| `{spec}` | " + " | ".join(str(n) for n in counts) + " |")
        if differs or todo:
            notes.append(f"\n### `{spec}`\n")
            notes += [f"- {c.title}: {c.reason}" for c in differs]
            notes += [f"- {c.title}: **not translated yet**: {c.reason}" for c in todo]
    checked = totals[1] + totals[2]
    return "\n".join(
        [
            "# The peer suite: @playwright/mcp's own tests, run against this host",
            "",
            f"<!-- Written by `{COMMAND}` from tests/peer_suite; do not edit by hand. -->",
            "",
            "@playwright/mcp's test suite (microsoft/playwright, `tests/mcp/*.spec.ts`, compared at",
            f"commit `{PEER_COMMIT[:12]}`) is the yardstick of this host as a drop-in. Each case is",
            "translated into a test of ours in `tests/peer_suite/` that checks what a model reads or",
            "what the page does (never the peer's text layout), over MCP in real Chromium; or it",
            "names a test elsewhere that already checks it; or this host differs on purpose, and the",
            "reason is below. Run them: `.venv/bin/python -m pytest tests/peer_suite` (they are part",
            "of `make test`).",
            "",
            f"**{checked} of {totals[0]} cases are checked** ({totals[1]} in tests/peer_suite,"
            f" {totals[2]} by tests elsewhere); {totals[3]} differ on purpose; {totals[4]} are not"
            " translated yet.",
            "",
            "`emulation.spec.ts`, which the drop-in issue names, does not exist in the peer's",
            "repository at that commit; its emulation cases are `device.spec.ts` (translated here)",
            "and `browser_resize` in `core.spec.ts`.",
            "",
            "| spec | cases | checked here | checked elsewhere | differs | not yet |",
            "|---|---|---|---|---|---|",
            *rows,
            "| **all** | " + " | ".join(f"**{n}**" for n in totals) + " |",
            "",
            "## Where this host differs, and why",
            *notes,
            "",
            "## Where the published peer differs from its own tests",
            "",
            "Two behaviours of the published `@playwright/mcp` 0.0.83 (the one `package.json` pins",
            "for the benchmarks) are not what its tests at the commit above check:",
            "",
            "- `browser_navigate` with an empty URL is a no-op there: the page stays where it is",
            "  and the call succeeds. This host does the same (since issue 45; before, it refused",
            "  the call with `invalid_argument`):",
            "  `host_agent/test_peer_behaviours.py::test_navigating_to_an_empty_url_is_a_no_op`.",
            "- A returned screenshot keeps its pixel dimensions there (a 2000x2000 page comes back",
            "  2000x2000). This host keeps shrinking it to fit a model's message (1568 pixels on",
            "  the long side and about 1.15 megapixels: a 2000x2000 page comes back 1098x1098), as",
            "  the peer's own `browser_take_screenshot size cap` case expects: a larger image costs",
            "  a model more tokens for no detail it can use, and model APIs shrink or refuse it",
            "  anyway. A screenshot saved with `filename` keeps the page's whole size, and",
            "  `scale: device` asks for device pixels",
            "  (`test_screenshot.py::test_an_image_is_shrunk_to_fit_a_message`).",
            "",
            "## Taking in a newer peer release",
            "",
            f"`{COMMAND} --against DIR`, with DIR a checkout of microsoft/playwright, lists every",
            "case its spec files have that the ledger lacks (and every ledger case they no longer",
            "have); add each to its module's `PEER_CASES` with a test or a reason, then rerun",
            f"`{COMMAND}`.",
            "",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the document is stale")
    parser.add_argument("--out", type=Path, default=PEER_SUITE_MD, help="the document to write")
    parser.add_argument(
        "--against", type=Path, metavar="DIR", help="a microsoft/playwright checkout to compare"
    )
    args = parser.parse_args(argv)
    ledger = [cases_of(m) for m in suite_modules()]
    if args.against is not None:
        folder = args.against / "tests" / "mcp"
        if not folder.is_dir():
            print(f"{COMMAND}: {folder} is not a folder; give a microsoft/playwright checkout")
            return 2
        problems = []
        for spec, cases in ledger:
            path = folder / spec
            if not path.is_file():
                problems.append(f"{spec}: no such spec file in {folder}")
                continue
            problems += compare(cases, spec_titles(path.read_text(encoding="utf-8")))
        print("\n".join(problems) or f"the ledger lists every case of {len(ledger)} spec files")
        return 1 if problems else 0
    text = render(ledger)
    current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    if args.check:
        if current == text:
            return 0
        diff = difflib.unified_diff(
            current.splitlines(), text.splitlines(), str(args.out), "ledger", lineterm=""
        )
        print("\n".join(list(diff)[:40]))
        print(f"{args.out} is stale: run {COMMAND}")
        return 1
    if current != text:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
