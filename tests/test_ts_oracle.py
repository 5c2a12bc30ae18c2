"""Every generated tool's argument names and optionality agree with Playwright's own TypeScript types.

The oracle is node_modules/playwright-core/types/types.d.ts at the version package.json pins, which
must be the version allowlist.yaml pins. tests/ts/extract_signatures.cjs reads it, and the fresh
generation's web-tools.d.ts, through the TypeScript compiler API (`npm ci` installs both packages)
and prints every overload of every member of Page, BrowserContext, Locator, Keyboard and Mouse, and
every tool's `args`.

A tool's TS method is its Java method (from `calls.java` in the descriptor) on the same interface.
Its TS arguments are the positional parameters of all overloads together with the properties of the
`options` parameter, flattened; a name is required only if every overload requires it (an option
is required only if `options` itself is). The tool's arguments are those of `WebTools[tool]["args"]`,
without the leading `selector` of Locator tools (the generated tools build the Locator from it; it
is not a parameter of the Locator method).

Every difference is one of
    ts-name M          the TS member is called M (the Java method name is not a member)
    ts-only X          TS has parameter/option X, the tool has no argument X
    tool-only X        the tool has argument X, TS has no parameter/option X
    optional-in-ts X   the tool requires X, TS does not
    required-in-ts X   TS requires X, the tool does not
and must be listed in INTENDED_DIFFERENCES, as "<difference>, <difference>: <reason>". A listed
difference that no longer occurs fails the test too.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

_SIGNAL = (
    "ts-only signal: the TS option takes an AbortSignal that cancels the call; Java's options "
    "classes have no such field and the Python method no such keyword"
)
_EXPRESSION = (
    "ts-only pageFunction, tool-only expression: Java (String expression) and Python "
    "(expression: str) take JavaScript source named `expression`; TS takes `pageFunction`, "
    "a function or a string"
)
_EXPOSE_FUNCTIONS = (
    "ts-only exposeFunctions: TS-only option; the Java method has no such option (field) and the "
    "Python method no such keyword"
)
_INIT_SCRIPT = (
    "ts-only arg, ts-only exposeFunctions: TS addInitScript(script, arg?, options?) runs a "
    "function with an argument; Java addInitScript(String script) and Python "
    "add_init_script(script=None, *, path=None) take only a script (or a file), no arg or options"
)
_PATH = (
    "ts-only path: Java's option is a java.nio.file.Path, which has no JSON form and which the "
    "generator leaves out (generated/SURFACE.md); TS takes a string, Python a str or pathlib.Path"
)

# tool -> "<difference>, <difference>: <reason>", or a tuple of such strings.
INTENDED_DIFFERENCES: dict[str, str | tuple[str, ...]] = {
    "web_addInitScript": _INIT_SCRIPT,
    "web_addScriptTag": _PATH,
    "web_addStyleTag": _PATH,
    "web_ariaSnapshot": _SIGNAL,
    "web_check": _SIGNAL,
    "web_click": _SIGNAL,
    "web_context_addInitScript": _INIT_SCRIPT,
    "web_context_storageState": _PATH,
    "web_dblclick": _SIGNAL,
    "web_dispatchEvent": _SIGNAL,
    "web_dragAndDrop": _SIGNAL,
    "web_evalOnSelector": (
        "ts-name $eval: Java evalOnSelector and Python eval_on_selector are TS page.$eval",
        _EXPRESSION,
        "tool-only strict: Java EvalOnSelectorOptions.strict and Python "
        "eval_on_selector(..., *, strict=None) exist; TS $eval(selector, pageFunction, arg?) "
        "has no options",
    ),
    "web_evalOnSelectorAll": (
        "ts-name $$eval: Java evalOnSelectorAll and Python eval_on_selector_all are TS page.$$eval",
        _EXPRESSION,
    ),
    "web_evaluate": (
        "ts-only pageFunction, tool-only script: the allowlist's wireNames names Java's and "
        "Python's `expression` `script` on the wire (Trailblaze's shape); TS takes `pageFunction`, "
        "a function or a string",
        _EXPOSE_FUNCTIONS,
    ),
    "web_fill": _SIGNAL,
    "web_focus": _SIGNAL,
    "web_frame": (
        "ts-only frameSelector, tool-only name: Java frame(String name) and Python "
        "frame(name=None, *, url=None) take the frame's name; TS frame(frameSelector) takes a "
        "name or a {name?, url?} object"
    ),
    "web_getAttribute": _SIGNAL,
    "web_goBack": _SIGNAL,
    "web_goForward": _SIGNAL,
    "web_hover": _SIGNAL,
    "web_innerHTML": _SIGNAL,
    "web_innerText": _SIGNAL,
    "web_inputValue": _SIGNAL,
    "web_isChecked": _SIGNAL,
    "web_isDisabled": _SIGNAL,
    "web_isEditable": _SIGNAL,
    "web_isEnabled": _SIGNAL,
    "web_locator_ariaSnapshot": _SIGNAL,
    "web_locator_blur": _SIGNAL,
    "web_locator_boundingBox": _SIGNAL,
    "web_locator_check": _SIGNAL,
    "web_locator_clear": _SIGNAL,
    "web_locator_click": _SIGNAL,
    "web_locator_dblclick": _SIGNAL,
    "web_locator_dispatchEvent": _SIGNAL,
    "web_locator_dragTo": _SIGNAL,
    "web_locator_drop": _SIGNAL,
    "web_locator_evaluate": (_EXPRESSION, _EXPOSE_FUNCTIONS, _SIGNAL),
    "web_locator_evaluateAll": _EXPRESSION,
    "web_locator_fill": _SIGNAL,
    "web_locator_focus": _SIGNAL,
    "web_locator_getAttribute": _SIGNAL,
    "web_locator_hover": _SIGNAL,
    "web_locator_innerHTML": _SIGNAL,
    "web_locator_innerText": _SIGNAL,
    "web_locator_inputValue": _SIGNAL,
    "web_locator_isChecked": _SIGNAL,
    "web_locator_isDisabled": _SIGNAL,
    "web_locator_isEditable": _SIGNAL,
    "web_locator_isEnabled": _SIGNAL,
    "web_locator_press": _SIGNAL,
    "web_locator_pressSequentially": _SIGNAL,
    "web_locator_screenshot": (_PATH, _SIGNAL),
    "web_locator_scrollIntoViewIfNeeded": _SIGNAL,
    "web_locator_selectOption": _SIGNAL,
    "web_locator_selectText": _SIGNAL,
    "web_locator_setChecked": _SIGNAL,
    "web_locator_setInputFiles": _SIGNAL,
    "web_locator_tap": _SIGNAL,
    "web_locator_textContent": _SIGNAL,
    "web_locator_type": _SIGNAL,
    "web_locator_uncheck": _SIGNAL,
    "web_locator_waitFor": _SIGNAL,
    "web_locator_waitForFunction": (_EXPRESSION, _SIGNAL),
    "web_navigate": (
        "ts-name goto: `goto` is reserved in Java, so Java calls it navigate; Python and TS call it goto",
        _SIGNAL,
    ),
    "web_pdf": _PATH,
    "web_press": _SIGNAL,
    "web_reload": _SIGNAL,
    "web_screenshot": (_PATH, _SIGNAL),
    "web_selectOption": _SIGNAL,
    "web_setChecked": _SIGNAL,
    "web_setContent": _SIGNAL,
    "web_setInputFiles": _SIGNAL,
    "web_setViewportSize": (
        "ts-only viewportSize, tool-only width, tool-only height: Java "
        "setViewportSize(int width, int height) takes two ints; TS setViewportSize(viewportSize) "
        "and Python set_viewport_size(viewport_size) take one {width, height} object"
    ),
    "web_tap": _SIGNAL,
    "web_textContent": _SIGNAL,
    "web_type": _SIGNAL,
    "web_uncheck": _SIGNAL,
    "web_waitForFunction": (_EXPRESSION, _SIGNAL),
    "web_waitForLoadState": _SIGNAL,
    "web_waitForSelector": _SIGNAL,
    "web_waitForURL": _SIGNAL,
}

REPO = Path(__file__).resolve().parent.parent
NODE_MODULES = REPO / "node_modules"
TYPES_D_TS = NODE_MODULES / "playwright-core" / "types" / "types.d.ts"
EXTRACTOR = REPO / "tests" / "ts" / "extract_signatures.cjs"
INTERFACES = ("Page", "BrowserContext", "Locator", "Keyboard", "Mouse")
KINDS = ("ts-name", "ts-only", "tool-only", "optional-in-ts", "required-in-ts")
JAVA_CALL = re.compile(r"^com\.microsoft\.playwright\.(?P<interface>\w+)#(?P<method>\w+)\(")


@dataclass(frozen=True)
class Arg:
    required: bool
    where: str  # how TS declares it, for messages: "selector: string", "options.timeout?: number"


def _require_node_modules() -> str:
    """Fail (not skip) unless node, TypeScript and the pinned playwright-core are installed."""
    pinned = json.loads((REPO / "package.json").read_text())["devDependencies"]
    for package in ("typescript", "playwright-core"):
        manifest = NODE_MODULES / package / "package.json"
        if not manifest.is_file():
            pytest.fail(f"node_modules/{package} is missing: run `npm ci` at the repository root")
        installed = json.loads(manifest.read_text())["version"]
        if installed != pinned[package]:
            pytest.fail(
                f"node_modules has {package} {installed}, package.json pins {pinned[package]}: "
                "run `npm ci` at the repository root"
            )
    if not TYPES_D_TS.is_file():
        pytest.fail(f"{TYPES_D_TS.relative_to(REPO)} is missing: run `npm ci`")
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: install Node.js 20 and run `npm ci`")
    return node


@pytest.fixture(scope="module")
def extracted(generated_tree: Path) -> dict[str, Any]:
    """The extractor's JSON for types.d.ts and the fresh generation's web-tools.d.ts."""
    node = _require_node_modules()
    web_tools = generated_tree / "typescript" / "web-tools.d.ts"
    assert web_tools.is_file(), f"the generator wrote no {web_tools}"
    command = [
        node,
        str(EXTRACTOR),
        str(NODE_MODULES / "typescript"),
        str(TYPES_D_TS),
        str(web_tools),
        *INTERFACES,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, f"{EXTRACTOR.name} failed:\n{done.stderr}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def descriptors(generated_tree: Path) -> dict[str, dict[str, Any]]:
    found = {
        p.name.removesuffix(".tool.yaml"): yaml.safe_load(p.read_text())
        for p in sorted((generated_tree / "tools").glob("*.tool.yaml"))
    }
    assert found, f"no descriptors in {generated_tree / 'tools'}"
    return found


def java_target(descriptor: Mapping[str, Any]) -> tuple[str, str]:
    """(interface, method) that every `calls.java` overload of the descriptor names."""
    targets = set()
    for call in descriptor["calls"]["java"]:
        match = JAVA_CALL.match(call)
        assert match, f"{descriptor['name']}: unexpected calls.java entry {call!r}"
        targets.add((match["interface"], match["method"]))
    assert len(targets) == 1, f"{descriptor['name']}: calls.java names several methods {targets}"
    return targets.pop()


def ts_arguments(member: Mapping[str, Any]) -> dict[str, Arg]:
    """The flat arguments of a TS member: positional parameters and `options` properties."""
    overloads: list[dict[str, Arg]] = []
    for parameters in member["overloads"] or [[]]:
        flat: dict[str, Arg] = {}
        for p in parameters:
            required = not (p["optional"] or p["rest"])
            if p.get("options"):
                for o in p["options"]:
                    where = f"options.{o['name']}{'?' if o['optional'] else ''}: {o['type']}"
                    flat[o["name"]] = Arg(required and not o["optional"], where)
            else:
                where = f"{p['name']}{'' if required else '?'}: {p['type']}"
                flat[p["name"]] = Arg(required, where)
        overloads.append(flat)
    merged: dict[str, Arg] = {}
    for flat in overloads:
        for name, arg in flat.items():
            merged.setdefault(name, arg)
    return {
        name: Arg(all(name in f and f[name].required for f in overloads), arg.where)
        for name, arg in merged.items()
    }


def differences(tool_args: Mapping[str, bool], ts_args: Mapping[str, Arg]) -> set[str]:
    """Differences between tool arguments (name -> required) and TS arguments."""
    found = {f"ts-only {name}" for name in ts_args.keys() - tool_args.keys()}
    found |= {f"tool-only {name}" for name in tool_args.keys() - ts_args.keys()}
    for name in tool_args.keys() & ts_args.keys():
        if tool_args[name] and not ts_args[name].required:
            found.add(f"optional-in-ts {name}")
        if ts_args[name].required and not tool_args[name]:
            found.add(f"required-in-ts {name}")
    return found


def listed_differences(entry: str | tuple[str, ...]) -> set[str]:
    """The differences an INTENDED_DIFFERENCES value names ("<diff>, <diff>: <reason>", ...)."""
    found: set[str] = set()
    for item in (entry,) if isinstance(entry, str) else entry:
        head, sep, reason = item.partition(": ")
        assert sep and reason.strip(), f"{item!r} is not '<difference>, ...: <reason>'"
        for token in head.split(", "):
            kind, _, name = token.partition(" ")
            assert kind in KINDS and name and " " not in name, f"bad difference {token!r}"
            assert token not in found, f"{token!r} is listed twice"
            found.add(token)
    return found


def tool_arguments(tool: str, interface: str, args: Iterable[Mapping[str, Any]]) -> dict[str, bool]:
    """name -> required, from the generated `WebTools[tool]["args"]`."""
    flat = {a["name"]: not a["optional"] for a in args}
    if interface == "Locator":
        assert flat.pop("selector", False), f"{tool}: a Locator tool must require `selector`"
    return flat


@dataclass
class Comparison:
    diffs: set[str]
    ts_member: str  # "Page.$eval"
    ts_args: dict[str, Arg]
    tool_args: dict[str, bool]
    note: str = ""

    def explain(self, tokens: Iterable[str]) -> list[str]:
        """For a message: how each name in `tokens` is declared on either side."""
        lines = [self.note] if self.note else []
        for name in sorted({t.partition(" ")[2] for t in tokens if not t.startswith("ts-name")}):
            ts = f"{self.ts_member}({self.ts_args[name].where})" if name in self.ts_args else "-"
            tool = {True: "required", False: "optional", None: "-"}[self.tool_args.get(name)]
            lines.append(f"{name}: TS {ts}; tool {tool}")
        return lines


def compare(
    descriptors: Mapping[str, Mapping[str, Any]], extracted: Mapping[str, Any]
) -> dict[str, Comparison]:
    """Per tool, the differences between its args and its TS method's parameters."""
    found: dict[str, Comparison] = {}
    for tool, descriptor in descriptors.items():
        interface, method = java_target(descriptor)
        assert interface in INTERFACES, f"{tool}: no TS interface is extracted for {interface}"
        members = extracted["playwright"][interface]
        tool_args = tool_arguments(tool, interface, extracted["tools"][tool])
        listed = listed_differences(INTENDED_DIFFERENCES.get(tool, ()))
        renamed = [t.partition(" ")[2] for t in listed if t.startswith("ts-name ")]
        ts_name = renamed[0] if renamed else method
        diffs, note = set(), ""
        if method in members and renamed:
            note = f"TS {interface} now has a member {method!r}"
        elif method not in members:
            diffs.add(f"ts-name {ts_name if renamed else '?'}")
            if ts_name not in members:
                note = f"TS {interface} has no member {ts_name!r}: list `ts-name <TS member>`"
                found[tool] = Comparison(diffs, f"{interface}.?", {}, tool_args, note)
                continue
        ts_args = ts_arguments(members[ts_name])
        diffs |= differences(tool_args, ts_args)
        found[tool] = Comparison(diffs, f"{interface}.{ts_name}", ts_args, tool_args, note)
    return found


