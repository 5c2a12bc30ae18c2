"""The docs are run: every fenced block of README.md and docs/*.md is run (or, a block of data,
validated) by a test, or says in its first line that it is illustrative and why
(`tests/doc_blocks.py` keeps the list). This module holds that rule and the blocks that need no
browser: the generator's commands, run as typed in a copy of the tree, the errors
docs/ERRORS.md shows, the allowlist examples, and the names and figures the prose quotes. The
blocks that start a host, an executor or a browser are run by
`tests/host_tests/test_docs_run_host.py`."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from doc_blocks import REPO, RUN_BY, Block, all_blocks, block, blocks_of, commands, docs

PYTHON_AS_TYPED = ".venv/bin/python"


# -- the rule ----------------------------------------------------------------------------------


def unaccounted(blocks: list[Block]) -> list[str]:
    """`file:line` of each block neither run by a test nor marked illustrative."""
    return [
        f"{b.where}: a ```{b.language or 'plain'} block starting {b.first[:60]!r} is neither run "
        "by a test (tests/doc_blocks.py RUN_BY) nor marked `# illustrative: <reason>` "
        "in its first line"
        for b in blocks
        if b.illustrative is None and (b.doc, b.first) not in RUN_BY
    ]


def test_every_block_of_the_docs_is_run_or_marked_illustrative() -> None:
    blocks = all_blocks()
    assert len(blocks) >= 40, len(blocks)
    problems = unaccounted(blocks)
    assert not problems, "\n".join(problems)


def test_every_block_the_list_names_exists_and_its_test_too() -> None:
    present = {(b.doc, b.first) for b in all_blocks()}
    for (doc, first), test in RUN_BY.items():
        assert (doc, first) in present, f"{doc}: no block starts with {first!r} (for {test})"
        path, _, name = test.partition("::")
        assert re.search(rf"^(?:async )?def {name}\(", (REPO / path).read_text(), re.M), test


def test_an_unmarked_block_is_named_by_file_and_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n```sh\n# illustrative: needs a cluster of forty machines\nrun-it\n```\n\n"
        "```sh\nrm -rf build\n```\n\n```yaml\n# illustrative: short\nx: 1\n```\n"
    )
    problems = unaccounted(blocks_of(page, "docs/page.md"))
    assert [p.split(": a ")[0] for p in problems] == ["docs/page.md:8", "docs/page.md:12"]


# -- names and figures the prose quotes --------------------------------------------------------


def former_names() -> dict[str, str]:
    """Each former tool name (a descriptor's `aliases:`) -> the name `tools/list` shows."""
    from host.calls.registry import ToolRegistry

    return dict(ToolRegistry().aliases)


def test_the_docs_name_tools_as_tools_list_shows_them() -> None:
    """A former `web_*`/`playwright_*` name appears only in a paragraph that says what it became
    (`former → listed`); everywhere else the docs use the name `tools/list` shows. (Plain former
    names such as `click` are also webBrowser's actions, so only the prefixed ones are checked.)"""
    former = {a: n for a, n in former_names().items() if a.startswith(("web_", "playwright_"))}
    assert {"playwright_execute", "web_tabs", "web_route", "web_snapshot"} <= set(former)
    problems = []
    for path in docs():
        number = 0
        heading = ""
        for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
            start, number = number + 1, number + paragraph.count("\n") + 2
            if re.match(r"#{1,6} \S", paragraph):  # a heading opens the paragraph
                heading = paragraph.splitlines()[0]
            # That section names Trailblaze's own tools (its `web_snapshot` is not this host's).
            if heading == "### Graduating Trailblaze's hand-written tools":
                continue
            if "Former → listed" in paragraph or "formerly" in paragraph:
                continue
            for offset, line in enumerate(paragraph.splitlines()):
                for name in re.findall(r"\b((?:web|playwright)_[A-Za-z_]+)\b", line):
                    if name in former:
                        problems.append(
                            f"{path.relative_to(REPO)}:{start + offset}: {name} is listed as "
                            f"{former[name]}"
                        )
    assert not problems, "\n".join(problems)


def test_the_coverage_figure_is_the_one_surface_md_gives() -> None:
    surface = (REPO / "generated" / "SURFACE.md").read_text(encoding="utf-8")
    found = re.search(
        r"Coverage: (\d+) tools out of (\d+) candidate methods \(([\d.]+)%\)", surface
    )
    assert found, "generated/SURFACE.md has no coverage line"
    tools, candidates, percent = found.groups()
    prose = " ".join((REPO / "docs" / "generator.md").read_text(encoding="utf-8").split())
    quoted = re.search(r"(\d+) tools out of (\d+) candidate methods \(([\d.]+)%\)", prose)
    assert quoted, "docs/generator.md quotes no coverage figure"
    assert quoted.groups() == (tools, candidates, percent), (
        f"docs/generator.md says {quoted.group(0)}; generated/SURFACE.md says {found.group(0)}"
    )


def test_the_listing_figures_are_the_reports() -> None:
    """The tool and token counts the README and host.md quote are host/toolsets/REPORT.md's
    (tokens to the precision quoted), and the generated tools are the manifest's."""
    import json

    report = (REPO / "host" / "toolsets" / "REPORT.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| default listing \((.*?)\) \| (\d+ \| \d+) \|", report, re.M))
    plain = [int(x) for x in rows["neither"].split(" | ")]
    switched = [int(x) for x in rows["with --enable-execute and --record"].split(" | ")]
    generated = len(json.loads((REPO / "generated" / "manifest.json").read_text())["tools"])
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    host = " ".join((REPO / "docs" / "host.md").read_text(encoding="utf-8").split())

    def near(quoted: str, actual: int) -> bool:
        value = int(quoted.replace(",", ""))
        step = 100 if value % 100 == 0 else 10
        return abs(value - actual) < step / 2 + 1

    found = re.search(
        r"\((\d+) tools, about ([\d,]+) tokens of schema; (\d+) with `--enable-execute` and "
        r"`--record`, as `host report` lists\); the (\d+) generated",
        readme,
    )
    assert found, "README.md: the default listing's figures are not where they were"
    assert int(found.group(1)) == plain[0] and near(found.group(2), plain[1]), found.group(0)
    assert int(found.group(3)) == switched[0], found.group(0)
    assert int(found.group(4)) == generated, found.group(0)
    found = re.search(
        r"(\d+) tools, about ([\d,]+) tokens of listed schema \((\d+) and about ([\d,]+)", host
    )
    assert found, "docs/host.md: the agent toolset's figures are not where they were"
    assert int(found.group(1)) == plain[0] and near(found.group(2), plain[1]), found.group(0)
    assert int(found.group(3)) == switched[0] and near(found.group(4), switched[1]), found.group(0)


