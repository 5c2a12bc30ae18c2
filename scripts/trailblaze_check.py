"""Holds what the generator assumes of Trailblaze to a Trailblaze checkout.

    python scripts/trailblaze_check.py --against DIR [--api RELEASE]

DIR is a work tree of block/trailblaze (the commit the API setting names, or another to see what
changed). Checked, each a line `ok ...` or `DIFFERS ...`; exit status 1 on any difference:

- the stand-ins in scripts/kotlin-check/<api>/: each names a Trailblaze file, and every line of
  it (declarations, signatures, parameters) is a line of that file (a class head `class X` also
  matches `class X(`); the abstract members of Trailblaze's interfaces the shims implement are
  all in the stand-ins (a shim must implement them);
- the API setting (generator/render/kotlin/trailblaze_api.py): its interface, context, result and annotation
  classes are declared where their names say, the annotation has the LLM-visibility parameter,
  the descriptor and toolset folders exist, and `builtins` is every tool name of the checkout;
- the descriptor keys the `trailblaze` output writes (`id`, `class`) are `ToolYamlConfig`
  properties, and `id` is its one property without a default;
- the toolset keys it writes are `ToolSetYamlConfig` properties;
- the TypeScript SDK declares `interface TrailblazeToolMap`, the augmentation's target;
- (unless --no-runtime) Trailblaze's own run-time code, compiled from the checkout
  (scripts/trailblaze_runtime/: the descriptor builders, `TrailblazeJsonInstance`'s decoding,
  `ToolYamlLoader`, `TrailblazeToolSetCatalog`), over every tool the generator writes for this
  API setting: every tool described (`buildToolDescriptorIgnoringSurface`,
  `toScriptedToolDescriptor`), every enum value the descriptor lists and every Playwright wire
  string decoded and round-tripped, every descriptor loaded, and the generated toolset resolved
  for both Playwright drivers with the generated resources ahead of Trailblaze's own; and, with
  a Chromium (`--chromium PATH`, else `chromium` on PATH), the graduation check: the same JSON
  decoded into each hand-written `PlaywrightNative*Tool` an allowlist entry replaces and into the
  generated class, both run on a page, with the same result text, errors and page afterwards
  (scripts/trailblaze_runtime/Graduation.kt; a difference docs/generator.md explains is a note);
- (unless --no-bundle) one TypeScript surface: the `trailblaze-client.d.ts` Trailblaze's own
  `WorkspaceClientDtsGenerator` writes for the generated tools (compiled from the checkout) types
  scripts/trailblaze_runtime/client_usage.ts against the SDK's own declaration bundle, built as
  Trailblaze builds it (the SDK's pinned dependencies installed with npm into a copy of
  sdks/typescript, `dts-bundle-generator --external-inlines zod @modelcontextprotocol/sdk
  --no-check src/index.ts` with runtime-globals.d.ts appended), under the SDK's own `tsc` with the
  compiler options Trailblaze writes into a trailmap's tsconfig.json but `skipLibCheck: false`;
  and without those entries the same file must fail.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.render.kotlin.trailblaze_api import APIS, DEFAULT_API, TrailblazeApi  # noqa: E402

# The run-time harness beside this script (its build and run modules).
sys.path.insert(0, str(ROOT / "scripts" / "trailblaze_runtime"))
import build  # noqa: E402
import run  # noqa: E402

# The keys the `trailblaze` kind writes (templates/trailblaze_tool.yaml.j2, _toolset.yaml.j2).
DESCRIPTOR_KEYS = ("id", "class")
TOOLSET_KEYS = ("id", "description", "always_enabled", "drivers", "tools")
TOOL_YAML_CONFIG = (
    "trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze/config/ToolYamlConfig.kt"
)
TOOLSET_YAML_CONFIG = (
    "trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze/config/ToolSetYamlConfig.kt"
)
TS_CLIENT = "sdks/typescript/src/client.ts"
# The interface a trailmap's `trailblaze-client.d.ts` (Trailblaze's own) adds its entries to.
TRAILBLAZE_TS_INTERFACE = "TrailblazeToolMap"
# The interfaces a shim implements: each abstract member must be in the stand-ins.
IMPLEMENTED = (
    "PlaywrightExecutableTool.kt",
    "ExecutableTrailblazeTool.kt",
    "TrailblazeTool.kt",
    "ReasoningTrailblazeTool.kt",
)
_TOOL_CLASS = re.compile(r'@TrailblazeToolClass\(\s*(?:name\s*=\s*)?"([A-Za-z][A-Za-z0-9_]*)"')
_TEST_DIR = re.compile(r"/(test|jvmTest|commonTest|androidTest|jvmAndAndroidTest)/")


class Report:
    """The lines printed, and whether any said DIFFERS."""

    def __init__(self) -> None:
        self.failed = False

    def ok(self, what: str) -> None:
        print(f"ok       {what}")

    def differs(self, what: str) -> None:
        self.failed = True
        print(f"DIFFERS  {what}")


def stand_ins(api: TrailblazeApi, checkout: Path, report: Report) -> None:
    folder = ROOT / "scripts" / "kotlin-check" / api.release
    for stand_in in sorted(folder.glob("*.kt")):
        text = stand_in.read_text(encoding="utf-8")
        named = build.stand_in_header(text)
        shown = f"{stand_in.relative_to(ROOT)}"
        if named is None:
            report.differs(f"{shown}: names no Trailblaze file and commit")
            continue
        path, commit = named
        if commit != api.commit:
            report.differs(f"{shown}: mirrors {commit}, the API setting {api.commit}")
        real_file = checkout / path
        if not real_file.is_file():
            report.differs(f"{shown}: {path} is not in the checkout")
            continue
        missing = build.missing_lines(text, real_file.read_text(encoding="utf-8"))
        if missing:
            report.differs(f"{shown}: not in {path}: {' | '.join(missing)}")
        else:
            report.ok(f"{shown} = {path}")
        if stand_in.name in IMPLEMENTED:
            _abstract_members(shown, real_file.read_text(encoding="utf-8"), text, report)


def _abstract_members(shown: str, real: str, stand_in: str, report: Report) -> None:
    """Every abstract `fun`/`val` of the real interface (no body, no getter) is in the stand-in."""
    body = real[real.index("\ninterface ") + 1 :] if "\ninterface " in real else ""
    depth, members, current = 0, [], ""
    for line in body.splitlines()[1:]:
        stripped = line.strip()
        if depth == 0 and (current or re.match(r"(suspend )?(fun|val) ", stripped)):
            current += " " + stripped
            if current.count("(") == current.count(")") and not stripped.endswith(","):
                if "{" not in current and "=" not in current and "get()" not in current:
                    members.append(re.sub(r"\s+", " ", current.strip()))
                current = ""
        depth += line.count("{") - line.count("}")
        if depth < 0:
            break
    flat = re.sub(r"\s+", " ", stand_in).replace("( ", "(").replace(", )", ")")
    for member in members:
        normal = member.replace("( ", "(").replace(", )", ")")
        if normal not in flat:
            report.differs(f"{shown}: the abstract member `{member}` is not stood in")


def api_setting(api: TrailblazeApi, checkout: Path, report: Report) -> None:
    sources = {
        p: p.read_text(encoding="utf-8", errors="replace")
        for p in checkout.rglob("*.kt")
        if not _TEST_DIR.search(str(p))
    }
    for role, qualified in (
        ("interface", api.tool_interface),
        ("context", api.context),
        ("result", api.result),
        ("annotation", api.annotation),
    ):
        package, name = qualified.rsplit(".", 1)
        declared = [
            p
            for p, t in sources.items()
            if f"package {package}\n" in t
            and re.search(rf"^(sealed |data |annotation )*(interface|class) {name}\b", t, re.M)
        ]
        if declared:
            report.ok(f"{role} {qualified}")
        else:
            report.differs(f"{role} {qualified} is declared nowhere in the checkout")
        if role == "annotation" and declared:
            text = sources[declared[0]]
            if not re.search(rf"\bval {api.llm_flag}: Boolean", text):
                report.differs(f"annotation {name} has no parameter {api.llm_flag}")
            else:
                report.ok(f"annotation parameter {api.llm_flag}")
        if role == "interface" and declared:
            if f"suspend fun {api.member}(" not in sources[declared[0]]:
                report.differs(f"{name} has no member {api.member}")
            else:
                report.ok(f"member {api.member}")
    for folder in (api.tools_dir, api.toolsets_dir):
        if any(p.is_dir() for p in checkout.glob(f"*/src/main/resources/{folder}")):
            report.ok(f"resource folder {folder}")
        else:
            report.differs(f"no module has the resource folder {folder}")
    names = {m.group(1) for t in sources.values() for m in _TOOL_CLASS.finditer(t)}
    if names == set(api.builtins):
        report.ok(f"builtins: the {len(names)} tool names of the checkout")
    else:
        added, gone = sorted(names - api.builtins), sorted(api.builtins - names)
        report.differs(f"builtins: the checkout adds {added or 'none'}, drops {gone or 'none'}")


def _properties(path: Path) -> dict[str, bool]:
    """A `@Serializable data class`'s YAML keys (its @SerialName or property name), each with
    whether it has a default."""
    text = path.read_text(encoding="utf-8")
    head = re.search(r"data class \w+\((.*?)\n\)", text, re.S)
    keys: dict[str, bool] = {}
    for line in (head.group(1) if head else "").splitlines():
        found = re.search(
            r'(?:@SerialName\("([^"]+)"\)\s*)?val (\w+):[^=]*?(=)?[^=]*$', line.strip()
        )
        if found and not line.strip().startswith("*"):
            keys[found.group(1) or found.group(2)] = found.group(3) is not None
    return keys


def yaml_keys(checkout: Path, report: Report) -> None:
    for what, path, written in (
        ("descriptor", TOOL_YAML_CONFIG, DESCRIPTOR_KEYS),
        ("toolset", TOOLSET_YAML_CONFIG, TOOLSET_KEYS),
    ):
        file = checkout / path
        if not file.is_file():
            report.differs(f"{what}: {path} is not in the checkout")
            continue
        keys = _properties(file)
        unknown = [k for k in written if k not in keys]
        required = sorted(k for k, has_default in keys.items() if not has_default)
        if unknown:
            report.differs(f"{what} keys {unknown} are not properties of {file.stem}")
        elif not set(required) <= set(written):
            report.differs(f"{what}: {file.stem} requires {required}; written {list(written)}")
        else:
            report.ok(f"{what} keys {', '.join(written)} (required: {', '.join(required)})")


def typescript(checkout: Path, report: Report) -> None:
    client = checkout / TS_CLIENT
    text = client.read_text(encoding="utf-8") if client.is_file() else ""
    if f"export interface {TRAILBLAZE_TS_INTERFACE} {{}}" in text:
        report.ok(f"TypeScript SDK declares interface {TRAILBLAZE_TS_INTERFACE}")
    else:
        report.differs(f"{TS_CLIENT} declares no (empty) interface {TRAILBLAZE_TS_INTERFACE}")


# What the bundle needs of the SDK's package.json (its dependencies and the two build tools).
BUNDLE_PACKAGES = (
    "@modelcontextprotocol/sdk",
    "zod",
    "ajv",
    "dts-bundle-generator",
    "typescript",
    "@types/node",
)
# The compiler options of a trailmap's tsconfig.json (PerTrailmapTsconfigEmitter.kt).
TRAILMAP_OPTIONS = {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "lib": ["ES2022"],
    "strict": True,
    "esModuleInterop": True,
    "skipLibCheck": True,
    "resolveJsonModule": True,
    "noEmit": True,
    "allowJs": True,
    "checkJs": False,
    "types": [],
}


def _run(command: list[str], cwd: Path, what: str, timeout: int = 900) -> str | None:
    """None when `command` succeeds, else the end of its output."""
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode == 0:
        return None
    return f"{what} failed (exit {done.returncode}): {(done.stdout + done.stderr)[-1500:]}"


def _generate(api: TrailblazeApi, out: Path) -> str | None:
    """The `trailblaze` kind for `api` into `out` with this checkout's generator: None, or why not."""
    command = [sys.executable, "-m", "generator", "--outputs", "trailblaze", "--trailblaze-api",
               api.name, "--out", str(out), "-q"]  # fmt: skip
    return _run(command, ROOT, "python -m generator")


