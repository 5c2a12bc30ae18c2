"""The surface report's probe memo (`probe_memo`): a report made with the rows of an earlier run
equals one made from nothing, even when the allowlist changed between the two; only the methods
not yet probed are bound; a damaged or forged entry is not believed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO

from generator.model import probe_memo, surface_report
from generator.model.binding import Binder
from generator.model.surface_report import SurfaceReport, build_report
from generator.read.allowlist import Allowlist, load_allowlist
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface
from generator.shared.cache import Cache
from generator.shared.diagnostics import Diagnostics


def _report(
    allowlist: Allowlist,
    java: JavaSurface,
    python: PythonSurface,
    probed: probe_memo.Probed | None,
) -> SurfaceReport:
    diagnostics = Diagnostics()
    binder = Binder(java, python, diagnostics, objects=False)
    tools = binder.bind_all(allowlist)
    return build_report(java, python, tools, diagnostics, binder, probed)


@pytest.fixture(scope="module")
def allowlists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Allowlist, Allowlist]:
    """The committed allowlist, and the same without one one-line entry."""
    path = REPO / "allowlist.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    single = [
        i
        for i, line in enumerate(lines)
        if line.startswith("  - method:") and not "".join(lines[i + 1 : i + 2]).startswith("    ")
    ]
    edited = tmp_path_factory.mktemp("edited") / "allowlist.yaml"
    edited.write_text("".join(line for i, line in enumerate(lines) if i != single[10]))
    return load_allowlist(path), load_allowlist(edited)


def test_rows_kept_from_another_allowlist_give_the_report_made_from_nothing(
    allowlists: tuple[Allowlist, Allowlist],
    java_surface: JavaSurface,
    python_surface: PythonSurface,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    full, edited = allowlists
    cache = Cache(tmp_path / "cache")
    key = probe_memo.probes_key(cache, "java", "python")
    probed: probe_memo.Probed = {}
    _report(full, java_surface, python_surface, probed)
    probe_memo.store(cache, key, probed)

    fresh = _report(edited, java_surface, python_surface, None)
    kept = probe_memo.load(cache, key)
    assert kept == probed
    probes: list[str] = []
    real_probe = surface_report._probe

    def counted(binder: Binder, prefix: str, method: str, interface: str) -> object:
        probes.append(f"{prefix}.{method}")
        return real_probe(binder, prefix, method, interface)

    monkeypatch.setattr(surface_report, "_probe", counted)
    assert _report(edited, java_surface, python_surface, kept) == fresh
    # Only the method whose line was removed is bound again: it is no longer a tool.
    removed = {f"{e.target.prefix}.{e.method}" for e in full.entries} - {
        f"{e.target.prefix}.{e.method}" for e in edited.entries
    }
    assert probes == sorted(removed)


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        json.dumps({"rows": []}),
        json.dumps([["nowhere", ["Page", "m", "refused", "other", "", "why", []]]]),
        json.dumps([["page", ["Page", "m", "made up", "other", "", "why", []]]]),
        json.dumps([["page", ["Page", "m", "refused", "other", "", "why", [1]]]]),
        json.dumps([["page", ["Page", "m", "refused", "other", ""]]]),
    ],
)
def test_an_entry_without_the_structure_of_rows_is_not_believed(
    payload: str, tmp_path: Path
) -> None:
    cache = Cache(tmp_path / "cache")
    key = probe_memo.probes_key(cache, "java", "python")
    cache.store(probe_memo.KIND, key, payload)  # a valid checksum over a forged payload
    assert probe_memo.load(cache, key) == {}
    assert not (tmp_path / "cache" / probe_memo.KIND / key).exists()
