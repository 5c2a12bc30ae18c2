"""Aho-Corasick: every occurrence of a set of strings in one left-to-right pass over a text.

Redaction runs one of these over each decoded view of a text (`spellings`), so its cost is the
text's length, not the number of values or of the ways a value may be spelled.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Scan:
    """What one pass found. `matches` holds `(end, length)` for every position at which some
    string ends (the longest one ending there), in order of `end`; `tail` is the length of the
    longest end of the text that starts one of the strings (a text cut inside one); `steps`
    counts the automaton's moves, at most twice the text's length."""

    matches: list[tuple[int, int]]
    tail: int
    steps: int


class Automaton:
    """An Aho-Corasick automaton over a set of non-empty strings.

    Guarantees: built in time linear in the strings' total length (times the alphabet's branching
    at a node, looked up in a dict); `scan` reports every occurrence of every string, overlapping
    ones included, in at most `2 * len(text)` moves whatever the number of strings. `nodes`
    counts the states (one per distinct prefix), `build_steps` the moves the build made.
    """

    def __init__(self, strings: Iterable[str]) -> None:
        goto: list[dict[str, int]] = [{}]
        depth = [0]
        final = [False]
        steps = 0
        for string in strings:
            node = 0
            for char in string:
                steps += 1
                child = goto[node].get(char)
                if child is None:
                    child = len(goto)
                    goto[node][char] = child
                    goto.append({})
                    depth.append(depth[node] + 1)
                    final.append(False)
                node = child
            if node:
                final[node] = True
        fail = [0] * len(goto)
        longest = [depth[n] if final[n] else 0 for n in range(len(goto))]
        queue = deque(goto[0].values())
        while queue:
            node = queue.popleft()
            for char, child in goto[node].items():
                back = fail[node]
                while back and char not in goto[back]:
                    back = fail[back]
                    steps += 1
                target = goto[back].get(char, 0) if node else 0
                fail[child] = target if target != child else 0
                if not longest[child]:
                    longest[child] = longest[fail[child]]
                steps += 1
                queue.append(child)
        self._goto = goto
        self._fail = fail
        self._depth = depth
        self._longest = longest
        self.nodes = len(goto)
        self._starts = re.compile(
            "[" + "".join(map(re.escape, sorted(goto[0]))) + "]" if goto[0] else "(?!)"
        )
        self.build_steps = steps

    def scan(self, text: str) -> Scan:
        goto, fail, longest = self._goto, self._fail, self._longest
        starts = self._starts
        node = 0
        steps = 0
        matches: list[tuple[int, int]] = []
        index, size = 0, len(text)
        while index < size:
            if not node:
                # At the root only a string's first character moves: jump to the next one (a
                # scan in C; the characters skipped are moves of the root to itself).
                found = starts.search(text, index)
                if found is None:
                    steps += size - index
                    break
                steps += found.start() - index
                index = found.start()
            char = text[index]
            while True:
                steps += 1
                child = goto[node].get(char)
                if child is not None:
                    node = child
                    break
                if not node:
                    break
                node = fail[node]
            index += 1
            if longest[node]:
                matches.append((index, longest[node]))
        return Scan(matches, self._depth[node], steps)
