"""Redaction: one automaton over every spelling of every value, and what it must still catch.

No test here times anything: the cost is checked by counting the automaton's moves, and the
behaviour (every occurrence, overlapping values, prefixes, every spelling and mix of spellings)
against brute force. `benchmarks/redaction_bench.py` prints the time per KB.
"""

from __future__ import annotations

import codecs
import json
import random
from html.entities import codepoint2name

import pytest

from host.executor.automaton import Automaton
from host.executor.payload import PayloadError, parse_action
from host.executor.redaction import REDACTED, Redactor, SecretRegistry
from host.executor.settings import ExecutorSettings
from host.executor.spellings import CHARSETS, charsets_for, views


def brute_force(strings: list[str], text: str) -> tuple[list[tuple[int, int]], int]:
    """Every end at which some string ends (with the longest), and the longest end of `text`
    that starts a string."""
    matches = []
    for end in range(1, len(text) + 1):
        lengths = [len(s) for s in strings if text[:end].endswith(s)]
        if lengths:
            matches.append((end, max(lengths)))
    tail = max(
        (size for size in range(1, len(text) + 1) for s in strings if s.startswith(text[-size:])),
        default=0,
    )
    return matches, tail


def test_the_automaton_finds_every_occurrence_overlapping_values_and_prefixes() -> None:
    rng = random.Random(37)
    fixed = ["he", "she", "his", "hers", "s", "ushers", "hershey", "h"]
    assert Automaton(fixed).scan("ushershey").matches == brute_force(fixed, "ushershey")[0]
    for _ in range(300):
        strings = ["".join(rng.choice("abc") for _ in range(rng.randint(1, 6))) for _ in range(5)]
        text = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 40)))
        automaton = Automaton(strings)
        scan = automaton.scan(text)
        assert (scan.matches, scan.tail) == brute_force(strings, text), (strings, text)
        assert scan.steps <= 2 * len(text)
        assert automaton.build_steps <= 3 * sum(map(len, strings))


def test_scrubbing_costs_moves_linear_in_the_text_whatever_the_number_of_values() -> None:
    rng = random.Random(8)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789~é中 &%"
    values = ["".join(rng.choice(alphabet) for _ in range(1024)) for _ in range(7)]
    body = "".join(
        f"<p>{value}</p>{json.dumps(value)}?q={codecs.encode(value, 'utf-8').hex()}"
        for value in values
    )
    one, seven = Redactor(values[:1]), Redactor(values)
    assert one.automaton is not None and seven.automaton is not None
    # The build: a bounded number of moves per character of the values.
    assert seven.automaton.build_steps <= 3 * sum(map(len, values))
    # The scan: at most two moves per character of each view, and a bounded number of views.
    shown = views(body, seven.charsets)
    assert len(shown) <= 3 * (1 + 2 * len(CHARSETS))
    for redactor in (one, seven):
        automaton = redactor.automaton
        assert automaton is not None
        for view in shown:
            assert automaton.scan(view.text).steps <= 2 * len(view.text)
    cleaned = seven.scrub(body)
    assert all(value[:64] not in cleaned for value in values)


def test_values_in_ascii_need_one_charset_and_few_views() -> None:
    assert charsets_for(["hunter2", "p@ss w0rd"]) == ("utf-8",)
    # é is E9 in most Latin charsets: one of them stands for all; 中 is no Latin character.
    wide = charsets_for(["é中"])
    assert "utf-8" in wide and "windows-1252" in wide and "iso-8859-2" not in wide
    assert len(wide) < len(CHARSETS)
    text = "q=%C3%A9t%C3%A9+%E4%B8%AD&amp;x=%2541 \\u0041"
    assert len(views(text, charsets_for(["hunter2"]))) <= 6
    cleaned = Redactor(["hunter2"]).scrub(f"x=hunter%32&y=%25C3%25A9 {text}")
    assert cleaned == f"x={REDACTED}&y=%25C3%25A9 {text}"


def test_the_registry_scrubs_with_few_automata_whatever_the_number_of_values_held() -> None:
    registry = SecretRegistry(linger=3600, limit=64)
    contexts = [registry.holding(Redactor([f"value-{n:04d}"])) for n in range(300)]
    for context in contexts:
        context.__enter__()
    try:
        groups = registry.groups()
        assert sum(map(len, groups)) == 300
        assert len(groups) <= 9, [len(g) for g in groups]  # a binary counter of 300
        assert registry.scrub("value-0000 value-0299 value-0300") == (
            f"{REDACTED} {REDACTED} value-0300"
        )
    finally:
        for context in reversed(contexts):
            context.__exit__(None, None, None)


_WHITESPACE = (" ", "\t", "\n", "+", "%20", "%2520", "%2B", "&#32;", "&#x20;", "&nbsp;", "\\n")


