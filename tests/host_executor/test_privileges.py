"""Started as root with `--user nobody`, the service and every Chromium process run as nobody."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright._impl._driver import compute_driver_executable

from host_executor.helpers import (
    PYTHON,
    REPO,
    ExecutorProcess,
    PageServer,
    chromium_processes,
    uids_of,
    wait_until,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        os.geteuid() != 0, reason="dropping privileges needs the test to run as root (CI does)"
    ),
]
SECRET = "nobody-can-see-this-9f3e"


def closed_to(user: str, path: Path) -> Path | None:
    """The first directory on the way to `path` that `user` may not enter, read from its mode
    (this test runs as root, for which every directory is open)."""
    entry = pwd.getpwnam(user)
    for parent in reversed(path.parents):
        info = parent.stat()
        if info.st_uid == entry.pw_uid:
            bit = 0o100
        elif info.st_gid == entry.pw_gid:
            bit = 0o010
        else:
            bit = 0o001
        if not info.st_mode & bit:
            return parent
    return None


DRIVER = Path(compute_driver_executable()[0])
CLOSED_CHECKOUT = closed_to("nobody", DRIVER)
"""Where this checkout is closed to nobody (a clone under a 0700 home or `mktemp -d`)."""
needs_reachable_checkout = pytest.mark.skipif(
    CLOSED_CHECKOUT is not None,
    reason=f"nobody cannot enter {CLOSED_CHECKOUT}, above this checkout's Playwright driver: the"
    " service refuses to start as nobody from here (test_a_path_the_user_cannot_reach_is_refused"
    "_at_start checks that); clone under /opt or /srv to run this test",
)


@pytest.fixture(scope="module")
def dropped() -> Iterator[tuple[ExecutorProcess, Path]]:
    # Under /tmp, not pytest's tmp_path: that lives in a 0700 directory nobody cannot enter.
    data_dir = Path(tempfile.mkdtemp(prefix="executor-nobody-"))
    nobody = pwd.getpwnam("nobody")
    os.chown(data_dir, nobody.pw_uid, nobody.pw_gid)
    process = ExecutorProcess(
        "--bind", "127.0.0.1:0", "--user", "nobody", "--user-data-dir", str(data_dir)
    )
    yield process, data_dir
    process.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


@needs_reachable_checkout
def test_the_service_and_every_chromium_process_run_as_nobody(
    dropped: tuple[ExecutorProcess, Path], pages: PageServer
) -> None:
    process, data_dir = dropped
    nobody = pwd.getpwnam("nobody").pw_uid
    assert uids_of(process.process.pid) == [nobody] * 4
    browsers = wait_until(lambda: chromium_processes(process.process.pid), "Chromium to start")
    for pid, cmdline in browsers.items():
        assert uids_of(pid) == [nobody] * 4, (pid, cmdline[:2])
        assert b"--headless" in b" ".join(cmdline) or any(a.startswith(b"--type=") for a in cmdline)
    report = process.get("/sandbox").body
    assert report["service"]["user"] == "nobody" and report["service"]["uid"] == nobody
    assert report["service"]["privileges_dropped"] is True
    assert report["browser"]["users"] == ["nobody"] and report["browser"]["uids"] == [nobody]
    assert report["browser"]["all_ids_equal"] is True
    assert report["browser"]["headless"] is True
    # The browser's profile lives in the directory made for it (Playwright's temp profile).
    assert any(p.name.startswith("playwright") for p in (data_dir / "tmp").iterdir())
    privileges = process.events("executor_web.privileges")
    assert privileges and privileges[0]["user"] == "nobody"

    reply = process.execute(
        {
            "url": pages.url("/form"),
            "fields": [
                {"selector": "[data-testid=full-name]", "value": "Nobody"},
                {"selector": "input[type=password]", "value": SECRET, "redact": True},
            ],
            "submit": {"selector": "#go"},
        }
    )
    assert reply.status == 200, reply.body
    assert reply.body["title"] == "Welcome Nobody"
    # The other paths, each of which could need a module nobody can no longer read.
    drift = process.execute(
        {"url": pages.url("/drift"), "fields": [{"selector": "#email", "value": "x"}]}
    )
    assert drift.status == 200 and drift.body["retries"] == 1, drift.body
    assert process.execute({"url": "file:///etc/shadow"}).body["error"]["code"] == "url_refused"
    assert process.execute({"url": 1}).body["error"]["path"] == "url"
    assert process.get("/nothing").status == 404
    assert process.get("/healthz").status == 200
    assert process.stop() == 0
    assert "ModuleNotFoundError" not in process.log() and "Traceback" not in process.log()
    assert SECRET.encode() not in process.emitted()


def test_a_path_the_user_cannot_reach_is_refused_at_start() -> None:
    # A browser under a 0700 directory (as mktemp -d makes it), like a checkout there: the
    # service used to start, listen and answer /healthz `ok: false` for ever.
    closed = Path(tempfile.mkdtemp(prefix="executor-closed-"))
    try:
        (closed / "chromium").symlink_to("/usr/bin/chromium")
        started = subprocess.run(
            [
                *(PYTHON, "-m", "host", "executor", "--bind", "127.0.0.1:0", "--user", "nobody"),
                *("--executable-path", str(closed / "chromium")),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    finally:
        shutil.rmtree(closed, ignore_errors=True)
    assert started.returncode == 2, started.stderr[-2000:]
    # The first path nobody cannot reach: this checkout's driver, or else the browser.
    what, where = (
        ("Playwright's driver", CLOSED_CHECKOUT) if CLOSED_CHECKOUT else ("the browser", closed)
    )
    assert f"error: --user nobody cannot reach {what} at " in started.stderr, started.stderr
    assert f"the directory {where} (mode 0700, owner root) is closed to nobody" in started.stderr
    assert f"chmod o+x {where}" in started.stderr
    assert "Traceback" not in started.stderr
