"""The Chromium features a launch turns off, in the one `--disable-features` flag Chromium reads.

Chromium reads `--disable-features` once: when the flag is given twice, the last one wins.
Playwright's launch passes its own list first and the caller's arguments after it, so a caller's
`--disable-features=X` would silently turn Playwright's choices back on (`Translate`,
`PaintHolding`, ...). `with_disabled_features` folds every such flag of the arguments into one
that starts with Playwright's own list.

What the host adds, and why:

- `UNSHOWN_UI`: Chromium (not the headless shell) builds the omnibox's suggestion popup as a
  WebUI page in every new browser window, and a new context is a new window: one more renderer
  process per context, about a third of the CPU of opening a small page, for a popup nobody
  can open in an automated page. Without the WebUI, a headed browser's omnibox uses its native
  popup.
- `NO_SPARE_RENDERER` (the executor only): after a navigation Chromium starts a spare renderer
  process for the next one in the same context. An executor's context holds one action and is
  closed after it, so its spare is started and thrown away every time. The host's sessions live
  on and keep it: their next cross-site navigation starts sooner.

Guarantees: the result keeps every other argument in order, holds exactly one
`--disable-features=` (last), lists each feature once, Playwright's first; arguments without
the flag and no extra feature come back unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FLAG = "--disable-features="

PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "DialMediaRouteProvider",
    "GlobalMediaControls",
    "HttpsUpgrades",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "BlockOriginHeaderModificationOnRedirect",
    "Translate",
    "AutoDeElevate",
    "OptimizationHints",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""Playwright 1.63.0's own list (`chromiumSwitches.ts`), in its order; a test compares it with
the driver installed (`tests/host_tests/test_chromium_features.py`), so a Playwright bump that
changes it fails there first."""

UNSHOWN_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
"""The omnibox popup's WebUI: a renderer process per window (per context) in Chromium."""

NO_SPARE_RENDERER = ("SpareRendererForSitePerProcess",)
"""The spare renderer Chromium starts after a navigation for the next one in its context."""


def with_disabled_features(args: Sequence[str], extra: Iterable[str] = ()) -> list[str]:
    """`args` with its `--disable-features=` flags (if any) and `extra` folded into one, after
    Playwright's own list; `args` unchanged if it has no such flag and `extra` is empty."""
    extra = tuple(extra)
    others = [arg for arg in args if not arg.startswith(FLAG)]
    given = [
        name.strip()
        for arg in args
        if arg.startswith(FLAG)
        for name in arg[len(FLAG) :].split(",")
        if name.strip()
    ]
    if not given and not extra:
        return list(args)
    features = dict.fromkeys((*PLAYWRIGHT_DISABLED_FEATURES, *extra, *given))
    return [*others, FLAG + ",".join(features)]


def chromium_launch_args(args: Sequence[str], *, spare_renderer: bool = True) -> list[str]:
    """What a Chromium launch gets for `args`: the host's features off (`UNSHOWN_UI`, and
    `NO_SPARE_RENDERER` unless `spare_renderer`), with the caller's and Playwright's."""
    return with_disabled_features(args, UNSHOWN_UI + (() if spare_renderer else NO_SPARE_RENDERER))
