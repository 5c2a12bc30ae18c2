"""scripts/trailblaze_check.py --against DIR (issue 43): the stand-ins, the API setting and the
descriptor and toolset keys held to a Trailblaze checkout, which any difference fails.

The checkout is block/trailblaze at the commit the API setting names, taken from a local clone
(TRAILBLAZE_GIT_DIR, else the mirror the project's sessions fetch); without one these tests are
skipped, saying so. The SDK bundle step (npm, dts-bundle-generator) and the run-time step (kotlinc)
run in their own tests; the others pass --no-bundle and --no-runtime."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from generator.render.kotlin.trailblaze_api import APIS, DEFAULT_API

# The run-time check runs mvn, kotlinc and a JVM.
pytestmark = pytest.mark.jvm

GIT_DIR = Path(os.environ.get("TRAILBLAZE_GIT_DIR", "/work/.mirror/block+trailblaze/repo"))
SCRIPT = REPO / "scripts" / "trailblaze_check.py"


def _checkout(commit: str, into: Path) -> Path:
    if not GIT_DIR.is_dir():
        pytest.skip(f"no block/trailblaze clone at {GIT_DIR} (set TRAILBLAZE_GIT_DIR)")
    into.mkdir()
    archive = subprocess.run(
        ["git", "--git-dir", str(GIT_DIR), "archive", commit],
        capture_output=True,
        check=True,
        timeout=300,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True, timeout=300)
    return into


def _check(checkout: Path, *extra: str, runtime: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--against",
            str(checkout),
            "--no-bundle",
            *([] if runtime else ["--no-runtime"]),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _checkout(APIS[DEFAULT_API].commit, tmp_path_factory.mktemp("tb") / "trailblaze")


@pytest.mark.parametrize("api", sorted(APIS))
def test_each_api_setting_matches_its_commit(api: str, checkout: Path, tmp_path: Path) -> None:
    tree = checkout if api == DEFAULT_API else _checkout(APIS[api].commit, tmp_path / "old")
    done = _check(tree, "--api", api)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("no differences")
    assert "DIFFERS" not in done.stdout
    assert f"block/trailblaze@{APIS[api].commit}" in done.stdout


def test_a_changed_trailblaze_is_reported(checkout: Path, tmp_path: Path) -> None:
    """A renamed annotation parameter, a new abstract member of the interface the shims implement,
    a new built-in tool and a newly required descriptor key: each a DIFFERS line, exit 1."""
    changed = _checkout(APIS[DEFAULT_API].commit, tmp_path / "changed")
    models = changed / "trailblaze-models/src/commonMain/kotlin/xyz/block/trailblaze"
    annotation = models / "toolcalls/TrailblazeToolClass.kt"
    annotation.write_text(
        annotation.read_text().replace(
            "val surfaceToLlm: Boolean = true", "val llm: Boolean = true"
        )
    )
    interface = (
        changed
        / "trailblaze-playwright/src/main/java/xyz/block/trailblaze/playwright/tools"
        / "PlaywrightExecutableTool.kt"
    )
    interface.write_text(
        interface.read_text().replace(
            "  suspend fun executeWithPlaywright(",
            "  fun mustImplement(x: Int): Int\n\n  suspend fun executeWithPlaywright(",
            1,
        )
    )
    (models / "toolcalls/NewTool.kt").write_text(
        'package xyz.block.trailblaze.toolcalls\n\n@TrailblazeToolClass(name = "web_brandNew")\nclass NewTool\n'
    )
    config = models / "config/ToolYamlConfig.kt"
    config.write_text(
        config.read_text().replace(
            "  val id: String,", "  val id: String,\n  val owner: String,", 1
        )
    )
    done = _check(changed)
    assert done.returncode == 1, done.stdout + done.stderr
    differs = [line for line in done.stdout.splitlines() if line.startswith("DIFFERS")]
    text = "\n".join(differs)
    assert "val surfaceToLlm: Boolean = true" in text
    assert "annotation TrailblazeToolClass has no parameter surfaceToLlm" in text
    assert "`fun mustImplement(x: Int): Int` is not stood in" in text
    assert "adds ['web_brandNew']" in text
    assert "requires ['id', 'owner']" in text
    assert done.stdout.rstrip().endswith("differences found")


def test_not_a_checkout_is_a_usage_error(tmp_path: Path) -> None:
    done = _check(tmp_path)
    assert done.returncode == 2 and "not a Trailblaze work tree" in done.stderr


@pytest.mark.browser
@pytest.mark.parametrize("api", ["2026.07.21", "2026.07.21+map-json"])
def test_trailblaze_runs_every_generated_tool(api: str, checkout: Path) -> None:
    """Trailblaze's own run-time code, compiled from the checkout (and, for the map-json setting,
    a copy with patches/trailblaze/ applied): every tool described, every enum value decoded in
    both spellings and round-tripped, every descriptor loaded, the toolset resolved for both
    Playwright drivers; and the graduation check: every call of Graduation.kt gives the same
    result text, error and page through the hand-written tool and the generated one, but those
    whose difference docs/generator.md explains."""
    from conftest import HEADLESS_CHROMIUM

    done = _check(checkout, "--api", api, "--chromium", HEADLESS_CHROMIUM, runtime=True)
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout
    assert "Trailblaze describes every tool: 169/169" in said
    for what in ("enum values the descriptor lists", "Playwright's wire strings"):
        found = re.search(rf"{what} decoded by TrailblazeJsonInstance: (\d+)/(\d+)", said)
        assert found is not None and found[1] == found[2] and int(found[1]) > 300, said
    assert "ToolYamlLoader loads every descriptor: 164/164" in said
    for driver in ("playwright-native", "playwright-electron"):
        assert f"resolveForDriver({driver}): 164/164" in said
    if api.endswith("+map-json"):
        assert "0001-describe-map-and-json.patch applies to a copy of the checkout" in said
    graduated = re.search(
        r"ok +graduation \(Playwright Java [\d.]+\): (\d+)/(\d+) calls give the hand-written "
        r"tool's text, errors and page; (\d+) differ as documented",
        said,
    )
    assert graduated is not None, said
    same, cases, documented = (int(n) for n in graduated.groups())
    assert same + documented == cases and same >= 15, said
    # The seven tools the allowlist graduates, each run (a missing class would be a DIFFERS).
    for tool in ("web_currentUrl", "web_getStorageState", "web_evaluate", "web_pressKey",
                 "web_resize", "web_wait", "web_waitForUrl"):  # fmt: skip
        assert tool in (REPO / "scripts/trailblaze_runtime/Graduation.kt").read_text()


@pytest.mark.browser
def test_the_graduation_check_sees_a_shim_that_behaves_otherwise(
    checkout: Path, tmp_path: Path
) -> None:
    """The graduation check fails where a generated tool answers otherwise than the hand-written
    one: web_wait without its clamp waits 0 seconds for `{"seconds": 0}` and says so, where
    Trailblaze's own waits 1."""
    from conftest import HEADLESS_CHROMIUM, generate

    sys.path.insert(0, str(SCRIPT.parent / "trailblaze_runtime"))
    import run

    text = (REPO / "allowlist.yaml").read_text(encoding="utf-8")
    assert "default: 1, clamp: [1, 30], scale: 1000" in text
    allowlist = tmp_path / "allowlist.yaml"
    allowlist.write_text(
        text.replace("default: 1, clamp: [1, 30], scale: 1000", "default: 1, scale: 1000")
    )
    out = tmp_path / "out"
    assert generate(out, allowlist, "--outputs", "trailblaze") == 0
    # Only the shims the cases call are compiled (a third of the time of all 169).
    graduated = {"CurrentUrl", "GetStorageState", "Evaluate", "PressKey", "Resize", "Wait",
                 "WaitForUrl"}  # fmt: skip
    for shim in (out / "trailblaze" / "kotlin").rglob("Generated*Tool.kt"):
        if shim.name.removeprefix("Generated").removesuffix("Tool.kt") not in graduated:
            shim.unlink()
    found = run.check(
        checkout, out / "trailblaze" / "kotlin", out / "trailblaze" / "resources",
        chromium=HEADLESS_CHROMIUM,
    )  # fmt: skip
    bad = [c for c in found["graduation"] if not c["same"] and not c["documented"]]
    assert [(c["tool"], c["arguments"]) for c in bad] == [("web_wait", '{"seconds": 0}')]
    assert "Waited 0 seconds." in bad[0]["generated"]
    assert "Waited 1 seconds." in bad[0]["hand_written"]