def sdk_bundle(api: TrailblazeApi, checkout: Path, report: Report) -> None:
    """Trailblaze's own entries for the generated tools against the SDK's real declaration
    bundle (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="trailblaze-sdk-") as scratch:
        work = Path(scratch)
        sdk = work / "sdk"
        shutil.copytree(
            checkout / "sdks" / "typescript", sdk, ignore=shutil.ignore_patterns("node_modules")
        )
        package = json.loads((sdk / "package.json").read_text(encoding="utf-8"))
        pins = {**package.get("dependencies", {}), **package.get("devDependencies", {})}
        wanted = [f"{name}@{pins[name]}" for name in BUNDLE_PACKAGES if name in pins]
        # Only these packages: the SDK's others (language servers, esbuild) are not for the bundle.
        (sdk / "package.json").write_text('{"private": true, "type": "module"}', encoding="utf-8")
        npm = ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"]
        failed = _run([*npm, *wanted], sdk, "npm install")
        (sdk / "package.json").write_text(json.dumps(package), encoding="utf-8")
        bundle = sdk / "dist" / "index.d.ts"
        failed = failed or _run(
            [
                "node",
                str(sdk / "node_modules/dts-bundle-generator/dist/bin/dts-bundle-generator.js"),
                "--external-inlines",
                "zod",
                "@modelcontextprotocol/sdk",
                "--no-check",
                "--out-file",
                str(bundle),
                "src/index.ts",
            ],
            sdk,
            "dts-bundle-generator",
        )
        if failed:
            report.differs(f"SDK bundle: {failed}")
            return
        with bundle.open("a", encoding="utf-8") as out:
            out.write("\n" + (sdk / "runtime-globals.d.ts").read_text(encoding="utf-8"))
        generated = work / "out"
        failed = _generate(api, generated)
        if failed:
            report.differs(f"SDK bundle: {failed}")
            return
        # Trailblaze's own entries for the generated tools, as its daemon writes them.
        written = _client_dts(api, checkout, generated, work / "trailmap", report)
        if written is None:
            return
        tsc = [str(sdk / "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"]
        fine = True
        for with_entries in (True, False):
            trailmap = work / ("trailmap" if with_entries else "bare")
            (trailmap / "tools").mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / "scripts" / "trailblaze_runtime" / "client_usage.ts", trailmap)
            if not with_entries:
                (trailmap / "tools" / written.name).unlink(missing_ok=True)
            # The trailmap's compiler options, but every declaration file checked: a second
            # declaration of an entry with another type (TS2717) would show.
            options = {
                **TRAILMAP_OPTIONS,
                "skipLibCheck": False,
                "paths": {"@trailblaze/scripting": [str(bundle)[:-5]]},
            }
            config = {"compilerOptions": options, "include": ["**/*.ts"]}
            (trailmap / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
            failed = _tsc_outside(["node", *tsc], trailmap, bundle)
            if with_entries and failed:
                fine = False
                report.differs(f"Trailblaze's own entries against the SDK's bundle: {failed}")
            elif not with_entries and not failed:
                fine = False
                report.differs("without Trailblaze's entries the calls type-check too")
        if fine:
            report.ok(
                "Trailblaze's own trailblaze-client.d.ts for the generated tools type-checks the "
                "calls against the SDK's dts-bundle-generator bundle (TypeScript "
                f"{pins.get('typescript')}, skipLibCheck false), and the calls fail without it"
            )


def _tsc_outside(command: list[str], cwd: Path, bundle: Path) -> str | None:
    """`tsc`'s errors but those inside the SDK's own bundle (which, checked, has some of its own:
    its inlined zod), and any TS2717 wherever it is; None when there are none."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    lines = (done.stdout + done.stderr).splitlines()
    errors = [line for line in lines if "error TS" in line]
    ours = [
        line
        for line in errors
        if "TS2717" in line or not line.startswith(os.path.relpath(bundle, cwd))
    ]
    if done.returncode == 0 or (errors and not ours):
        return None
    return f"tsc: {' / '.join(ours or lines[-5:])[-1500:]}"


