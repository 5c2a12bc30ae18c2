"""What an agent tool's `target` may be, and how it becomes a Playwright locator.

A target is an element ref from the tab's current `web_snapshot` (`e12`, `f1e3` inside a frame) or
a selector in the forms agents write: CSS, `text=Sign in`, `role=button[name='Submit']`,
`label=Email address`, `placeholder=...`, `alt=...`, `title=...`, `testid=...`, chained with `>>`
(`iframe#pay >> enter-frame >> input` enters a frame). Playwright spells the last five engines
`internal:...`; this module translates them and leaves every other part as Playwright reads it.
"""

from __future__ import annotations

import json
import re

from playwright.async_api import Locator

from host.sessions.locator_syntax import selector_of_code
from host.sessions.tab import Tab
from host.shared.errors import HostError

REF = re.compile(r"^(?:aria-ref=)?((?:f\d+)?e\d+)$")
REFS_IN_SNAPSHOT = re.compile(r"\[ref=((?:f\d+)?e\d+)\]")
_ATTRIBUTE_ENGINES = {"placeholder": "placeholder", "alt": "alt", "title": "title"}


def split_chain(selector: str) -> list[str]:
    """The parts of a `>>` chain, split outside quotes and brackets."""
    parts: list[str] = []
    depth, quote, start, i = 0, "", 0, 0
    while i < len(selector):
        char = selector[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth = max(0, depth - 1)
        elif depth == 0 and selector.startswith(">>", i) and not selector.startswith(">>>", i):
            parts.append(selector[start:i].strip())
            i += 2
            start = i
            continue
        i += 1
    parts.append(selector[start:].strip())
    return parts


def _text_argument(raw: str) -> str:
    """`"Exact"` stays exact (`s`); bare text matches case-insensitively as a substring (`i`)."""
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        return json.dumps(raw[1:-1]) + "s"
    return json.dumps(raw) + "i"


def _translate(part: str) -> str:
    ref = REF.match(part)
    if ref:
        return f"aria-ref={ref.group(1)}"
    if part == "enter-frame":
        return "internal:control=enter-frame"
    engine, equals, rest = part.partition("=")
    engine = engine.strip().lower()
    if not equals:
        return part
    if engine == "label":
        return f"internal:label={_text_argument(rest)}"
    if engine in _ATTRIBUTE_ENGINES:
        return f"internal:attr=[{_ATTRIBUTE_ENGINES[engine]}={_text_argument(rest)}]"
    if engine == "testid":
        value = rest.strip().strip("\"'")
        return f"internal:testid=[{_test_id[0]}={json.dumps(value)}s]"
    return part


# `--test-id-attribute`: as Playwright's own (`selectors.set_test_id_attribute`), one per
# process; the host sets both from its config when it is made.
_test_id = ["data-testid"]


def set_test_id_attribute(name: str) -> None:
    """The attribute `testid=` targets match from now on (default `data-testid`)."""
    _test_id[0] = name


def test_id_attribute() -> str:
    """The attribute `testid=` targets match (`--test-id-attribute`)."""
    return _test_id[0]


def to_selector(target: str) -> str:
    """The Playwright selector for a target (refs become `aria-ref=`, agent engines translated)."""
    # @playwright/mcp also takes Playwright's locator code, getByRole('button', {name: 'Go'}).
    from_code = selector_of_code(target, _test_id[0])
    if from_code is not None:
        return from_code
    return " >> ".join(_translate(part) for part in split_chain(target.strip()))


# Where a Playwright selector holds a regular expression the page runs: `internal:text=/re/`,
# `[name=/re/i]`, `text=/re/`, `:text-matches("re")`.
_REGEX_IN_SELECTOR = re.compile(r"=\s*/|:text-matches\(")


def runs_a_regex(target: str) -> bool:
    """Whether finding `target`'s element runs a regular expression in the page (one that
    backtracks without end then blocks the page's main thread, past any timeout of Playwright's)."""
    try:
        selector = to_selector(target)
    except HostError:
        return False
    return bool(_REGEX_IN_SELECTOR.search(selector))


def ref_of(target: str) -> str | None:
    """The ref a target names (`e12`, `f1e3`, `aria-ref=e12`), or None for a selector."""
    found = REF.match(target.strip())
    return found.group(1) if found else None


def stale(ref: str) -> HostError:
    return HostError(
        "stale_ref",
        f"ref {ref} is not in the current snapshot of this tab (the page changed or the ref is "
        "from an older snapshot); take a new snapshot with browser_snapshot and use its refs",
        path="target",
    )


async def locate(tab: Tab, target: str) -> Locator:
    """A locator for `target` on `tab`; a ref not in the tab's current snapshot, or whose element
    is gone, fails at once with `stale_ref` (it never waits for the action timeout)."""
    ref = ref_of(target)
    if ref is None:
        if not target.strip():
            raise HostError("invalid_argument", "target is empty", path="target")
        return tab.page.locator(to_selector(target))
    if ref not in tab.refs:
        raise stale(ref)
    locator = tab.page.locator(f"aria-ref={ref}")
    if await locator.count() == 0:
        tab.refs.discard(ref)
        raise stale(ref)
    return locator


def record_refs(tab: Tab, snapshot: str) -> int:
    """Remember the refs of a snapshot, in place of the tab's earlier ones: Playwright resolves
    `aria-ref` against a frame's latest snapshot only, so a snapshot of a part also retires the
    refs of the whole page taken before it (they fail at once as stale, never mid-action)."""
    refs = set(REFS_IN_SNAPSHOT.findall(snapshot))
    tab.refs = refs
    return len(refs)
