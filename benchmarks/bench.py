"""Benchmark of the generator, run by `python benchmarks/bench.py` (not part of the test suite).

Every figure is the median of several repetitions measured in this one run, each repetition a
fresh process timed by wall clock and by CPU (user + system, its children included) with its peak
memory (maxrss) read from the kernel. It prints the figures and the ratios the project targets,
each against an anchor measured in the same run:

- cold (empty cache) CPU <= 0.35 x the CPU of black formatting the generated Python once
  (serially, no cache: what formatting the output alone costs); also shown against black over
  the Python as the templates render it (what the generator paid before it laid out its own);
- nothing changed, and --check, <= 3 x `python -c pass` (the interpreter's start); the no-op
  measured both as the README types it (`python -m generator` in the repository, no option) and
  with `--out --cache-dir -q` on a scratch tree;
- one allowlist line changed (the tree generated from the allowlist as committed, then one
  `- method:` line removed) <= 13 x `python -c pass` (`--only one-line` measures just this);
- ten times the methods (a synthetic JAR, see synthetic.py): each stage's median grows no worse
  than linearly, and the CPU each added tool costs is printed.
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
sys.path.insert(0, str(REPO))
# The anchor of a cold run: black formatting the Python the generator wrote, once, serially,
# without its cache (its import included: running black costs it).
BLACK_ONCE_SCRIPT = """
import sys
from pathlib import Path
import black
from black.mode import Mode, TargetVersion
mode = Mode(target_versions={{TargetVersion.PY311}}, line_length=100)
for path in sorted(Path({tree!r}).rglob("*.py")):
    black.format_str(path.read_text(), mode=mode)
"""


# What formatting cost the generator before its templates were laid out in black's style: black
# over the Python text as rendered (unformatted), captured untimed from an in-process run.
CAPTURE_SCRIPT = """
import json, sys
from pathlib import Path
sys.path.insert(0, {repo!r})
import generator.render.rendering as render
captured = {{}}
render._laid_out = lambda text, cache: captured.setdefault(str(len(captured)), text)
from generator.commands.cli import main
main(["--out", {out!r}, "--no-cache", "-q"])
if not captured:
    sys.exit("captured no Python text: the hook no longer intercepts the layout")
Path({texts!r}).write_text(json.dumps(captured))
"""
BLACK_RAW_SCRIPT = """
import json
from pathlib import Path
import black
from black.mode import Mode, TargetVersion
mode = Mode(target_versions={{TargetVersion.PY311}}, line_length=100)
for text in json.loads(Path({texts!r}).read_text()).values():
    black.format_str(text, mode=mode)
"""


SCALING_SCRIPT = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, {repo!r}); sys.path.insert(0, {bench!r})
from synthetic import python_copies
from generator.read.allowlist import Allowlist, AllowlistEntry, load_allowlist
from generator.model.binding import Binder
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics
from generator.read.java_surface import build_surface
from generator.read.python_api import read_python_surface
from generator.render.rendering import Renderer, default_templates
from generator.model.surface_report import build_report
from generator.shared.targets import TARGETS
copies = {copies}
real = load_allowlist(Path({allowlist!r}))
entries = [e for e in real.entries if e.name is None]
entries += [AllowlistEntry(e.target, e.method + str(c), e.location) for c in range(2, copies + 1) for e in entries if e.method not in ("and", "or")]
allowlist = Allowlist(real.playwright_version, tuple(entries), "synthetic")
times = {{}}
t = time.perf_counter()
java = build_surface(Path({jar!r}), None, sorted(t.java_class for t in TARGETS.values()), real.playwright_version)
times["reflect (JVM start included)"] = time.perf_counter() - t; t = time.perf_counter()
python = python_copies(read_python_surface(), copies)
times["read Python API"] = time.perf_counter() - t; t = time.perf_counter()
diagnostics = Diagnostics()
tools = Binder(java, python, diagnostics).bind_all(allowlist)
times["bind"] = time.perf_counter() - t; t = time.perf_counter()
report = build_report(java, python, tools, diagnostics)
times["surface report"] = time.perf_counter() - t; t = time.perf_counter()
files = Renderer(default_templates(), Cache(Path("/nonexistent"), enabled=False)).render_all(tools, real.playwright_version, python.version, report, "")
times["render and lay out"] = time.perf_counter() - t
print(json.dumps({{"tools": len(tools), "files": len(files), "times": times, "cpu": time.process_time()}}))
"""


