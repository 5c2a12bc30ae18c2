"""`host.shared.confined` and `host.sessions.session_files` without a browser (issue 42, items 2
and 3; docs/ERRORS.md rows H5F*): a symlink at each component refused, a folder that is a
symlink refused, a swapped file read as what was opened, a cap counted on the bytes read, names
never reused, and one session unable to read another's files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from host.sessions.session_files import SessionFiles, save_output
from host.settings.config import HostConfig
from host.shared.confined import Refused, TooLarge, components, create_file, read_file
from host.shared.errors import HostError


def test_a_file_is_written_in_new_folders_and_never_over_another(tmp_path: Path) -> None:
    first = create_file(tmp_path, ("a", "b"), "x.txt", b"one")
    second = create_file(tmp_path, ("a", "b"), "x.txt", b"two")
    third = create_file(tmp_path, ("a", "b"), "x", b"three")
    fourth = create_file(tmp_path, ("a", "b"), "x", b"four")
    assert first == tmp_path / "a" / "b" / "x.txt" and first.read_bytes() == b"one"
    assert second.name == "x (2).txt" and second.read_bytes() == b"two"
    assert (third.name, fourth.name) == ("x", "x (2)")
    assert oct((tmp_path / "a").stat().st_mode & 0o777) == "0o700"
    assert oct(first.stat().st_mode & 0o777) == "0o600"


def test_a_symlink_planted_as_the_file_is_never_written_through(tmp_path: Path) -> None:
    target = tmp_path / "victim.txt"
    target.write_bytes(b"keep")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "shot.png").symlink_to(target)
    written = create_file(tmp_path, ("out",), "shot.png", b"new")
    assert target.read_bytes() == b"keep"
    assert written.name == "shot (2).png" and not written.is_symlink()


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_a_folder_that_is_a_symlink_is_refused_at_any_depth(tmp_path: Path, depth: int) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    base = tmp_path / "base"
    parts = ("one", "two", "three")
    real = base.joinpath(*parts[:depth])
    real.mkdir(parents=True)
    (real / parts[depth]).symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(Refused) as raised:
        create_file(base, parts, "f.txt", b"data")
    assert raised.value.reason == "symlink" and parts[depth] in raised.value.message
    assert not list(elsewhere.iterdir())
    (elsewhere / "f.txt").write_bytes(b"secret")
    with pytest.raises(Refused) as read:
        read_file(base, (*parts, "f.txt"), 100)
    assert read.value.reason == "symlink"


def test_a_file_that_is_a_symlink_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "secret").write_bytes(b"secret")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "state.json").symlink_to(tmp_path / "secret")
    with pytest.raises(Refused) as raised:
        read_file(tmp_path, ("dir", "state.json"), 100)
    assert raised.value.reason == "symlink"


def test_the_cap_counts_the_bytes_read(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x" * 10)
    assert read_file(tmp_path, ("f",), 10) == b"x" * 10
    with pytest.raises(TooLarge) as raised:
        read_file(tmp_path, ("f",), 9)
    assert raised.value.cap == 9


def test_a_fifo_and_a_folder_are_not_files_and_do_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "sub").mkdir()
    for name in ("pipe", "sub"):
        with pytest.raises(Refused) as raised:
            read_file(tmp_path, (name,), 10)
        assert raised.value.reason == "not_file"


def test_the_cap_is_on_bytes_read_not_on_the_size_stat_reports() -> None:
    # /proc files report a size of 0 and hold more: a check of `stat()` first would pass them.
    proc = Path("/proc/self")
    assert (proc / "status").stat().st_size == 0
    with pytest.raises(TooLarge):
        read_file(proc, ("status",), 16)


def test_a_file_replaced_by_a_symlink_between_two_reads_is_refused(tmp_path: Path) -> None:
    # Check then use: the first read is fine; the name is then swapped for a symlink to a
    # secret; the next read refuses instead of following it.
    (tmp_path / "secret").write_bytes(b"secret")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "state.json").write_bytes(b"{}")
    assert read_file(tmp_path, ("s", "state.json"), 100) == b"{}"
    (tmp_path / "s" / "state.json").unlink()
    (tmp_path / "s" / "state.json").symlink_to(tmp_path / "secret")
    with pytest.raises(Refused):
        read_file(tmp_path, ("s", "state.json"), 100)


@pytest.mark.parametrize("raw", ["/etc/passwd", "../x", "a/../../x", "", ".", "a\0b"])
def test_components_refuse_what_is_not_a_plain_relative_path(raw: str) -> None:
    with pytest.raises(Refused):
        components(raw)


def test_components_of_a_plain_path() -> None:
    assert components("a//./b/c.json") == ("a", "b", "c.json")


def test_sessions_have_unguessable_folders_and_read_only_their_own(tmp_path: Path) -> None:
    config = HostConfig(output_dir=tmp_path)
    mine = SessionFiles.for_config(config, "stdio")
    theirs = SessionFiles.for_config(config, "stdio")
    assert mine.root != theirs.root and mine.root.parent == tmp_path.resolve() / "sessions"
    assert len(mine.root.name) == len("stdio-") + 24
    saved = save_output(mine, "storage", "state.json", ".json", b'{"cookies": []}')
    assert mine.read("storage", "state.json", 100) == (saved, b'{"cookies": []}')
    assert mine.read("storage", str(saved), 100)[1] == b'{"cookies": []}'
    planted = save_output(theirs, "downloads", "evil.json", ".json", b"{}")
    for given in (
        str(planted),
        f"../../{theirs.root.name}/downloads/evil.json",
        "../downloads/evil.json",
        str(tmp_path / "x.json"),
    ):
        with pytest.raises(Refused):
            mine.read("storage", given, 100)


def test_default_names_are_not_the_time_alone(tmp_path: Path) -> None:
    files = SessionFiles(tmp_path, "stdio")
    names = {save_output(files, "console", "", ".log", b"").name for _ in range(3)}
    assert len(names) == 3 and all(not n.endswith(" (2).log") for n in names)


def test_a_session_folder_swapped_for_a_symlink_is_refused_with_a_clear_error(
    tmp_path: Path,
) -> None:
    files = SessionFiles(tmp_path, "stdio")
    save_output(files, "screenshots", "a.png", ".png", b"1")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (files.root / "screenshots" / "a.png").unlink()
    (files.root / "screenshots").rmdir()
    (files.root / "screenshots").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(HostError) as raised:
        files.save("screenshots", "b.png", b"2")
    assert raised.value.code == "output_refused" and "symlink" in raised.value.message
    assert not list(elsewhere.iterdir())


def test_an_operator_file_is_capped_on_the_bytes_read_too() -> None:
    # --storage-state and --init-script: a stat() first would pass a /proc file (size 0).
    from host.settings.browser_options import OptionError, _readable

    with pytest.raises(OptionError) as raised:
        _readable("--init-script", Path("/proc/self/status"), 16)
    assert "more than the 16 bytes allowed" in str(raised.value)
