"""Folders under a fixed name in the shared temp dir (`host.shared.private_temp`), as the default
output folder and the video encoder's folder use them: the name is used only when it is this
user's own folder; anything put there first (a symlink, a file, another user's folder) receives
none of the host's files."""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path

import pytest

from host.settings import config
from host.shared import private_temp


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(private_temp, "_CHOSEN", {})
    return tmp_path


def _name() -> str:
    return f"playwright-tool-host-{os.geteuid()}"


def _private(folder: Path) -> None:
    status = folder.lstat()
    assert stat.S_ISDIR(status.st_mode)
    assert status.st_uid == os.geteuid()
    assert stat.S_IMODE(status.st_mode) == 0o700


def test_a_missing_folder_is_made_private_and_kept(temp: Path) -> None:
    chosen = config.default_output_dir()
    assert chosen == temp / _name()
    _private(chosen)
    assert config.default_output_dir() == chosen


def test_the_users_own_folder_opened_up_is_closed_again(temp: Path) -> None:
    (temp / _name()).mkdir(mode=0o700)
    (temp / _name()).chmod(0o777)
    assert config.default_output_dir() == temp / _name()
    _private(temp / _name())


@pytest.mark.parametrize("planted", ["symlink", "file"])
def test_something_planted_under_the_name_is_not_used(
    temp: Path, planted: str, caplog: pytest.LogCaptureFixture
) -> None:
    elsewhere = temp / "someone-elses"
    elsewhere.mkdir()
    if planted == "symlink":
        (temp / _name()).symlink_to(elsewhere)
    else:
        (temp / _name()).write_text("")
    with caplog.at_level(logging.WARNING):
        chosen = config.default_output_dir()
    assert chosen.parent == temp and chosen.name.startswith(_name() + "-")
    _private(chosen)
    assert list(elsewhere.iterdir()) == []
    assert str(temp / _name()) in caplog.text and str(chosen) in caplog.text
    assert ("a symlink" if planted == "symlink" else "not a folder") in caplog.text
    assert config.default_output_dir() == chosen  # the same folder for the rest of the process


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_another_users_folder_under_the_name_is_not_used(
    temp: Path, caplog: pytest.LogCaptureFixture
) -> None:
    theirs = temp / _name()
    theirs.mkdir(mode=0o777)
    os.chown(theirs, 65534, 65534)
    with caplog.at_level(logging.WARNING):
        chosen = config.default_output_dir()
    assert chosen != theirs and chosen.name.startswith(_name() + "-")
    _private(chosen)
    assert "a folder of uid 65534" in caplog.text


def test_the_video_encoders_folder_is_private_too(
    temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from host.browsers import video_encoder

    monkeypatch.delenv("PLAYWRIGHT_BROWSERS_PATH", raising=False)
    monkeypatch.setenv("HOME", str(temp / "home"))  # no Playwright ffmpeg there
    monkeypatch.setattr(video_encoder, "_revision", lambda: "1011")
    monkeypatch.setattr(video_encoder.shutil, "which", lambda _: "/usr/bin/ffmpeg")
    planted = temp / f"playwright-tool-host-ffmpeg-{os.geteuid()}"
    planted.symlink_to(temp)
    video_encoder.ensure_encoder("/usr/bin/chromium")
    used = Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"])
    assert used != planted and used.parent == temp
    _private(used)
