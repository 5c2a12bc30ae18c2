"""Browser cases for `web_context_*`, `web_keyboard_*` and `web_mouse_*` tools. See e2e_cases.py."""

from __future__ import annotations

from cases_page import GEO_JS
from e2e_cases import Case

FETCH_JS = "() => fetch('/ping?' + Math.random()).then(r => r.status, () => 'failed')"

CASES: tuple[Case, ...] = (
    Case(
        "context-geolocation",
        (
            (
                "web_context_setGeolocation",
                {"geolocation": {"latitude": 59.95, "longitude": 30.31667}},
            ),
        ),
        observe=GEO_JS,
        expected=[59.95, 30.31667],
    ),
    Case(
        "context-geolocation-accuracy",
        (
            (
                "web_context_setGeolocation",
                {"geolocation": {"latitude": -33.5, "longitude": 151.25, "accuracy": 7}},
            ),
        ),
        observe="() => new Promise(r => navigator.geolocation.getCurrentPosition(p => r(p.coords.accuracy)))",
        expected=7,
    ),
    Case(
        "context-offline",
        (("web_context_setOffline", {"offline": True}),),
        observe=FETCH_JS,
        expected="failed",
    ),
    Case(
        "context-offline-then-online",
        (
            ("web_context_setOffline", {"offline": True}),
            ("web_context_setOffline", {"offline": False}),
        ),
        observe=FETCH_JS,
        expected=200,
    ),
)
