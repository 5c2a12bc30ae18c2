"""Secrets are masked without giving them away (issue 42, item 9; docs/ERRORS.md, rows H5P7 on).

A value too short to mask (`e` would turn every `e` of a result into `${PW}`, garbling it and
showing the secret) is refused at start, naming it, by `serve --secrets` and by `replay`; the
host's masking and replay's follow one rule (host/shared/masking.py): one pass from the left, the
longest value first where values overlap, never inside a mask already put in."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from host.commands.replay import scrub as replay_scrub
from host.settings.secrets_file import Secrets, SecretsFileError, read_secrets
from host.shared.masking import MIN_SECRET_CHARS, mask
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
