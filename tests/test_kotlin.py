"""The `trailblaze` output kind (issues 26, 43): Kotlin shims, descriptors, toolset and TS
augmentation for Trailblaze as it is (block/trailblaze, the commit `--trailblaze-api` names), off
by default.

A golden snapshot of a handful of shims; keyword escaping, option objects, unions and refusal on
hand-made IR; that every tool of the committed allowlist has a shim (issue 35: option objects such
as `Position` and `Cookie` are built through the constructors and setters the IR recorded from the
JAR); and (marked `kotlin`, slow: it fetches the compiler through mvn) the compile check of every
shim against the real Playwright JAR with `scripts/kotlin-check.sh`."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, generate, read_tree
from ir_tools import page_tool
from syrupy.assertion import SnapshotAssertion

from generator.model.ir import JavaArgument, JavaObject, JavaSetter, Tool, ToolParam
from generator.model.type_tree import (
    AnyJson,
    EnumOf,
    Field,
    ListOf,
    LocatorSelector,
    MapOf,
    Nullable,
    ObjectOf,
    OneOf,
    Scalar,
    TypeNode,
)
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface
from generator.render.kotlin.settings import KotlinSettings
from generator.render.kotlin.shim import Refusal, kotlin_tool

pytestmark = pytest.mark.jvm

KOTLIN_ROOT = "trailblaze/kotlin/xyz/block/trailblaze/playwright/generated"
RESOURCES = "trailblaze/resources/trails/config/trailmaps/web"
SNAPSHOT_TOOLS = (
    "GeneratedSetExtraHTTPHeadersTool",
    "GeneratedLocatorPressTool",
    "GeneratedContextCloseTool",
    "GeneratedMouseClickTool",
    "GeneratedTitleTool",
    "GeneratedEvaluateTool",
    "GeneratedLocatorAndTool",
    # Issue 35: a list of objects with an enum field, an optional union picking an overload, Java
    # Optionals (absent, null or a value), a union of objects and strings, a required nullable
    # object, a union option whose string member is Java's default, an object beside an Options.
    "GeneratedCookieAddTool",
    "GeneratedCookieListTool",
    "GeneratedEmulateMediaTool",
    "GeneratedSelectOptionTool",
    "GeneratedSetGeolocationTool",
    "GeneratedWaitForFunctionTool",
    "GeneratedLocatorDropTool",
    # Issue 55: Trailblaze faces (`trailblaze:` mappings): a rename with a whole number, a clamp
    # and a scale; a regex calling the Pattern overload; a minimum checked first; messages.
    "GeneratedWaitTool",
    "GeneratedWaitForUrlTool",
    "GeneratedResizeTool",
    "GeneratedJson",
)


@pytest.fixture(scope="module")
def kotlin_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kotlin")
    assert generate(out, None, "--outputs", "all") == 0
    return out


def test_default_run_writes_no_kotlin(generated_tree: Path) -> None:
    assert not (generated_tree / "trailblaze").exists()


def test_extra_kinds_add_only_their_files(generated_tree: Path, kotlin_tree: Path) -> None:
    """`--outputs all` is the default tree plus the `trailblaze/` root: the Kotlin shims (a source
    root) and the descriptors and toolset (a resource root). No TypeScript: Trailblaze writes a
    trailmap's `TrailblazeToolMap` entries itself, from the descriptors of the tools it
    describes (every one), and a second declaration would shadow them."""
    default, everything = read_tree(generated_tree), read_tree(kotlin_tree)
    extra = set(everything) - set(default)
    assert not [n for n in extra if n.startswith("trailblaze/typescript/")]
    resources = {n for n in extra if n.startswith(f"{RESOURCES}/")}
    assert f"{RESOURCES}/toolsets/web_framework.yaml" in resources
    extra -= resources
    assert extra and all(n.startswith(f"{KOTLIN_ROOT}/") and n.endswith(".kt") for n in extra)
    # SURFACE.md and manifest.json record the Kotlin shims when they are written, and only then.
    common = set(default) - {".generated-files", "SURFACE.md", "manifest.json"}
    assert {n: everything[n] for n in common} == {n: default[n] for n in common}
    assert everything["SURFACE.md"].startswith(default["SURFACE.md"])
    assert b"\n## Kotlin shims\n" in everything["SURFACE.md"][len(default["SURFACE.md"]) :]
    recorded, plain = json.loads(everything["manifest.json"]), json.loads(default["manifest.json"])
    kotlin = recorded.pop("kotlin")
    # The options that wrote each tree are recorded (what --check compares), and only they differ.
    assert recorded.pop("options")["outputs"] == "python,yaml,typescript,trailblaze"
    assert plain.pop("options")["outputs"] == "python,yaml,typescript"
    assert recorded == plain
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


TRAILBLAZE_GOLDENS = (
    f"{RESOURCES}/tools/web_evaluate.tool.yaml",
    f"{RESOURCES}/tools/web_setExtraHTTPHeaders.tool.yaml",
    f"{RESOURCES}/toolsets/web_framework.yaml",
)


def test_trailblaze_files_snapshot(kotlin_tree: Path, snapshot: SnapshotAssertion) -> None:
    """The Trailblaze-format files: class-backed descriptors (`id` + `class` only) and the
    toolset (syrupy; update with `pytest --snapshot-update`)."""
    files = {n: (kotlin_tree / n).read_text(encoding="utf-8") for n in TRAILBLAZE_GOLDENS}
    assert files == snapshot


def test_descriptors_are_class_backed_and_skip_the_builtins(kotlin_tree: Path) -> None:
    """Each registered tool is `id` + `class:` naming its shim; the allowlist's `trailblaze: skip`
    tools (Trailblaze has its own of the name) are neither described nor in the toolset, and
    `web_evaluate` (`trailblaze: replace`) is."""
    import yaml

    tools = sorted((kotlin_tree / RESOURCES / "tools").glob("*.tool.yaml"))
    toolset = yaml.safe_load((kotlin_tree / RESOURCES / "toolsets/web_framework.yaml").read_text())
    assert set(toolset) == {"id", "description", "always_enabled", "drivers", "tools"}
    assert toolset["drivers"] == ["playwright-native", "playwright-electron"]
    names = [p.name.removesuffix(".tool.yaml") for p in tools]
    assert toolset["tools"] == names
    skipped = {"web_click", "web_hover", "web_navigate", "web_selectOption", "web_type"}
    assert not skipped & set(names) and "web_evaluate" in names
    assert len(names) == 169 - len(skipped)
    for path in tools:
        data = yaml.safe_load(path.read_text())
        assert set(data) == {"id", "class"} and data["id"] == path.name.removesuffix(".tool.yaml")
        simple = data["class"].removeprefix("xyz.block.trailblaze.playwright.generated.")
        assert (kotlin_tree / KOTLIN_ROOT / f"{simple}.kt").is_file()


def _tool(params: tuple[ToolParam, ...], signature: str, **changes: Any) -> Tool:
    return page_tool(params, signature, "go", **changes)


def _options(*setters: tuple[str, str, TypeNode]) -> JavaObject:
    """`Page.GoOptions` with a setter per (wire name, Java type, JSON type)."""
    return JavaObject(
        "Page.GoOptions",
        "com.microsoft.playwright.Page.GoOptions",
        (),
        tuple(
            JavaSetter("set" + w[:1].upper() + w[1:], JavaArgument(w, j, t)) for w, j, t in setters
        ),
    )


def test_keywords_are_escaped() -> None:
    tool = _tool(
        (
            ToolParam("object", Scalar("string"), True, ""),
            ToolParam("fun", MapOf(Scalar("string")), True, ""),
            ToolParam("in", Scalar("number"), False, ""),
            ToolParam("is", EnumOf("MouseButton", ("left", "right")), False, ""),
        ),
        "go(String, Map<String, String>, Page.GoOptions)",
        java_options=_options(
            ("in", "double", Scalar("number")),
            ("is", "MouseButton", EnumOf("MouseButton", ("left", "right"))),
        ),
    )
    context = kotlin_tool(tool, KotlinSettings(trailblaze_api="2026.07.21+map-json"))
    assert not isinstance(context, Refusal), context
    assert [f["name"] for f in context["fields"]] == ["`object`", "`fun`", "`in`", "`is`"]
    assert context["calls"][0]["arguments"] == "this.`object`, this.`fun`, options"
    as_text = kotlin_tool(tool, KotlinSettings())
    assert not isinstance(as_text, Refusal), as_text
    assert as_text["calls"][0]["arguments"] == (
        "this.`object`, jsonTextStrings(this.`fun`), options"
    )
    assert [o["statement"] for o in context["options"]] == [
        "this.`in`?.let { options.setIn(it) }",
        "this.`is`?.let { options.setIs(it.toJava()) }",
    ]
    # Without the Options' setters recorded in the IR, the options cannot be set.
    refused = kotlin_tool(dataclasses.replace(tool, java_options=_options()), KotlinSettings())
    assert isinstance(refused, Refusal) and "no setter of Page.GoOptions" in refused.reason


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
    context = kotlin_tool(tool, KotlinSettings(trailblaze_api="2026.07.21+map-json"))
    assert not isinstance(context, Refusal), context
    assert context["calls"][0]["arguments"] == "page.locator(this.target), jsonToJava(this.arg)"
    assert [f["type"] for f in context["fields"]] == ["String", "JsonElement"]
    assert "kotlinx.serialization.json.JsonElement" in context["imports"]
    assert "`jsonToJava`" in context["fields"][1]["kdoc"]
    # For a Trailblaze that cannot describe a JSON value: JSON text, read by `jsonTextOrNull`.
    as_text = kotlin_tool(tool, KotlinSettings())
    assert not isinstance(as_text, Refusal), as_text
    assert as_text["calls"][0]["arguments"] == (
        "page.locator(this.target), jsonToJava(jsonTextOrNull(this.arg))"
    )
    assert as_text["fields"][1]["declared"] == "String? = null"
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


_POINT = ObjectOf(
    "Point", (Field("x", Scalar("number"), True), Field("label", Scalar("string"), False))
)
_POINT_BUILT = JavaObject(
    "Point",
    "com.microsoft.playwright.options.Point",
    (JavaArgument("x", "double", Scalar("number")),),
    (JavaSetter("setLabel", JavaArgument("label", "String", Scalar("string"))),),
)


def test_objects_are_built_through_the_recorded_constructor_and_setters() -> None:
    """A nested data class per object, whose `toJava()` is what the IR recorded; a list of them
    goes to Java as a List, or an array where Java takes one; an optional Java Optional of an
    enum is a nullable enum with a `null` entry (absent, reset, a value), a required one a
    nullable type."""
    tool = _tool(
        (
            ToolParam("points", ListOf(_POINT), True, ""),
            ToolParam("at", Nullable(_POINT), True, ""),
            ToolParam("media", Nullable(EnumOf("Media", ("screen", "print"))), False, ""),
        ),
        "go(Point[], Point, Page.GoOptions)",
        java_objects=(_POINT_BUILT,),
        java_options=_options(("media", "Media", EnumOf("Media", ("screen", "print")))),
    )
    context = kotlin_tool(tool, KotlinSettings())
    assert not isinstance(context, Refusal), context
    (point,) = context["objects"]
    assert point["java"] == "com.microsoft.playwright.options.Point"
    assert point["arguments"] == "this.x"
    assert point["setters"] == ["this.label?.let { made.setLabel(it) }"]
    assert [f["declared"] for f in context["fields"]] == [
        "List<Point>",
        "Point?",
        "Media? = null",
    ]
    assert [o["statement"] for o in context["options"]] == [
        "this.media?.let { options.setMedia(it.toJava()) }"
    ]
    (media,) = context["enums"]
    assert (media["entries"], media["reset"]) == (["screen", "print"], "`null`")
    (call,) = context["calls"]
    assert call["arguments"] == (
        "this.points.map { e -> e.toJava() }.toTypedArray(), this.at?.toJava(), options"
    )
    # Without a recorded constructor that takes exactly the required fields, no shim.
    unbuilt = dataclasses.replace(
        tool, java_objects=(dataclasses.replace(_POINT_BUILT, constructor=None),)
    )
    refused = kotlin_tool(unbuilt, KotlinSettings())
    assert isinstance(refused, Refusal) and "no public Java constructor" in refused.reason


def test_a_union_calls_the_overload_of_its_member() -> None:
    """A union's members are told apart by their JSON shape, each calling its overload; an
    optional union left out calls the overload without it; members alike in JSON are refused."""
    union = OneOf((Scalar("string"), ListOf(Scalar("string"))))
    tool = _tool((ToolParam("urls", union, False, ""),), "go(String)")
    tool = dataclasses.replace(
        tool,
        java_signatures=tuple(
            f"com.microsoft.playwright.Page#go({p})" for p in ("", "String", "List<String>")
        ),
    )
    context = kotlin_tool(tool, KotlinSettings(trailblaze_api="2026.07.21+map-json"))
    assert not isinstance(context, Refusal), context
    assert context["fields"][0]["declared"] == "JsonElement? = null"
    assert [(c["shapes"], c["arguments"]) for c in context["calls"]] == [
        ('"null"', ""),
        ('"string"', "Json.decodeFromJsonElement<String>(this.urls!!)"),
        ('"array of string", "array"', "Json.decodeFromJsonElement<List<String>>(this.urls!!)"),
    ]
    # For a Trailblaze that cannot describe a JSON value, the union is JSON text, said so to the
    # model, and read through `jsonTextOrNull`.
    context = kotlin_tool(tool, KotlinSettings())
    assert not isinstance(context, Refusal), context
    (urls,) = context["fields"]
    assert urls["declared"] == "String? = null"
    assert "@Serializable(with = JsonTextSerializer::class)" in urls["kdoc"]
    assert "Given as JSON text" in urls["kdoc"] and "Trailblaze 2026.07.21 " in urls["kdoc"]
    assert context["calls"][1]["arguments"] == (
        "Json.decodeFromJsonElement<String>(jsonTextOrNull(this.urls)!!)"
    )
    alike = _tool(
        (ToolParam("n", OneOf((Scalar("integer"), Scalar("number"))), True, ""),),
        "go(int)",
    )
    refused = kotlin_tool(alike, KotlinSettings())
    assert isinstance(refused, Refusal) and "look alike in JSON" in refused.reason


def test_every_tool_of_the_committed_allowlist_has_a_shim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No tool of allowlist.yaml is refused a Kotlin shim: the manifest records none, every tool
    has a signature, and the run says no "no Kotlin shim" note (it would, with -v)."""
    from generator.commands.cli import main

    out = tmp_path / "out"
    args = ["--allowlist", str(REPO / "allowlist.yaml"), "--out", str(out)]
    assert main([*args, "--outputs", "trailblaze", "-v"]) == 0
    assert "no Kotlin shim" not in capsys.readouterr().err
    recorded = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert recorded["kotlin"]["refused"] == {}
    assert set(recorded["kotlin"]["shims"]) == set(recorded["tools"])
    assert len(recorded["tools"]) == 169
    shims = list((out / KOTLIN_ROOT).glob("Generated*Tool.kt"))
    assert len(shims) == len(recorded["tools"])


