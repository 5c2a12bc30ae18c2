"""Showing secret values as their names: the one rule the host's `--secrets` masking and
`host replay` share.

Guarantees: `mask` replaces every occurrence of every value by its name in one pass from the
left, the longest value first where values overlap (so the outcome does not depend on the order
they were given in), and never looks into a name it put in (a value that occurs inside another's
`${NAME}` cannot garble it). `too_short` refuses a value shorter than `MIN_SECRET_CHARS`.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

MIN_SECRET_CHARS = 4
"""The shortest value masked. A shorter one occurs by chance in ordinary text (`e` in every other
word, `id`, `the`, a two-digit number): masking it garbles every result, and the marks it leaves
show exactly where the value stood, so they give the value away. Four is the shortest real secret
in common use (a PIN); such values are refused at start, naming them, rather than half masked."""


def too_short(name: str, value: str) -> str | None:
    """Why `value` cannot be masked as secret `name` (None when it can)."""
    if len(value) >= MIN_SECRET_CHARS:
        return None
    return (
        f"{name} is {len(value)} character{'s' if len(value) != 1 else ''} long; a secret "
        f"shorter than {MIN_SECRET_CHARS} characters cannot be masked (it occurs by chance in "
        "ordinary text, so masking it would garble every result and show where it stands); "
        f"give a value of {MIN_SECRET_CHARS} characters or more"
    )


def mask(text: str, names: Mapping[str, str]) -> str:
    """`text` with every value of `names` (value -> what shows instead) replaced by its name.

    From the left: the value that occurs first wins, the longest where several start at the same
    place. Each value's next occurrence is found by `str.find` from where masking stands, so the
    text is scanned once per value and never again behind a mask: time linear in the text for a
    given set of values, plus a heap step per mask."""
    if not names or not text:
        return text
    heap: list[tuple[int, int, str]] = []
    for value in names:
        found = text.find(value) if value else -1
        if found >= 0:
            heap.append((found, -len(value), value))
    if not heap:
        return text
    heapq.heapify(heap)
    parts: list[str] = []
    at = 0
    while heap:
        found, negative_length, value = heap[0]
        if found < at:  # it starts inside a mask just put in: its next occurrence from here
            again = text.find(value, at)
            if again < 0:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (again, negative_length, value))
            continue
        parts.append(text[at:found])
        parts.append(names[value])
        at = found + len(value)
        again = text.find(value, at)
        if again < 0:
            heapq.heappop(heap)
        else:
            heapq.heapreplace(heap, (again, negative_length, value))
    parts.append(text[at:])
    return "".join(parts)
