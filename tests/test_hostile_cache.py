"""A cache is never believed: an entry whose checksum holds but whose content is malformed (a
forged or buggy entry) is discarded and rebuilt, for every kind of entry, and a cache that cannot
be cleaned (a read-only file system) only costs time."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from conftest import REPO, read_tree

from generator.shared.cache import Cache

pytestmark = pytest.mark.jvm

# A copy of the built-in templates is a custom folder, so black formats every Python file and
# its cache entries exist to be forged (the built-in templates need no black).
_TEMPLATES = Path(tempfile.mkdtemp(prefix="hostile-cache-templates-")) / "templates"
shutil.copytree(REPO / "templates", _TEMPLATES, ignore=shutil.ignore_patterns("__pycache__"))


def _run(out: Path, cache: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "generator", "--out", str(out), "--cache-dir", str(cache)]
    command += ["--templates", str(_TEMPLATES)]
    # The timeout only bounds a run that hangs (a FIFO read); a run ends long before it.
    return subprocess.run(
        [*command, *extra], cwd=REPO, capture_output=True, text=True, check=False, timeout=600
    )


def _entries(cache: Path, kind: str) -> list[Path]:
    return sorted(p for p in (cache / kind).iterdir() if not p.name.startswith("."))


def _payload(entry: Path) -> str:
    return entry.read_bytes().partition(b"\n")[2].decode()


def _forge(entry: Path, payload: str) -> None:
    """Replace the entry's content, with a checksum that holds for the new content."""
    data = payload.encode()
    entry.write_bytes(b"sha256:" + hashlib.sha256(data).hexdigest().encode() + b"\n" + data)


def _json_with_extra_key(text: str) -> str:
    value = json.loads(text)
    assert isinstance(value, dict)
    return json.dumps({**value, "extra": 1})