def test_the_ir_records_how_objects_are_built_in_java(
    java_surface: JavaSurface, python_surface: PythonSurface
) -> None:
    """The binding stage records each object's public constructor and setters as the JAR has
    them, and the Options' setters by tool parameter name (`polling` is `setPollingInterval`)."""
    from generator.model.binding import Binder
    from generator.read.allowlist import load_allowlist
    from generator.shared.diagnostics import Diagnostics

    binder = Binder(java_surface, python_surface, Diagnostics())
    tools = {t.name.value: t for t in binder.bind_all(load_allowlist(REPO / "allowlist.yaml"))}
    (cookie,) = tools["web_cookie_add"].java_objects
    assert cookie.java_class == "com.microsoft.playwright.options.Cookie"
    assert [(a.wire_name, a.java_type) for a in cookie.constructor or ()] == [
        ("name", "String"),
        ("value", "String"),
    ]
    setters = {s.method: s.argument for s in cookie.setters}
    assert setters["setExpires"].java_type == "double"
    assert setters["setSameSite"].type == EnumOf("SameSiteAttribute", ("Strict", "Lax", "None"))
    assert "setName" not in setters  # a constructor argument is not set again
    margin = next(o for o in tools["web_pdf"].java_objects if o.name == "Margin")
    assert margin.constructor == ()
    assert {s.method for s in margin.setters} == {"setTop", "setRight", "setBottom", "setLeft"}
    options = tools["web_waitForFunction"].java_options
    assert options is not None and options.java_class.endswith("Page.WaitForFunctionOptions")
    polling = [s for s in options.setters if s.argument.wire_name == "polling"]
    assert [(s.method, s.argument.java_type) for s in polling] == [("setPollingInterval", "double")]


