"""Benchmark of secret masking (not a test): host/shared/masking.py's one pass against the loop of
`str.replace` it took over from, on the same texts and values.

    python benchmarks/masking_bench.py [--kib 1024] [--secrets 1,16,256]

Texts: random letters and spaces (values rarely occur), the same with every value planted every
4 KiB, and a text that is one repeated character with values made of it (every place a match).
Each figure is the best of 5 runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.shared.masking import mask


def replace_loop(text: str, names: dict[str, str]) -> str:
    """The rule before: each value in turn, longest first, over the text the last one left."""
    for value, name in sorted(names.items(), key=lambda item: -len(item[0])):
        text = text.replace(value, name)
    return text


def best_ms(run: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kib", type=int, default=1024)
    parser.add_argument("--secrets", default="1,16,256")
    args = parser.parse_args()
    rng = random.Random(42)
    size = args.kib * 1024
    print(f"text of {args.kib} KiB; best of 5, ms      mask   replace loop")
    for count in (int(c) for c in args.secrets.split(",")):
        values = [
            "".join(rng.choices(string.ascii_letters + string.digits, k=12)) for _ in range(count)
        ]
        names = {value: "${S" + str(i) + "}" for i, value in enumerate(values)}
        plain = "".join(rng.choices(string.ascii_letters + " ", k=size))
        planted = "".join(
            plain[i : i + 4096] + values[(i // 4096) % count] for i in range(0, size, 4096)
        )
        for label, text in (("random", plain), ("planted", planted)):
            print(
                f"{count:>4} secrets, {label:<8}           {best_ms(lambda t=text, n=names: mask(t, n)):>8.1f}"
                f"  {best_ms(lambda t=text, n=names: replace_loop(t, n)):>8.1f}"
            )
    dense = "a" * size
    names = {"a" * n: "${A" + str(n) + "}" for n in range(4, 12)}
    print(
        f"   8 secrets, every place a match {best_ms(lambda: mask(dense, names)):>8.1f}"
        f"  {best_ms(lambda: replace_loop(dense, names)):>8.1f}"
    )


if __name__ == "__main__":
    main()
