"""Hostile text in an override `description` cannot break or change the meaning of any output.

Property-based (hypothesis, derandomized, so every run checks the same examples): the tool is bound
once (page.setExtraHTTPHeaders on the real surfaces), and each example only replaces its
description and renders. For every example:

- every Python file parses, and the shim module executes with the generated package importable;
  its class docstring carries the description (see `_docstring_lines` for what black leaves of it);
- the `.tool.yaml` gives back exactly the description through `yaml.safe_load`;
- `manifest.json` is JSON;
- the `.d.ts` is kept, and all of them are type-checked by one `tsc --strict --noEmit` at the end.

The Markdown surface report is not at stake (overrides do not reach it).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from conftest import PINNED, REPO, generate
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

from generator.model.binding import Binder
from generator.model.ir import Tool
from generator.model.surface_report import SurfaceReport, build_report
from generator.read.allowlist import AllowlistEntry
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface
from generator.render.rendering import PYTHON_ROOT, Renderer, default_templates
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics
from generator.shared.targets import TARGETS

pytestmark = pytest.mark.jvm

TSC = REPO / "node_modules" / ".bin" / "tsc"
SHIM = f"{PYTHON_ROOT}/tools/web_set_extra_http_headers.py"
DESCRIPTOR = "tools/web_setExtraHTTPHeaders.tool.yaml"
D_TS = "typescript/web-tools.d.ts"
MAX_EXAMPLES = 500

# Pieces that mean something to one of the output languages or to the templates.
HOSTILE = [
    '"""', "'''", '"', "'", '""""', "\\", "\\\\", '\\"', "\\n", "\\u0041", "\\x00", "\\N{BULLET}",
    "*/", "/*", "/**", "//", "{{ d.name }}", "{{", "}}", "{% if x %}", "{% endif %}", "{%", "%}",
    "{#", "#}", "{{ shim.docstring }}", ": ", ":", "#", " # comment", "- ", "-", "---", "...",
    "&anchor ", "*alias", "!!python/object:os.system", "!tag ", "|", "|-", ">", "? ", "[", "]",
    "{", "}", ",", "%YAML 1.2", "@", "`", "${x}", "<script>alert(1)</script>", "</div>", "&amp;",
    "<!--", "-->", "ä", "日本語", "🙂", "\u200b", "\ufeff", "\u2028", "\u2029", "\xa0",
    "\u3000", "\x00", "\x07", "\x1b[31m", "\t", "\r", "\r\n", "\n", "\n\n", "\x0b", "\x0c",
    "\x1c", "\x7f", "\x9f", "yes", "null", "~", "0x1F", "1e3", "True", " ", "   ",
]  # fmt: skip

# Any character but lone surrogates (test_unencodable_description_is_an_allowlist_error) and NEL,
# U+0085, which the descriptor does not carry (test_next_line_character_survives_the_descriptor).
CHARACTERS = st.characters(exclude_categories=("Cs",), exclude_characters="\x85")
pieces = st.one_of(st.sampled_from(HOSTILE), st.text(CHARACTERS, max_size=12))
hostile_text = st.lists(pieces, max_size=16).map("".join)
long_line = st.builds(
    lambda unit, count: unit * count,
    st.sampled_from(["x", "word ", "a-b: ", "é", "\\", '"', "*/"]),
    st.integers(min_value=100, max_value=2500),
)
descriptions = st.one_of(
    hostile_text,
    st.text(CHARACTERS),
    long_line,
    st.lists(st.one_of(hostile_text, long_line), min_size=2, max_size=4).map("\n".join),
)


@pytest.fixture(scope="module", autouse=True)
def hypothesis_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Hypothesis keeps its caches in a temporary directory, not in a `.hypothesis` of the checkout."""
    previous = storage_directory(intent_to_write=False).home_directory
    set_hypothesis_home_dir(tmp_path_factory.mktemp("hypothesis"))
    yield
    set_hypothesis_home_dir(previous)


@pytest.fixture(scope="module")
def tool(java_surface: JavaSurface, python_surface: PythonSurface) -> Tool:
    entry = AllowlistEntry(TARGETS["page"], "setExtraHTTPHeaders", "allowlist.yaml:3:5")
    bound = Binder(java_surface, python_surface, Diagnostics()).bind(entry)
    assert isinstance(bound, Tool)
    return bound


