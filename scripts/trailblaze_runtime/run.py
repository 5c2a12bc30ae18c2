"""Run Trailblaze's own run-time code over the generated Kotlin tools (see README.md).

    .venv/bin/python scripts/trailblaze_runtime/run.py --checkout DIR --generated OUT
        [--json FILE] [--commit SHA | --commit-file F] [--cache MAVEN_REPO]

OUT is a `python -m generator --out OUT --outputs trailblaze` folder (its trailblaze/kotlin and
trailblaze/resources; or give --kotlin DIR and --resources DIR). Builds Trailblaze's classes
(build.py, cached), compiles the shims and RuntimeCheck.kt against them and the Playwright JAR
(`python -m generator.commands.resolve_jar`, or PLAYWRIGHT_VERSION=X.Y.Z for a published
release), runs RuntimeCheck twice (the generated resources ahead of Trailblaze's own on the
classpath, then behind them), prints a summary and writes every result to --json. Exit 0 when it
ran (the figures are the result); 2 for a checkout that is not Trailblaze; 3 when a step failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build

HERE = build.HERE
ROOT = build.ROOT


def run_check(
    classpath: list[str], shim_classes: Path, resources: Path, yaml_only: bool
) -> tuple[list[dict], str]:
    args = [
        "java",
        "-XX:+UseSerialGC",
        "-cp",
        os.pathsep.join(classpath),
        "runtimecheck.RuntimeCheckKt",
        "--classes",
        str(shim_classes),
        "--resources",
        str(resources),
    ]
    if yaml_only:
        args.append("--yaml-only")
    done = subprocess.run(args, capture_output=True, text=True)
    records = [
        json.loads(line[len("RTCHECK ") :])
        for line in done.stdout.splitlines()
        if line.startswith("RTCHECK ")
    ]
    other = [line for line in done.stdout.splitlines() if not line.startswith("RTCHECK ")]
    if done.returncode != 0 or not records or records[-1].get("kind") != "end":
        sys.stderr.write(done.stderr[-4000:])
        raise build.Failure(f"run.py: RuntimeCheck failed (exit {done.returncode})", 3)
    return records, "\n".join(other + done.stderr.splitlines())


def write_client_dts(
    classpath: list[str], shim_classes: Path, resources: Path, trailmap: Path
) -> dict:
    """Trailblaze's `WorkspaceClientDtsGenerator` run over the tools of the generated toolset
    (ClientDts.kt): the `trailblaze-client.d.ts` it wrote under `trailmap`, and its counts."""
    (toolset,) = resources.rglob("toolsets/*.yaml")
    args = ["java", "-XX:+UseSerialGC", "-cp", os.pathsep.join(classpath),
            "clientdts.ClientDtsKt", "--classes", str(shim_classes), "--toolset", str(toolset),
            "--trailmap", str(trailmap)]  # fmt: skip
    done = subprocess.run(args, capture_output=True, text=True)
    found = [
        json.loads(line[len("DTSCHECK ") :])
        for line in done.stdout.splitlines()
        if line.startswith("DTSCHECK ")
    ]
    if done.returncode != 0 or not found:
        sys.stderr.write(done.stderr[-4000:])
        raise build.Failure(f"run.py: ClientDts failed (exit {done.returncode})", 3)
    return dict(found[0])


# Playwright Java the graduation check runs on: the newest release published whole (1.63.0 has no
# driver on Maven Central); the shims and Trailblaze's classes compiled against the pin link to it.
GRADUATION_PLAYWRIGHT = "1.62.0"


def run_graduation(built: dict, shim_classes: Path, chromium: str, cache: str | None) -> list[dict]:
    """Graduation.kt: each case's JSON decoded into the hand-written and the generated tool and
    run on a page of `chromium`, on Playwright Java GRADUATION_PLAYWRIGHT; its records."""
    repo = build.maven_repo(cache)
    runtime = build.resolve("graduation", build.runtime_dependencies(GRADUATION_PLAYWRIGHT), repo)
    args = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
            os.pathsep.join([str(shim_classes), built["classes"], runtime]),
            "graduation.GraduationKt", "--classes", str(shim_classes),
            "--trailblaze-classes", built["classes"], "--chromium", chromium]  # fmt: skip
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"},
    )
    records = [
        json.loads(line[len("GRADUATION ") :])
        for line in done.stdout.splitlines()
        if line.startswith("GRADUATION ")
    ]
    if done.returncode != 0 or not records or records[-1].get("kind") != "end":
        sys.stderr.write(done.stderr[-4000:])
        raise build.Failure(f"run.py: Graduation failed (exit {done.returncode})", 3)
    return [r for r in records if r.get("kind") == "case"]


def summarize_graduation(cases: list[dict]) -> list[str]:
    """One line of counts, then a line per case that differs (or that differs as documented)."""
    same = [c for c in cases if c.get("same")]
    documented = [c for c in cases if not c.get("same") and c.get("documented")]
    lines = [
        f"graduation (Playwright Java {GRADUATION_PLAYWRIGHT}): {len(same)}/{len(cases)} calls "
        f"give the hand-written tool's text, errors and page; {len(documented)} differ as documented"
    ]
    for case in cases:
        if case.get("same"):
            continue
        what = f"documented: {case['documented']}" if case.get("documented") else "DIFFERS"
        if case.get("missing"):
            lines.append(f"  {case['tool']} {case['arguments']}: no {case['missing']} class")
            continue
        lines.append(
            f"  {case['tool']} {case['arguments']} {what}: hand-written {case['hand_written']!r} "
            f"({case['hand_written_page']}), generated {case['generated']!r} ({case['generated_page']})"
        )
    return lines


def summarize(records: list[dict], behind: list[dict]) -> list[str]:
    tools = [r for r in records if r.get("kind") == "tool"]
    ok = [t for t in tools if t.get("descriptor") == "ok"]
    lines = [f"descriptors {len(ok)}/{len(tools)}"]
    reasons: dict[str, int] = {}
    for t in tools:
        if t.get("descriptor") != "ok":
            reason = t.get("error") or t.get("descriptor", "")
            reason = reason.split(" class ")[-1] if "Unsupported type" in reason else reason
            reasons[reason[:100]] = reasons.get(reason[:100], 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {count} x {reason}")
    lines.append(
        f"scripted (toScriptedToolDescriptor non-null) {sum(1 for t in tools if t.get('scripted'))}/{len(tools)}, "
        f"llm (toKoogToolDescriptor non-null) {sum(1 for t in tools if t.get('llm'))}/{len(tools)}"
    )

    def total(key: str) -> tuple[int, int]:
        return (
            sum(t.get(key, {}).get("ok", 0) for t in tools),
            sum(t.get(key, {}).get("ok", 0) + t.get(key, {}).get("failed", 0) for t in tools),
        )

    names, wires, trips = (
        total("enum_descriptor_values"),
        total("enum_wire_strings"),
        total("enum_round_trip"),
    )
    lines.append(
        f"enums {names[0]}/{names[1]} entry names (the descriptor's values), "
        f"{wires[0]}/{wires[1]} wire strings; round trip {trips[0]}/{trips[1]}"
    )
    first = next(
        (
            t[k]["first_failure"]
            for t in tools
            for k in ("enum_descriptor_values", "enum_wire_strings")
            if t.get(k, {}).get("first_failure")
        ),
        None,
    )
    if first:
        lines.append(f"  first enum failure: {first[:300]}")
    for label, recs in (
        ("generated resources ahead", records),
        ("generated resources behind Trailblaze's", behind),
    ):
        yaml = next((r for r in recs if r.get("kind") == "yaml"), {})
        toolset = next((r for r in recs if r.get("kind") == "toolset"), {})
        n = len([r for r in records if r.get("kind") == "tool"])
        lines.append(f"[{label}]")
        if label.endswith("ahead"):
            loaded = yaml.get("loaded", {})
            lines.append(
                f"  yaml {loaded.get('ok', 0)}/{yaml.get('files', 0)} descriptors load (ToolYamlLoader), "
                f"{n} tools"
            )
        lines.append(
            f"  classpath discovery (ToolYamlLoader.discoverAndLoadAll) {yaml.get('classpath_discovered_generated', 0)}/{n}"
            f" generated; not discovered as generated: {', '.join(yaml.get('generated_not_discovered', [])) or '-'}"
        )
        if "error" in toolset:
            lines.append(f"  toolset catalog failed: {toolset['error']}")
            continue
        lines.append(
            f"  toolset web_framework: {toolset.get('web_framework_tool_names', 0)} names, "
            f"{toolset.get('web_framework_generated_classes', 0)} generated classes resolved"
        )
        for driver in ("playwright-native", "playwright-electron"):
            resolved = toolset.get(f"resolveForDriver_{driver}", {})
            lines.append(
                f"  resolveForDriver {driver} {resolved.get('generated', 0)}/{n} "
                f"({resolved.get('tool_classes', 0)} tool classes in all)"
            )
    return lines


def check(
    checkout: Path,
    kotlin: Path,
    resources: Path,
    cache: str | None = None,
    commit: str | None = None,
    commit_file: str | None = None,
    client_dts: Path | None = None,
    chromium: str | None = None,
) -> dict:
    """Trailblaze's classes (built or reused), the shims under `kotlin` compiled with
    RuntimeCheck.kt against them, and RuntimeCheck's records with the generated `resources`
    ahead of Trailblaze's own on the classpath (`ahead`) and behind them (`behind`, YAML only);
    with `chromium`, the graduation check's cases too (`graduation`). Raises `build.Failure` (with its exit status) when a step fails."""
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="trailblaze-runtime-"))
    try:
        built = build.build(checkout, cache=cache, commit=commit, commit_file=commit_file)
        checkout = checkout.resolve()
        base_cp = [built["classes"], *built["classpath"].split(os.pathsep)]
        shims = sorted(str(p) for p in kotlin.rglob("*.kt"))
        shim_classes = work / "classes"
        compile_started = time.monotonic()
        build.kotlinc(
            built["compiler_classpath"],
            built["plugin"],
            os.pathsep.join(base_cp),
            shim_classes,
            [
                *shims,
                *(str(HERE / k) for k in ("RuntimeCheck.kt", "ClientDts.kt", "Graduation.kt")),
            ],
            work / "kotlinc.log",
        )
        compile_seconds = time.monotonic() - compile_started
        trailblaze_resources = [
            str(checkout / d) for d in build.RESOURCE_DIRS if (checkout / d).is_dir()
        ]
        run_started = time.monotonic()
        ahead, log_ahead = run_check(
            [str(shim_classes), str(resources), *trailblaze_resources, *base_cp],
            shim_classes,
            resources,
            yaml_only=False,
        )
        behind, log_behind = run_check(
            [str(shim_classes), *trailblaze_resources, str(resources), *base_cp],
            shim_classes,
            resources,
            yaml_only=True,
        )
        run_seconds = time.monotonic() - run_started
        graduation = None
        if chromium is not None:
            graduation = run_graduation(built, shim_classes, chromium, cache)
        written = None
        if client_dts is not None:
            written = write_client_dts(
                [str(shim_classes), *base_cp], shim_classes, resources, client_dts
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "ahead": ahead,
        "behind": behind,
        "built": built,
        "log_ahead": log_ahead,
        "log_behind": log_behind,
        "compile_seconds": compile_seconds,
        "run_seconds": run_seconds,
        "seconds": time.monotonic() - started,
        "client_dts": written,
        "graduation": graduation,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="a block/trailblaze work tree")
    parser.add_argument("--generated", help="the generator's --out folder")
    parser.add_argument(
        "--kotlin", help="the generated Kotlin folder (default OUT/trailblaze/kotlin)"
    )
    parser.add_argument(
        "--resources", help="the generated resources folder (default OUT/trailblaze/resources)"
    )
    parser.add_argument(
        "--json", help="where to write every result (default: a file in the temp folder)"
    )
    parser.add_argument(
        "--cache", help="Maven local repository (default $MAVEN_REPO_LOCAL or ~/.m2/repository)"
    )
    parser.add_argument(
        "--client-dts",
        help="also write the trailblaze-client.d.ts Trailblaze writes for the tools, under this "
        "trailmap folder",
    )
    parser.add_argument(
        "--chromium",
        help="also run the graduation check (Graduation.kt) with this Chromium executable",
    )
    parser.add_argument("--commit")
    parser.add_argument("--commit-file")
    args = parser.parse_args(argv)
    kotlin = Path(args.kotlin or (Path(args.generated or ".") / "trailblaze" / "kotlin"))
    resources = Path(args.resources or (Path(args.generated or ".") / "trailblaze" / "resources"))
    if not kotlin.is_dir() or not resources.is_dir():
        print(
            f"run.py: no generated Kotlin at {kotlin} or resources at {resources}", file=sys.stderr
        )
        return 2
    try:
        result = check(
            Path(args.checkout),
            kotlin,
            resources,
            args.cache,
            args.commit,
            args.commit_file,
            Path(args.client_dts) if args.client_dts else None,
            args.chromium,
        )
    except build.Failure as failure:
        print(failure, file=sys.stderr)
        return failure.status
    ahead, behind, built = result["ahead"], result["behind"], result["built"]
    checkout = Path(args.checkout).resolve()
    log_ahead, log_behind = result["log_ahead"], result["log_behind"]
    lines = summarize(ahead, behind)
    if result["graduation"] is not None:
        lines += summarize_graduation(result["graduation"])
    if result["client_dts"] is not None:
        lines.append(f"trailblaze-client.d.ts: {result['client_dts']}")
    lines.append(
        f"trailblaze classes {'compiled' if built['built'] else 'reused'} ({built['sources']} files + "
        f"{len(built['standins'])} stand-ins, commit {built['commit'] or 'unknown'}, {built['seconds']}s); "
        f"shims compiled in {result['compile_seconds']:.1f}s; checks ran in "
        f"{result['run_seconds']:.1f}s; {result['seconds']:.1f}s in all"
    )
    for problem in built["standin_problems"]:
        lines.append(f"stand-in DIFFERS: {problem}")
    out = (
        Path(args.json)
        if args.json
        else Path(tempfile.gettempdir()) / "trailblaze-runtime-report.json"
    )
    report = {
        "summary": lines,
        "checkout": str(checkout),
        "commit": built["commit"],
        "classes": built["classes"],
        "standins": built["standins"],
        "standin_problems": built["standin_problems"],
        "tools": [r for r in ahead if r.get("kind") == "tool"],
        "graduation": result["graduation"],
        "yaml": {
            "generated_ahead": [r for r in ahead if r.get("kind") in ("yaml", "toolset")],
            "generated_behind": [r for r in behind if r.get("kind") in ("yaml", "toolset")],
        },
        "trailblaze_log": {
            "generated_ahead": log_ahead.splitlines()[:400],
            "generated_behind": log_behind.splitlines()[:400],
        },
    }
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print("\n".join(lines))
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
