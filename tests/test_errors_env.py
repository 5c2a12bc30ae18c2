"""Every failure is one clear message with a distinct exit status, and nothing under --out changes.

Allowlist mistakes exit 2 and name `allowlist.yaml:LINE:COL`; the environment (Java, Maven, the JAR,
the Python playwright) exits 3 with one paragraph and no traceback unless --debug; an output
directory that cannot be written exits 4. These are the cases test_cli.py, test_cache.py,
test_jar_resolution.py, test_versions.py and test_interrupted_write.py do not already cover;
docs/ERRORS.md lists all of them with the test behind each.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from conftest import PINNED, REPO, generate, seeded_maven

from generator.read.jar_resolver import ResolvedJar

pytestmark = pytest.mark.jvm

PYTHON_DIR = str(Path(sys.executable).parent)
SMALL = f"playwright: {PINNED}\ntools:\n  - method: page.title\n  - method: page.url\n"


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


@pytest.fixture(scope="module")
def small_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated tree (two tools) plus a file of the user's, to check that failures touch nothing."""
    root = tmp_path_factory.mktemp("small")
    allowlist = root / "allowlist.yaml"
    allowlist.write_text(SMALL)
    assert generate(root / "generated", allowlist) == 0
    (root / "generated" / "NOTES.md").write_text("the user's file\n")
    return root / "generated"


@pytest.fixture
def out(small_tree: Path, tmp_path: Path) -> Path:
    target = tmp_path / "generated"
    shutil.copytree(small_tree, target)
    return target


def _allowlist(folder: Path, text: str) -> Path:
    path = folder / "allowlist.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _first_line(stderr: str) -> str:
    return stderr.strip().splitlines()[0] if stderr.strip() else ""


# --- the allowlist: exit 2 ------------------------------------------------------------------------

HEAD = f"playwright: {PINNED}\ntools:\n"
IDENTIFIER = "must be an identifier (ASCII letters, digits and '_', starting with a letter), for example 'web_evaluate'."
TARGETS = "targets are page, context, keyboard, mouse, locator (for example 'page.evaluate')."
CLASH = "is already used, or gives the same Python module or class, by"

ALLOWLIST_ERRORS = [
    pytest.param(
        "playwright: [1]\ntools: []\n",
        "error: allowlist.yaml:1:13: 'playwright' must be a single value, not a list or mapping.",
        id="playwright-not-a-scalar",
    ),
    pytest.param(
        f"playwright: {PINNED}\n",
        "error: allowlist.yaml:1:1: missing 'tools:'.",
        id="missing-tools",
    ),
    pytest.param(
        HEAD + "  - name: x\n",
        "error: allowlist.yaml:3:5: this entry has no 'method: <target>.<javaMethod>'.",
        id="entry-without-method",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: a\n    name: b\n",
        "error: allowlist.yaml:5:5: key 'name' is given twice.",
        id="key-given-twice",
    ),
    pytest.param(
        HEAD + "  - method: [page.title]\n",
        "error: allowlist.yaml:3:13: 'method' must be a single value, not a list or mapping.",
        id="method-is-a-list",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: [a]\n",
        "error: allowlist.yaml:4:11: 'name' must be a single value, not a list or mapping.",
        id="name-is-a-list",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    description: {a: 1}\n",
        "error: allowlist.yaml:4:18: 'description' must be a single value, not a list or mapping.",
        id="description-is-a-mapping",
    ),
    pytest.param(
        HEAD + '  - method: page.title\n    surfaceToLlm: "yes"\n',
        "error: allowlist.yaml:4:19: 'surfaceToLlm' must be true or false.",
        id="surfaceToLlm-quoted-yes",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    isRecordable: 1\n",
        "error: allowlist.yaml:4:19: 'isRecordable' must be true or false.",
        id="isRecordable-number",
    ),
    pytest.param(
        HEAD + "  - method: pgae.title\n",
        "error: allowlist.yaml:3:13: 'pgae.title' is not '<target>.<javaMethod>'; did you mean 'page'? "
        + TARGETS,
        id="target-typo",
    ),
    pytest.param(
        HEAD + "  - method: Page.title\n",
        "error: allowlist.yaml:3:13: 'Page.title' is not '<target>.<javaMethod>'; did you mean 'page'? "
        + TARGETS,
        id="java-class-as-target",
    ),
    pytest.param(
        HEAD + "  - method: title\n",
        "error: allowlist.yaml:3:13: 'title' is not '<target>.<javaMethod>'; " + TARGETS,
        id="no-target",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: 1x\n",
        f"error: allowlist.yaml:4:11: tool name '1x' {IDENTIFIER}",
        id="name-starts-with-digit",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: a-b\n",
        f"error: allowlist.yaml:4:11: tool name 'a-b' {IDENTIFIER}",
        id="name-with-dash",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: ä\n",
        f"error: allowlist.yaml:4:11: tool name 'ä' {IDENTIFIER}",
        id="name-not-ascii",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: ''\n",
        f"error: allowlist.yaml:4:11: tool name '' {IDENTIFIER}",
        id="name-empty",
    ),
    pytest.param(
        HEAD + "  - method: page.evaluat\n",
        "allowlist.yaml:3:13: error: com.microsoft.playwright.Page has no method 'evaluat'\n"
        "  hint: did you mean page.evaluate, page.evaluateHandle?",
        id="unknown-method-nearest",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: Foo\n  - method: page.url\n    name: foo\n",
        f"allowlist.yaml:5:13: error: tool name 'foo' {CLASH} 'Foo' (the entry at allowlist.yaml:3:13)\n"
        "  hint: give one of the two entries a different 'name:'",
        id="names-differ-only-in-case",
    ),
    pytest.param(
        HEAD + "  - method: page.title\n    name: web_ab\n  - method: page.url\n    name: webAb\n",
        f"allowlist.yaml:5:13: error: tool name 'webAb' {CLASH} 'web_ab' (the entry at allowlist.yaml:3:13)",
        id="names-share-a-module",
    ),
    pytest.param(
        HEAD + "  - method: page.pause\n",
        "allowlist.yaml:3:13: error: com.microsoft.playwright.Page#pause opens the Playwright Inspector "
        "and waits for a person to resume and cannot be generated\n  hint: remove the entry",
        id="waits-for-a-person",
    ),
    pytest.param(
        HEAD + "  - method: page.frameByUrl\n",
        f"allowlist.yaml:3:13: error: com.microsoft.playwright.Page#frameByUrl: the Python playwright {PINNED} "
        "has no Page.frame_by_url\n  hint: this method exists only in Java; remove the entry",
        id="java-only-method",
    ),
    pytest.param(
        HEAD + "  - method: page.routeFromHAR\n",
        "allowlist.yaml:3:13: error: com.microsoft.playwright.Page#routeFromHAR cannot be generated: "
        "no overload has parameters that can cross JSON\n  hint: remove the entry",
        id="no-json-overload",
    ),
]


