"""The cache of parsed YAML the host starts with (host/shared/yaml_cache.py): the same data as a parse,
a text that changed parsed again, and a damaged or unwritable cache the same as none."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from host.calls.registry import ToolRegistry
from host.shared.descriptors import parse_yaml
from host.shared.yaml_cache import YamlCache, default_location

TEXT = (
    "name: one\nflag: true\nschema: {type: object, properties: {x: {type: number, maximum: 3}}}\n"
)


class Counting:
    """`parse_yaml`, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str) -> Any:
        self.calls += 1
        return parse_yaml(text)


def test_a_text_parsed_once_comes_from_the_cache_next_time(tmp_path: Path) -> None:
    location = tmp_path / "cache" / "yaml.json"
    first = YamlCache(location)
    assert first.parse(TEXT, parse_yaml) == parse_yaml(TEXT)
    first.save()
    again, parser = YamlCache(location), Counting()
    assert again.parse(TEXT, parser) == parse_yaml(TEXT)
    assert parser.calls == 0 and again.parsed == 0
    changed = TEXT.replace("maximum: 3", "maximum: 4")
    assert again.parse(changed, parser) == parse_yaml(changed)
    assert parser.calls == 1


def test_data_json_would_change_is_not_kept(tmp_path: Path) -> None:
    location = tmp_path / "yaml.json"
    text = "when: 2026-11-25\n1: one\n"
    first = YamlCache(location)
    assert first.parse(text, parse_yaml) == {"when": datetime.date(2026, 11, 25), 1: "one"}
    first.save()
    parser = Counting()
    assert YamlCache(location).parse(text, parser) == parse_yaml(text)
    assert parser.calls == 1


def test_a_damaged_or_unwritable_cache_is_no_cache(tmp_path: Path) -> None:
    damaged = tmp_path / "yaml.json"
    for content in (b"\xff not json", b"[]", b'{"format": 1, "entries": []}', b'{"format": 99}'):
        damaged.write_bytes(content)
        cache = YamlCache(damaged)
        assert cache.parse(TEXT, parse_yaml) == parse_yaml(TEXT)
        cache.save()  # rewritten whole
        parser = Counting()
        assert YamlCache(damaged).parse(TEXT, parser) == parse_yaml(TEXT) and parser.calls == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    unwritable = YamlCache(blocker / "yaml.json")  # its directory cannot be made
    assert unwritable.parse(TEXT, parse_yaml) == parse_yaml(TEXT)
    unwritable.save()
    assert not (blocker / "yaml.json").exists()
    assert YamlCache(None).parse(TEXT, parse_yaml) == parse_yaml(TEXT)


def test_a_registry_read_through_the_cache_is_the_same(tmp_path: Path) -> None:
    location = tmp_path / "yaml.json"
    plain = ToolRegistry()
    filling = YamlCache(location)
    first = ToolRegistry(None, filling)
    assert filling.parsed > 150 and location.exists()
    reading = YamlCache(location)
    second = ToolRegistry(None, reading)
    assert reading.parsed == 0
    for registry in (first, second):
        assert registry.tools == plain.tools
        assert registry.toolsets == plain.toolsets


def test_the_cache_lives_in_the_users_cache_directory(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_location() == tmp_path / "playwright-tool-host" / "yaml.json"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_location() == tmp_path / "home" / ".cache" / "playwright-tool-host" / "yaml.json"