def test_bad_outputs_option_is_an_input_error(tmp_path: Path) -> None:
    assert generate(tmp_path / "out", None, "--outputs", "python,cobol") == 2
    assert generate(tmp_path / "out", None, "--outputs", "trailblaze-ts") == 2
    assert generate(tmp_path / "out", None, "--kotlin-package", "a.object.b") == 2
    assert generate(tmp_path / "out", None, "--outputs", "kotlin") == 2


@pytest.mark.kotlin
def test_every_shim_compiles_against_the_real_jar(kotlin_tree: Path) -> None:
    shims = list((kotlin_tree / "trailblaze" / "kotlin").rglob("*.kt"))
    done = subprocess.run(
        [
            "bash",
            str(REPO / "scripts" / "kotlin-check.sh"),
            str(kotlin_tree / "trailblaze" / "kotlin"),
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.strip().splitlines()[-1] == f"compiled {len(shims)} files"


def _allowlist(tmp_path: Path, old: str, new: str) -> Path:
    """The committed allowlist with one text replaced (which must be there)."""
    text = (REPO / "allowlist.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "allowlist.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    (line,) = [x for x in err.splitlines() if x.startswith("error")] or [err]
    return line


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("--trailblaze-api", "2025.01.01"), ("--trailblaze-api", "2026.07.21", "2026.05.19")),
        (("--kotlin-package", "com.example.2tools"), ("--kotlin-package", "com.example.tools")),
        (("--kotlin-package", "a.fun.b"), ("--kotlin-package", "keywords")),
    ],
)
def test_bad_trailblaze_settings_are_one_line_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    names: tuple[str, ...],
) -> None:
    assert generate(tmp_path / "out", None, "--outputs", "trailblaze", *args) == 2
    line = _one_line_error(capsys)
    assert all(n in line for n in names), line
    assert not (tmp_path / "out" / "trailblaze").exists()


