"""The answer to a run whose inputs and output have not changed since the last full run, given
before anything heavy is imported: the cost of `python -m generator` on an up-to-date tree is
then little more than the interpreter's start.

A full run that leaves `out` up to date writes a stamp: the file status (size, modification and
change times, inode) of every file and folder its fingerprint was computed from (allowlist, JAR,
the Python API's sources, templates, the generator's own code, the folders on `sys.path` that
tell the pinned tools' versions) and of every output file and folder. When every one still has
that status, the inputs hash to the same fingerprint and the output is what that run left, so the
run is up to date without hashing anything. Any difference (a touched file, a new template, an
edited output, an interrupted write's journal, another run holding the lock) is not an answer:
the full run decides, hashing as before. The stamp is a cache entry with its checksum; a damaged
one is no answer either. Only the command lines of a plain run or `--check` are answered here.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Sequence

# Options that take a value, and flags, of the runs answered here; anything else goes to the CLI.
_VALUED = {
    "--out",
    "--allowlist",
    "--templates",
    "--cache-dir",
    "--jar",
    "--outputs",
    "--kotlin-package",
    "--trailblaze-api",
    "--expect-playwright",
    "--lock-timeout",
}
# Options whose value is a path (compared by where it leads), and those that change nothing the
# stamp stands for (what is printed, how long to wait for a lock, whether to write or check).
_PATHS = ("--out", "--allowlist", "--templates", "--jar")
_UNSHAPING = {"-q", "--quiet", "-v", "--verbose", "--check", "--cache-dir", "--lock-timeout"}
_FLAGS = {"-q", "--quiet", "-v", "--verbose", "--check", "--strict", "--allow-version-mismatch"}
_ENVIRONMENT = (
    "HOME",
    "XDG_CACHE_HOME",
    "PLAYWRIGHT_TOOL_GENERATOR_CACHE",
    "MAVEN_REPO_LOCAL",
    "GRADLE_USER_HOME",
    "PLAYWRIGHT_TOOL_GENERATOR_PAUSE",
)
_KIND = "quick"


def parse(argv: Sequence[str]) -> dict[str, str] | None:
    """The options of a run answered here (`--name` → value, flags → ""), or None."""
    options: dict[str, str] = {}
    i = 0
    while i < len(argv):
        name, equals, value = argv[i].partition("=")
        if name in _VALUED:
            if not equals:
                i += 1
                if i >= len(argv):
                    return None
                value = argv[i]
            if name in options:
                return None
            options[name] = value
        elif name in _FLAGS and not equals:
            options[name] = ""
        else:
            return None
        i += 1
    return options


def _key(options: dict[str, str]) -> str:
    """What the stamp is for: the run's settings, where it runs and the environment it reads."""
    settings = {
        "out": os.path.realpath(options["--out"]) if "--out" in options else "",
        "allowlist": os.path.realpath(options.get("--allowlist", "allowlist.yaml")),
        "templates": os.path.realpath(options["--templates"]) if "--templates" in options else "",
        "jar": os.path.realpath(options["--jar"]) if "--jar" in options else "",
        # Every other option that shapes the run, as given (the generate: block's are read from
        # the allowlist, whose status the stamp holds).
        "options": {
            name: value
            for name, value in sorted(options.items())
            if name not in _PATHS and name not in _UNSHAPING
        },
        "python": sys.executable,
        "path": sys.path[1:],
        "environment": {name: os.environ.get(name) for name in _ENVIRONMENT},
    }
    text = json.dumps(settings, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _cache_root(options: dict[str, str]) -> str:
    if "--cache-dir" in options:
        return options["--cache-dir"]
    override = os.environ.get("PLAYWRIGHT_TOOL_GENERATOR_CACHE")
    if override:
        return override
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "playwright-tool-generator")


def _status(path: str) -> list[int] | None:
    try:
        s = os.stat(path)
    except OSError:
        return None
    return [s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino]


def record(
    options: dict[str, str] | None,
    cache_root: str,
    watched: Iterable[str],
    out: str,
    outputs: Iterable[str],
    warning: str | None,
    shown: str,
) -> None:
    """After a full run left `out` up to date: stamp the status of its inputs and its output;
    `shown` is how the run named `out` (from `--out` or the allowlist's `generate:` block)."""
    if options is None:
        return
    allowlist = os.path.realpath(options.get("--allowlist", "allowlist.yaml"))
    inputs = {allowlist, *(os.path.abspath(p) for p in watched)}
    paths = sorted({*inputs, *(os.path.join(out, rel) for rel in outputs)})
    folders = sorted({os.path.dirname(p) for p in paths if p.startswith(out + os.sep)} | {out})
    status = {p: _status(p) for p in [*paths, *folders]}
    if any(s is None for s in status.values()):
        return
    payload = json.dumps(
        {"status": status, "warning": warning, "out": out, "shown": shown}, sort_keys=True
    )
    digest = hashlib.sha256(payload.encode()).hexdigest()
    folder = os.path.join(cache_root, _KIND)
    try:
        os.makedirs(folder, exist_ok=True)
        temporary = os.path.join(folder, f".{_key(options)}.{os.getpid()}")
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(f"sha256:{digest}\n{payload}")
        os.replace(temporary, os.path.join(folder, _key(options)))
    except OSError:
        pass  # no stamp only means the next run hashes


def answer(argv: Sequence[str]) -> int | None:
    """Exit code 0, after printing what the full run would, when the stamp proves the output of
    this exact run up to date; None when it does not (the full run then decides)."""
    started = time.perf_counter()
    options = parse(argv)
    if options is None or "-v" in options or "--verbose" in options:
        return None  # -v shows the last run's notes, which the full run reads from the cache
    try:
        with open(os.path.join(_cache_root(options), _KIND, _key(options)), encoding="utf-8") as f:
            header, _, payload = f.read().partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if header != "sha256:" + hashlib.sha256(payload.encode()).hexdigest():
        return None
    stamp = json.loads(payload)
    out, shown = stamp.get("out"), stamp.get("shown")
    if not isinstance(out, str) or not isinstance(shown, str):
        return None  # a stamp of an older generator: the full run decides
    try:
        # O_DIRECTORY: `out` swapped for a FIFO is refused, not waited on for ever.
        fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # a run writing `out` holds it exclusively
    except OSError:
        os.close(fd)
        return None
    try:
        if any(_status(path) != status for path, status in stamp["status"].items()):
            return None
    finally:
        os.close(fd)  # closing releases the lock
    if stamp["warning"]:
        print(stamp["warning"], file=sys.stderr)
    print(
        f"{os.path.normpath(shown)} is up to date (inputs unchanged; {time.perf_counter() - started:.2f}s)."
    )
    return 0
