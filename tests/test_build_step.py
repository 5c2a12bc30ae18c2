"""The generator as a step in its users' builds: the allowlist's `generate:` block, options
recorded in manifest.json and named by `--check` when they differ, the exact command to rerun,
`--expect-playwright`, the header naming the allowlist, and the JAR resolver's command line."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import REPO, generate, seeded_maven
from doc_blocks import block, commands

from generator import __version__
from generator.read.jar_resolver import resolve_jar

pytestmark = pytest.mark.jvm

ENTRIES = "tools:\n  - method: page.setExtraHTTPHeaders\n  - method: page.title\n"


def _allowlist(folder: Path, pinned: str, block: str = "", name: str = "allowlist.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"playwright: {pinned}\n{block}{ENTRIES}", encoding="utf-8")
    return path


def _manifest(out: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return loaded


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGS` as a build runs it: a process of its own, in `cwd`."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_the_generate_block_sets_outputs_and_out_relative_to_the_allowlist(
    tmp_path: Path, pinned_version: str
) -> None:
    allowlist = _allowlist(
        tmp_path / "tools", pinned_version, "generate:\n  out: build/tools\n  outputs: [python]\n"
    )
    done = _cli("--allowlist", str(allowlist), "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "tools" / "build" / "tools"
    assert _manifest(out)["options"] == {"outputs": "python", "templates": "built-in"}
    assert (out / "python" / "playwright_tools" / "__init__.py").is_file()
    assert not (out / "tools").exists()  # no .tool.yaml: the block said python only
    assert not (tmp_path / "generated").exists()


def test_the_command_line_overrides_the_block(tmp_path: Path, pinned_version: str) -> None:
    allowlist = _allowlist(tmp_path, pinned_version, "generate:\n  outputs: python\n")
    assert generate(tmp_path / "out", allowlist, "--outputs", "python,yaml") == 0
    assert _manifest(tmp_path / "out")["options"] == {
        "outputs": "python,yaml",
        "templates": "built-in",
    }


def test_the_block_may_name_an_options_file_beside_the_allowlist(
    tmp_path: Path, pinned_version: str
) -> None:
    (tmp_path / "generate.yaml").write_text("outputs:\n  - yaml\n", encoding="utf-8")
    allowlist = _allowlist(tmp_path, pinned_version, "generate: generate.yaml\n")
    assert generate(tmp_path / "out", allowlist) == 0
    assert _manifest(tmp_path / "out")["options"] == {"outputs": "yaml", "templates": "built-in"}


@pytest.mark.parametrize(
    ("block", "says"),
    [
        (
            "generate:\n  outptus: python\n",
            "allowlist.yaml:3:3: unknown key 'outptus'; did you mean 'outputs'?",
        ),
        ("generate:\n  outputs: pyhton\n", "allowlist.yaml:3:12: outputs pyhton: unknown output"),
        ("generate: missing.yaml\n", "missing.yaml: cannot read the options file"),
        ("generate: [python]\n", "allowlist.yaml:2:11: 'generate' must be a mapping of options"),
    ],
    ids=["unknown key", "bad kind", "missing file", "not a mapping"],
)
def test_a_wrong_block_is_an_error_naming_its_place(
    tmp_path: Path,
    pinned_version: str,
    capsys: pytest.CaptureFixture[str],
    block: str,
    says: str,
) -> None:
    allowlist = _allowlist(tmp_path, pinned_version, block)
    assert generate(tmp_path / "out", allowlist) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_check_with_other_options_names_them_and_the_command_that_fixes_it(
    tmp_path: Path, pinned_version: str
) -> None:
    allowlist = _allowlist(tmp_path / "tools", pinned_version)
    out = tmp_path / "out"
    assert generate(out, allowlist) == 0
    done = _cli(
        "--allowlist",
        "tools/allowlist.yaml",
        "--out",
        "out",
        "--check",
        "--outputs",
        "yaml",
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "out was written with other options than this check's" in done.stderr
    assert "outputs: python,yaml,typescript in out; yaml in this run" in done.stderr
    # The fix is the command as given, without --check, run by the same interpreter.
    assert (
        "python -m generator --allowlist tools/allowlist.yaml --out out --outputs yaml`"
        in done.stderr
    )
    assert "file(s) differ" not in done.stderr


def test_a_stale_tree_names_the_exact_command(tmp_path: Path, pinned_version: str) -> None:
    allowlist = _allowlist(tmp_path, pinned_version)
    assert generate(tmp_path / "out", allowlist) == 0
    allowlist.write_text(allowlist.read_text() + "  - method: page.url\n", encoding="utf-8")
    done = _cli("--allowlist", "allowlist.yaml", "--out", "out", "--check", cwd=tmp_path)
    assert done.returncode == 1
    assert said_to_run("--allowlist allowlist.yaml --out out` and commit the result.", done.stderr)


def test_expect_playwright_refuses_another_pin_naming_both(
    tmp_path: Path, pinned_version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    allowlist = _allowlist(tmp_path, pinned_version)
    assert generate(tmp_path / "out", allowlist, "--expect-playwright", "1.62.0") == 2
    err = capsys.readouterr().err
    assert f"pins Playwright {pinned_version}, but the build depends on 1.62.0" in err
    assert "set `playwright: 1.62.0`" in err
    assert not (tmp_path / "out").exists()
    assert generate(tmp_path / "out", allowlist, "--expect-playwright", pinned_version) == 0


def test_the_header_names_the_allowlist_used(tmp_path: Path, pinned_version: str) -> None:
    allowlist = _allowlist(tmp_path, pinned_version, name="web-tools.yaml")
    assert generate(tmp_path / "out", allowlist) == 0
    descriptor = (tmp_path / "out" / "tools" / "web_setExtraHTTPHeaders.tool.yaml").read_text()
    assert descriptor.startswith("# Generated by `python -m generator` from web-tools.yaml.")
    assert "allowlist.yaml" not in descriptor


def test_jar_resolver_has_a_command_line() -> None:
    """`--help` answers without running mvn; a version that is no release is refused as such."""
    helped = subprocess.run(
        [sys.executable, "-m", "generator.commands.resolve_jar", "--help"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PATH": ""},  # no mvn to run
    )
    assert helped.returncode == 0
    assert "--allowlist" in helped.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "generator.commands.resolve_jar", "latest"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert "'latest' is not a Playwright release" in refused.stderr


def test_jar_resolver_names_the_pin_of_the_allowlist_given(
    tmp_path: Path, pinned_version: str
) -> None:
    allowlist = _allowlist(tmp_path, pinned_version)
    done = subprocess.run(
        [sys.executable, "-m", "generator.commands.resolve_jar", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,  # no allowlist.yaml here: the option is what names it
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f"playwright-{pinned_version}.jar")


def test_mvn_runs_away_from_the_current_folders_pom(
    tmp_path: Path,
    pinned_version: str,
    maven_without_playwright: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A consumer's build runs the generator in its project folder: mvn must not read that
    project's pom.xml (here one mvn cannot even parse) for its own fetch."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pom.xml").write_text("<project><this is not a POM", encoding="utf-8")
    monkeypatch.chdir(project)
    repository = seeded_maven(maven_without_playwright, tmp_path / "repository")
    monkeypatch.setenv("MAVEN_REPO_LOCAL", str(repository))
    found = resolve_jar(pinned_version, None)
    assert found.jar.is_relative_to(repository)
    assert found.jar.name == f"playwright-{pinned_version}.jar"


def _schema(tmp_path: Path) -> dict[str, object]:
    done = _cli("schema", "--allowlist", str(REPO / "allowlist.yaml"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    loaded: dict[str, object] = json.loads(done.stdout)
    return loaded


def test_the_schema_is_written_beside_the_outputs_and_named_by_the_allowlist() -> None:
    written = json.loads((REPO / "generated" / "allowlist.schema.json").read_text())
    assert written["properties"]["tools"]["type"] == "array"
    first = (REPO / "allowlist.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=generated/allowlist.schema.json"


def test_the_schema_takes_the_allowlist_and_refuses_what_the_generator_refuses(
    tmp_path: Path,
) -> None:
    import jsonschema
    import yaml

    schema = _schema(tmp_path)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    good = yaml.safe_load((REPO / "allowlist.yaml").read_text())
    assert list(validator.iter_errors(good)) == []
    good_block = {**good, "generate": {"outputs": ["python", "trailblaze"], "out": "build/tools"}}
    assert list(validator.iter_errors(good_block)) == []
    bad = {
        "misspelt method": {**good, "tools": [{"method": "page.evaluat"}]},
        "an event": {**good, "tools": ["page.onDialog"]},
        "a flag that is no boolean": {
            **good,
            "tools": [{"method": "page.title", "surfaceToLlm": "yes"}],
        },
        "an unknown key": {**good, "tools": [{"method": "page.title", "nmae": "x"}]},
        "an unknown output kind": {**good, "generate": {"outputs": ["pyhton"]}},
        "no pin": {"tools": good["tools"]},
    }
    for what, allowlist in bad.items():
        assert list(validator.iter_errors(allowlist)), what


def test_every_tool_is_offered_with_its_description(tmp_path: Path) -> None:
    schema = _schema(tmp_path)
    choices = schema["properties"]["tools"]["items"]["oneOf"][0]["oneOf"]  # type: ignore[index]
    offered = {c["const"]: c["description"] for c in choices}
    manifest = json.loads((REPO / "generated" / "manifest.json").read_text())
    for spelled in ("page.setExtraHTTPHeaders", "locator.click", "context.addCookies"):
        assert offered[spelled]
    assert len([k for k, v in manifest["surface"].items() if v.startswith("tool ")]) <= len(offered)
    assert "page.onDialog" not in offered and "page.route" not in offered


def _git(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def _commit(consumer: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`git commit ARGS` in `consumer` as a user with a name would (the hooks run)."""
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", *args],
        cwd=consumer,
        env=env,
        capture_output=True,
        text=True,
    )


