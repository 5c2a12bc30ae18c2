"""URL globs as Playwright spells them: `**` any characters, `*` any but `/`, `{a,b}` either."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=256)
def glob_to_regex(glob: str) -> re.Pattern[str]:
    """Compile `glob` to a regular expression matching a whole URL."""
    out = ["^"]
    i = 0
    in_group = False
    while i < len(glob):
        char = glob[i]
        if char == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 2
            continue
        if char == "*":
            if glob.startswith("**", i):
                out.append(".*")
                while i < len(glob) and glob[i] == "*":
                    i += 1
                continue
            out.append("[^/]*")
        elif char == "{":
            in_group = True
            out.append("(?:")
        elif char == "}" and in_group:
            in_group = False
            out.append(")")
        elif char == "," and in_group:
            out.append("|")
        else:
            out.append(re.escape(char))
        i += 1
    out.append("$")
    return re.compile("".join(out))


def url_matches(glob: str, url: str) -> bool:
    """Whether `url` matches `glob`."""
    return glob_to_regex(glob).match(url) is not None
