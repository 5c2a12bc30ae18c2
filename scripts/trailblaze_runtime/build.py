"""Compile Trailblaze's own run-time Kotlin sources from a block/trailblaze checkout (see README.md).

    .venv/bin/python scripts/trailblaze_runtime/build.py --checkout DIR [--commit SHA | --commit-file F]
                                                        [--cache MAVEN_REPO]

Compiles the files listed in sources.txt (plus standins/*.kt) with kotlinc and the
kotlinx-serialization plugin, against pinned Maven artifacts and the Playwright JAR (the one
`python -m generator.commands.resolve_jar` prints, or PLAYWRIGHT_VERSION=X.Y.Z), into a classes folder kept in the
Maven local repository (--cache, else $MAVEN_REPO_LOCAL, else ~/.m2/repository) under
.trailblaze-runtime/<key>/, the key hashing the checkout's commit (or, without one, the listed
files' contents), sources.txt, the stand-ins and the versions. A kept folder is reused. Prints
`classes=DIR` and `classpath=CP` (what the classes need to run). Exit 2: not a Trailblaze checkout
(a listed file is missing); 3: Maven or the compiler failed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SOURCES = HERE / "sources.txt"
STANDINS = HERE / "standins"

KOTLIN = "2.2.20"
VERSIONS = {
    "kotlin": KOTLIN,
    "kotlinx-serialization": "1.11.0",
    "kaml": "0.104.0",
    "kotlinx-coroutines": "1.10.2",
    "kotlinx-datetime": "0.7.1-0.6.x-compat",
    "koog": "1.0.0",
    "gson": "2.14.0",
    "jspecify": "1.0.0",
    "skiko": "0.144.6",
}
# Trailblaze's own resources (trails/config/...) of the modules compiled, relative to the checkout.
RESOURCE_DIRS = (
    "trailblaze-models/src/commonMain/resources",
    "trailblaze-common/src/commonMain/resources",
    "trailblaze-playwright/src/main/resources",
)
# Short-lived JVMs: the client compiler and one GC thread (as scripts/kotlin-check.sh).
SHORT_JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]


class Failure(Exception):
    """A one-line reason to stop, with its exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _dep(group: str, artifact: str, version: str, *, alone: bool = False) -> str:
    exclusions = (
        "<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>"
        if alone
        else ""
    )
    return (
        f"<dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
        f"<version>{version}</version>{exclusions}</dependency>"
    )


def runtime_dependencies(playwright_version: str | None = None) -> str:
    """What Trailblaze's compiled files (and the shims) need, as POM dependencies."""
    v = VERSIONS
    deps = [
        _dep("org.jetbrains.kotlin", "kotlin-stdlib", v["kotlin"]),
        _dep("org.jetbrains.kotlin", "kotlin-reflect", v["kotlin"]),
        _dep("org.jetbrains.kotlinx", "kotlinx-serialization-core-jvm", v["kotlinx-serialization"]),
        _dep("org.jetbrains.kotlinx", "kotlinx-serialization-json-jvm", v["kotlinx-serialization"]),
        _dep("com.charleskorn.kaml", "kaml-jvm", v["kaml"]),
        _dep("org.jetbrains.kotlinx", "kotlinx-coroutines-core-jvm", v["kotlinx-coroutines"]),
        _dep("org.jetbrains.kotlinx", "kotlinx-datetime-jvm", v["kotlinx-datetime"]),
        _dep("ai.koog", "agents-tools-jvm", v["koog"]),
        _dep("ai.koog", "prompt-model-jvm", v["koog"]),
        _dep("com.google.code.gson", "gson", v["gson"]),
        _dep("org.jspecify", "jspecify", v["jspecify"]),
        # PlaywrightScreenState encodes screenshots with Skia; its API only (no native library).
        _dep("org.jetbrains.skiko", "skiko-awt", v["skiko"], alone=True),
    ]
    if playwright_version:
        deps.append(_dep("com.microsoft.playwright", "playwright", playwright_version))
    return "".join(deps)


