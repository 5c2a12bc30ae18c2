"""Names that are keywords or builtins in Python or TypeScript: escaped where a binding needs a
legal identifier, and kept exactly as they are on the wire (JSON Schema, `from_args`, the registry).

Parameters come from a fixture JAR compiled at test time (tests/fixtures/names, `javac -parameters`)
bound against a hand-built Python API and rendered in-process; tool names go through the whole
pipeline on the real JAR. Generated code is imported in a subprocess, so that its `playwright_tools`
never meets the one other tests import.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import PINNED, REPO, generate

from generator.model.binding import Binder
from generator.model.ir import Tool
from generator.model.refusal import Refusal
from generator.model.surface_report import build_report
from generator.read.allowlist import AllowlistEntry
from generator.read.java_model import JavaSurface
from generator.read.java_surface import build_surface
from generator.read.python_api import PyMethod, PyParam, PythonSurface, parse_annotation
from generator.render.rendering import Renderer, default_templates
from generator.render.views import shim_view
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics
from generator.shared.targets import Target

pytestmark = pytest.mark.jvm

SOURCES = Path(__file__).resolve().parent / "fixtures" / "names"
NAMES = "com.microsoft.playwright.Names"
TARGET = Target(prefix="names", java_interface="Names", python_class="Names", receiver="page", tool_prefix="nm_")  # fmt: skip
TSC = REPO / "node_modules" / ".bin" / "tsc"
SEND_ARGS = {"type": "t", "delete": "d", "function": "f", "list": "l", "id": "i"}


# --- helpers ------------------------------------------------------------------------------------


def _zip(root: Path, files: list[Path], target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(files):
            archive.write(path, path.relative_to(root).as_posix())
    return target


def _python(code: str, package: Path, fake_page: bool = False) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter with `package` (a generated python/ folder) importable,
    after the definition of FakePage if asked."""
    prelude = "import sys; sys.path.insert(0, sys.argv[1])\n" + (FAKE_PAGE if fake_page else "")
    command = [sys.executable, "-c", prelude + textwrap.dedent(code), str(package)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _tsc(folder: Path, d_ts: Path, usage: str) -> subprocess.CompletedProcess[str]:
    if not TSC.exists():
        pytest.fail(f"{TSC} is missing: run `npm ci` at the repository root")
    shutil.copy(d_ts, folder / "web-tools.d.ts")
    (folder / "usage.ts").write_text(textwrap.dedent(usage))
    options = {
        "strict": True,
        "noEmit": True,
        "target": "ES2022",
        "module": "ES2022",
        "moduleResolution": "bundler",
        "skipLibCheck": False,
        "types": [],
    }
    config = {"compilerOptions": options, "files": ["web-tools.d.ts", "usage.ts"]}
    (folder / "tsconfig.json").write_text(json.dumps(config))
    command = [str(TSC), "--pretty", "false", "-p", str(folder / "tsconfig.json")]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)


# --- parameters: a fixture JAR ------------------------------------------------------------------


