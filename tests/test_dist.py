"""`make dist` (scripts/dist.py) without building the release: the archive rewrite gives bytes
that depend on the members alone, and each bad input is one line naming the place and the fix.
Building the release twice, installing it with `--require-hashes` and refusing a tampered wheel
are tests/test_build_step.py's (marker `build`)."""

from __future__ import annotations

import gzip
import io
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO

SCRIPTS = REPO / "scripts"
EPOCH = 1767323045  # 2026-01-02T03:04:05Z


@pytest.fixture(scope="module")
def scripts() -> Iterator[dict[str, ModuleType]]:
    """scripts/dist.py and its helpers, imported as `python scripts/dist.py` imports them."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        import dist
        import dist_archives
        import dist_pins

        yield {"dist": dist, "archives": dist_archives, "pins": dist_pins}
    finally:
        sys.path.remove(str(SCRIPTS))


MEMBERS = {
    "pkg/__init__.py": b"x = 1\n",
    "pkg/run.sh": b"#!/bin/sh\n",
    "pkg-1.0.dist-info/RECORD": b"pkg/__init__.py,,\n",
    "pkg-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n",
}


def _zip(path: Path, order: list[str], when: tuple[int, ...], mode: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name in order:
            info = zipfile.ZipInfo(name, date_time=when)  # type: ignore[arg-type]
            info.external_attr = ((0o755 if name.endswith(".sh") else mode) | 0o100000) << 16
            archive.writestr(info, MEMBERS[name])
    return path


def _tar(path: Path, order: list[str], mtime: int, owner: str, mode: int) -> Path:
    with (
        open(path, "wb") as raw,
        gzip.GzipFile("pkg.tar", "wb", 6, raw, mtime) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as tar,
    ):
        folder = tarfile.TarInfo("pkg-1.0/")
        folder.type, folder.mtime, folder.mode = tarfile.DIRTYPE, mtime, 0o775
        tar.addfile(folder)
        for name in order:
            info = tarfile.TarInfo(f"pkg-1.0/{name}")
            info.size, info.mtime, info.uname = len(MEMBERS[name]), mtime, owner
            info.mode = 0o755 if name.endswith(".sh") else mode
            tar.addfile(info, io.BytesIO(MEMBERS[name]))
    return path


def test_a_rewritten_wheel_depends_on_its_members_alone(
    tmp_path: Path, scripts: dict[str, ModuleType]
) -> None:
    rewrite = scripts["archives"].rewrite_wheel
    names = list(MEMBERS)
    one = _zip(tmp_path / "one.whl", names, (2020, 1, 1, 0, 0, 0), 0o664)
    two = _zip(tmp_path / "two.whl", names[::-1], (2024, 5, 6, 7, 8, 10), 0o600)
    rewrite(one, tmp_path / "one-fixed.whl", EPOCH)
    rewrite(two, tmp_path / "two-fixed.whl", EPOCH)
    fixed = (tmp_path / "one-fixed.whl").read_bytes()
    assert fixed == (tmp_path / "two-fixed.whl").read_bytes()
    infos = zipfile.ZipFile(io.BytesIO(fixed)).infolist()
    assert [i.filename for i in infos] == [
        "pkg/__init__.py",
        "pkg/run.sh",
        "pkg-1.0.dist-info/METADATA",
        "pkg-1.0.dist-info/RECORD",
    ]
    assert {i.date_time for i in infos} == {(2026, 1, 2, 3, 4, 4)}  # zip keeps even seconds
    assert [oct(i.external_attr >> 16) for i in infos] == ["0o100644", "0o100755"] + [
        "0o100644"
    ] * 2
    assert all(zipfile.ZipFile(io.BytesIO(fixed)).read(n) == MEMBERS[n] for n in MEMBERS)
    # Before 1980 a zip cannot say: 1980-01-01.
    rewrite(one, tmp_path / "old.whl", 0)
    assert zipfile.ZipFile(tmp_path / "old.whl").infolist()[0].date_time == (1980, 1, 1, 0, 0, 0)


def test_a_rewritten_sdist_depends_on_its_members_alone(
    tmp_path: Path, scripts: dict[str, ModuleType]
) -> None:
    rewrite = scripts["archives"].rewrite_sdist
    names = list(MEMBERS)
    one = _tar(tmp_path / "one.tar.gz", names, 1600000000, "alice", 0o664)
    two = _tar(tmp_path / "two.tar.gz", names[::-1], 1700000000, "bob", 0o600)
    rewrite(one, tmp_path / "one-fixed.tar.gz", EPOCH)
    rewrite(two, tmp_path / "two-fixed.tar.gz", EPOCH)
    fixed = (tmp_path / "one-fixed.tar.gz").read_bytes()
    assert fixed == (tmp_path / "two-fixed.tar.gz").read_bytes()
    assert fixed[4:8] == EPOCH.to_bytes(4, "little")  # the gzip header's time, and no name:
    assert fixed[3] == 0
    with tarfile.open(tmp_path / "one-fixed.tar.gz") as tar:
        members = tar.getmembers()
        assert [m.name for m in members] == ["pkg-1.0", *sorted(f"pkg-1.0/{n}" for n in names)]
        assert {(m.mtime, m.uid, m.gid, m.uname, m.gname) for m in members} == {
            (EPOCH, 0, 0, "", "")
        }
        modes = {m.name.partition("/")[2]: m.mode for m in members}
        assert modes == {"": 0o755, "pkg/run.sh": 0o755} | {
            n: 0o644 for n in names if not n.endswith(".sh")
        }


def test_a_link_in_an_sdist_is_refused_by_name(
    tmp_path: Path, scripts: dict[str, ModuleType]
) -> None:
    source = tmp_path / "linked.tar.gz"
    with tarfile.open(source, "w:gz") as tar:
        link = tarfile.TarInfo("pkg-1.0/escape")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    with pytest.raises(ValueError, match=r"linked.tar.gz: pkg-1.0/escape is neither a file"):
        scripts["archives"].rewrite_sdist(source, tmp_path / "out.tar.gz", EPOCH)


def test_outside_a_git_checkout_dist_says_so_in_one_line(tmp_path: Path) -> None:
    """scripts/dist.py copied into a folder that is no git checkout: one line, nothing written."""
    copy = tmp_path / "tree" / "scripts"
    copy.mkdir(parents=True)
    for name in ("dist.py", "dist_archives.py", "dist_pins.py"):
        shutil.copy(SCRIPTS / name, copy / name)
    done = subprocess.run(
        [sys.executable, str(copy / "dist.py"), "--out", str(tmp_path / "out")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "GIT_CEILING_DIRECTORIES": str(tmp_path)},
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"dist: {tmp_path / 'tree'}: `git rev-parse --verify HEAD` failed")
    assert lines[0].endswith("run `make dist` in a git clone of this repository")
    assert not (tmp_path / "out").exists()


def test_another_setuptools_than_the_pinned_one_is_refused(
    tmp_path: Path, scripts: dict[str, ModuleType]
) -> None:
    """Another setuptools writes other bytes (its name and version are in the wheel's WHEEL)."""
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools==0.0.1"]\n', encoding="utf-8"
    )
    dist = scripts["dist"]
    with pytest.raises(dist.DistError) as refused:
        dist._check_setuptools(tmp_path)
    said = str(refused.value)
    assert said.startswith("pyproject.toml: the build-system requires setuptools==0.0.1, but ")
    assert said.endswith(": run ./scripts/setup.sh and `make dist`")
    dist._check_setuptools(REPO)  # this checkout's pin is the installed one