@dataclass(frozen=True)
class Sample:
    seconds: float
    cpu_seconds: float
    peak_mib: float


@dataclass(frozen=True)
class Figure:
    name: str
    samples: list[Sample]

    @property
    def median(self) -> float:
        return statistics.median(s.seconds for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu_seconds for s in self.samples)

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
    return Sample(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


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


NO_JAVA = {**os.environ, "JAVA_HOME": "/nonexistent", "PATH": str(Path(sys.executable).parent)}
"""The environment of the timed runs: no JVM reachable, so every figure is of cached surfaces."""


def one_line_changed(work: Path, out: Path, cache: Path, reps: int) -> list[Sample]:
    """`reps` runs, each with one more single-line entry removed from the committed allowlist,
    each on the tree the committed allowlist made (restored untimed before it)."""
    lines = (REPO / "allowlist.yaml").read_text().splitlines(keepends=True)
    entries = [i for i, line in enumerate(lines) if line.startswith("  - method:")]
    # Entries of one line (no override lines under them), so removing the line removes the entry.
    entries = [i for i in entries if not "".join(lines[i + 1 : i + 2]).startswith("    ")]
    samples = []
    for i in range(reps):
        # The tree is the committed allowlist's (restored, untimed): the edited allowlist
        # differs from what made the tree in exactly one line.
        measure(generator(out, cache), NO_JAVA)
        # Same file name: every generated header names the allowlist it came from.
        edited = work / f"edit-{i}" / "allowlist.yaml"
        edited.parent.mkdir()
        edited.write_text("".join(line for n, line in enumerate(lines) if n != entries[10 + i]))
        samples.append(measure(generator(out, cache, "--allowlist", str(edited)), NO_JAVA))
    return samples


def one_line_only(reps: int) -> None:
    """`--only one-line`: the tree and cache made untimed (the JVM used once if the cache has no
    surfaces), then the one-line change against `python -c pass`, interleaved."""
    work = Path(tempfile.mkdtemp(prefix="generator-bench-"))
    try:
        out, cache = work / "tree", work / "cache"
        subprocess.run(generator(out, cache), cwd=REPO, check=True, capture_output=True)
        runs = one_line_changed(work, out, cache, reps)
        anchor = [measure([sys.executable, "-c", "pass"]) for _ in range(reps)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    changed, start = Figure("one line", runs), Figure("pass", anchor)
    print(f"one allowlist line changed: median {changed.median:.3f} s, CPU {changed.cpu:.3f} s")
    print(f"python -c pass:             median {start.median:.3f} s, CPU {start.cpu:.3f} s")
    print(
        f"one allowlist line changed / python -c pass = {changed.median / start.median:5.2f} x "
        f"wall, {changed.cpu / start.cpu:5.2f} x CPU  (target <= 13 x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument(
        "--copies", type=int, default=10, help="scaling factor of the synthetic JAR"
    )
    parser.add_argument(
        "--only",
        choices=("one-line",),
        help="one-line: only the one-line change and its anchor, on a tree generated untimed",
    )
    args = parser.parse_args()
    reps = args.repetitions
    if args.only == "one-line":
        one_line_only(reps)
        return
    work = Path(tempfile.mkdtemp(prefix="generator-bench-"))
    no_java = NO_JAVA
    figures: dict[str, Figure] = {}

    def add(name: str, samples: list[Sample]) -> None:
        figures[name] = Figure(name, samples)

    try:
        add(
            "cold generation (empty cache)",
            [measure(generator(work / f"cold{i}", work / f"cache-cold{i}")) for i in range(reps)],
        )
        out, cache = work / "cold0", work / "cache-cold0"
        black_once = BLACK_ONCE_SCRIPT.format(tree=str(out))
        add(
            "black over the generated Python, once",
            [measure([sys.executable, "-c", black_once]) for _ in range(reps)],
        )
        texts = work / "rendered.json"
        capture = CAPTURE_SCRIPT.format(repo=str(REPO), out=str(work / "capture"), texts=str(texts))
        subprocess.run([sys.executable, "-c", capture], cwd=REPO, check=True, capture_output=True)
        black_raw = BLACK_RAW_SCRIPT.format(texts=str(texts))
        add(
            "black over the Python as rendered, once",
            [measure([sys.executable, "-c", black_raw]) for _ in range(reps)],
        )
        add(
            "nothing changed (no JVM available)",
            [measure(generator(out, cache), no_java) for _ in range(reps)],
        )
        add(
            "--check on a current tree (no JVM available)",
            [measure(generator(out, cache, "--check"), no_java) for _ in range(reps)],
        )
        # The README's own command, as a user types it in the repository: no option at all, the
        # committed generated/ and the user's cache (one untimed run stamps it, as any run would).
        readme = [sys.executable, "-m", "generator"]
        measure(readme)
        add(
            "the README's python -m generator, nothing changed",
            [measure(readme) for _ in range(reps)],
        )
        # The anchor for a no-op run: the interpreter's own start-up, measured in the same run.
        add("python -c pass", [measure([sys.executable, "-c", "pass"]) for _ in range(reps)])

        add(
            "one allowlist line changed (no JVM available)",
            one_line_changed(work, out, cache, reps),
        )
        scaling = [measure_scaling(work, args.copies) for _ in range(max(1, reps // 2))]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"{'measurement':52} {'median s':>9} {'CPU s':>7} {'peak MiB':>9}")
    for f in figures.values():
        print(f"{f.name:52} {f.median:9.3f} {f.cpu:7.3f} {f.peak:9.1f}")
    by = {name.split(" (")[0]: f for name, f in figures.items()}
    cold, black_cpu = by["cold generation"], by["black over the generated Python, once"].cpu
    start = by["python -c pass"].median
    print()
    raw_cpu = by["black over the Python as rendered, once"].cpu
    print(f"cold CPU / black once CPU        = {cold.cpu / black_cpu:5.2f} x  (target <= 0.35 x)")
    print(f"cold CPU / black over the rendered text CPU = {cold.cpu / raw_cpu:5.2f} x")
    start_cpu = by["python -c pass"].cpu
    for name in (
        "the README's python -m generator, nothing changed",
        "nothing changed",
        "--check on a current tree",
        "one allowlist line changed",
    ):
        target = 13 if name.startswith("one") else 3
        print(
            f"{name + ' / python -c pass':44} = {by[name].median / start:5.2f} x wall, "
            f"{by[name].cpu / start_cpu:5.2f} x CPU  (target <= {target} x)"
        )
    print()
    print_scaling(scaling, args.copies)


def print_scaling(runs: list[tuple[dict, dict]], copies: int) -> None:  # type: ignore[type-arg]
    """Per-stage medians over the runs, the growth of each, and the CPU each added tool costs."""
    one_tools, many_tools = runs[0][0]["tools"], runs[0][1]["tools"]
    print(
        f"scaling: {one_tools} tools / {many_tools} tools ({copies} x the methods), medians of {len(runs)} runs"
    )
    stages = list(runs[0][0]["times"])
    for stage in [*stages, "total"]:

        def pick(side: int, stage: str = stage) -> float:
            values = [
                sum(r[side]["times"].values()) if stage == "total" else r[side]["times"][stage]
                for r in runs
            ]
            return statistics.median(values)

        one, many = pick(0), pick(1)
        note = "  (target: linear, <= 11 x)" if stage == "total" else ""
        print(f"  {stage:34} {one:8.3f} s {many:8.3f} s  {many / one:6.2f} x{note}")
    cpu_one = statistics.median(r[0]["cpu"] for r in runs)
    cpu_many = statistics.median(r[1]["cpu"] for r in runs)
    per_tool = (cpu_many - cpu_one) / (many_tools - one_tools) * 1000
    print(f"  CPU per added tool: {per_tool:.1f} ms")


def measure_scaling(work: Path, copies: int) -> tuple[dict, dict]:  # type: ignore[type-arg]
    """Per-stage times for the synthetic JAR with the real number of methods and with `copies` times it."""
    import json

    sys.path.insert(0, str(Path(__file__).parent))
    from synthetic import build_jar

    from generator.read.allowlist import load_allowlist
    from generator.read.jar_resolver import resolve_jar
    from generator.read.java_surface import build_surface
    from generator.shared.targets import TARGETS

    allowlist = REPO / "allowlist.yaml"
    real = resolve_jar(load_allowlist(allowlist).playwright_version, None)
    surface = build_surface(real.jar, None, sorted(t.java_class for t in TARGETS.values()), "0")
    results = []
    for n in (1, copies):
        jar = build_jar(real.jar, surface, n, work / f"synthetic-{n}")
        script = SCALING_SCRIPT.format(
            repo=str(REPO),
            bench=str(Path(__file__).parent),
            copies=n,
            allowlist=str(allowlist),
            jar=str(jar),
        )
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return results[0], results[1]


if __name__ == "__main__":
    main()