def _hex(byte: int, rng: random.Random) -> str:
    digits = f"{byte:02X}"
    return "%" + "25" * rng.randint(0, 2) + (digits.lower() if rng.random() < 0.5 else digits)


def spell(char: str, charset: str, rng: random.Random) -> str:
    """One spelling of `char` among those the single pattern this replaces matched."""
    point = ord(char)
    forms = [char, f"&#{'0' * rng.randint(0, 2)}{point};"]
    hexadecimal = f"{point:X}"
    forms.append(
        f"&#{rng.choice('xX')}{hexadecimal.lower() if rng.random() < 0.5 else hexadecimal};"
    )
    if point in codepoint2name:
        forms.append(f"&{codepoint2name[point]};")
    units = char.encode("utf-16-be")
    forms.append("".join(f"\\u{units[i]:02x}{units[i + 1]:02X}" for i in range(0, len(units), 2)))
    if char in '"\\/':
        forms.append("\\" + char)
    data = codecs.encode(char, charset, "xmlcharrefreplace")
    forms.append("".join(_hex(b, rng) for b in data))
    safe = b"*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    forms.append("".join(chr(b) if b in safe else _hex(b, rng) for b in data))
    return rng.choice(forms)


def spelled(value: str, charset: str, rng: random.Random) -> str:
    parts: list[str] = []
    previous_space = False
    for char in value:
        if char.isspace():
            if not previous_space:
                parts.extend(rng.choice(_WHITESPACE) for _ in range(rng.randint(1, 3)))
            previous_space = True
            continue
        previous_space = False
        parts.append(spell(char, charset, rng))
    return "".join(parts)


def test_every_mix_of_spellings_in_one_charset_is_redacted() -> None:
    rng = random.Random(2037)
    alphabet = "aZ09~-._*!'()@&#;%+\"\\/<>é€ßЖ中日한😀 \t"
    for case in range(600):
        charset = rng.choice(CHARSETS)
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 10)))
        if not value.strip():
            continue
        text = spelled(value, charset, rng)
        cleaned = Redactor([value]).scrub(f"<p>{text}</p>")
        assert cleaned == f"<p>{REDACTED}</p>", (case, value, charset, text, cleaned)


@pytest.mark.parametrize("size", [4096, 4097, 30_000])
def test_a_redacted_value_has_a_size_cap(size: int) -> None:
    settings = ExecutorSettings()
    fields = [{"selector": "#pw", "value": "x" * size, "redact": True}]
    body = json.dumps({"url": "https://shop.example/", "fields": fields}).encode()
    if size <= settings.max_redact_chars:
        assert parse_action(body, settings).secrets == ["x" * size]
        return
    with pytest.raises(PayloadError) as caught:
        parse_action(body, settings)
    assert caught.value.path == "fields[0].value"
    assert "at most 4096 characters" in caught.value.message and "shorter" in caught.value.message
    # The same value without redact is an ordinary value.
    fields[0]["redact"] = False
    body = json.dumps({"url": "https://shop.example/", "fields": fields}).encode()
    assert parse_action(body, settings).fields[0].value == "x" * size


@pytest.mark.parametrize("value", [" ", " \t\n ", "+", " + ", "\u00a0"])
def test_a_redacted_value_made_only_of_whitespace_is_refused(value: str) -> None:
    fields = [
        {"selector": "#a", "value": "ok"},
        {"selector": "#pw", "value": value, "redact": True},
    ]
    body = json.dumps({"url": "https://shop.example/", "fields": fields}).encode()
    with pytest.raises(PayloadError) as caught:
        parse_action(body, ExecutorSettings())
    assert caught.value.path == "fields[1].value"
    assert "only of whitespace" in caught.value.message
    assert "without redacting every space" in caught.value.message
    fields[1]["redact"] = False  # as an ordinary value it is typed as it is
    body = json.dumps({"url": "https://shop.example/", "fields": fields}).encode()
    assert parse_action(body, ExecutorSettings()).fields[1].value == value


@pytest.mark.parametrize(
    "cut",
    [
        "a%257Eb%25C3%25A9%25E4",  # encoded twice, cut inside a character's bytes
        "a%257Eb%25C3%25A",  # ... inside an escape
        "a%257Eb%25",
        "a%257",
        "a%2",
        "a%25257E",  # encoded three times
        "a~b&#x4E",  # a reference cut short
        "a~b\\u00",  # a JSON escape cut short
        "a%7Eb%C3",  # once, cut inside a character
    ],
)
def test_a_value_cut_to_a_prefix_after_double_encoding_is_caught(cut: str) -> None:
    redactor = Redactor(["a~bé中c"])
    assert redactor.scrub_cut(f"<p>next={cut}") == f"<p>next={REDACTED}", cut
    # A whole value encoded twice, then cut after it, loses only what follows.
    whole = "a%257Eb%25C3%25A9%25E4%25B8%25ADc"
    assert redactor.scrub_cut(f"{whole}&x=1") == f"{REDACTED}&x=1"
