"""The generated TypeScript bindings type-check, and say what a caller may and may not do.

tsc (pinned in package.json, installed by `npm ci`) checks tests/ts/usage.ts against a fresh
generation of web-tools.d.ts. usage.ts holds correct calls, which must compile, and wrong ones
marked `// @ts-expect-error`, which must each be an error (an unused directive is error TS2578).
The other tests show that the check can fail: a wrong call with no directive, and a directive
on a correct call, each make tsc fail on exactly that line.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from ts_check import TS_DIR, compiler_options, run_tsc

USAGE = TS_DIR / "usage.ts"
DIAGNOSTIC = re.compile(
    r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+),(?P<col>\d+)\): error (?P<code>TS\d+):"
)


def _tsc(
    generated_tree: Path, workdir: Path, sources: list[Path]
) -> subprocess.CompletedProcess[str]:
    """Check `sources` with the generated d.ts, "web-tools" mapped to the fresh generation."""
    d_ts = generated_tree / "typescript" / "web-tools.d.ts"
    assert d_ts.is_file(), f"the generator wrote no {d_ts}"
    options = compiler_options({"web-tools": [str(generated_tree / "typescript" / "web-tools")]})
    return run_tsc(workdir, [d_ts, *sources], options)


def _errors(result: subprocess.CompletedProcess[str]) -> list[tuple[str, int, str]]:
    """(file name, line, code) of each error tsc printed."""
    found = []
    for line in result.stdout.splitlines():
        match = DIAGNOSTIC.match(line)
        if match:
            found.append((Path(match["file"]).name, int(match["line"]), match["code"]))
    return found


def test_tsconfig_is_strict() -> None:
    """The committed options, which the other tests reuse, are the strict ones."""
    options = json.loads((TS_DIR / "tsconfig.json").read_text())["compilerOptions"]
    assert options["strict"] is True
    assert options["noEmit"] is True
    assert options["skipLibCheck"] is False
    assert options["target"] == "ES2022"


def test_usage_type_checks(generated_tree: Path, tmp_path: Path) -> None:
    """Correct calls compile, and every `@ts-expect-error` in usage.ts marks a real error."""
    directives = USAGE.read_text().count("// @ts-expect-error")
    assert directives >= 20, "usage.ts has lost its wrong-use cases"
    result = _tsc(generated_tree, tmp_path, [USAGE])
    assert result.returncode == 0, (
        f"tsc rejected usage.ts or the d.ts:\n{result.stdout}{result.stderr}"
    )
    assert _errors(result) == []


BAD_HEAD = """\
import type { WebToolsClient } from "web-tools";
declare const client: WebToolsClient;
export async function use(): Promise<void> {
  await client.tools.web_evaluate({ script: "1 + 1" });
"""
BAD_LINE = 5  # the line of the case under test: the line after BAD_HEAD


@pytest.mark.parametrize(
    ("case", "expected_code"),
    [
        pytest.param(
            'await client.tools.web_setViewportSize({ width: "800", height: 600 });',
            "TS2322",
            id="wrong-width-type",
        ),
        pytest.param(
            'await client.tools.web_setExtraHTTPHeaders({ headers: { "x-a": 1 } });',
            "TS2322",
            id="number-header-value",
        ),
        pytest.param(
            'await client.call("web_noSuchTool", { selector: "a" });',
            "TS2345",
            id="unknown-tool-name",
        ),
        pytest.param(
            "await client.tools.web_setGeolocation({ geolocation: { longitude: 1 } });",
            "TS2741",
            id="missing-latitude",
        ),
        pytest.param(
            '// @ts-expect-error\n  await client.tools.web_evaluate({ script: "1" });',
            "TS2578",
            id="unused-ts-expect-error",
        ),
    ],
)
def test_check_is_not_vacuous(
    generated_tree: Path, tmp_path: Path, case: str, expected_code: str
) -> None:
    """A wrong use with no directive, or a directive on a right one, fails on exactly that line."""
    bad = tmp_path / "bad.ts"
    bad.write_text(f"{BAD_HEAD}  {case}\n}}\n")
    assert bad.read_text().splitlines()[BAD_LINE - 1].strip() == case.splitlines()[0]
    result = _tsc(generated_tree, tmp_path, [bad])
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"tsc accepted a wrong use:\n{bad.read_text()}"
    assert _errors(result) == [("bad.ts", BAD_LINE, expected_code)], output
