"""The generator step of examples/maven-kotlin on a no-op rebuild, run by
`python benchmarks/maven_step_bench.py` (not part of the test suite).

What `mvn verify` pays for the generator when nothing changed: the exec-maven-plugin step alone,
the exact command the example's pom runs in generate-sources (`python -m generator --allowlist
allowlist.yaml --expect-playwright 1.62.0`, options from the allowlist's `generate:` block), and
the check profile's (`... --check`), each on a copy of the example whose output one untimed run
wrote, with the user's own generator cache as a build has it. The anchor is `python -c pass`,
measured in the same run; the target is the no-op's (<= 3 x, docs/generator.md). Maven's own
start-up is not in the step; `--maven` also times the whole no-op `build.sh -q -o generate-sources`
of a copy of the example (Maven from its wrapper; needs `mvn` once and a warm local repository),
for scale.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The same timing as bench.py's anchors.
from bench import Figure, measure

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from generator.read.allowlist import load_allowlist  # noqa: E402

EXAMPLE = REPO / "examples" / "maven-kotlin"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--maven", action="store_true", help="also time Maven's whole no-op")
    args = parser.parse_args()
    reps = args.repetitions
    work = Path(tempfile.mkdtemp(prefix="maven-step-bench-"))
    try:
        shutil.copy(EXAMPLE / "allowlist.yaml", work / "allowlist.yaml")
        # The pom's playwright.version, which the build requires the allowlist to pin.
        pin = load_allowlist(EXAMPLE / "allowlist.yaml").playwright_version
        step = [
            sys.executable, "-m", "generator", "--allowlist", str(work / "allowlist.yaml"),
            "--expect-playwright", pin,
        ]  # fmt: skip
        measure(step)  # the build that wrote target/ (untimed)
        figures = [
            Figure("generate-sources step, nothing changed", [measure(step) for _ in range(reps)]),
            Figure(
                "check profile step, current", [measure([*step, "--check"]) for _ in range(reps)]
            ),
        ]
        if args.maven:
            copy = work / "maven-kotlin"
            shutil.copytree(
                EXAMPLE, copy, ignore=shutil.ignore_patterns("target", "mvnw", "mvnw.cmd", ".mvn")
            )
            build = [
                str(copy / "build.sh"), "-q", "-o", f"-Dgenerator.python={sys.executable}",
                "generate-sources",
            ]  # fmt: skip
            measure(build)  # generates the wrapper and the output (untimed)
            runs = [measure(build) for _ in range(reps)]
            figures.append(Figure("mvn -o generate-sources, nothing changed", runs))
        anchor_runs = [measure([sys.executable, "-c", "pass"]) for _ in range(reps)]
        figures.append(Figure("python -c pass", anchor_runs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'measurement':44} {'median s':>9} {'CPU s':>7} {'peak MiB':>9}")
    for f in figures:
        print(f"{f.name:44} {f.median:9.3f} {f.cpu:7.3f} {f.peak:9.1f}")
    anchor = figures[-1]
    print()
    for f in figures[:-1]:
        if f.name.startswith("mvn"):
            print(f"{f.name + ' / python -c pass':58} = {f.median / anchor.median:5.2f} x wall")
            continue
        print(
            f"{f.name + ' / python -c pass':58} = {f.median / anchor.median:5.2f} x wall, "
            f"{f.cpu / anchor.cpu:5.2f} x CPU  (target <= 3 x)"
        )


if __name__ == "__main__":
    main()