@pytest.fixture(scope="module")
def report(java_surface: JavaSurface, python_surface: PythonSurface, tool: Tool) -> SurfaceReport:
    return build_report(java_surface, python_surface, [tool], Diagnostics())


@pytest.fixture(scope="module")
def renderer(tmp_path_factory: pytest.TempPathFactory) -> Renderer:
    # A cache of its own: the six Python files that do not hold the description are formatted by
    # black once, not once per example; the shim, which does, is formatted afresh every time.
    return Renderer(default_templates(), Cache(tmp_path_factory.mktemp("black-cache")))


def _render(
    renderer: Renderer, tool: Tool, report: SurfaceReport, python_surface: PythonSurface
) -> dict[str, str]:
    return renderer.render_all([tool], "1.62.0", python_surface.version, report, "0" * 64)


@pytest.fixture(scope="module")
def package_on_path(
    tmp_path_factory: pytest.TempPathFactory,
    renderer: Renderer,
    tool: Tool,
    report: SurfaceReport,
    python_surface: PythonSurface,
) -> Iterator[Path]:
    """This rendering's `playwright_tools` importable, without disturbing one imported elsewhere."""
    root = tmp_path_factory.mktemp("hostile-package")
    for rel, text in _render(renderer, tool, report, python_surface).items():
        if rel.startswith("python/"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
    stashed = {n: m for n, m in sys.modules.items() if n.split(".")[0] == "playwright_tools"}
    for name in stashed:
        del sys.modules[name]
    sys.path.insert(0, str(root / "python"))
    try:
        yield root / "python"
    finally:
        sys.path.remove(str(root / "python"))
        for name in [n for n in sys.modules if n.split(".")[0] == "playwright_tools"]:
            del sys.modules[name]
        sys.modules.update(stashed)


def _docstring_lines(text: str) -> list[str]:
    """What a docstring says, line by line, without the whitespace at either end of each line.

    The docstring writer (generator/render/writers/python.py `docstring`) makes a literal whose value is
    `text.strip()`; black then re-indents continuation lines, drops whitespace at line ends and pads
    a closing quote (test_docstring_is_the_description_exactly shows that, as an expected failure).
    Everything else must survive, so both sides are compared after this normalisation.
    """
    return [line.strip() for line in text.strip().splitlines()]


def _exec_shim(source: str, index: int) -> types.ModuleType:
    name = f"playwright_tools.tools._hostile_{index}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # dataclasses looks the module up while it builds the class
    try:
        exec(compile(source, f"<{SHIM}>", "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def _tsc(folder: Path, files: list[Path]) -> subprocess.CompletedProcess[str]:
    if not TSC.exists():
        pytest.fail(f"{TSC} is missing: run `npm ci` at the repository root")
    options = {
        "strict": True,
        "noEmit": True,
        "target": "ES2022",
        "module": "ES2022",
        "moduleResolution": "bundler",
        "skipLibCheck": False,
        "types": [],
    }
    config = folder / "tsconfig.json"
    config.write_text(json.dumps({"compilerOptions": options, "files": [str(f) for f in files]}))
    command = [str(TSC), "--pretty", "false", "-p", str(config)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)


def test_hostile_descriptions_cannot_break_the_output(
    tool: Tool,
    report: SurfaceReport,
    renderer: Renderer,
    python_surface: PythonSurface,
    package_on_path: Path,
    tmp_path: Path,
) -> None:
    d_ts_files: list[Path] = []

    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(description=descriptions)
    @example(description='"""')
    @example(description="'''")
    @example(description='ends with a quote"')
    @example(description="ends with a backslash\\")
    @example(description="\\\\ \\n \\u0041 \\x00 stay text")
    @example(description="*/ closes a comment /* and /** opens one")
    @example(description="{{ d.name }} {% if true %}x{% endif %} {# c #}")
    @example(description="key: value # not a comment")
    @example(description="- a list item?\n- another")
    @example(description="&anchor *alias !tag !!python/object:os.system")
    @example(description="| > ? [ ] { } , % @ `")
    @example(description="<script>alert(1)</script> &amp; <!-- -->")
    @example(description="ä 日本語 🙂 \u200b \ufeff")
    @example(description="\x00\x07\x1b[31m\t\r\n\x0b\x0c\x1c\x7f\x85\x9f\u2028\u2029")
    @example(description="x" * 5000)
    @example(description=("word " * 400).strip())
    @example(description="first line\n" + "y" * 300)
    @example(description="  indented\n\tand tabbed  \n")
    @example(description="")
    @example(description="   ")
    def check(description: str) -> None:
        index = len(d_ts_files)
        files = _render(
            renderer, dataclasses.replace(tool, description=description), report, python_surface
        )

        for rel, text in files.items():
            if rel.endswith(".py"):
                ast.parse(text, filename=rel)
        shim_source = files[SHIM]
        [class_def] = [n for n in ast.parse(shim_source).body if isinstance(n, ast.ClassDef)]
        docstring = ast.get_docstring(class_def, clean=False)
        expected = (description or tool.name.value).strip()
        assert docstring is not None
        assert _docstring_lines(docstring) == _docstring_lines(expected)

        module = _exec_shim(shim_source, index)
        shim = module.WebSetExtraHTTPHeaders
        assert shim.tool_name == "web_setExtraHTTPHeaders"
        assert shim.from_args({"headers": {"x-a": "1"}}).headers == {"x-a": "1"}
        if expected:  # an empty docstring is replaced by dataclass's generated one
            assert shim.__doc__ == docstring

        descriptor = yaml.safe_load(files[DESCRIPTOR])
        assert descriptor["description"] == description
        assert descriptor["name"] == "web_setExtraHTTPHeaders"
        assert list(descriptor["parameters"]["properties"]) == ["headers"]
        json.loads(files["manifest.json"])

        d_ts = tmp_path / f"example_{index:04d}.d.ts"
        d_ts.write_text(files[D_TS], encoding="utf-8")
        d_ts_files.append(d_ts)

    check()
    print(f"{len(d_ts_files)} hostile descriptions rendered and checked")
    assert len(d_ts_files) >= MAX_EXAMPLES
    done = _tsc(tmp_path, d_ts_files)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]


@pytest.mark.xfail(
    strict=True,
    reason="the shim's class docstring is laid out as black lays it out: whitespace at line ends "
    "is dropped and a closing quote padded, so the docstring is not exactly the description the "
    "writer encoded",
)
@pytest.mark.parametrize(
    "description",
    ['Say "hi"', "first line  \nsecond line", "no-break space\xa0\nnext"],
    ids=["closing-quote", "trailing-spaces", "trailing-nbsp"],
)
def test_docstring_is_the_description_exactly(
    description: str,
    tool: Tool,
    report: SurfaceReport,
    renderer: Renderer,
    python_surface: PythonSurface,
) -> None:
    files = _render(
        renderer, dataclasses.replace(tool, description=description), report, python_surface
    )
    [class_def] = [n for n in ast.parse(files[SHIM]).body if isinstance(n, ast.ClassDef)]
    docstring = ast.get_docstring(class_def, clean=True)  # PEP 257 cleaning: indentation goes
    assert docstring == description.strip()


@pytest.mark.parametrize(
    "description", ["\x85", "a\x85b", "first\nsecond\x85third"], ids=["alone", "inside", "block"]
)
def test_next_line_character_survives_the_descriptor(
    description: str,
    tool: Tool,
    report: SurfaceReport,
    renderer: Renderer,
    python_surface: PythonSurface,
) -> None:
    files = _render(
        renderer, dataclasses.replace(tool, description=description), report, python_surface
    )
    assert yaml.safe_load(files[DESCRIPTOR])["description"] == description


def test_unencodable_description_is_an_allowlist_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    allowlist = tmp_path / "allowlist.yaml"
    allowlist.write_text(
        f'playwright: {PINNED}\ntools:\n  - method: page.title\n    description: "bad \\ud800 text"\n'
    )
    assert generate(tmp_path / "out", allowlist) == 2
    assert "allowlist.yaml:4:18" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
