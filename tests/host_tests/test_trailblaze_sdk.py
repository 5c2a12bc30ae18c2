"""Trailblaze's own TypeScript SDK (`@trailblaze/scripting`, issue 43) driving this host: its
`client.tools.web_x(args)` proxy, run as it ships (sdks/typescript/src/client.ts of the commit the
Trailblaze API setting names, transpiled without type checks: the typing is checked by
tests/test_kotlin.py and scripts/trailblaze_check.py), reaches the host over the scripting
callback, and returns the tool's result as the generated augmentation declares it (text, as
Trailblaze's Kotlin tools answer); `web_evaluate`'s three call styles (a function, a string,
`{ script }`) reach the generated `web_evaluate`, whose wire name is `script`.

The SDK source comes from a local clone of block/trailblaze (TRAILBLAZE_GIT_DIR, else the mirror
the project's sessions fetch); without one the test is skipped, saying so."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from generator.render.kotlin.trailblaze_api import APIS, DEFAULT_API
from host_tests.host_helpers import REPO, AppServer, ServedHost

GIT_DIR = Path(os.environ.get("TRAILBLAZE_GIT_DIR", "/work/.mirror/block+trailblaze/repo"))
TSC = REPO / "node_modules/.bin/tsc"

_DRIVER = """\
import { createClient } from "./client.js";

const client = createClient({
  baseUrl: process.env.HOST_URL,
  sessionId: "trailblaze-sdk-" + process.pid,
  invocationId: "invocation-1",
});
const headers = await client.tools.web_setExtraHTTPHeaders({ headers: { "x-from-sdk": "yes" } });
await client.tools.web_navigate({ url: process.env.APP_URL + "/page" });
const title = await client.tools.web_title({});
// web_evaluate's three call styles (the SDK sends `{ script }` for each): a function with its
// arguments, a bare string, and the args object.
const product = await client.tools.web_evaluate((a, b) => a * b, 6, 7);
const read = await client.tools.web_evaluate("document.title + '|' + location.pathname");
const listed = await client.tools.web_evaluate({ script: "[1, 'two', null]" });
let failed = "";
try {
  await client.tools.web_setExtraHTTPHeaders({ headers: 5 });
} catch (e) {
  failed = String(e.message);
}
console.log(JSON.stringify({ headers, title, product, read, listed, failed }));
"""


def test_the_sdk_client_reaches_the_host_over_the_scripting_callback(
    served: ServedHost, app: AppServer, tmp_path: Path
) -> None:
    if not GIT_DIR.is_dir():
        pytest.skip(f"no block/trailblaze clone at {GIT_DIR} (set TRAILBLAZE_GIT_DIR)")
    commit = APIS[DEFAULT_API].commit
    source = subprocess.run(
        ["git", "--git-dir", str(GIT_DIR), "show", f"{commit}:sdks/typescript/src/client.ts"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    (tmp_path / "client.ts").write_text(source, encoding="utf-8")
    out = tmp_path / "out"
    compiled = subprocess.run(
        [
            str(TSC),
            "--noCheck",
            "--target",
            "ES2022",
            "--module",
            "ES2022",
            "--moduleResolution",
            "bundler",
            "--outDir",
            str(out),
            str(tmp_path / "client.ts"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    (out / "package.json").write_text('{"type": "module"}')
    (out / "driver.js").write_text(_DRIVER)
    ran = subprocess.run(
        ["node", str(out / "driver.js")],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "HOST_URL": served.base, "APP_URL": app.base},
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    # What the generated augmentation declares (`result: string`): the text a Kotlin shim returns,
    # a string as it is, any other value as JSON, nothing for no value.
    assert result["headers"] == ""
    assert result["title"] == "host e2e"
    assert result["product"] == "42"
    assert result["read"] == "host e2e|/page"
    assert result["listed"] == '[1, "two", null]'
    # A refused call is the SDK's thrown error, carrying the host's code.
    assert "invalid_argument" in result["failed"], result
    assert any(h.get("x-from-sdk") == "yes" for h in app.headers_for("/page"))