def test_types_are_the_allowlist_version() -> None:
    """The TS oracle is Playwright's types at the version the tools are generated from."""
    _require_node_modules()
    allowlist = yaml.safe_load((REPO / "allowlist.yaml").read_text())
    installed = json.loads((NODE_MODULES / "playwright-core" / "package.json").read_text())
    assert installed["version"] == str(allowlist["playwright"])


def test_every_options_parameter_is_read(extracted: dict[str, Any]) -> None:
    """The extractor resolves each `options` type (inline, named, intersection) to its properties."""
    unread = [
        f"{interface}.{name}: {p['type']}"
        for interface, members in extracted["playwright"].items()
        for name, member in members.items()
        for parameters in member["overloads"]
        for p in parameters
        if p["name"] == "options" and not p.get("options")
    ]
    assert not unread, "options parameters without properties:\n" + "\n".join(unread)
    assert extracted["playwright"]["Page"]["click"]["kind"] == "method"
    assert extracted["playwright"]["Page"]["keyboard"]["kind"] == "property"


def test_bindings_and_descriptors_have_the_same_args(
    descriptors: dict[str, dict[str, Any]], extracted: dict[str, Any]
) -> None:
    """What is compared (web-tools.d.ts) is what each descriptor's JSON Schema accepts."""
    assert extracted["tools"].keys() == descriptors.keys()
    for tool, descriptor in descriptors.items():
        schema = descriptor["parameters"]
        from_schema = {n: n in schema.get("required", []) for n in schema.get("properties", {})}
        from_d_ts = {a["name"]: not a["optional"] for a in extracted["tools"][tool]}
        assert from_d_ts == from_schema, tool