def _json_truncated(text: str) -> str:
    return text[: len(text) // 2]


def _json_retyped(text: str) -> str:
    value = json.loads(text)
    key = sorted(value)[0]
    return json.dumps({**value, key: [value[key]]})


def _python_truncated(text: str) -> str:
    return text[: len(text) // 2] + "\n"


def _python_other_words(text: str) -> str:
    return text.replace("return", "return None or", 1) if "return" in text else "x = 1\n"


def _yaml_list(text: str) -> str:
    return "- not\n- a mapping\n"


def _yaml_broken(text: str) -> str:
    return "name: [unclosed\n"


def _yaml_field(field: str, value: object) -> Callable[[str], str]:
    """A well-formed descriptor, but with `field` holding `value` (another tool's name, a
    schema cut short)."""

    def forge(text: str) -> str:
        descriptor = yaml.safe_load(text)
        assert isinstance(descriptor, dict) and field in descriptor
        return yaml.safe_dump({**descriptor, field: value}, sort_keys=False)

    return forge


def _json_field(field: str, value: object) -> Callable[[str], str]:
    def forge(text: str) -> str:
        return json.dumps({**json.loads(text), field: value})

    return forge


# (cache kind, how its entries are forged); every entry of the kind is forged.
FORGERIES: dict[str, tuple[str, Callable[[str], str]]] = {
    "tool-files-extra-key": ("tool-files", _json_with_extra_key),
    "tool-files-truncated": ("tool-files", _json_truncated),
    "tool-files-retyped": ("tool-files", _json_retyped),
    "tool-files-other-key": ("tool-files", _json_field("key", "0" * 64)),
    "tool-files-escaping-path": ("tool-files", _json_field("files", {"../x.py": ""})),
    "code-truncated": ("code", _json_truncated),
    "code-retyped": ("code", _json_retyped),
    "java-extra-key": ("java", _json_with_extra_key),
    "java-truncated": ("java", _json_truncated),
    "java-retyped": ("java", _json_retyped),
    "java-nested-too-deep": ("java", lambda _: "[" * 100_000 + "]" * 100_000),
    "python-extra-key": ("python", _json_with_extra_key),
    "python-truncated": ("python", _json_truncated),
    "python-retyped": ("python", _json_retyped),
    "black-truncated": ("black", _python_truncated),
    "black-other-words": ("black", _python_other_words),
    "rendered-list": ("rendered", _yaml_list),
    "rendered-broken": ("rendered", _yaml_broken),
    "rendered-other-name": ("rendered", _yaml_field("name", "web_not_this_tool")),
    "rendered-schema-cut": ("rendered", _yaml_field("parameters", {"type": "object"})),
}


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache filled by one run of the repository's allowlist."""
    work = tmp_path_factory.mktemp("warm")
    done = _run(work / "out", work / "cache")
    assert done.returncode == 0, done.stderr
    return work / "cache"


@pytest.mark.parametrize("case", sorted(FORGERIES))
def test_a_forged_entry_is_rebuilt_and_never_shapes_the_output(
    case: str, warm: Path, tmp_path: Path
) -> None:
    kind, forge = FORGERIES[case]
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    if kind != "tool-files":
        # Each tool's files are memoised whole (`tool_memo`); without the memo the entries the
        # files are made of are read, so their forgeries are put to the test.
        shutil.rmtree(cache / "tool-files")
    entries = _entries(cache, kind)
    assert entries, f"the warm cache has {kind} entries"
    forged = {}
    for entry in entries:
        _forge(entry, forge(_payload(entry)))
        forged[entry] = entry.read_bytes()
    done = _run(tmp_path / "out", cache)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert read_tree(tmp_path / "out") == read_tree(REPO / "generated")
    assert all(not e.exists() or e.read_bytes() != forged[e] for e in entries), (
        "forged entries are replaced"
    )


def test_a_forged_run_record_cannot_declare_a_broken_tree_current(
    warm: Path, tmp_path: Path
) -> None:
    cache, out = tmp_path / "cache", tmp_path / "out"
    shutil.copytree(warm, cache)
    assert _run(out, cache).returncode == 0
    record = cache / "runs" / Cache(cache).key("record", str(out.resolve()))
    assert record.is_file()
    value = json.loads(_payload(record))
    ledger = ".generated-files"
    value["files"] = {ledger: value["files"][ledger]}  # well-formed, but covers only the ledger
    _forge(record, json.dumps(value))
    victim = out / "tools" / "web_title.tool.yaml"
    victim.unlink()
    check = _run(out, cache, "--check")
    assert check.returncode == 1, "a tree missing a file is stale"
    assert _run(out, cache).returncode == 0
    assert victim.is_file()


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """An empty tmpfs that the test fills and then remounts read-only (the test runs as root)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a read-only file system needs root (CI runs as root)")
    mount = tmp_path / "ro"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_read_only_cache_holding_corrupt_entries_only_costs_time(
    warm: Path, read_only_mount: Path, tmp_path: Path
) -> None:
    cache = read_only_mount / "cache"
    shutil.copytree(warm, cache)
    for entry in _entries(cache, "black")[:20]:
        entry.write_bytes(b"sha256:0000\ncorrupt")
    for entry in _entries(cache, "rendered")[:20]:
        _forge(entry, "- not a mapping\n")
    subprocess.run(["mount", "-o", "remount,ro", str(read_only_mount)], check=True)
    done = _run(tmp_path / "out", cache)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert read_tree(tmp_path / "out") == read_tree(REPO / "generated")


def test_a_run_record_nested_too_deep_is_rebuilt(warm: Path, tmp_path: Path) -> None:
    """Parsing it raises RecursionError, not ValueError: still only a bad entry."""
    cache, out = tmp_path / "cache", tmp_path / "out"
    shutil.copytree(warm, cache)
    assert _run(out, cache).returncode == 0
    record = cache / "runs" / Cache(cache).key("record", str(out.resolve()))
    _forge(record, "[" * 100_000 + "]" * 100_000)
    done = _run(out, cache, "--check")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_cache_entries_that_are_not_files_are_never_read(warm: Path, tmp_path: Path) -> None:
    """A FIFO in an entry's place would block a read forever, a folder fail it: both are misses,
    and the run replaces them."""
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    shutil.rmtree(cache / "tool-files")  # without the per-tool memo, black's entries are read
    entries = _entries(cache, "black")[:4]
    for entry in entries[:2]:
        entry.unlink()
        os.mkfifo(entry)
    for entry in entries[2:]:
        entry.unlink()
        entry.mkdir()
    done = _run(tmp_path / "out", cache)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert read_tree(tmp_path / "out") == read_tree(REPO / "generated")
    assert all(entry.is_file() for entry in entries[:2]), "FIFOs are replaced by entries"