def _run_over(
    checkout: Path, generated: Path, report: Report, what: str, **options: Any
) -> dict | None:
    """`run.check` over the Trailblaze output of a generator `--out` folder (`options` as it
    takes them), or None when a step failed: then one DIFFERS line, `what` naming the step."""
    try:
        return run.check(
            checkout,
            generated / "trailblaze" / "kotlin",
            generated / "trailblaze" / "resources",
            **options,
        )
    except build.Failure as failure:
        report.differs(f"{what}: {failure}")
        return None


def _client_dts(
    api: TrailblazeApi, checkout: Path, generated: Path, trailmap: Path, report: Report
) -> Path | None:
    """The `trailblaze-client.d.ts` Trailblaze's `WorkspaceClientDtsGenerator` writes for the
    tools under `generated` (scripts/trailblaze_runtime/ClientDts.kt), or None (said)."""
    found = _run_over(
        checkout, generated, report, "Trailblaze's client.d.ts writer", client_dts=trailmap
    )
    if found is None:
        return None
    written = found["client_dts"]
    if written["skipped"]:
        report.differs(f"Trailblaze writes no entry for {', '.join(written['skipped'])}")
    return Path(written["file"])


def runtime(
    api: TrailblazeApi, checkout: Path, report: Report, chromium: str | None = None
) -> None:
    """Trailblaze's own run-time code over the tools generated for `api` (module docstring);
    with `chromium`, the graduation check too."""
    harness = ROOT / "scripts" / "trailblaze_runtime"
    made_for = {
        found.group(1)
        for stand_in in (harness / "standins").glob("*.kt")
        if (found := re.search(r"// at block/trailblaze@([0-9a-f]{40})", stand_in.read_text()))
    }
    if made_for != {api.commit}:
        # sources.txt is the closure at one commit; another release's files differ.
        print(
            f"note     run time: scripts/trailblaze_runtime/ is made for block/trailblaze@"
            f"{', '.join(sorted(made_for))}; not run for {api.name}"
        )
        return
    with tempfile.TemporaryDirectory(prefix="trailblaze-runtime-") as scratch:
        out = Path(scratch) / "out"
        failed = _generate(api, out)
        if failed:
            report.differs(f"run time: {failed}")
            return
        found = _run_over(checkout, out, report, "run time", chromium=chromium)
        if found is None:
            return
    tools = [r for r in found["ahead"] if r.get("kind") == "tool"]
    undescribed = [t for t in tools if t.get("descriptor") != "ok" or not t.get("scripted")]
    if undescribed:
        names = ", ".join(t["tool"] for t in undescribed)
        why = sorted({str(t.get("error") or t["descriptor"]).strip()[:120] for t in undescribed})
        report.differs(
            f"Trailblaze describes {len(tools) - len(undescribed)}/{len(tools)} tools; not "
            f"{names} ({'; '.join(why)}): generate with an --trailblaze-api this Trailblaze "
            "describes, or apply that setting's patch"
        )
    else:
        report.ok(f"Trailblaze describes every tool: {len(tools)}/{len(tools)}")
    for key, what in (
        ("enum_descriptor_values", "enum values the descriptor lists"),
        ("enum_wire_strings", "Playwright's wire strings"),
        ("enum_round_trip", "decoded values, encoded and decoded again,"),
    ):
        done = sum(t.get(key, {}).get("ok", 0) for t in tools)
        total = done + sum(t.get(key, {}).get("failed", 0) for t in tools)
        first = next(
            (t[key]["first_failure"] for t in tools if t.get(key, {}).get("first_failure")), None
        )
        if first or total == 0:
            report.differs(f"{what} decoded {done}/{total}: {first or 'no enum at all'}")
        else:
            report.ok(f"{what} decoded by TrailblazeJsonInstance: {done}/{total}")
    yaml_record = next((r for r in found["ahead"] if r.get("kind") == "yaml"), {})
    loaded = yaml_record.get("loaded", {})
    if loaded.get("failed") or not loaded.get("ok"):
        report.differs(f"ToolYamlLoader loads {loaded.get('ok', 0)}/{yaml_record.get('files', 0)} "
                       f"descriptors: {loaded.get('first_failure')}")  # fmt: skip
    else:
        report.ok(f"ToolYamlLoader loads every descriptor: {loaded['ok']}/{yaml_record['files']}")
    toolset = next((r for r in found["ahead"] if r.get("kind") == "toolset"), {})
    listed = toolset.get("web_framework_tool_names", 0)
    for driver in api.drivers:
        resolved = toolset.get(f"resolveForDriver_{driver}", {}).get("generated", 0)
        if not listed or resolved != listed or toolset.get("web_framework_unresolved"):
            report.differs(
                f"resolveForDriver({driver}) resolves {resolved} of the toolset's {listed} tools"
                f" {toolset.get('error') or toolset.get('web_framework_unresolved') or ''}".rstrip()
            )
        else:
            report.ok(f"TrailblazeToolSetCatalog.resolveForDriver({driver}): {resolved}/{listed}")
    if found["graduation"] is not None:
        graduation(found["graduation"], report)
    behind = next((r for r in found["behind"] if r.get("kind") == "toolset"), {})
    if behind.get("web_framework_generated_classes", 0) < listed:
        # Not a difference: where the resources go is the consumer's choice; say what it costs.
        print(
            "note     with the generated resources behind Trailblaze's own on the classpath, "
            "Trailblaze's web_framework.yaml and web_evaluate.tool.yaml shadow them "
            f"({behind.get('web_framework_generated_classes', 0)} tools resolve): put them ahead"
        )