@pytest.fixture(scope="module")
def names_surface(tmp_path_factory: pytest.TempPathFactory) -> JavaSurface:
    javac = shutil.which("javac")
    if javac is None:
        pytest.fail("'javac' is not on PATH; install a JDK (11 or newer)")
    work = tmp_path_factory.mktemp("names_jar")
    sources = sorted(SOURCES.rglob("*.java"))
    classes = work / "classes"
    command = [javac, "--release", "11", "-parameters", "-encoding", "UTF-8", "-d", str(classes)]
    done = subprocess.run([*command, *map(str, sources)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    jar = _zip(classes, sorted(classes.rglob("*.class")), work / "names.jar")
    sources_jar = _zip(SOURCES, sources, work / "names-sources.jar")
    return build_surface(jar, sources_jar, [NAMES], "0.0.0")


def _param(name: str) -> PyParam:
    return PyParam(name, parse_annotation("str"), False, False)


def _python_surface() -> PythonSurface:
    """What a Python API would say: Java's names in snake_case, a Python keyword with PEP 8's
    trailing underscore (`from_`), as Playwright's own `Locator.and_` has it for method names."""
    methods = {
        "send": PyMethod("send", tuple(map(_param, SEND_ARGS)), parse_annotation("None"), False),
        "relay": PyMethod(
            "relay", (_param("from_"), _param("to")), parse_annotation("None"), False
        ),
        "configure": PyMethod(
            "configure", (_param("parameters"),), parse_annotation("None"), False
        ),
    }
    return PythonSurface(
        version="0.0.0",
        sync_classes={"Names": methods},
        async_classes={"Names": dict(methods)},
        typed_dicts={},
    )


def _bind(surface: JavaSurface, method: str) -> tuple[Tool | Refusal, Diagnostics]:
    diagnostics = Diagnostics()
    entry = AllowlistEntry(target=TARGET, method=method, location="allowlist.yaml:3:13")
    return Binder(surface, _python_surface(), diagnostics).bind(entry), diagnostics


def _render(surface: JavaSurface, tools: list[Tool], out: Path) -> Path:
    """Render `tools` as the generator would and write the files under `out`."""
    report = build_report(surface, _python_surface(), tools, Diagnostics())
    renderer = Renderer(default_templates(), Cache(out / ".cache", enabled=False))
    for rel, text in renderer.render_all(tools, "0.0.0", "0.0.0", report, "0" * 64).items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def send(names_surface: JavaSurface) -> Tool:
    tool, diagnostics = _bind(names_surface, "send")
    assert isinstance(tool, Tool), [d.render() for d in diagnostics]
    return tool


@pytest.fixture(scope="module")
def send_tree(
    names_surface: JavaSurface, send: Tool, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    return _render(names_surface, [send], tmp_path_factory.mktemp("names_out"))


def test_parameters_are_escaped_per_language(send: Tool) -> None:
    names = [(p.wire_name, p.python_name, p.typescript_name) for p in send.params]
    assert names == [
        ("type", "type_", "type_"),  # Python builtin, TypeScript reserved word
        ("delete", "delete", "delete_"),  # TypeScript reserved word
        ("function", "function", "function_"),  # TypeScript reserved word
        ("list", "list_", "list"),  # Python builtin
        ("id", "id_", "id"),  # Python builtin
    ]
    view = shim_view(send)
    assert [(f.name, f.from_args) for f in view.fields] == [
        ("type_", "cast('str', args['type'])"),
        ("delete", "cast('str', args['delete'])"),
        ("function", "cast('str', args['function'])"),
        ("list_", "cast('str', args['list'])"),
        ("id_", "cast('str', args['id'])"),
    ]
    # Python's keyword arguments are Python's own parameter names, not the escaped field names.
    assert view.sync_call == (
        "page.send(type=self.type_, delete=self.delete, function=self.function, "
        "list=self.list_, id=self.id_)"
    )


def test_wire_names_are_kept(send_tree: Path) -> None:
    descriptor = yaml.safe_load((send_tree / "tools/nm_send.tool.yaml").read_text())
    assert list(descriptor["parameters"]["properties"]) == list(SEND_ARGS)
    assert descriptor["parameters"]["required"] == list(SEND_ARGS)
    d_ts = (send_tree / "typescript/web-tools.d.ts").read_text()
    for key in SEND_ARGS:  # TypeScript property keys may be reserved words: they stay as they are
        assert f"      {key}: string;\n" in d_ts


def test_generated_shim_takes_wire_names_and_calls_python_names(send_tree: Path) -> None:
    done = _python(
        """
        import dataclasses, json
        from playwright_tools import dispatch
        from playwright_tools.tools.nm_send import NmSend

        class FakePage:
            def __init__(self): self.calls = []
            def send(self, **kwargs): self.calls.append(kwargs)

        page = FakePage()
        args = {"type": "t", "delete": "d", "function": "f", "list": "l", "id": "i"}
        assert dispatch("nm_send", args, page) is None
        fields = [f.name for f in dataclasses.fields(NmSend.from_args(args))]
        print(json.dumps({"fields": fields, "calls": page.calls}))
        """,
        send_tree / "python",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "fields": ["type_", "delete", "function", "list_", "id_"],
        "calls": [SEND_ARGS],
    }


def test_typescript_takes_reserved_words_as_keys(send_tree: Path, tmp_path: Path) -> None:
    done = _tsc(
        tmp_path,
        send_tree / "typescript/web-tools.d.ts",
        """
        import type { WebToolsClient } from "./web-tools";
        declare const client: WebToolsClient;
        export async function use(): Promise<void> {
          await client.tools.nm_send({ type: "t", delete: "d", function: "f", list: "l", id: "i" });
          await client.call("nm_send", { type: "t", delete: "d", function: "f", list: "l", id: "i" });
          // @ts-expect-error: 'delete' and the others are required
          await client.tools.nm_send({ type: "t" });
          // @ts-expect-error: the escaped name is not the wire name
          await client.tools.nm_send({ type_: "t", delete: "d", function: "f", list: "l", id: "i" });
        }
        """,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_keyword_parameter_binds_to_its_escaped_python_name(
    names_surface: JavaSurface,
) -> None:
    tool, diagnostics = _bind(names_surface, "relay")
    assert isinstance(tool, Tool), [d.render() for d in diagnostics]
    assert [(p.wire_name, p.python_name) for p in tool.params] == [("from", "from_"), ("to", "to")]
    assert shim_view(tool).sync_call == "page.relay(from_=self.from_, to=self.to)"


def test_parameter_named_like_a_shim_member(names_surface: JavaSurface, tmp_path: Path) -> None:
    tool, diagnostics = _bind(names_surface, "configure")
    assert isinstance(tool, Tool), [d.render() for d in diagnostics]
    tree = _render(names_surface, [tool], tmp_path)
    done = _python(
        """
        from playwright_tools import dispatch
        class FakePage:
            def configure(self, parameters): print(parameters)
        dispatch("nm_configure", {"parameters": "p"}, FakePage())
        """,
        tree / "python",
    )
    assert done.returncode == 0, done.stderr[-600:]
    assert done.stdout == "p\n"


# --- tool names: the whole pipeline -------------------------------------------------------------

KEYWORD_TOOLS = {
    # tool name: (method, shim module, shim class)
    "class": ("page.title", "class_", "Class"),  # Python keyword, TypeScript reserved word
    "from": ("page.viewportSize", "from_", "From"),  # Python keyword
    "list": ("page.url", "list_", "List"),  # Python builtin
    "type": ("page.bringToFront", "type_", "Type"),  # Python builtin, TypeScript reserved word
    "delete": ("page.content", "delete", "Delete"),  # TypeScript reserved word
    "function": ("page.isClosed", "function", "Function"),  # TypeScript reserved word
}
FAKE_PAGE = """
class FakePage:
    url = "https://example.test/"
    viewport_size = {"width": 640, "height": 480}
    def title(self): return "a title"
    def content(self): return "<html></html>"
    def is_closed(self): return False
    def bring_to_front(self): return None
"""


def _allowlist(folder: Path, names: dict[str, str]) -> Path:
    path = folder / "allowlist.yaml"
    entries = "".join(f"  - method: {m}\n    name: {n}\n" for n, m in names.items())
    path.write_text(f"playwright: {PINNED}\ntools:\n{entries}")
    return path


@pytest.fixture(scope="module")
def keyword_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("keyword_tools")
    allowlist = _allowlist(work, {n: m for n, (m, _, _) in KEYWORD_TOOLS.items()})
    assert generate(work / "out", allowlist) == 0
    assert generate(work / "out", allowlist, "--check") == 0
    return work / "out"


def test_keyword_tool_names_are_escaped_in_python_only(keyword_tree: Path) -> None:
    tools = keyword_tree / "python/playwright_tools/tools"
    assert sorted(p.stem for p in tools.glob("*.py")) == sorted(
        ["__init__", *(module for _, module, _ in KEYWORD_TOOLS.values())]
    )
    for name in KEYWORD_TOOLS:
        descriptor = yaml.safe_load((keyword_tree / f"tools/{name}.tool.yaml").read_text())
        assert descriptor["name"] == name
    toolset = yaml.safe_load((keyword_tree / "toolsets/web_framework.toolset.yaml").read_text())
    assert toolset["tools"] == sorted(KEYWORD_TOOLS)


def test_registry_dispatches_keyword_tool_names(keyword_tree: Path) -> None:
    done = _python(
        """
        import json
        from playwright_tools import TOOLS, dispatch
        print(json.dumps({
            name: [shim.__module__, shim.__name__, shim.tool_name, dispatch(name, {}, FakePage())]
            for name, shim in TOOLS.items()
        }))
        """,
        keyword_tree / "python",
        fake_page=True,
    )
    assert done.returncode == 0, done.stderr
    results = {
        "class": "a title",
        "from": {"width": 640, "height": 480},
        "list": "https://example.test/",
        "type": None,
        "delete": "<html></html>",
        "function": False,
    }
    assert json.loads(done.stdout) == {
        name: [f"playwright_tools.tools.{module}", cls, name, results[name]]
        for name, (_, module, cls) in KEYWORD_TOOLS.items()
    }


def test_keyword_tool_names_type_check(keyword_tree: Path, tmp_path: Path) -> None:
    done = _tsc(
        tmp_path,
        keyword_tree / "typescript/web-tools.d.ts",
        """
        import type { WebTools, WebToolsClient } from "./web-tools";
        declare const client: WebToolsClient;
        export async function use(): Promise<void> {
          const title: string = await client.tools.class({});
          const url: string = await client.tools.list({});
          const html: string = await client.call("delete", {});
          const closed: boolean = await client.tools.function({});
          await client.tools.type({});
          await client.tools.from({});
          const none: WebTools["from"]["args"] = {};
          console.log(title, url, html, closed, none);
        }
        """,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    mypy = [
        sys.executable, "-m", "mypy", "--strict", "--no-incremental",
        "--cache-dir", str(tmp_path / "mypy"), "-p", "playwright_tools",
    ]  # fmt: skip
    checked = subprocess.run(
        mypy, cwd=keyword_tree / "python", capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_tool_names_that_share_a_class_name(tmp_path: Path) -> None:
    allowlist = _allowlist(tmp_path, {"x_1": "page.title", "x1": "page.url"})
    status = generate(tmp_path / "out", allowlist)
    if status == 2:
        return  # refusing the pair as a name clash is a fine answer too
    assert status == 0
    done = _python(
        """
        from playwright_tools import dispatch
        print(dispatch("x_1", {}, FakePage()), dispatch("x1", {}, FakePage()))
        """,
        tmp_path / "out/python",
        fake_page=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a title https://example.test/\n"


def test_tool_named_like_a_registry_name(tmp_path: Path) -> None:
    allowlist = _allowlist(tmp_path, {"ToolError": "page.title"})
    status = generate(tmp_path / "out", allowlist)
    if status == 2:
        return  # refusing the name is a fine answer too
    assert status == 0
    done = _python(
        """
        import playwright_tools
        try:
            playwright_tools.dispatch("no_such_tool", {}, None)
        except playwright_tools.ToolError as error:
            print(error.code)
        """,
        tmp_path / "out/python",
    )
    assert done.returncode == 0, done.stderr[-600:]
    assert done.stdout == "unknown_tool\n"