@pytest.mark.build
def test_the_pre_commit_hook_passes_a_current_tree_and_refuses_a_stale_one(
    tmp_path: Path, pinned_version: str
) -> None:
    """The real pre-commit, with this repository as a remote hook repository at its HEAD: it
    installs the generator into its own environment and runs `--check` with the allowlist's
    `generate:` block; an allowlist change without regenerating is refused with the fix."""
    head = _git("rev-parse", "HEAD", cwd=REPO).stdout.strip()
    consumer = tmp_path / "consumer"
    allowlist = _allowlist(consumer, pinned_version, "generate:\n  out: tools\n  outputs: yaml\n")
    (consumer / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {head}\n    hooks:\n"
        "      - id: playwright-tools-check\n",
        encoding="utf-8",
    )
    assert generate(consumer / "tools", allowlist) == 0
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PLAYWRIGHT_TOOL_GENERATOR_CACHE": str(tmp_path / "generator-cache"),
    }
    pre_commit = [str(Path(sys.executable).parent / "pre-commit")]
    assert _git("init", "-q", cwd=consumer).returncode == 0
    installed = subprocess.run(
        [*pre_commit, "install"], cwd=consumer, env=env, capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr
    assert _git("add", ".", cwd=consumer).returncode == 0
    committed = _commit(consumer, env, "-qm", "a")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    allowlist.write_text(allowlist.read_text() + "  - method: page.url\n", encoding="utf-8")
    refused = _commit(consumer, env, "-qam", "b")
    said = refused.stdout + refused.stderr
    assert refused.returncode != 0, said
    assert "tools is stale" in said
    assert not said_to_run("--check`", said)
    assert said_to_run("` and commit the result.", said)
    # The fix line runs as printed in the consumer's own shell (not the hook's PATH): run it, and
    # the commit goes through.
    fix = re.search(r"Run `([^`]+)` and commit the result", said)
    assert fix is not None, said
    assert not fix[1].startswith("python "), fix[1]  # the hook's python is not the user's
    ran = subprocess.run(
        fix[1], shell=True, cwd=consumer, env=os.environ, capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stderr
    assert _git("add", "-A", cwd=consumer).returncode == 0
    again = _commit(consumer, env, "-qm", "b")
    assert again.returncode == 0, again.stdout + again.stderr


WHEEL = f"playwright_tool_generator-{__version__}-py3-none-any.whl"
REQUIREMENTS = "playwright-tool-generator.requirements.txt"


@dataclass(frozen=True)
class Release:
    """`make dist` (scripts/dist.py) run twice on a commit of this work tree: once in a clean
    tree, once after a tracked file was edited and a file added, neither committed."""

    tree: Path
    first: Path
    second: Path
    first_run: subprocess.CompletedProcess[str]
    second_run: subprocess.CompletedProcess[str]


def _committed_copy(into: Path) -> Path:
    """This checkout's files as they are now (tracked and new, not ignored), committed in a
    repository of their own: the release commit of the work tree under test."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source, target = REPO / name, into / name
        if source.is_symlink() or source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                target.symlink_to(os.readlink(source))
            else:
                shutil.copy2(source, target)
    when = "2026-01-02T03:04:05Z"
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    env |= {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "commit.gpgsign",
        "GIT_CONFIG_VALUE_0": "false",
    }
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-qm", "release")):
        done = subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
            cwd=into,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    return into


def _dist(tree: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(tree / "scripts" / "dist.py"), "--out", str(out)],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    tree = _committed_copy(tmp_path_factory.mktemp("release") / "repo")
    first, second = tmp_path_factory.mktemp("first") / "dist", tmp_path_factory.mktemp("second")
    first_run = _dist(tree, first)
    assert first_run.returncode == 0, first_run.stderr
    edited = tree / "generator" / "__init__.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "# not committed\n", encoding="utf-8")
    (tree / "not-committed.txt").write_text("x\n", encoding="utf-8")
    second_run = _dist(tree, second / "dist")
    assert second_run.returncode == 0, second_run.stderr
    return Release(tree, first, second / "dist", first_run, second_run)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.build
def test_a_release_is_the_same_bytes_on_every_build_and_pins_its_wheel(release: Release) -> None:
    """Two builds of one commit, in other folders and one in a dirty tree, are the same bytes;
    the dirty tree is named in one line and left out; the requirements file pins the wheel
    first and then every dependency, each by version and sha256."""
    files = sorted(p.name for p in release.first.iterdir())
    assert files == sorted([WHEEL, f"playwright_tool_generator-{__version__}.tar.gz", REQUIREMENTS])
    assert sorted(p.name for p in release.second.iterdir()) == files
    for name in files:
        assert (release.first / name).read_bytes() == (release.second / name).read_bytes(), name
    assert release.first_run.stderr == ""
    assert release.second_run.stderr.splitlines() == [
        f"dist: warning: {release.tree} differs from HEAD in 2 file(s) (first: "
        "generator/__init__.py); the release is HEAD's without them: commit them to release them"
    ]
    assert release.first_run.stdout.splitlines()[-1] == (
        f"install: pip install --require-hashes --find-links {release.first} "
        f"-r {release.first / REQUIREMENTS}"
    )
    committed = subprocess.run(
        ["git", "show", "HEAD:generator/__init__.py"], cwd=release.tree, capture_output=True
    ).stdout
    assert zipfile.ZipFile(release.second / WHEEL).read("generator/__init__.py") == committed
    text = (release.first / REQUIREMENTS).read_text(encoding="utf-8")
    pins = re.findall(r"^(\S+)==(\S+) \\\n    --hash=sha256:([0-9a-f]{64})$", text, re.M)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 2 * len(pins) and len(pins) > 20, text
    assert pins[0] == ("playwright-tool-generator", __version__, _sha256(release.first / WHEEL))
    pinned = {name: version for name, version, _ in pins}
    for wanted in ("black==26.10.1", "jinja2==3.1.6", "playwright==", "pyyaml==6.0.3"):
        name, _, version = wanted.partition("==")
        assert name in pinned and pinned[name].startswith(version), (wanted, pinned)


@pytest.mark.build
def test_a_tampered_wheel_is_refused_by_its_hash(release: Release, tmp_path: Path) -> None:
    """One byte of the wheel changed: pip, given the requirements file, refuses it by its sha256
    (offline: --no-index); the intact wheel passes that check (and pip goes on to the
    dependencies, which this folder does not hold)."""
    said = {}
    for kind in ("intact", "tampered"):
        folder = tmp_path / kind
        folder.mkdir()
        for name in (WHEEL, REQUIREMENTS):
            shutil.copy(release.first / name, folder / name)
        if kind == "tampered":
            data = bytearray((folder / WHEEL).read_bytes())
            data[len(data) // 2] ^= 0x01
            (folder / WHEEL).write_bytes(bytes(data))
        # --ignore-installed: this environment has the generator (editable), which pip would
        # otherwise take as satisfying the requirement and never check a file at all.
        pip = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        offline = ["--no-index", "--find-links", str(folder), "-r", str(folder / REQUIREMENTS)]
        done = subprocess.run(
            [*pip, "--require-hashes", *offline],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode != 0
        said[kind] = done.stdout + done.stderr
    refused = said["tampered"]
    assert "THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE" in refused, refused
    assert f"playwright-tool-generator=={__version__} from " in refused
    assert f"Expected sha256 {_sha256(release.first / WHEEL)}" in refused
    assert "DO NOT MATCH THE HASHES" not in said["intact"], said["intact"]


@pytest.mark.build
def test_the_ci_job_passes_a_current_tree_and_fails_a_stale_one_with_a_fix_that_runs(
    tmp_path: Path, pinned_version: str, release: Release
) -> None:
    """docs/generator.md's pinned install and docs/ci.md's job step, run as written in a
    consumer repository (bash) that vendors this work tree's release (`make dist`) in `tools/`:
    the installed generator says the release's version; a current tree passes; a stale one fails
    with the command that fixes it, which runs there as printed, after which the step passes."""
    job = yaml.safe_load(
        block(
            "docs/ci.md",
            "# illustrative: a GitHub Actions job, which cannot run here; tests/test_build_step.py runs its",
        ).text
    )
    step = job["jobs"]["check"]["steps"][-1]["run"]
    install = block(
        "docs/generator.md",
        "# tools/ holds the two files of `make dist`: playwright_tool_generator-<version>-py3-none-any.whl and the requirements file",
    )
    consumer = tmp_path / "consumer"
    allowlist = _allowlist(
        consumer, pinned_version, "generate:\n  out: playwright-tools\n  outputs: yaml\n"
    )
    assert generate(consumer / "playwright-tools", allowlist) == 0
    (consumer / "tools").mkdir()
    for name in (WHEEL, REQUIREMENTS):
        shutil.copy(release.first / name, consumer / "tools" / name)
    env = {**os.environ, "PLAYWRIGHT_TOOL_GENERATOR_CACHE": str(tmp_path / "generator-cache")}

    def run(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-euo", "pipefail", "-c", command],
            cwd=consumer,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    installed = run("\n".join(commands(install.text)))
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.splitlines()[-1] == f"playwright-tool-generator {__version__}"
    assert "# playwright-tool-generator <version>" in install.text  # what the block says it prints
    by_module = run(".generator-venv/bin/python -m generator --version")
    assert by_module.stdout == f"playwright-tool-generator {__version__}\n", by_module.stderr
    current = run(step)
    assert current.returncode == 0, current.stderr
    assert "playwright-tools is up to date" in current.stdout
    allowlist.write_text(allowlist.read_text() + "  - method: page.url\n", encoding="utf-8")
    stale = run(step)
    assert stale.returncode == 1, stale.stderr
    assert "web_url" in stale.stdout
    fix = re.search(r"Run `([^`]+)` and commit", stale.stderr)
    assert fix is not None, stale.stderr
    assert fix[1] == ".generator-venv/bin/python -m generator"
    assert run(fix[1]).returncode == 0
    assert run(step).returncode == 0


def test_runs_of_other_output_kinds_never_share_a_tools_rendering(
    tmp_path: Path, pinned_version: str
) -> None:
    """`--outputs yaml` and `--outputs python` each render one file a tool: the per-tool memo of
    one must never be taken for the other's (the python run then wrote descriptors)."""
    allowlist = _allowlist(tmp_path, pinned_version)
    assert generate(tmp_path / "yaml", allowlist, "--outputs", "yaml") == 0
    assert generate(tmp_path / "python", allowlist, "--outputs", "python") == 0
    assert not (tmp_path / "python" / "tools").exists()
    assert (tmp_path / "python" / "python" / "playwright_tools" / "tools").is_dir()


def said_to_run(rest: str, said: str) -> bool:
    """Whether `said` tells the user to run `<python> -m generator` + `rest`, the interpreter
    named as it must be typed (`python`, `.venv/bin/python`, or a full path: the hook's or the
    CI job's own environment is not on PATH)."""
    pattern = (
        r"Run `(?:\S*/)?python -m generator" + (" " if rest[0] == "-" else "") + re.escape(rest)
    )
    return re.search(pattern, said) is not None


def test_the_maven_example_commits_current_output() -> None:
    """examples/maven-kotlin keeps its generated tools committed (the layout its build, hook and CI
    share): they are what the generator makes of its allowlist now. A generator change that
    alters them fails here with the command that regenerates them."""
    example = REPO / "examples" / "maven-kotlin"
    done = subprocess.run(
        [sys.executable, "-m", "generator", "--check", "--allowlist", "allowlist.yaml"],
        cwd=example,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "playwright-tools is up to date" in done.stdout
