"""Benchmark of the generator, run by `python benchmarks/bench.py` (not part of the test suite).

Every figure is the median of several repetitions measured in this one run, each repetition a
fresh process timed by wall clock with its peak memory (maxrss) read from the kernel. It prints the
figures and the ratios the project targets:

- nothing changed (and --check): <= 0.3 s and <= 15% of cold, with no JVM started;
- one allowlist line changed: <= 1 s;
- cold (empty cache): <= 1.5 x the floor, where the floor is starting the JVM through JPype and
  reflecting the same interfaces, plus black formatting the same Python text;
- ten times the methods (a synthetic JAR, see synthetic.py): <= 11 x the real surface's time, and
  no stage worse than linear.
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
FLOOR_SCRIPT = """
import sys, time
from pathlib import Path
sys.path.insert(0, {repo!r})
from generator.allowlist import load_allowlist
from generator.jar_resolver import resolve_jar
from generator.java_reflect import reflect_jar
from generator.targets import TARGETS
import json
import black
from black.mode import Mode, TargetVersion
allowlist = load_allowlist(Path({allowlist!r}))
jar = resolve_jar(allowlist.playwright_version, None)
reflect_jar(jar.jar, sorted(t.java_class for t in TARGETS.values()))
mode = Mode(target_versions={{TargetVersion.PY311}}, line_length=100)
for text in json.loads(Path({texts!r}).read_text()).values():
    black.format_str(text, mode=mode)
"""
# The Python text black formats in a cold run, captured (untimed) by rendering without black.
CAPTURE_SCRIPT = """
import json, sys
from pathlib import Path
sys.path.insert(0, {repo!r})
import generator.render as render
captured = {{}}
render.format_all = lambda texts, cache: (captured.update(texts), texts)[1]
from generator.cli import main
main(["--out", {out!r}, "--no-cache", "-q", "--allowlist", {allowlist!r}])
if not captured:
    sys.exit("captured no Python text: the hook above no longer intercepts render's formatting")
Path({texts!r}).write_text(json.dumps(captured))
"""


SCALING_SCRIPT = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, {repo!r}); sys.path.insert(0, {bench!r})
from synthetic import python_copies
from generator.allowlist import Allowlist, AllowlistEntry, load_allowlist
from generator.binding import Binder
from generator.cache import Cache
from generator.diagnostics import Diagnostics
from generator.java_surface import build_surface
from generator.python_api import read_python_surface
from generator.render import Renderer, default_templates
from generator.surface_report import build_report
from generator.targets import TARGETS
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
times["render + black"] = time.perf_counter() - t
print(json.dumps({{"tools": len(tools), "files": len(files), "times": times}}))
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
    parser.add_argument(
        "--copies", type=int, default=10, help="scaling factor of the synthetic JAR"
    )
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

        # The anchor for a no-op run: the interpreter's own start-up, measured in the same run.
        figures.append(
            Figure(
                "python -c pass (interpreter start-up)",
                [measure([sys.executable, "-c", "pass"]) for _ in range(reps)],
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

        texts = work / "unformatted.json"
        capture = CAPTURE_SCRIPT.format(
            repo=str(REPO), out=str(work / "capture"), allowlist=str(allowlist), texts=str(texts)
        )
        subprocess.run([sys.executable, "-c", capture], cwd=REPO, check=True, capture_output=True)
        floor_script = FLOOR_SCRIPT.format(
            repo=str(REPO), allowlist=str(allowlist), texts=str(texts)
        )
        figures.append(
            Figure(
                "floor: JVM + reflection + black on the same text",
                [measure([sys.executable, "-c", floor_script]) for _ in range(reps)],
            )
        )
        scaling = measure_scaling(work, args.copies)
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
    start = by["python -c pass"]
    print(
        f"nothing changed / python -c pass = {by['nothing changed'] / start:5.2f} x  (target <= 6 x)"
    )
    print(
        f"--check / python -c pass         = {by['--check on a current tree'] / start:5.2f} x  (target <= 6 x)"
    )
    print(
        f"one line changed             = {by['one allowlist line changed']:6.3f} s (target <= 1 s)"
    )
    print(f"cold / floor                 = {cold_s / floor_s:6.2f} x  (target <= 1.5 x)")
    print()
    one, many = scaling
    print(f"scaling: {one['tools']} tools / {many['tools']} tools ({args.copies} x the methods)")
    for stage, seconds in one["times"].items():
        print(
            f"  {stage:34} {seconds:8.3f} s {many['times'][stage]:8.3f} s  {many['times'][stage] / seconds:6.2f} x"
        )
    total_one, total_many = sum(one["times"].values()), sum(many["times"].values())
    print(
        f"  {'total':34} {total_one:8.3f} s {total_many:8.3f} s  {total_many / total_one:6.2f} x  (target <= 11 x)"
    )


def measure_scaling(work: Path, copies: int) -> tuple[dict, dict]:  # type: ignore[type-arg]
    """Per-stage times for the synthetic JAR with the real number of methods and with `copies` times it."""
    import json

    sys.path.insert(0, str(Path(__file__).parent))
    from synthetic import build_jar

    from generator.allowlist import load_allowlist
    from generator.jar_resolver import resolve_jar
    from generator.java_surface import build_surface
    from generator.targets import TARGETS

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
