"""Started as root with `--user nobody`, the service and every Chromium process run as nobody."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from host_executor.helpers import (
    ExecutorProcess,
    PageServer,
    chromium_processes,
    uids_of,
    wait_until,
)

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="dropping privileges needs the test to run as root (CI does)"
)
SECRET = "nobody-can-see-this-9f3e"


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