def test_a_tool_named_like_a_trailblaze_builtin_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without `trailblaze: skip`, the generated web_click would take the name of Trailblaze's
    own (PlaywrightNativeClickTool): an input error naming the tool, the API and the fixes."""
    allowlist = _allowlist(
        tmp_path, "  - method: page.click\n    trailblaze: skip\n", "  - method: page.click\n"
    )
    assert generate(tmp_path / "out", allowlist, "--outputs", "trailblaze") == 2
    line = _one_line_error(capsys)
    parts = (
        "allowlist.yaml:",
        "web_click",
        "page.click",
        "2026.07.21",
        "trailblaze: skip",
        "trailblaze: replace",
    )
    for part in parts:
        assert part in line, line
    # The same allowlist without the trailblaze kind is fine: the clash is Trailblaze's only.
    assert generate(tmp_path / "plain", allowlist) == 0


def test_the_older_api_writes_is_for_llm_and_its_layout(tmp_path: Path) -> None:
    """`--trailblaze-api 2026.05.19` targets a Trailblaze before `surfaceToLlm` and trailmaps."""
    out = tmp_path / "out"
    assert generate(out, None, "--outputs", "trailblaze", "--trailblaze-api", "2026.05.19") == 0
    shim = (out / KOTLIN_ROOT / "GeneratedSetExtraHTTPHeadersTool.kt").read_text(encoding="utf-8")
    assert '@TrailblazeToolClass(name = "web_setExtraHTTPHeaders", isForLlm = false,' in shim
    assert "surfaceToLlm" not in shim
    resources = out / "trailblaze" / "resources" / "trailblaze-config"
    assert (resources / "tools" / "web_evaluate.tool.yaml").is_file()
    assert (resources / "toolsets" / "web_framework.yaml").is_file()


def test_wire_names_rename_a_parameter_in_every_output(tmp_path: Path) -> None:
    """`wireNames: {expression: script}` on web_evaluate (the committed allowlist's): the JSON key
    is `script` in the Python shim, the descriptor, the TS types and the Kotlin shim (the shape
    Trailblaze's SDK sends); the Python call still passes `expression=`. Without the key, every
    output takes Playwright's `expression`."""
    import yaml

    plain = _allowlist(tmp_path, "    wireNames: {expression: script}\n", "")
    assert generate(tmp_path / "plain", plain) == 0
    descriptor = yaml.safe_load((tmp_path / "plain/tools/web_evaluate.tool.yaml").read_text())
    assert list(descriptor["parameters"]["properties"]) == ["expression", "arg"]
    allowlist = tmp_path / "renamed.yaml"
    allowlist.write_text((REPO / "allowlist.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    assert generate(out, allowlist, "--outputs", "all") == 0
    descriptor = yaml.safe_load((out / "tools" / "web_evaluate.tool.yaml").read_text())
    assert list(descriptor["parameters"]["properties"]) == ["script", "arg"]
    assert descriptor["parameters"]["required"] == ["script"]
    python = (out / "python" / "playwright_tools" / "tools" / "web_evaluate.py").read_text()
    assert 'args["script"]' in python and "page.evaluate(expression=self.script" in python
    kotlin = (out / KOTLIN_ROOT / "GeneratedEvaluateTool.kt").read_text()
    assert "val script: String," in kotlin and "page.evaluate(this.script," in kotlin
    ts = (out / "typescript" / "web-tools.d.ts").read_text()
    assert "script: string;" in ts[ts.index("web_evaluate: {") :][:600]


@pytest.mark.parametrize(
    ("wire", "says"),
    [
        ("{nope: script}", "wireNames names 'nope', which is no parameter of web_evaluate"),
        ("{expression: arg}", "'arg', which web_evaluate already has"),
        ("{expression: 'a-b'}", "must be an identifier"),
    ],
)
def test_bad_wire_names_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], wire: str, says: str
) -> None:
    allowlist = _allowlist(
        tmp_path, "    wireNames: {expression: script}\n", f"    wireNames: {wire}\n"
    )
    assert generate(tmp_path / "out", allowlist) == 2
    line = _one_line_error(capsys)
    assert says in line and "allowlist.yaml:" in line, line


def test_a_bad_trailblaze_value_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    allowlist = _allowlist(tmp_path, "    trailblaze: replace\n", "    trailblaze: maybe\n")
    assert generate(tmp_path / "out", allowlist) == 2
    line = _one_line_error(capsys)
    assert "allowlist.yaml:" in line and "'trailblaze' must be skip" in line and "replace" in line


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "        timeout: {name: seconds,",
            "        timeot: {name: seconds,",
            ("parameters.timeot", "no parameter of that name", "its parameters are timeout"),
        ),
        (
            "      replace: web_wait\n",
            "      replace: web_waitALittle\n",
            (
                "replace: web_waitALittle is not a Trailblaze built-in",
                "2026.07.21",
                "web_waitForTimeout",
            ),
        ),
        (
            "      result: Waited {seconds} seconds.",
            "      result: Waited {secs} seconds.",
            (
                "{secs} is not something this message can name",
                "{seconds}",
                "{reasoning}",
                "{result}",
            ),
        ),
        (
            "scale: 1000, description: The seconds to wait; a number outside 1 to 30 is taken as the nearest end.}",
            "scale: 1000}",
            ("has a scale", "give parameters.timeout.description"),
        ),
        (
            "        url: {name: pattern, type: regex,",
            "        timeout: {name: pattern, type: regex,",
            ("parameters.timeout", "given twice"),
        ),
        (
            "      belowMinimum: web_resize requires",
            "      result2: web_resize requires",
            ("unknown key 'result2'",),
        ),
    ],
)
def test_bad_trailblaze_faces_are_one_line_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    says: tuple[str, ...],
) -> None:
    """What a `trailblaze:` mapping names that its tool does not have is one line naming the
    allowlist's line and what to write; nothing of the Trailblaze output is written."""
    allowlist = _allowlist(tmp_path, old, new)
    assert generate(tmp_path / "out", allowlist, "--outputs", "trailblaze") == 2
    line = _one_line_error(capsys)
    assert "allowlist.yaml:" in line, line
    for part in says:
        assert part in line, line
    assert not (tmp_path / "out" / "trailblaze").exists()