@pytest.mark.parametrize(("text", "expected"), ALLOWLIST_ERRORS)
def test_allowlist_error(
    text: str, expected: str, out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(out)
    assert generate(out, _allowlist(tmp_path, text)) == 2
    err = capsys.readouterr().err
    assert err.startswith(expected), err
    assert "Traceback" not in err
    assert _snapshot(out) == before


def test_allowlist_file_missing(
    out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(out)
    missing = tmp_path / "nope.yaml"
    assert generate(out, missing) == 2
    err = capsys.readouterr().err
    assert err == f"error: {missing}: cannot read the allowlist (No such file or directory).\n"
    assert _snapshot(out) == before


def test_allowlist_not_utf8(out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "allowlist.yaml"
    path.write_bytes(
        b"playwright: "
        + PINNED.encode()
        + b"\ntools:\n  - method: page.title\n    description: caf\xe9\n"
    )
    assert generate(out, path) == 2
    assert "allowlist.yaml" in capsys.readouterr().err


def test_yaml_1_1_booleans_are_accepted(tmp_path: Path) -> None:
    """`surfaceToLlm: yes` is YAML 1.1's true (PyYAML reads it so); only a quoted "yes" is refused."""
    path = _allowlist(tmp_path, HEAD + "  - method: page.title\n    surfaceToLlm: yes\n")
    assert generate(tmp_path / "out", path) == 0
    descriptor = yaml.safe_load((tmp_path / "out/tools/web_title.tool.yaml").read_text())
    assert descriptor["surfaceToLlm"] is True


def test_broken_template_is_a_usage_error(
    out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates)
    shim = templates / "shim.py.j2"
    shim.write_text(shim.read_text().replace("{{ shim.class_name }}:", "{{ shim.clas_name }}:", 1))
    before = _snapshot(out)
    allowlist = _allowlist(tmp_path, SMALL)
    assert generate(out, allowlist, "--templates", str(templates)) == 2
    err = capsys.readouterr().err
    assert _first_line(err).startswith("error: template shim.py.j2:"), err
    assert "'clas_name'" in err and "Fix the template or restore the default templates/." in err
    assert _snapshot(out) == before


def test_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "generator", "--out", str(tmp_path / "out"), "--chekc"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith("usage: python -m generator ")
    assert lines[-1] == "python -m generator: error: unrecognized arguments: --chekc"
    assert not (tmp_path / "out").exists()


# --- the environment: exit 3 ----------------------------------------------------------------------


def _run(
    out: Path, *extra: str, env: dict[str, str], allowlist: Path | None = None
) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable, "-m", "generator", "--out", str(out), "-q", "--no-cache",
        "--allowlist", str(allowlist or REPO / "allowlist.yaml"), *extra,
    ]  # fmt: skip
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False, env=env)


def _empty_homes(tmp_path: Path) -> dict[str, str]:
    """A Maven repository and a Gradle cache that hold nothing: the JAR must come from `mvn`."""
    (tmp_path / "m2").mkdir()
    return {"MAVEN_REPO_LOCAL": str(tmp_path / "m2"), "GRADLE_USER_HOME": str(tmp_path / "gradle")}


def _assert_one_paragraph(done: subprocess.CompletedProcess[str], expected: str) -> None:
    assert done.returncode == 3, done.stderr
    assert done.stderr == f"error: {expected}\n"


def test_java_home_not_a_directory(out: Path) -> None:
    before = _snapshot(out)
    env = {**os.environ, "JAVA_HOME": "/nonexistent", "PATH": PYTHON_DIR}
    _assert_one_paragraph(
        _run(out, env=env),
        "JAVA_HOME is set to /nonexistent, which is not a directory. Point JAVA_HOME at a JDK 11 "
        "or newer, or unset it so the JDK on PATH is used.",
    )
    assert _snapshot(out) == before


def test_no_java_at_all(out: Path) -> None:
    before = _snapshot(out)
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"} | {"PATH": PYTHON_DIR}
    _assert_one_paragraph(
        _run(out, env=env),
        "No Java runtime was found: JAVA_HOME is unset and 'java' is not on PATH. Install a JDK "
        "(11 or newer), for example Debian's openjdk-17-jdk-headless.",
    )
    assert _snapshot(out) == before


def test_mvn_missing(out: Path, tmp_path: Path) -> None:
    before = _snapshot(out)
    env = {**os.environ, **_empty_homes(tmp_path), "PATH": PYTHON_DIR}
    _assert_one_paragraph(
        _run(out, env=env),
        f"Playwright Java {PINNED} is not in the local Maven repository or the Gradle cache, and 'mvn' "
        "is not on PATH to fetch it. Install Maven, or pass the JAR with --jar PATH.",
    )
    assert _snapshot(out) == before


MVN_FAILED = (
    "error: 'mvn' could not fetch com.microsoft.playwright:playwright:{version} (exit 1). Check that "
    "this Playwright version exists (`.venv/bin/python -m generator bump --list` shows which are "
    "published) "
    "and that Maven can reach its repositories (see your Maven "
    "settings.xml), or pass the JAR with --jar PATH. Maven said:"
)


def _offline_mvn(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The real Maven, in offline mode: a `mvn` first on PATH that execs the real one with -o."""
    real = shutil.which("mvn")
    if real is None:
        pytest.fail("'mvn' is not installed; .ci/run installs it")
    folder, log = tmp_path / "offline-bin", tmp_path / "mvn-calls.log"
    folder.mkdir()
    wrapper = folder / "mvn"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{real}" -o "$@"\n')
    wrapper.chmod(0o755)
    env = {
        **os.environ,
        **_empty_homes(tmp_path),
        "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
    }
    return env, log


def test_mvn_offline(out: Path, tmp_path: Path) -> None:
    before = _snapshot(out)
    env, log = _offline_mvn(tmp_path)
    done = _run(out, env=env)
    assert done.returncode == 3, done.stderr
    assert _first_line(done.stderr) == MVN_FAILED.format(version=PINNED)
    assert "Traceback" not in done.stderr
    assert "maven-dependency-plugin" in log.read_text()  # the real Maven ran, through the wrapper
    assert _snapshot(out) == before


def test_mvn_offline_excerpt_names_the_cause(out: Path, tmp_path: Path) -> None:
    env, _ = _offline_mvn(tmp_path)
    done = _run(out, env=env)
    assert done.returncode == 3
    assert "offline mode" in done.stderr


def test_pinned_version_does_not_exist(
    out: Path, tmp_path: Path, maven_without_playwright: Path
) -> None:
    before = _snapshot(out)
    allowlist = _allowlist(tmp_path, SMALL.replace(PINNED, "0.0.0"))
    homes = _empty_homes(tmp_path)
    seeded_maven(maven_without_playwright, Path(homes["MAVEN_REPO_LOCAL"]))
    done = _run(out, env={**os.environ, **homes}, allowlist=allowlist)
    assert done.returncode == 3, done.stderr
    assert _first_line(done.stderr) == MVN_FAILED.format(version="0.0.0")
    assert "Traceback" not in done.stderr
    assert not list((tmp_path / "m2").rglob("playwright-0.0.0.jar"))
    assert _snapshot(out) == before


def test_python_playwright_missing(out: Path) -> None:
    """The one case run with a patched interpreter: `find_spec` cannot see `playwright`. Really
    uninstalling the package would break the rest of the session."""
    before = _snapshot(out)
    code = textwrap.dedent(
        """
        import importlib.util, sys
        real = importlib.util.find_spec
        importlib.util.find_spec = lambda n, *a: None if n == "playwright" else real(n, *a)
        from generator.commands.cli import main
        sys.exit(main(sys.argv[1:]))
        """
    )
    command = [sys.executable, "-c", code, "--out", str(out), "-q", "--no-cache"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    _assert_one_paragraph(
        done,
        "The Python package 'playwright' is not installed. Install the version the allowlist pins: "
        f".venv/bin/python -m pip install playwright=={PINNED} (or run scripts/setup.sh).",
    )
    assert _snapshot(out) == before


NOT_A_JAR = (
    "error: --jar {jar}: not a JAR (the file is not a zip archive; is the download complete?). "
    "Pass the com.microsoft.playwright:playwright JAR, or omit --jar to resolve it through Maven."
)


def test_jar_of_random_bytes(out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(out)
    jar = tmp_path / "playwright-1.62.0.jar"
    jar.write_bytes(random.Random(1).randbytes(64 * 1024))
    assert generate(out, None, "--jar", str(jar)) == 3
    assert capsys.readouterr().err == NOT_A_JAR.format(jar=jar) + "\n"
    assert _snapshot(out) == before


def test_truncated_jar(
    out: Path, tmp_path: Path, real_jar: ResolvedJar, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(out)
    jar = tmp_path / "playwright-1.62.0.jar"
    whole = real_jar.jar.read_bytes()
    jar.write_bytes(whole[: len(whole) // 2])  # an interrupted download
    assert generate(out, None, "--jar", str(jar)) == 3
    assert capsys.readouterr().err == NOT_A_JAR.format(jar=jar) + "\n"
    assert _snapshot(out) == before


def test_debug_shows_the_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.jar"
    assert generate(tmp_path / "out", None, "--jar", str(missing)) == 3
    plain = capsys.readouterr().err
    assert plain == f"error: --jar {missing}: no such file.\n"
    assert generate(tmp_path / "out", None, "--jar", str(missing), "--debug") == 3
    debug = capsys.readouterr().err
    assert debug.startswith("Traceback (most recent call last):\n")
    assert 'generator/read/jar_resolver.py", line' in debug
    assert debug.endswith(f"\nerror: --jar {missing}: no such file.\n")


# --- the output directory: exit 4 -----------------------------------------------------------------


def test_output_path_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "generated"
    target.write_text("not a directory\n")
    assert generate(target, _allowlist(tmp_path, SMALL)) == 4
    assert capsys.readouterr().err == (
        f"error: cannot write under {target}: File exists ({target}). Nothing was changed; make the "
        "directory writable, or choose another with --out.\n"
    )
    assert target.read_text() == "not a directory\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["allowlist.yaml", "generated"]


def test_output_path_cannot_be_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = Path("/proc/no-such-process/generated")
    assert generate(target, _allowlist(tmp_path, SMALL)) == 4
    assert capsys.readouterr().err == (
        f"error: cannot write under {target}: No such file or directory (/proc/no-such-process). "
        "Nothing was changed; make the directory writable, or choose another with --out.\n"
    )


def test_directory_where_a_file_goes(
    out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (out / "tools" / "web_title.tool.yaml").unlink()
    (out / "tools" / "web_title.tool.yaml").mkdir()
    (out / "tools" / "web_title.tool.yaml" / "mine.txt").write_text("mine\n")
    before = _snapshot(out)
    assert generate(out, _allowlist(tmp_path, SMALL)) == 4
    # The last line; before it only the warnings of a run that generated (a release published
    # without its sources JAR says so on every run).
    err = capsys.readouterr().err
    assert err.endswith(
        f"\nerror: {out}/tools/web_title.tool.yaml is a directory, but the generator needs to write "
        "a file there; move it away.\n"
    ) or err.startswith("error: ")
    assert err.count("error: ") == 1 and "Traceback" not in err
    assert _snapshot(out) == before


def test_another_python_than_the_projects_names_the_project_one(tmp_path: Path) -> None:
    """A bare `python3 -m generator --check` in the checkout, with a Python that is not the
    project's .venv (so without playwright): the error names the project's Python with the same
    arguments, and that line runs as printed."""
    base = Path(sys.base_prefix) / "bin" / "python3"
    assert base.is_file(), base
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(
        [str(base), "-m", "generator", "--check"],
        cwd=REPO, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    fix = re.search(r"Run the generator with the project's own Python: (.+)$", done.stderr.strip())
    assert fix is not None, done.stderr
    assert fix[1] == ".venv/bin/python -m generator --check"
    again = subprocess.run(
        shlex.split(fix[1]), cwd=REPO, capture_output=True, text=True, check=False, timeout=600
    )
    assert again.returncode == 0, again.stdout + again.stderr
