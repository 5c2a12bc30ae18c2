"""Benchmark of redaction (not a test): what a redacted value costs the executor, per KB.

    python benchmarks/redaction_bench.py [--values 7] [--sizes 1,2,4]

For each size (KiB of each redacted value; 4 is the cap, `max_redact_chars`) it builds a
redactor over `--values` random values of that size, then scrubs three bodies as a page would
send them back: plain text with the values in it, the values in every spelling at once (UTF-8
and windows-1252 percent-encoding, encoded twice, character references, JSON), and text with no
value at all. It prints the CPU time of the build per KB of secret and of each scrub per KB of
text scanned, and the number of decoded views each body needed. Both stay flat as the values
grow: the cost is linear in the text plus the values (issue 37: seven 30 KB values cost the
pattern-per-value redactor 28 s of CPU for one request).
"""

from __future__ import annotations

import argparse
import codecs
import html
import json
import random
import sys
import time
import urllib.parse
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from host.executor.redaction import Redactor  # noqa: E402
from host.executor.spellings import views  # noqa: E402

T = TypeVar("T")
ALPHABETS = {
    "ascii": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789~!@#$*()-_ ",
    "é中%&\\": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789~!@#$%^&*()é中 \\",
}
"""Values like passwords, and values holding every character that makes views differ."""


def spellings(value: str) -> str:
    forms = [
        urllib.parse.quote_plus(value),
        urllib.parse.quote_plus(codecs.encode(value, "windows-1252", "xmlcharrefreplace")),
        urllib.parse.quote(urllib.parse.quote(value)),
        "".join(f"&#{ord(c)};" for c in value),
        html.escape(value),
        json.dumps(value),
    ]
    return " | ".join(forms)


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """What `work` returns and the CPU seconds it took."""
    start = time.process_time()
    result = work()
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", type=int, default=7)
    parser.add_argument("--sizes", default="1,2,4")
    args = parser.parse_args()
    rng = random.Random(37)
    print("values   KiB/value  secret KB  build ms/KB  body            views  text KB  scrub ms/KB")
    for kind, alphabet in ALPHABETS.items():
        for size in (int(s) for s in args.sizes.split(",")):
            values = [
                "".join(rng.choice(alphabet) for _ in range(size * 1024))
                for _ in range(args.values)
            ]
            secret_kb = sum(len(v.encode()) for v in values) / 1000
            redactor, build = timed(partial(Redactor, values))
            filler = "".join(rng.choice(alphabet) for _ in range(20_000))
            bodies = {
                "plain": "<p>" + "</p><p>".join(values) + "</p>",
                "every spelling": "<p>" + "</p><p>".join(map(spellings, values)) + "</p>",
                "no value": filler * 5,
            }
            for index, (name, body) in enumerate(bodies.items()):
                text_kb = len(body.encode()) / 1000
                _, took = timed(partial(redactor.scrub, body))
                head = " " * 42
                if index == 0:
                    head = (
                        f"{kind:<8} {size:>9} {secret_kb:>10.1f} {build * 1000 / secret_kb:>12.3f}"
                    )
                shown = len(views(body, redactor.charsets))
                print(
                    f"{head}  {name:<14} {shown:>6} {text_kb:>8.1f} {took * 1000 / text_kb:>12.3f}"
                )


if __name__ == "__main__":
    main()