def graduation(cases: list[dict], report: Report) -> None:
    """The graduation check's cases (run.run_graduation): one ok line, or a DIFFERS line per case
    whose text, error or page differs; a difference the docs explain is a note."""
    lines = run.summarize_graduation(cases)
    bad = [c for c in cases if not c.get("same") and not c.get("documented")]
    if bad:
        report.differs(f"{lines[0]}:" + " /".join(lines[1:]))
        return
    report.ok(lines[0])
    for line in lines[1:]:
        print(f"note     {line}")


def patched_copy(api: TrailblazeApi, checkout: Path, into: Path) -> str | None:
    """Copies `checkout` to `into` and applies the API setting's patch there (the checkout itself
    is left as it is); why it could not (one line), or None."""
    patch = ROOT / api.patch
    shutil.copytree(checkout, into, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    done = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", str(patch)],
        cwd=into,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return None
    first = (done.stderr.strip().splitlines() or ["git apply failed"])[0]
    return (
        f"--against {checkout}: {api.patch} does not apply ({first}); it is made for "
        f"block/trailblaze@{api.commit}: check that commit out, or use --api {api.release}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="a block/trailblaze work tree")
    parser.add_argument("--api", default=DEFAULT_API, help=f"one of {', '.join(sorted(APIS))}")
    parser.add_argument(
        "--no-runtime",
        action="store_true",
        help="skip compiling Trailblaze's run-time code and running it over the tools",
    )
    parser.add_argument(
        "--chromium",
        default=shutil.which("chromium"),
        help="the Chromium the graduation check runs (default: chromium on PATH; none: not run)",
    )
    parser.add_argument(
        "--no-bundle",
        action="store_true",
        help="skip building the SDK's declaration bundle (npm install, dts-bundle-generator)",
    )
    args = parser.parse_args(argv)
    if args.api not in APIS:
        print(
            f"--api {args.api}: unknown; choose one of {', '.join(sorted(APIS))}", file=sys.stderr
        )
        return 2
    if not (args.against / "trailblaze-models").is_dir():
        print(
            f"--against {args.against}: not a Trailblaze work tree (no trailblaze-models/)",
            file=sys.stderr,
        )
        return 2
    api = APIS[args.api]
    print(f"Trailblaze API {api.name} (block/trailblaze@{api.commit}) against {args.against}")
    with tempfile.TemporaryDirectory(prefix="trailblaze-check-") as scratch:
        checkout = args.against
        if api.patch:
            checkout = Path(scratch) / "patched"
            problem = patched_copy(api, args.against, checkout)
            if problem:
                print(problem, file=sys.stderr)
                return 2
            print(f"ok       {api.patch} applies to a copy of the checkout")
        return _check(api, args, checkout)


def _check(api: TrailblazeApi, args: argparse.Namespace, checkout: Path) -> int:
    """Every check of the module docstring against `checkout`; the exit status."""
    args.against = checkout
    report = Report()
    stand_ins(api, args.against, report)
    api_setting(api, args.against, report)
    yaml_keys(args.against, report)
    typescript(args.against, report)
    if not args.no_runtime:
        if args.chromium is None:
            print("note     graduation check: not run (no Chromium: give --chromium PATH)")
        runtime(api, args.against, report, args.chromium)
    if not args.no_bundle:
        sdk_bundle(api, args.against, report)
    print("differences found" if report.failed else "no differences")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