# -- the allowlist examples --------------------------------------------------------------------


def test_the_allowlist_examples_are_read_as_shown(tmp_path: Path) -> None:
    from generator.read.allowlist import load_allowlist

    pinned = yaml.safe_load((REPO / "allowlist.yaml").read_text())["playwright"]
    surface = (REPO / "generated" / "SURFACE.md").read_text(encoding="utf-8")
    examples = [
        block("README.md", "playwright: 1.63.0"),
        block(
            "docs/generator.md",
            "playwright: 1.63.0            # the Playwright Java version to reflect; Python "
            "playwright must match",
        ),
        block(
            "docs/generator.md", "# yaml-language-server: $schema=generated/allowlist.schema.json"
        ),
    ]
    for example in examples:
        path = tmp_path / "allowlist.yaml"
        path.write_text(example.text)
        allowlist = load_allowlist(path)  # a GeneratorError names the line that is wrong
        assert allowlist.playwright_version == pinned, (
            f"{example.where}: pins {allowlist.playwright_version}; allowlist.yaml pins {pinned}"
        )
        for entry in allowlist.entries:
            interface = entry.target.java_interface
            assert f"`{interface}.{entry.method}`" in surface, (example.where, entry.method)


# -- the generator's commands, as typed --------------------------------------------------------


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the generator's commands read and write, with the project's `.venv`."""
    root = tmp_path_factory.mktemp("tree")
    shutil.copy(REPO / "allowlist.yaml", root / "allowlist.yaml")
    shutil.copytree(REPO / "generated", root / "generated")
    (root / ".venv").symlink_to(REPO / ".venv")
    return root


def typed(
    command: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """One shell line as a user types it, in `cwd` (bash: `~` and `VAR=... cmd` as typed)."""
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


def jar() -> Path:
    found = subprocess.run(
        [sys.executable, "-m", "generator.commands.resolve_jar"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(found.stdout.strip())


# Runs the generator, which reflects on the JAR (a JVM) when the cache has no surface yet.
@pytest.mark.jvm
def test_the_generator_commands_run_as_typed(tree: Path, tmp_path: Path) -> None:
    readme = block(
        "README.md",
        ".venv/bin/python -m generator            # writes generated/ (only files whose bytes change)",
    )
    guide = block(
        "docs/generator.md",
        ".venv/bin/python -m generator --check                          # exit 1 with a diff if "
        "generated/ is stale",
    )
    # What the commands name must exist as a user would have it: a second allowlist, a JAR in
    # the home folder, a templates folder (empty: overrides nothing).
    (tree / "ci").mkdir(exist_ok=True)
    shutil.copy(tree / "allowlist.yaml", tree / "ci" / "tools.yaml")
    (tree / "my-templates").mkdir(exist_ok=True)
    home = tmp_path / "home"
    home.mkdir()
    (home / "playwright-1.63.0.jar").symlink_to(jar())
    # `~` is a home of its own; the JAR cache and Maven's repository stay the user's.
    env = {
        "HOME": str(home),
        "PLAYWRIGHT_TOOL_GENERATOR_CACHE": str(cache_dir()),
        "MAVEN_REPO_LOCAL": str(jar().parents[4]),
    }
    ran = []
    for command in commands(readme.text) + commands(guide.text):
        assert command.startswith(PYTHON_AS_TYPED + " -m generator"), command
        done = typed(command, tree, env)
        ran.append(command)
        assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"
        assert "Traceback" not in done.stderr, done.stderr
        if "--allowlist ci/tools.yaml --out build/tools" in command:
            assert (tree / "build" / "tools" / "manifest.json").is_file()
        if "--outputs all" in command:
            assert list((tree / "generated" / "trailblaze" / "kotlin").rglob("*.kt"))
        if command.endswith(" -v"):
            assert "info: " in done.stdout + done.stderr, done.stdout + done.stderr
    assert len(ran) >= 8, ran


def cache_dir() -> Path:
    from generator.shared.cache import default_cache_dir

    return Path(default_cache_dir())


# Runs the generator, which reflects on the JAR (a JVM) when the cache has no surface yet.
@pytest.mark.jvm
def test_the_errors_shown_are_what_the_generator_prints(tmp_path: Path) -> None:
    once = block(
        "docs/ERRORS.md",
        "error: allowlist.yaml:4:11: 'name' must be a single value, not a list or mapping.",
    )
    (tmp_path / "allowlist.yaml").write_text(
        "playwright: 1.63.0\ntools:\n  - method: page.evaluate\n    name: [a, b]\n"
    )
    done = typed(f"{sys.executable} -m generator --check", tmp_path)
    assert done.returncode == 2 and done.stderr == once.text, done.stderr
    together = block(
        "docs/ERRORS.md",
        "allowlist.yaml:3:13: error: com.microsoft.playwright.Page has no method 'evaluat'",
    )
    (tmp_path / "allowlist.yaml").write_text(
        "playwright: 1.63.0\ntools:\n  - method: page.evaluat\n"
    )
    done = typed(f"{sys.executable} -m generator --allowlist {tmp_path}/allowlist.yaml", tmp_path)
    assert done.returncode == 2
    assert done.stderr.replace(str(tmp_path), "/path/to") == together.text, done.stderr


def test_the_generated_layout_is_what_the_generator_writes() -> None:
    """Each top-level entry the layout names is in generated/ (trailblaze/ only on request)."""
    layout = block("docs/generator.md", "generated/")
    for line in layout.text.splitlines()[1:]:
        if not re.match(r"^  \S", line):
            continue
        name = line.split()[0].rstrip(",")
        if name == "trailblaze/":
            assert "only with --outputs" in line, line
            continue
        pattern = re.sub(r"<[^>]+>", "*", name).rstrip("/")
        assert list((REPO / "generated").glob(pattern)), f"{layout.where}: {line.strip()}"


def test_python_blocks_are_valid_python() -> None:
    for b in all_blocks():
        if b.language == "python":
            ast.parse(b.text, f"{b.where}")


# -- what the generator says about the run (issue 46 item 4) -------------------------------------


def copy_of_the_tree(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "allowlist.yaml", root / "allowlist.yaml")
    shutil.copytree(REPO / "generated", root / "generated")
    (root / ".venv").symlink_to(REPO / ".venv")
    return root


# Runs the generator, which reflects on the JAR (a JVM) when the cache has no surface yet.
@pytest.mark.jvm
def test_v_shows_the_notes_of_the_last_run_when_nothing_changed(tmp_path: Path) -> None:
    root = copy_of_the_tree(tmp_path)
    first = typed(f"{PYTHON_AS_TYPED} -m generator", root)
    assert first.returncode == 0, first.stderr
    held = re.search(r"(\d+) note\(s\), shown with -v", first.stdout)
    assert held, first.stdout
    again = typed(f"{PYTHON_AS_TYPED} -m generator -v", root)
    assert again.returncode == 0, again.stderr
    assert "is up to date" in again.stdout
    notes = [line for line in again.stderr.splitlines() if ": info: " in line]
    assert len(notes) == int(held.group(1)), again.stderr


# Runs the generator, which reflects on the JAR (a JVM) when the cache has no surface yet.
@pytest.mark.jvm
def test_kotlin_written_into_a_committed_tree_says_so(tmp_path: Path) -> None:
    root = copy_of_the_tree(tmp_path)
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
    for step in (["init", "-q"], ["add", "allowlist.yaml", "generated"], ["commit", "-qm", "x"]):
        subprocess.run([*git, *step], cwd=root, check=True, capture_output=True)
    done = typed(f"{PYTHON_AS_TYPED} -m generator --outputs all", root)
    assert done.returncode == 0, done.stderr
    assert "note: Kotlin shims were written into generated/trailblaze" in done.stderr
    assert "which git tracks" in done.stderr and "--out DIR" in done.stderr
    # Not tracked: no note (the same run into a folder git does not know).
    elsewhere = typed(f"{PYTHON_AS_TYPED} -m generator --outputs all --out {tmp_path}/k", root)
    assert elsewhere.returncode == 0, elsewhere.stderr
    assert "Kotlin shims were written" not in elsewhere.stderr


# Runs the generator, which reflects on the JAR (a JVM) when the cache has no surface yet.
@pytest.mark.jvm
def test_check_names_the_rerun_as_typed(tmp_path: Path) -> None:
    """`--check`'s fix names the `--allowlist`/`--out` it was given and the interpreter as the
    user types it: `.venv/bin/python` beside a `.venv`, else a path that runs it."""
    root = copy_of_the_tree(tmp_path / "with-venv")
    (root / "generated" / "SURFACE.md").write_text("stale\n")
    done = typed(
        f"{PYTHON_AS_TYPED} -m generator --check --allowlist allowlist.yaml --out generated", root
    )
    assert done.returncode == 1, done.stderr
    assert (
        "Run `.venv/bin/python -m generator --allowlist allowlist.yaml --out generated` and "
        "commit the result." in done.stderr
    ), done.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = typed(
        f"{root}/.venv/bin/python -m generator --check --allowlist {root}/allowlist.yaml "
        f"--out {root}/generated",
        elsewhere,
        {"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1, done.stderr
    fix = re.search(r"Run `(.*?)` and commit", done.stderr)
    assert fix, done.stderr
    assert "--allowlist" in fix.group(1) and "<" not in fix.group(1)
    # What the message says to run runs (here, it rewrites the stale file).
    rerun = typed(fix.group(1), elsewhere, {"PATH": "/usr/bin:/bin"})
    assert rerun.returncode == 0, rerun.stderr
    assert (root / "generated" / "SURFACE.md").read_text() != "stale\n"