def test_a_regex_needs_a_pattern_overload(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`type: regex` on a method with no Pattern overload names the method and its overloads."""
    allowlist = _allowlist(
        tmp_path,
        "  - method: page.setContent\n",
        "  - method: page.setContent\n    trailblaze:\n      parameters: {html: {type: regex}}\n",
    )
    assert generate(tmp_path / "out", allowlist, "--outputs", "trailblaze") == 2
    line = _one_line_error(capsys)
    assert "parameters.html: type: regex" in line and "no overload taking a Pattern" in line, line


# Playwright Java 1.63.0 cannot run from Maven's central repository (no `driver` or
# `driver-bundle` of it is published), so the browser case compiles and runs the shim against the
# newest release published whole.
RUNNABLE_PLAYWRIGHT = "1.62.0"


# Trailblaze's own pin (its gradle/libs.versions.toml at the API setting's commit).
TRAILBLAZE_PLAYWRIGHT = "1.59.0"


def allowlist_for(version: str, into: Path) -> Path:
    """The committed allowlist pinned to `version`, without the methods that release lacks
    (what the generator names as `has no method`, found by running it)."""
    text = (REPO / "allowlist.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^playwright: \S+", f"playwright: {version}", text, count=1)
    path = into / "allowlist.yaml"
    for _ in range(3):
        path.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "generator", "--allowlist", str(path), "--out",
             str(into / "probe"), "--outputs", "trailblaze", "-q"],
            cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        lacking = {
            int(n)
            for n in re.findall(r"allowlist\.yaml:(\d+):\d+: error: .* has no method", done.stderr)
        }
        if done.returncode == 0:
            return path
        assert lacking, done.stderr
        lines = text.splitlines(keepends=True)
        text = "".join(line for number, line in enumerate(lines, 1) if number not in lacking)
    raise AssertionError(f"no {version} allowlist: {done.stderr}")


@pytest.mark.kotlin
@pytest.mark.parametrize(
    ("pin", "runtime", "arguments"),
    [
        # The committed allowlist, run on the newest release Maven serves whole, with Playwright's
        # own form of the argument.
        (None, RUNNABLE_PLAYWRIGHT, '{"headers": {"x-kotlin": "1"}}'),
        # Trailblaze's pin, generated and run on it, with the JSON text the descriptor shows.
        (TRAILBLAZE_PLAYWRIGHT, TRAILBLAZE_PLAYWRIGHT, '{"headers": "{\\"x-kotlin\\": \\"1\\"}"}'),
    ],
)
def test_a_shim_run_from_kotlin_sets_headers_the_server_sees(
    kotlin_tree: Path,
    tmp_path: Path,
    page_server: Any,
    pin: str | None,
    runtime: str,
    arguments: str,
) -> None:
    """`web_setExtraHTTPHeaders`' shim, decoded from the tool call's JSON as Trailblaze decodes
    one, run through `executeWithPlaywright` (stand-in context) against headless Chromium: the
    local server sees the header, the result is `Success`, and the same call on a closed page is
    `Error.ExceptionThrown("web_setExtraHTTPHeaders failed: ...")`."""
    from conftest import HEADLESS_CHROMIUM

    tree = kotlin_tree
    if pin is not None:
        tree = tmp_path / "pinned"
        allowlist = allowlist_for(pin, tmp_path)
        assert generate(tree, allowlist, "--outputs", "trailblaze") == 0
    source = tmp_path / "src"
    source.mkdir()
    for name in ("GeneratedSetExtraHTTPHeadersTool", "GeneratedJson"):
        (source / f"{name}.kt").write_bytes((tree / KOTLIN_ROOT / f"{name}.kt").read_bytes())
    classes = tmp_path / "classes"
    env = {
        **os.environ,
        "PLAYWRIGHT_VERSION": runtime,
        "KOTLIN_CHECK_CLASSES": str(classes),
    }
    script = REPO / "scripts" / "kotlin-check.sh"
    main = REPO / "tests" / "kotlin_run" / "RunShim.kt"
    done = subprocess.run(
        ["bash", str(script), str(source), str(main)],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    classpath = f"{classes}:{Path(f'{classes}.classpath').read_text().strip()}"
    url = f"{page_server.origin}/kotlin-headers"
    ran = subprocess.run(
        [
            "java",
            # A run of seconds: the client compiler alone and one GC thread, as kotlin-check.sh.
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-cp",
            classpath,
            "RunShimKt",
            url,
            arguments,
            HEADLESS_CHROMIUM,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"},
    )
    assert ran.returncode == 0, ran.stderr[-4000:]
    assert "result: Success(message=, structuredContent=null)" in ran.stdout
    assert "closed: ExceptionThrown(errorMessage=web_setExtraHTTPHeaders failed: " in ran.stdout
    seen = page_server.headers_for("/kotlin-headers")
    assert seen and seen[0].get("x-kotlin") == "1"