def maven_repo(cache: str | None) -> Path:
    return Path(cache or os.environ.get("MAVEN_REPO_LOCAL") or Path.home() / ".m2" / "repository")


def resolve(name: str, dependencies: str, repo: Path) -> str:
    """A classpath Maven resolves from a throwaway POM; kept (keyed by the POM) while its files exist."""
    pom = (
        '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
        f"<groupId>local.trailblaze-runtime</groupId><artifactId>{name}</artifactId>"
        f"<version>0</version><dependencies>{dependencies}</dependencies></project>\n"
    )
    kept = repo / ".trailblaze-runtime" / f"{hashlib.sha256(pom.encode()).hexdigest()[:32]}.cp"
    if kept.is_file():
        classpath = kept.read_text(encoding="utf-8").strip()
        if classpath and all(Path(p).is_file() for p in classpath.split(os.pathsep)):
            return classpath
    with tempfile.TemporaryDirectory(prefix="trailblaze-runtime-pom-") as work:
        (Path(work) / "pom.xml").write_text(pom, encoding="utf-8")
        out = Path(work) / "cp.txt"
        env = dict(os.environ, MAVEN_OPTS=os.environ.get("MAVEN_OPTS", " ".join(SHORT_JVM)))
        try:
            done = subprocess.run(
                [
                    "mvn",
                    "-B",
                    "-q",
                    "-Dstyle.color=never",
                    "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath",
                    f"-Dmdep.outputFile={out}",
                    f"-Dmaven.repo.local={repo}",
                ],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
            )
        except FileNotFoundError:
            raise Failure("build.py: mvn is not on PATH", 3) from None
        if done.returncode != 0 or not out.is_file():
            sys.stderr.write(done.stdout + done.stderr)
            raise Failure(f"build.py: mvn could not resolve the {name} classpath", 3)
        classpath = out.read_text(encoding="utf-8").strip()
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.{os.getpid()}")
    partial.write_text(classpath + "\n", encoding="utf-8")
    partial.replace(kept)
    return classpath


def compiler_classpaths(repo: Path) -> tuple[str, str]:
    """(the compiler's classpath, the serialization plugin JAR)."""
    compiler = resolve(
        "compiler", _dep("org.jetbrains.kotlin", "kotlin-compiler-embeddable", KOTLIN), repo
    )
    plugin_cp = resolve(
        "plugin",
        _dep("org.jetbrains.kotlin", "kotlin-serialization-compiler-plugin-embeddable", KOTLIN),
        repo,
    )
    plugin = next(
        p for p in plugin_cp.split(os.pathsep) if "kotlin-serialization-compiler-plugin" in p
    )
    return compiler, plugin


def playwright_jar() -> tuple[str | None, str | None]:
    """(a JAR path to add, or None; the published version Maven adds with its driver, or None)."""
    version = os.environ.get("PLAYWRIGHT_VERSION")
    if version:
        return None, version
    python = os.environ.get("PYTHON") or str(ROOT / ".venv" / "bin" / "python")
    done = subprocess.run(
        [python, "-m", "generator.commands.resolve_jar"], cwd=ROOT, capture_output=True, text=True
    )
    jar = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    if done.returncode != 0 or not Path(jar).is_file():
        sys.stderr.write(done.stderr)
        raise Failure("run.py: the Playwright JAR could not be resolved (above)", 3)
    return jar, None


