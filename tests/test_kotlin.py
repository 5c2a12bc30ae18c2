"""The `kotlin` output kind (issue 26): Kotlin shims for Trailblaze, off by default.

A golden snapshot of a handful of shims; keyword escaping and refusal on hand-made IR; and (marked
`kotlin`, slow: it fetches the compiler through mvn) the compile check of every shim against the
real Playwright JAR with `scripts/kotlin-check.sh`."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, generate, read_tree
from ir_tools import page_tool
from syrupy.assertion import SnapshotAssertion
from ts_check import compiler_options, run_tsc

from generator.ir import Tool, ToolParam
from generator.type_tree import AnyJson, EnumOf, LocatorSelector, MapOf, OneOf, Scalar
from generator.writers.kotlin import KotlinSettings, Refusal, kotlin_tool

KOTLIN_ROOT = "kotlin/xyz/block/trailblaze/playwright/generated"
SNAPSHOT_TOOLS = (
    "GeneratedSetExtraHTTPHeadersTool",
    "GeneratedLocatorPressTool",
    "GeneratedContextCloseTool",
    "GeneratedMouseClickTool",
    "GeneratedTitleTool",
    "GeneratedEvaluateTool",
    "GeneratedLocatorAndTool",
    "GeneratedJson",
)


@pytest.fixture(scope="module")
def kotlin_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kotlin")
    assert generate(out, None, "--outputs", "all") == 0
    return out


def test_default_run_writes_no_kotlin(generated_tree: Path) -> None:
    assert not (generated_tree / "kotlin").exists()


def test_extra_kinds_add_only_their_files(generated_tree: Path, kotlin_tree: Path) -> None:
    """`--outputs all` is the default tree plus the Kotlin shims and the Trailblaze .d.ts."""
    default, everything = read_tree(generated_tree), read_tree(kotlin_tree)
    extra = set(everything) - set(default)
    assert "typescript/trailblaze-tools.d.ts" in extra
    extra.remove("typescript/trailblaze-tools.d.ts")
    assert extra and all(n.startswith(f"{KOTLIN_ROOT}/") and n.endswith(".kt") for n in extra)
    # SURFACE.md and manifest.json record the Kotlin shims when they are written, and only then.
    common = set(default) - {".generated-files", "SURFACE.md", "manifest.json"}
    assert {n: everything[n] for n in common} == {n: default[n] for n in common}
    assert everything["SURFACE.md"].startswith(default["SURFACE.md"])
    assert b"\n## Kotlin shims\n" in everything["SURFACE.md"][len(default["SURFACE.md"]) :]
    recorded = json.loads(everything["manifest.json"])
    kotlin = recorded.pop("kotlin")
    assert recorded == json.loads(default["manifest.json"])
    shims = {n for n in extra if not n.endswith("/GeneratedJson.kt")}
    assert len(kotlin["shims"]) == len(shims)
    assert len(kotlin["shims"]) + len(kotlin["refused"]) == len(recorded["tools"])


def test_shims_snapshot(kotlin_tree: Path, snapshot: SnapshotAssertion) -> None:
    """The text of a handful of shims (syrupy; update with `pytest --snapshot-update`)."""
    shims = {
        name: (kotlin_tree / KOTLIN_ROOT / f"{name}.kt").read_text(encoding="utf-8")
        for name in SNAPSHOT_TOOLS
    }
    assert shims == snapshot


def _tool(params: tuple[ToolParam, ...], signature: str, method: str = "go") -> Tool:
    return page_tool(params, signature, method)


def test_keywords_are_escaped() -> None:
    tool = _tool(
        (
            ToolParam("object", Scalar("string"), True, ""),
            ToolParam("fun", MapOf(Scalar("string")), True, ""),
            ToolParam("in", Scalar("number"), False, ""),
            ToolParam("is", EnumOf("MouseButton", ("left", "right")), False, ""),
        ),
        "go(String, Map<String, String>, Page.GoOptions)",
    )
    context = kotlin_tool(tool, KotlinSettings())
    assert not isinstance(context, Refusal), context
    assert [f["name"] for f in context["fields"]] == ["`object`", "`fun`", "`in`", "`is`"]
    assert context["arguments"] == "this.`object`, this.`fun`, options"
    assert [o["field"] for o in context["options"]] == ["this.`in`", "this.`is`"]
    assert context["options"][1]["value"] == "it.toJava()"


def test_uncallable_signature_is_refused_with_why() -> None:
    union = _tool(
        (ToolParam("value", OneOf((Scalar("string"), Scalar("number"))), True, ""),),
        "go(Object)",
    )
    refused = kotlin_tool(union, KotlinSettings())
    assert isinstance(refused, Refusal)
    assert refused.java_reference == "com.microsoft.playwright.Page#go"
    assert "argument value" in refused.reason
    mismatch = _tool((ToolParam("n", Scalar("number"), True, ""),), "go(Position)")
    refused = kotlin_tool(mismatch, KotlinSettings())
    assert isinstance(refused, Refusal) and "Java Position" in refused.reason


def test_escape_hatch_selectors_and_optional_positionals() -> None:
    """Any JSON value is a JsonElement handed over by `jsonToJava`; a selector Java takes as a
    Locator becomes `page.locator(...)`; an optional positional argument whose overload goes
    without it is passed as null; one with no such overload is refused."""
    tool = _tool(
        (
            ToolParam("target", LocatorSelector(), True, ""),
            ToolParam("arg", AnyJson(), False, ""),
        ),
        "go(Locator, Object)",
    )
    tool = dataclasses.replace(
        tool,
        java_signatures=(*tool.java_signatures, "com.microsoft.playwright.Page#go(Locator)"),
    )
    context = kotlin_tool(tool, KotlinSettings())
    assert not isinstance(context, Refusal), context
    assert context["arguments"] == "page.locator(this.target), jsonToJava(this.arg)"
    assert [f["type"] for f in context["fields"]] == ["String", "JsonElement"]
    assert "kotlinx.serialization.json.JsonElement" in context["imports"]
    assert "`jsonToJava`" in context["fields"][1]["kdoc"]
    alone = dataclasses.replace(tool, java_signatures=tool.java_signatures[:1])
    refused = kotlin_tool(alone, KotlinSettings())
    assert isinstance(refused, Refusal) and "no overload goes without it" in refused.reason
    # A primitive Java parameter cannot be given null, whatever overloads there are.
    primitive = _tool(
        (ToolParam("n", Scalar("integer"), False, ""),),
        "go(int)",
    )
    primitive = dataclasses.replace(
        primitive,
        java_signatures=(*primitive.java_signatures, "com.microsoft.playwright.Page#go()"),
    )
    refused = kotlin_tool(primitive, KotlinSettings())
    assert isinstance(refused, Refusal) and "primitive type int" in refused.reason
    # Nor can an optional selector handed over as a Locator (`page.locator(null)` fails).
    selector = _tool((ToolParam("target", LocatorSelector(), False, ""),), "go(Locator)")
    selector = dataclasses.replace(
        selector,
        java_signatures=(*selector.java_signatures, "com.microsoft.playwright.Page#go()"),
    )
    refused = kotlin_tool(selector, KotlinSettings())
    assert isinstance(refused, Refusal) and "null cannot stand for" in refused.reason


def test_refusals_are_notes_of_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from generator.cli import main

    args = ["--allowlist", str(REPO / "allowlist.yaml"), "--out", str(tmp_path / "out")]
    assert main([*args, "--outputs", "kotlin", "-v"]) == 0
    err = capsys.readouterr().err
    assert re.search(
        r"com\.microsoft\.playwright\.Page#click: info: no Kotlin shim: argument position: "
        r"the object Position has no Kotlin conversion to Java",
        err,
    )


def test_bad_outputs_option_is_an_input_error(tmp_path: Path) -> None:
    assert generate(tmp_path / "out", None, "--outputs", "python,cobol") == 2
    assert generate(tmp_path / "out", None, "--outputs", "trailblaze-ts") == 2
    assert generate(tmp_path / "out", None, "--kotlin-package", "a.object.b") == 2


@pytest.mark.kotlin
def test_every_shim_compiles_against_the_real_jar(kotlin_tree: Path) -> None:
    shims = list((kotlin_tree / "kotlin").rglob("*.kt"))
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "kotlin-check.sh"), str(kotlin_tree / "kotlin")],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.strip().splitlines()[-1] == f"compiled {len(shims)} files"


# The test's stand-in for the declared types of Trailblaze's scripting package (unpublished):
# only what the augmentation extends and a client that exposes it.
_TRAILBLAZE_STUB = """\
export interface TrailblazeTools {}
export interface TrailblazeClient {
  readonly tools: TrailblazeTools;
}
"""

_TRAILBLAZE_USAGE = """\
import type { TrailblazeClient } from "@trailblaze/scripting";

