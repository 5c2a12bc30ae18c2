"""The Chromium features a launch turns off (host/browsers/chromium_features.py): one
`--disable-features` flag that keeps Playwright's own list, the caller's and the host's, and the
list mirrored from Playwright equal to the installed driver's (a real launch:
test_chromium_launch_flags.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import playwright

from host.browsers.chromium_features import (
    FLAG,
    NO_SPARE_RENDERER,
    PLAYWRIGHT_DISABLED_FEATURES,
    UNSHOWN_UI,
    chromium_launch_args,
    with_disabled_features,
)


def _features(args: list[str]) -> list[str]:
    flags = [arg for arg in args if arg.startswith(FLAG)]
    assert len(flags) == 1, args
    assert args[-1] == flags[0]
    return flags[0][len(FLAG) :].split(",")


def test_the_host_adds_one_flag_after_playwrights_list() -> None:
    args = chromium_launch_args(["--no-sandbox", "--no-first-run"])
    assert args[:2] == ["--no-sandbox", "--no-first-run"]
    assert _features(args) == [*PLAYWRIGHT_DISABLED_FEATURES, *UNSHOWN_UI]


def test_the_executor_turns_the_spare_renderer_off_too() -> None:
    features = _features(chromium_launch_args([], spare_renderer=False))
    assert features == [*PLAYWRIGHT_DISABLED_FEATURES, *UNSHOWN_UI, *NO_SPARE_RENDERER]


def test_a_callers_own_flags_are_folded_in_not_lost() -> None:
    # Chromium reads the last --disable-features only: given as they are, the caller's would
    # turn Playwright's list (and the host's) back on.
    args = with_disabled_features(
        ["--disable-features=Mine, Translate", "--lang=fr", "--disable-features=Other,"],
        UNSHOWN_UI,
    )
    assert args[0] == "--lang=fr"
    features = _features(args)
    assert features == [*PLAYWRIGHT_DISABLED_FEATURES, *UNSHOWN_UI, "Mine", "Other"]
    assert len(features) == len(set(features))


def test_without_the_flag_or_extras_the_arguments_are_unchanged() -> None:
    args = ["--no-sandbox", "--disable-featuresX"]
    assert with_disabled_features(args) == args
    assert with_disabled_features(args) is not args


def _driver_list() -> list[str]:
    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    source = bundle.read_text(encoding="utf-8")
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter\(Boolean\)", source, re.S)
    assert found, f"{bundle}: Playwright's disabledFeatures list was not found"
    body = re.sub(r"//[^\n]*", "", found.group(1))
    return [json.loads(item) for item in re.findall(r'"[^"\n]*"', body)]


def test_the_mirrored_list_is_the_installed_drivers() -> None:
    assert list(PLAYWRIGHT_DISABLED_FEATURES) == _driver_list(), (
        "host/browsers/chromium_features.py: PLAYWRIGHT_DISABLED_FEATURES differs from the "
        "installed Playwright driver's list; copy the driver's list there"
    )