def test_tool_args_agree_with_playwright_types(
    descriptors: dict[str, dict[str, Any]], extracted: dict[str, Any]
) -> None:
    """Every difference from types.d.ts is listed in INTENDED_DIFFERENCES, and every listed one occurs."""
    found = compare(descriptors, extracted)
    assert len(found) == len(descriptors) > 0
    problems = []
    for tool in sorted(found.keys() | INTENDED_DIFFERENCES.keys()):
        if tool not in found:
            problems.append(f"{tool}: listed in INTENDED_DIFFERENCES but not a generated tool")
            continue
        listed = listed_differences(INTENDED_DIFFERENCES.get(tool, ()))
        unlisted, stale = found[tool].diffs - listed, listed - found[tool].diffs
        if unlisted:
            problems.append(f"{tool}: not in INTENDED_DIFFERENCES: {', '.join(sorted(unlisted))}")
        if stale:
            problems.append(f"{tool}: listed but no longer differs: {', '.join(sorted(stale))}")
        problems += [f"    {line}" for line in found[tool].explain(unlisted | stale)]
    assert not problems, "tool args vs Playwright's types.d.ts:\n" + "\n".join(problems)


def test_comparison_is_not_vacuous() -> None:
    """Each kind of difference is found, across overloads and in flattened options."""
    member = {
        "kind": "method",
        "overloads": [
            [
                {"name": "selector", "optional": False, "rest": False, "type": "string"},
                {"name": "arg", "optional": False, "rest": False, "type": "Arg"},
                {
                    "name": "options",
                    "optional": True,
                    "rest": False,
                    "type": "{...}",
                    "options": [
                        {"name": "timeout", "optional": True, "type": "number"},
                        {"name": "strict", "optional": False, "type": "boolean"},
                    ],
                },
            ],
            [{"name": "selector", "optional": False, "rest": False, "type": "string"}],
        ],
    }
    ts_args = ts_arguments(member)
    assert {n: a.required for n, a in ts_args.items()} == {
        "selector": True,
        "arg": False,  # required in one overload, absent from the other
        "timeout": False,
        "strict": False,  # required property of an optional options object
    }
    assert (
        differences({"selector": True, "arg": False, "timeout": False, "strict": False}, ts_args)
        == set()
    )
    assert differences(
        {"selector": False, "arg": True, "timeout": False, "extra": False}, ts_args
    ) == {
        "required-in-ts selector",
        "optional-in-ts arg",
        "ts-only strict",
        "tool-only extra",
    }
    assert listed_differences(("ts-only a, tool-only b: why", "ts-name $x: why")) == {
        "ts-only a",
        "tool-only b",
        "ts-name $x",
    }
    with pytest.raises(AssertionError):
        listed_differences("ts-only a")