def test_a_tool_trailblaze_cannot_describe_is_named(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The map and JSON types of `2026.07.21+map-json`'s shims, run on a Trailblaze without the
    patch: one DIFFERS line naming each tool Trailblaze cannot describe and why."""
    sys.path.insert(0, str(SCRIPT.parent))
    import trailblaze_check

    api = dataclasses.replace(APIS["2026.07.21+map-json"], patch="")
    report = trailblaze_check.Report()
    trailblaze_check.runtime(api, checkout, report)
    assert report.failed
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("DIFFERS")]
    # 17: the map, any-JSON and union arguments (the 18th of issue 55, emulateMedia's reset, is
    # an enum entry now).
    assert "Trailblaze describes 152/169 tools; not " in line
    assert "web_setExtraHTTPHeaders" in line and "web_evaluate," in line
    assert "Unsupported type class kotlinx.serialization.json.JsonElement" in line


def test_a_checkout_the_patch_does_not_apply_to_is_one_line(checkout: Path, tmp_path: Path) -> None:
    changed = tmp_path / "changed"
    shutil.copytree(checkout, changed)
    ext = changed / (
        "trailblaze-models/src/jvmAndAndroid/kotlin/xyz/block/trailblaze/toolcalls/"
        "TrailblazeKoogToolExt.kt"
    )
    # A line the patch's context holds, changed as a later Trailblaze might change it.
    lowered = "      ToolParameterType.List(listItemToolType)\n"
    assert lowered in ext.read_text()
    ext.write_text(
        ext.read_text().replace(
            lowered, "      ToolParameterType.List(item = listItemToolType)\n", 1
        )
    )
    done = _check(changed, "--api", "2026.07.21+map-json")
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "patches/trailblaze/0001-describe-map-and-json.patch does not apply" in line
    assert "check that commit out, or use --api 2026.07.21" in line


def test_one_typescript_surface(checkout: Path) -> None:
    """Trailblaze's own `trailblaze-client.d.ts` for the generated tools types the usage file
    against the SDK's declaration bundle with `skipLibCheck: false` (no TS2717: the generator
    declares none of those entries again), and the calls fail without it."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--against", str(checkout), "--no-runtime"],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "trailblaze-client.d.ts for the generated tools type-checks the calls" in done.stdout
