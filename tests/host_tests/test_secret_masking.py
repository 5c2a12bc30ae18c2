"""Secrets are masked without giving them away (issue 42, item 9; docs/ERRORS.md, rows H5P7 on).

A value too short to mask (`e` would turn every `e` of a result into `${PW}`, garbling it and
showing the secret) is refused at start, naming it, by `serve --secrets` and by `replay`; the
host's masking and replay's follow one rule (host/shared/masking.py): one pass from the left, the
longest value first where values overlap, never inside a mask already put in.

Issue 54 (docs/ERRORS.md, rows H6S*): a value comes back from a page spelled otherwise than typed
(percent-encoded in a URL or a form, quoted in a cookie, escaped in JSON or markup); every such
spelling is masked as the value's `${NAME}` too, by the host, by `replay`, for an endpoint's
password, and the executor's redaction catches every one of them. A secrets file saved with a
UTF-8 byte-order mark is read; a mark anywhere else is refused, named."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import quote, quote_plus, urlencode

import pytest

from host.browsers.endpoint_specs import hide_credentials, parse_endpoint
from host.commands.cli import build_parser
from host.commands.replay import scrub as replay_scrub
from host.commands.replay import secrets_of
from host.commands.serve_options import config_from
from host.executor.redaction import REDACTED, Redactor
from host.settings.secrets_file import Secrets, SecretsFileError, read_secrets
from host.shared.masking import MIN_SECRET_CHARS, mask, secret_masks, spellings
from host.trails.trail import read_trail
from host_tests.host_helpers import PYTHON, REPO
from host_tests.test_host_options import start_failure


@pytest.mark.parametrize("value", ["e", "ab", "'xyz'"])
def test_a_secret_too_short_to_mask_is_refused_when_the_file_is_read(
    tmp_path: Path, value: str
) -> None:
    path = tmp_path / "short.env"
    path.write_text(f"USER_NAME=ada-lovelace\nPW={value}\n")
    with pytest.raises(SecretsFileError) as refused:
        read_secrets(path)
    length = len(value.strip("'"))
    assert str(refused.value).startswith(f"--secrets: {path}:2: PW is {length} character")
    assert f"shorter than {MIN_SECRET_CHARS} characters cannot be masked" in str(refused.value)


def test_a_secret_of_the_minimum_length_is_read_and_masked(tmp_path: Path) -> None:
    path = tmp_path / "pin.env"
    path.write_text("PIN=4711\n")
    secrets = read_secrets(path)
    assert secrets.scrub("the pin is 4711.") == "the pin is ${PIN}."


def test_the_host_refuses_a_one_letter_secret_at_start_naming_it(tmp_path: Path) -> None:
    (tmp_path / "one.env").write_text("PW=e\n")
    printed = start_failure("--secrets", str(tmp_path / "one.env"))
    assert "one.env:1: PW is 1 character long" in printed, printed


def test_replay_refuses_a_one_letter_secret_before_running_naming_it(tmp_path: Path) -> None:
    trail = tmp_path / "login.trail.yaml"
    trail.write_text(
        "- tools:\n  - web_navigate: {url: 'about:blank'}\n"
        "  - fill: {target: '#pw', text: '${PW}'}\n"
    )
    done = subprocess.run(
        [PYTHON, "-m", "host", "replay", str(trail)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PW": "e"},
        check=False,
    )
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "${PW} is 1 character long" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "replayed" not in done.stdout


# Values chosen so that the old text.replace in a loop went wrong: OTHER's value occurs inside
# the `${PASSWORD}` that masking PASSWORD leaves, and A and B overlap with equal lengths.
TRICKY = {"PASSWORD": "hunter2hunter2", "OTHER": "ASSWORD}"}


def test_a_value_inside_another_secrets_mask_does_not_garble_it() -> None:
    text = "typed hunter2hunter2, then ASSWORD} alone"
    expected = "typed ${PASSWORD}, then ${OTHER} alone"
    assert Secrets(TRICKY).scrub(text) == expected
    assert replay_scrub(text, {v: "${" + n + "}" for n, v in TRICKY.items()}) == expected


def test_overlapping_values_mask_the_same_whatever_their_order() -> None:
    text = "abcdefgh and cdefgh and abcdef"
    forward = {"A": "abcdef", "B": "cdefgh"}
    backward = {"B": "cdefgh", "A": "abcdef"}
    # From the left: at "abcdefgh" A starts first and wins; the rest are masked where they stand.
    expected = "${A}gh and ${B} and ${A}"
    assert Secrets(forward).scrub(text) == Secrets(backward).scrub(text) == expected
    masks = {v: "${" + n + "}" for n, v in forward.items()}
    assert (
        replay_scrub(text, masks) == replay_scrub(text, dict(reversed(masks.items()))) == expected
    )


def test_at_one_place_the_longest_value_wins() -> None:
    names = {"secret": "${SHORT}", "secret-and-more": "${LONG}"}
    assert mask("a secret-and-more, a secret", names) == "a ${LONG}, a ${SHORT}"
    assert mask("", names) == "" and mask("nothing here", {}) == "nothing here"


# -- issue 54: a value in every spelling a page gives it back in --------------------------------

# A space, `@`, `/`, a quote and a backslash: each is spelled otherwise in a URL, a form, a cookie,
# JSON or markup. "w0rd" is a run of letters and digits, which every spelling keeps as it is:
# where "w0rd" does not occur, no spelling of the value does.
PW = 'p@ss w0rd/1"\\'
WIDE = "Pässwörd <&> 'q\"\u2603\U0001f600"


def spelled_by_others(value: str) -> dict[str, str]:
    """How libraries and browsers spell `value`, each computed here by the library itself."""
    readable = json.dumps(value, ensure_ascii=False)[1:-1]
    return {
        "encodeURIComponent": quote(value, safe="-_.!~*'()"),
        "encodeURI": quote(value, safe="-_.!~*'();,/?:@&=+$#"),
        "quote": quote(value),
        "quote, lower-case hex": re.sub("%[0-9A-F]{2}", lambda m: m[0].lower(), quote(value)),
        "quote_plus": quote_plus(value),
        "a form": urlencode({"pw": value}).removeprefix("pw="),
        "a form, lower-case hex": re.sub(
            "%[0-9A-F]{2}", lambda m: m[0].lower(), urlencode({"pw": value})[3:]
        ),
        "json.dumps": json.dumps(value)[1:-1],
        "json.dumps, not ensure_ascii (JSON.stringify)": readable,
        "JSON in JSON": json.dumps(json.dumps({"pw": value}))[1:-1],
        "html.escape": html.escape(value),
        "html.escape, &#39;": html.escape(value).replace("&#x27;", "&#39;"),
        "markup, text": html.escape(value, quote=False),
        "a cookie (http.cookies)": SimpleCookie({"pw": value})["pw"].coded_value.strip('"'),
        "a repr": repr(value)[1:-1],
        "a URL in an attribute": html.escape("/?a=1&pw=" + quote(value, safe="'")),
    }


@pytest.mark.parametrize("value", [PW, WIDE], ids=["ascii", "wide"])
def test_every_spelling_of_a_secret_is_shown_as_its_name(value: str) -> None:
    secrets = Secrets({"PW": value})
    for how, spelling in spelled_by_others(value).items():
        text = f"before [{spelling}] after"
        scrubbed = secrets.scrub(text)
        assert "${PW}" in scrubbed, (how, spelling, scrubbed)
        assert value not in scrubbed and spelling not in scrubbed, (how, scrubbed)
        # Only the spelling was replaced: what stands around it is kept.
        assert scrubbed.startswith("before [") and scrubbed.endswith("] after"), (how, scrubbed)
    everything = " ".join(spelled_by_others(value).values())
    runs = [run for run in re.findall("[A-Za-z0-9]+", value) if len(run) >= 3]
    assert runs and not any(run in secrets.scrub(everything) for run in runs)


def test_a_json_document_holding_a_secret_stays_json_with_its_name() -> None:
    state = {"cookies": [{"name": "pw", "value": PW}], "origins": [{"v": json.dumps([PW])}]}
    for text in (json.dumps(state, indent=2), json.dumps(state, ensure_ascii=False)):
        scrubbed = Secrets({"PW": PW}).scrub(text)
        assert json.loads(scrubbed) == {
            "cookies": [{"name": "pw", "value": "${PW}"}],
            "origins": [{"v": '["${PW}"]'}],
        }


def test_a_value_without_special_characters_has_one_spelling() -> None:
    assert secret_masks({"PW": "hunter2hunter2"}) == {"hunter2hunter2": "${PW}"}
    assert spellings("hunter2hunter2") == ["hunter2hunter2"]


@pytest.mark.parametrize("value", [PW, WIDE, "tab\there\x01", "\xa0nb&sp;"])
def test_every_spelling_keeps_the_values_letters_and_digits_and_is_no_shorter(value: str) -> None:
    listed = spellings(value)
    assert listed[0] == value and len(listed) == len(set(listed))
    for run in re.findall("[A-Za-z0-9]+", value):
        assert all(run in spelling for spelling in listed), run
    assert all(len(spelling) >= len(value) for spelling in listed)


def test_a_secrets_own_value_wins_over_anothers_spelling_whatever_the_order() -> None:
    # A's form spelling is B's value: B's text is B, A's other spellings are A.
    forward = {"A": "ab cd ef", "B": "ab+cd+ef"}
    backward = dict(reversed(forward.items()))
    for values in (forward, backward):
        secrets = Secrets(values)
        assert secrets.scrub("x ab+cd+ef y") == "x ${B} y"
        assert secrets.scrub("x ab%20cd%20ef y") == "x ${A} y"
        assert secrets.scrub("x ab%2Bcd%2Bef y") == "x ${B} y"


def test_a_secret_is_looked_for_only_where_its_letters_and_digits_are() -> None:
    masks = secret_masks({"PW": PW, "OTHER": "zz9 top/secret"})
    assert masks.candidates("nothing to see") == []
    assert set(masks.candidates("a w0rd")) == set(spellings(PW))
    # A value without a letter or a digit is looked for in every text.
    assert set(secret_masks({"SIGNS": "!@#$%^"}).candidates("x")) == set(spellings("!@#$%^"))


def test_replay_masks_every_spelling_of_a_secret_the_trail_types(tmp_path: Path) -> None:
    trail = tmp_path / "login.trail.yaml"
    trail.write_text(
        "- tools:\n  - web_navigate: {url: 'about:blank'}\n"
        "  - fill: {target: '#pw', text: '${PW}'}\n"
    )
    secrets = secrets_of(read_trail(trail), {"PW": PW, "UNUSED": "not typed"})
    message = f"navigated to /?pw={quote_plus(PW)} and got {json.dumps(PW)}"
    assert replay_scrub(message, secrets) == 'navigated to /?pw=${PW} and got "${PW}"'


def test_an_endpoints_password_is_hidden_in_every_spelling() -> None:
    spec = parse_endpoint("ws://ada:" + quote(PW, safe="") + "@127.0.0.1:9/")
    error = f"cannot connect as ada:{quote_plus(PW)} ({json.dumps(PW)})"
    hidden = hide_credentials(error, spec)
    assert "w0rd" not in hidden and hidden.count("***") == 2, hidden


@pytest.mark.parametrize("value", [PW, WIDE, "tab\there\x01", "a&b<c>d\xa0e"])
def test_the_executors_redaction_catches_every_spelling_the_host_masks(value: str) -> None:
    redactor = Redactor([value])
    for spelling in spellings(value):
        assert redactor.scrub(f"x {spelling} y") == f"x {REDACTED} y", spelling


# -- issue 54: a secrets file with a byte-order mark --------------------------------------------

BOM = "\ufeff"


def test_a_secrets_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.env", tmp_path / "marked.env"
    plain.write_text("PW=hunter2hunter2\nOTHER='second one'\n", encoding="utf-8")
    marked.write_text(BOM + plain.read_text(encoding="utf-8"), encoding="utf-8")
    assert marked.read_bytes().startswith(b"\xef\xbb\xbf")
    assert read_secrets(marked).values == read_secrets(plain).values
    # As `serve --secrets FILE` reads it: the model is told the name, not `\ufeffPW`.
    args = build_parser().parse_args(["serve", "--stdio", "--secrets", str(marked)])
    assert config_from(args).secrets.names() == ["OTHER", "PW"]
    # The mark does not shift the lines named in an error.
    marked.write_text(BOM + "PW=hunter2hunter2\nnot an assignment\n", encoding="utf-8")
    with pytest.raises(SecretsFileError, match=r"marked\.env:2 is not NAME=value"):
        read_secrets(marked)


@pytest.mark.parametrize(
    ("text", "place"),
    [
        (
            "PW=hunter2hunter2\n" + BOM + "OTHER=second one\n",
            "2 holds a byte-order mark (U+FEFF) at column 1",
        ),
        ("PW=hunter2" + BOM + "hunter2\n", "1 holds a byte-order mark (U+FEFF) at column 11"),
        (BOM + BOM + "PW=hunter2hunter2\n", "1 holds a byte-order mark (U+FEFF) at column 1"),
    ],
    ids=["line start", "in a value", "twice at the start"],
)
def test_a_byte_order_mark_past_the_start_is_refused_naming_it(
    tmp_path: Path, text: str, place: str
) -> None:
    path = tmp_path / "marked.env"
    path.write_text(text, encoding="utf-8")
    printed = start_failure("--secrets", str(path))
    assert f"marked.env:{place}" in printed, printed
    assert "only at the start of the file" in printed


def test_a_utf16_secrets_file_is_refused_naming_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "wide.env"
    path.write_text("PW=hunter2hunter2\n", encoding="utf-16")
    printed = start_failure("--secrets", str(path))
    assert f"error: --secrets: {path} is UTF-16 text" in printed and "save it as UTF-8" in printed
