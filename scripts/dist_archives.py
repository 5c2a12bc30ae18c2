"""Rewrites a wheel (zip) and an sdist (tar.gz) so that their bytes depend on their members alone.

Guarantees: the same member names with the same contents give the same bytes, whatever order the
builder wrote them in and whatever the files' times, the umask, the user or the machine's zip and
tar defaults. Members are sorted by name (in a wheel, its `.dist-info` folder last and `RECORD`
last of all, as the wheel format recommends); every time is `epoch` (SOURCE_DATE_EPOCH; a zip
cannot hold a time before 1980, so a wheel holds 1980-01-01 for an earlier one); permissions are
0644, or 0755 for a folder or a file with any execute bit; a tar member belongs to root:root with
no names; compression is deflate at level 9 and the gzip header carries neither a name nor a
time. Contents are copied unchanged, so a wheel's RECORD stays true. Two builds with the same zlib
give the same bytes; another zlib release may compress differently. A member that is neither a
file nor a folder (a link, a device) is refused with a ValueError naming it.
"""

from __future__ import annotations

import gzip
import io
import stat
import tarfile
import time
import zipfile
from pathlib import Path

_ZIP_EPOCH = 315532800  # 1980-01-01T00:00:00Z, the earliest time a zip entry can hold


def _mode(mode: int, folder: bool) -> int:
    return 0o755 if folder or mode & 0o111 else 0o644


def _wheel_order(name: str) -> tuple[bool, bool, str]:
    """Files first, then the `.dist-info` folder's, its RECORD last."""
    top, _, rest = name.partition("/")
    in_dist_info = top.endswith(".dist-info")
    return in_dist_info, in_dist_info and rest == "RECORD", name


def rewrite_wheel(source: Path, target: Path, epoch: int) -> None:
    """`source`'s files written to `target` in a fixed order, with fixed times and modes."""
    when = time.gmtime(max(epoch, _ZIP_EPOCH))[:6]
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in sorted(old.infolist(), key=lambda i: _wheel_order(i.filename)):
            if info.is_dir():
                continue  # a wheel needs no folder entries; installers make the folders
            kind = stat.S_IFMT(info.external_attr >> 16)
            if kind not in (0, stat.S_IFREG):
                raise ValueError(f"{source.name}: {info.filename} is not a regular file")
            fixed = zipfile.ZipInfo(info.filename, date_time=when)
            fixed.create_system = 3  # Unix, so that the permissions below are read
            fixed.external_attr = (stat.S_IFREG | _mode(info.external_attr >> 16, False)) << 16
            fixed.compress_type = zipfile.ZIP_DEFLATED
            new.writestr(fixed, old.read(info), compresslevel=9)


def rewrite_sdist(source: Path, target: Path, epoch: int) -> None:
    """`source`'s members written to `target` (tar.gz) sorted, with fixed times, modes, owners."""
    tar = io.BytesIO()
    with (
        tarfile.open(source, "r:gz") as old,
        tarfile.open(fileobj=tar, mode="w", format=tarfile.PAX_FORMAT) as new,
    ):
        for member in sorted(old.getmembers(), key=lambda m: m.name):
            if not (member.isfile() or member.isdir()):
                raise ValueError(f"{source.name}: {member.name} is neither a file nor a folder")
            fixed = tarfile.TarInfo(member.name)
            fixed.type = tarfile.DIRTYPE if member.isdir() else tarfile.REGTYPE
            fixed.mode = _mode(member.mode, member.isdir())
            fixed.mtime = epoch
            fixed.uid = fixed.gid = 0
            fixed.uname = fixed.gname = ""
            if member.isdir():
                new.addfile(fixed)
            else:
                fixed.size = member.size
                new.addfile(fixed, old.extractfile(member))
    with (
        open(target, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=epoch) as gz,
    ):
        gz.write(tar.getvalue())