def test_dependencies_whose_hashes_pip_cannot_read_are_one_line(
    tmp_path: Path, scripts: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No index to ask (and nothing kept): the line says to run it once with the index reachable."""
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("pkg/__init__.py", "")
        archive.writestr(
            "pkg-1.0.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\nRequires-Dist: no-such-dependency==1\n",
        )
        archive.writestr("pkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\n")
        archive.writestr("pkg-1.0.dist-info/RECORD", "")
    pins = scripts["pins"]
    monkeypatch.setattr(pins.sys, "prefix", str(tmp_path / "prefix"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    with pytest.raises(pins.PinError) as refused:
        pins.pins(wheel)
    said = str(refused.value)
    assert "\n" not in said
    assert said.startswith("pip could not resolve the wheel's dependencies on your package index")
    assert "no-such-dependency" in said
    assert not (tmp_path / "prefix").exists()  # nothing kept


def test_the_requirements_file_pins_the_wheel_first_then_each_dependency(
    scripts: dict[str, ModuleType],
) -> None:
    pins = scripts["pins"]
    text = scripts["dist"].requirements(
        "playwright-tool-generator",
        "1.2.3",
        "ab" * 32,
        "0123456789ab",
        [pins.Pin("jinja2", "3.1.6", "cd" * 32), pins.Pin("pyyaml", "6.0.3", "ef" * 32)],
    )
    requirements = [line for line in text.splitlines() if not line.startswith("#")]
    assert requirements == [
        "playwright-tool-generator==1.2.3 \\",
        f"    --hash=sha256:{'ab' * 32}",
        "jinja2==3.1.6 \\",
        f"    --hash=sha256:{'cd' * 32}",
        "pyyaml==6.0.3 \\",
        f"    --hash=sha256:{'ef' * 32}",
    ]
    assert "from commit 0123456789ab" in text and pins.PLATFORM in text