declare const client: TrailblazeClient;

export async function calls(): Promise<string> {
  await client.tools.web_setExtraHTTPHeaders({ headers: { "x-a": "1" } });
  const title: string = await client.tools.web_title({});
  return title;
}

export function wrong(): void {
  // @ts-expect-error not a tool
  void client.tools.web_noSuchTool({});
  // @ts-expect-error headers must be a record of strings
  void client.tools.web_setExtraHTTPHeaders({ headers: 1 });
}
"""


def test_trailblaze_ts_augmentation_type_checks(kotlin_tree: Path, tmp_path: Path) -> None:
    """`client.tools.web_x(args)` of Trailblaze's SDK (a stub) is typed by the augmentation, under
    `tsc --strict`; the two wrong calls must be errors (`@ts-expect-error` fails otherwise)."""
    augmentation = kotlin_tree / "typescript" / "trailblaze-tools.d.ts"
    assert augmentation.is_file()
    stub = tmp_path / "trailblaze-stub" / "index.d.ts"
    stub.parent.mkdir()
    stub.write_text(_TRAILBLAZE_STUB)
    usage = tmp_path / "usage.ts"
    usage.write_text(_TRAILBLAZE_USAGE)
    options = compiler_options({"@trailblaze/scripting": [str(stub.parent / "index")]})
    done = run_tsc(tmp_path, [augmentation, usage], options)
    assert done.returncode == 0, done.stdout + done.stderr