def listed_sources() -> list[str]:
    return [
        line.strip()
        for line in SOURCES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


def fragment(path: str) -> str:
    """The Kotlin multiplatform source set a file belongs to (commonMain < jvmAndAndroid < jvm)."""
    if "/commonMain/" in path:
        return "common"
    if "/jvmAndAndroid/" in path:
        return "jvmAndAndroid"
    return "jvm"


def _standin_fragment(text: str) -> str:
    found = re.search(r"Stand-in for Trailblaze's (\S+)", text)
    return fragment(found.group(1)) if found else "jvm"


def kotlinc(
    compiler_cp: str, plugin: str, classpath: str, out: Path, args: list[str], log: Path
) -> None:
    """Run K2JVMCompiler; a failure prints its errors and raises."""
    argfile = out.parent / f"{out.name}.args"
    argfile.write_text("\n".join(_quote(a) for a in args) + "\n", encoding="utf-8")
    with log.open("w", encoding="utf-8") as sink:
        done = subprocess.run(
            [
                "java",
                *SHORT_JVM,
                "-cp",
                compiler_cp,
                "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
                "-no-stdlib",
                "-no-reflect",
                "-jvm-target",
                "17",
                f"-Xplugin={plugin}",
                "-classpath",
                classpath,
                "-d",
                str(out),
                f"@{argfile}",
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    text = log.read_text(encoding="utf-8", errors="replace")
    errors = [line for line in text.splitlines() if re.search(r"(^|: )(error|exception):", line)]
    if done.returncode != 0 or errors:
        sys.stderr.write("\n".join(errors[:60] or text.splitlines()[-40:]) + "\n")
        raise Failure(f"build.py: kotlinc failed (log: {log})", 3)


def _quote(arg: str) -> str:
    return (
        '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if re.search(r'[\s"\\]', arg)
        else arg
    )


def checkout_commit(checkout: Path, commit: str | None, commit_file: str | None) -> str | None:
    if commit:
        return commit.strip()
    if commit_file:
        return Path(commit_file).read_text(encoding="utf-8").strip() or None
    try:
        done = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True
        )
    except FileNotFoundError:
        return None
    head = done.stdout.strip()
    if done.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", head):
        # Only when DIR is the top of its own work tree (not a folder inside another repository).
        top = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        if top and Path(top).resolve() == checkout.resolve():
            return head
    return None


def check_standins(checkout: Path) -> list[str]:
    """Each stand-in's code lines are lines of the Trailblaze file it names (as trailblaze_check.py)."""
    problems = []
    for stand_in in sorted(STANDINS.glob("*.kt")):
        text = stand_in.read_text(encoding="utf-8")
        named = stand_in_header(text)
        if named is None:
            problems.append(f"{stand_in.name}: names no Trailblaze file and commit")
            continue
        real_file = checkout / named[0]
        if not real_file.is_file():
            problems.append(f"{stand_in.name}: {named[0]} is not in the checkout")
            continue
        missing = missing_lines(text, real_file.read_text(encoding="utf-8"))
        if missing:
            problems.append(f"{stand_in.name}: not in {named[0]}: {' | '.join(missing)}")
    return problems


def stand_in_header(text: str) -> tuple[str, str] | None:
    """The Trailblaze file and commit a stand-in's first lines name, or None."""
    found = re.search(
        r"Stand-in for Trailblaze's (\S+)\n// at block/trailblaze@([0-9a-f]{40})", text
    )
    return (found.group(1), found.group(2)) if found else None


def missing_lines(stand_in: str, real: str) -> list[str]:
    """The code lines of `stand_in` that are no line of `real` (a class head `class X` also
    matches `class X(`): a stand-in holds only lines copied from the file it names."""
    lines = code_lines(real)
    return [
        line
        for line in code_lines(stand_in)
        if line not in lines and not any(r.startswith(line + "(") for r in lines)
    ]


def code_lines(text: str) -> list[str]:
    """The stripped lines of Kotlin text that are neither blank nor comments."""
    lines, in_doc = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if in_doc:
            in_doc = "*/" not in line
            continue
        if line.startswith("/*"):
            in_doc = "*/" not in line
            continue
        if line and not line.startswith("//"):
            lines.append(line)
    return lines


def build(
    checkout: Path,
    *,
    cache: str | None = None,
    commit: str | None = None,
    commit_file: str | None = None,
    quiet: bool = False,
) -> dict:
    """Compile (or reuse) Trailblaze's classes; returns classes, classpath and the compiler's paths."""
    checkout = checkout.resolve()
    sources = listed_sources()
    missing = [s for s in sources if not (checkout / s).is_file()]
    if missing:
        raise Failure(
            f"build.py: {checkout} has no {missing[0]} (and {len(missing) - 1} more listed files): "
            "pass a block/trailblaze work tree with --checkout",
            2,
        )
    repo = maven_repo(cache)
    compiler_cp, plugin = compiler_classpaths(repo)
    jar, playwright_version = playwright_jar()
    runtime_cp = resolve("runtime", runtime_dependencies(playwright_version), repo)
    compile_cp = os.pathsep.join([*([jar] if jar else []), runtime_cp])

    sha = checkout_commit(checkout, commit, commit_file)
    key = hashlib.sha256()
    key.update(f"commit={sha}\n".encode())
    # The listed files themselves too, whatever the commit says: a patched copy of a checkout
    # (`trailblaze_check.py --api 2026.07.21+map-json`) has the commit of the one it copies.
    for s in sources:
        key.update(s.encode() + b"\0" + (checkout / s).read_bytes())
    key.update(SOURCES.read_bytes())
    for stand_in in sorted(STANDINS.glob("*.kt")):
        key.update(stand_in.name.encode() + b"\0" + stand_in.read_bytes())
    key.update(repr(sorted(VERSIONS.items())).encode())
    key.update(f"playwright={jar or playwright_version}\n".encode())
    folder = repo / ".trailblaze-runtime" / key.hexdigest()[:32]
    classes = folder / "classes"
    built = False
    started = time.monotonic()
    if not (folder / "done").is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
        try:
            fragment_sources = [f"{fragment(s)}:{checkout / s}" for s in sources]
            standin_files = sorted(STANDINS.glob("*.kt"))
            fragment_sources += [
                f"{_standin_fragment(p.read_text(encoding='utf-8'))}:{p}" for p in standin_files
            ]
            args = [
                "-Xmulti-platform",
                "-Xexpect-actual-classes",
                "-Xfragments=common,jvmAndAndroid,jvm",
                "-Xfragment-refines=jvmAndAndroid:common,jvm:jvmAndAndroid",
                "-Xfragment-sources=" + ",".join(fragment_sources),
                *[str(checkout / s) for s in sources],
                *[str(p) for p in standin_files],
            ]
            kotlinc(compiler_cp, plugin, compile_cp, work / "classes", args, work / "kotlinc.log")
            (work / "commit").write_text(f"{sha or 'unknown'}\n", encoding="utf-8")
            (work / "done").write_text("", encoding="utf-8")
            try:
                work.rename(folder)
            except OSError:  # another build got there first: keep its folder
                shutil.rmtree(work, ignore_errors=True)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        built = True
    result = {
        "classes": str(classes),
        "classpath": compile_cp,
        "playwright_jar": jar,
        "compiler_classpath": compiler_cp,
        "plugin": plugin,
        "commit": sha,
        "built": built,
        "seconds": round(time.monotonic() - started, 1),
        "sources": len(sources),
        "standins": [p.name for p in sorted(STANDINS.glob("*.kt"))],
        "standin_problems": check_standins(checkout),
    }
    if not quiet:
        for problem in result["standin_problems"]:
            print(f"stand-in DIFFERS: {problem}", file=sys.stderr)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="a block/trailblaze work tree")
    parser.add_argument(
        "--cache", help="Maven local repository (default $MAVEN_REPO_LOCAL or ~/.m2/repository)"
    )
    parser.add_argument("--commit", help="the checkout's commit (else git rev-parse HEAD of DIR)")
    parser.add_argument("--commit-file", help="a file holding the checkout's commit")
    args = parser.parse_args(argv)
    try:
        result = build(
            Path(args.checkout), cache=args.cache, commit=args.commit, commit_file=args.commit_file
        )
    except Failure as failure:
        print(failure, file=sys.stderr)
        return failure.status
    print(
        f"{'compiled' if result['built'] else 'reused'} {result['sources']} Trailblaze files + "
        f"{len(result['standins'])} stand-ins (commit {result['commit'] or 'unknown'}) in {result['seconds']}s"
    )
    print(f"classes={result['classes']}")
    print(f"classpath={result['classpath']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
