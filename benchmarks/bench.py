"""Benchmark of the generator, run by `python benchmarks/bench.py` (not part of the test suite).

Every figure is the median of several repetitions measured in this one run, each repetition a
fresh process timed by wall clock with its peak memory (maxrss) read from the kernel. It prints the
figures and the ratios the project targets:

- nothing changed (and --check): <= 0.3 s and <= 15% of cold, with no JVM started;
- one allowlist line changed: <= 1 s;
- cold (empty cache): <= 1.5 x the floor, where the floor is starting the JVM through JPype and
  reflecting the same interfaces, plus black formatting the same Python text.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FLOOR_SCRIPT = """
import sys, time
from pathlib import Path
sys.path.insert(0, {repo!r})
from generator.allowlist import load_allowlist
from generator.jar_resolver import resolve_jar
from generator.java_reflect import reflect_jar
from generator.targets import TARGETS
import black
from black.mode import Mode, TargetVersion
allowlist = load_allowlist(Path({allowlist!r}))
jar = resolve_jar(allowlist.playwright_version, None)
reflect_jar(jar.jar, sorted(t.java_class for t in TARGETS.values()))
mode = Mode(target_versions={{TargetVersion.PY311}}, line_length=100)
for path in sorted(Path({python_root!r}).rglob("*.py")):
    black.format_str(path.read_text(), mode=mode)
"""


@dataclass(frozen=True)
class Sample:
    seconds: float
    peak_mib: float


@dataclass(frozen=True)
class Figure:
    name: str
    samples: list[Sample]

    @property
    def median(self) -> float:
        return statistics.median(s.seconds for s in self.samples)

    @property
    def peak(self) -> float:
        return max(s.peak_mib for s in self.samples)


def measure(command: list[str], env: dict[str, str] | None = None) -> Sample:
    started = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(
            f"{' '.join(command)} failed: {process.stderr.read().decode() if process.stderr else ''}"
        )
    return Sample(elapsed, usage.ru_maxrss / 1024)


def generator(out: Path, cache: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "generator",
        "--out",
        str(out),
        "--cache-dir",
        str(cache),
        "-q",
        *extra,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    reps = args.repetitions
    work = Path(tempfile.mkdtemp(prefix="generator-bench-"))
    allowlist = REPO / "allowlist.yaml"
    no_java = {**os.environ, "JAVA_HOME": "/nonexistent", "PATH": str(Path(sys.executable).parent)}
    figures: list[Figure] = []
    try:
        cold = []
        for i in range(reps):
            cold.append(measure(generator(work / f"cold{i}", work / f"cache-cold{i}")))
        figures.append(Figure("cold generation (empty cache)", cold))

        out, cache = work / "cold0", work / "cache-cold0"
        figures.append(
            Figure(
                "nothing changed (no JVM available)",
                [measure(generator(out, cache), no_java) for _ in range(reps)],
            )
        )
        figures.append(
            Figure(
                "--check on a current tree (no JVM available)",
                [measure(generator(out, cache, "--check"), no_java) for _ in range(reps)],
            )
        )

        lines = allowlist.read_text().splitlines(keepends=True)
        entries = [i for i, line in enumerate(lines) if line.startswith("  - method:")]
        one_line = []
        for i in range(reps):
            edited = work / f"allowlist-{i}.yaml"
            edited.write_text("".join(line for n, line in enumerate(lines) if n != entries[10 + i]))
            one_line.append(measure(generator(out, cache, "--allowlist", str(edited)), no_java))
        figures.append(Figure("one allowlist line changed (no JVM available)", one_line))

        floor_script = FLOOR_SCRIPT.format(
            repo=str(REPO), allowlist=str(allowlist), python_root=str(out / "python")
        )
        figures.append(
            Figure(
                "floor: JVM + reflection + black on the same text",
                [measure([sys.executable, "-c", floor_script]) for _ in range(reps)],
            )
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"{'measurement':52} {'median s':>9} {'peak MiB':>9}")
    for f in figures:
        print(f"{f.name:52} {f.median:9.3f} {f.peak:9.1f}")
    by = {f.name.split(" (")[0].split(":")[0]: f.median for f in figures}
    cold_s, floor_s = by["cold generation"], by["floor"]
    print()
    print(
        f"nothing changed / cold       = {by['nothing changed'] / cold_s:6.1%}   (target <= 15%, and <= 0.3 s)"
    )
    print(f"--check / cold               = {by['--check on a current tree'] / cold_s:6.1%}")
    print(
        f"one line changed             = {by['one allowlist line changed']:6.3f} s (target <= 1 s)"
    )
    print(f"cold / floor                 = {cold_s / floor_s:6.2f} x  (target <= 1.5 x)")


if __name__ == "__main__":
    main()
