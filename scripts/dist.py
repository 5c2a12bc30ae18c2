"""`make dist`: the generator's release, built from HEAD, byte for byte the same on every build.

    .venv/bin/python scripts/dist.py [--out DIR]      # DIR: default dist/ of this checkout

Guarantees:
- What is built is a commit: HEAD, exported with `git archive`. A work tree that differs from
  HEAD gets one line naming what is left out (the build does not contain it); a folder that is
  no git checkout with a commit is refused.
- One commit gives the same bytes on every build, in any folder, at any time, by any user:
  SOURCE_DATE_EPOCH is the commit's date, and both archives are rewritten with sorted members,
  fixed times and permissions (dist_archives). That holds for one setuptools, the one
  pyproject.toml's build-system pins (any other is refused), and one zlib.
- The wheel is built from the sdist, as pip builds it from the sdist alone.
- DIR then holds this release's wheel and sdist (earlier ones of the project are removed) and
  `<project>.requirements.txt`, which pins the wheel by version and sha256 and every dependency
  it pulls in by version and sha256 (dist_pins: the versions this environment has), so that
  `pip install --require-hashes -r` installs exactly these files or nothing.
- Nothing in DIR changes unless the whole build succeeded; a failure is one line on stderr
  naming the place and the fix, exit 1.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

import dist_archives
import dist_pins

REPO = Path(__file__).resolve().parent.parent

# The PEP 517 backend, run in the tree to build: `build_sdist` or `build_wheel` into a folder.
_BACKEND = "import sys, setuptools.build_meta as b; getattr(b, 'build_' + sys.argv[1])(sys.argv[2])"


class DistError(Exception):
    """One line: the place, what is wrong, and the fix."""


def _git(*args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=False)
    except OSError as error:
        done = subprocess.CompletedProcess(args, 127, b"", str(error).encode())
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines() or ["no message"]
        raise DistError(
            f"{REPO}: `git {' '.join(args)}` failed ({said[0]}); a release is built from a "
            "commit: run `make dist` in a git clone of this repository"
        )
    return done.stdout


def _extract(tar: tarfile.TarFile, into: Path) -> None:
    """Python's `data` filter where it has one (3.11.4): nothing lands outside `into`."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(into, filter="data")
    else:  # pragma: no cover - an early 3.11
        tar.extractall(into)


def _left_out() -> str | None:
    """A warning when the work tree differs from HEAD (the build does not contain the change)."""
    changed = [line[3:] for line in _git("status", "--porcelain").decode().splitlines()]
    if not changed:
        return None
    return (
        f"dist: warning: {REPO} differs from HEAD in {len(changed)} file(s) (first: "
        f"{changed[0]}); the release is HEAD's without them: commit them to release them"
    )


def _export(into: Path) -> None:
    """HEAD's files into `into`, as `git archive` gives them."""
    with tarfile.open(fileobj=io.BytesIO(_git("archive", "HEAD"))) as tar:
        _extract(tar, into)


def _check_setuptools(source: Path) -> None:
    """The setuptools that builds is the one pyproject.toml's build-system pins."""
    pyproject = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [r for r in pyproject["build-system"]["requires"] if r.startswith("setuptools==")]
    try:
        have = "setuptools==" + importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        have = "no setuptools"
    if wanted != [have]:
        raise DistError(
            f"pyproject.toml: the build-system requires {', '.join(wanted) or 'no pinned setuptools'}"
            f", but {sys.executable} has {have}: run ./scripts/setup.sh and `make dist`"
        )


def _build(kind: str, tree: Path, out: Path, epoch: int) -> Path:
    """`tree` built by setuptools into `out`: the one file it wrote."""
    out.mkdir()
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _BACKEND, kind, str(out)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    built = list(out.iterdir())
    if done.returncode != 0 or len(built) != 1:
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
        raise DistError(f"setuptools could not build the {kind} of HEAD (its output is above)")
    return built[0]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def requirements(
    name: str, version: str, wheel: str, commit: str, pins: list[dist_pins.Pin]
) -> str:
    """The requirements file's text: comments, the wheel's pin, then each dependency's."""
    head = (
        f"# {name} {version}, built by `make dist` from commit {commit}.\n"
        f"# pip install --require-hashes -r {name}.requirements.txt, with the wheel beside it\n"
        "# (--find-links THAT_FOLDER) or on your own package index. Each dependency is pinned at the\n"
        f"# version the project was tested with, by the sha256 of its file for {dist_pins.PLATFORM}.\n"
    )
    own = dist_pins.Pin(dist_pins.normalised(name), version, wheel)
    return head + own.line() + "".join(p.line() for p in pins)


def build(out: Path) -> list[Path]:
    """The release of HEAD into `out`: its files, in the order written."""
    commit = _git("rev-parse", "--verify", "HEAD").decode().strip()
    epoch = int(_git("log", "-1", "--format=%ct", "HEAD"))
    warning = _left_out()
    if warning:
        print(warning, file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="dist-") as folder:
        work = Path(folder)
        _export(work / "source")
        _check_setuptools(work / "source")
        staged = work / "staged"
        staged.mkdir()
        raw = _build("sdist", work / "source", work / "sdist", epoch)
        sdist = staged / raw.name
        dist_archives.rewrite_sdist(raw, sdist, epoch)
        with tarfile.open(sdist) as tar:
            _extract(tar, work / "unpacked")
        (tree,) = (work / "unpacked").iterdir()
        raw = _build("wheel", tree, work / "wheel", epoch)
        wheel = staged / raw.name
        dist_archives.rewrite_wheel(raw, wheel, epoch)
        metadata = dist_pins.wheel_metadata(wheel)
        name, version = metadata["Name"][0], metadata["Version"][0]
        try:
            pins = dist_pins.pins(wheel)
        except dist_pins.PinError as error:
            raise DistError(str(error)) from None
        pinned = staged / f"{name}.requirements.txt"
        text = requirements(name, version, _sha256(wheel), commit[:12], pins)
        pinned.write_text(text, encoding="utf-8")
        return _publish([wheel, sdist, pinned], out, project=wheel.name.split("-")[0])


def _publish(files: list[Path], out: Path, project: str) -> list[Path]:
    """`files` into `out`, each replaced whole; the project's earlier archives removed."""
    out.mkdir(parents=True, exist_ok=True)
    names = {f.name for f in files}
    for old in [*out.glob(f"{project}-*.whl"), *out.glob(f"{project}-*.tar.gz")]:
        if old.name not in names:
            old.unlink()
    placed = []
    for file in files:
        partial = out / f".{file.name}.partial"
        shutil.copyfile(file, partial)
        partial.replace(out / file.name)
        placed.append(out / file.name)
    return placed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/dist.py", description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="default: dist/")
    args = parser.parse_args(argv)
    try:
        placed = build(args.out)
    except DistError as error:
        print(f"dist: {error}", file=sys.stderr)
        return 1
    for path in placed:
        print(f"{path}  sha256:{_sha256(path)}")
    wheel_folder, pinned = placed[0].parent, placed[-1]
    print(f"install: pip install --require-hashes --find-links {wheel_folder} -r {pinned}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
