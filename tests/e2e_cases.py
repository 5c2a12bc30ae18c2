"""The hand-kept table of browser cases: every generated tool must appear in at least one row.

Each row dispatches one or more tools by name through the generated registry, optionally navigates,
then observes the effect in the page (a JavaScript expression) and/or at the server. Arguments here
are written by hand, never derived from the generator's output.
"""

from __future__ import annotations

from dataclasses import dataclass

GEO_JS = """() => new Promise(resolve => navigator.geolocation.getCurrentPosition(
    p => resolve([p.coords.latitude, p.coords.longitude]),
    e => resolve('error: ' + e.message)))"""
FETCH_JS = "() => fetch('/ping?' + Math.random()).then(r => r.status, () => 'failed')"


@dataclass(frozen=True)
class Case:
    """`steps` are (tool, args); `observe` runs in the page afterwards and must equal `expected`.
    `returns` is what the last dispatch must return; `header` is a (name, value) the server must have
    received on the navigation to /after."""

    id: str
    steps: tuple[tuple[str, dict[str, object]], ...]
    observe: str | None = None
    expected: object = None
    navigate: bool = False
    returns: object = None
    header: tuple[str, str] | None = None


CASES = (
    Case(
        "headers",
        (("web_setExtraHTTPHeaders", {"headers": {"x-tool-test": "sent by tool", "x-b": "2"}}),),
        navigate=True,
        header=("x-tool-test", "sent by tool"),
    ),
    Case(
        "init-script",
        (("web_addInitScript", {"script": "window.__fromInit = 'ran ' + (1 + 1)"}),),
        observe="() => window.__fromInit",
        expected="ran 2",
        navigate=True,
    ),
    Case(
        "geolocation",
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
        "geolocation-accuracy",
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
        "offline",
        (("web_context_setOffline", {"offline": True}),),
        observe=FETCH_JS,
        expected="failed",
    ),
    Case(
        "offline-then-online",
        (
            ("web_context_setOffline", {"offline": True}),
            ("web_context_setOffline", {"offline": False}),
        ),
        observe=FETCH_JS,
        expected=200,
    ),
    Case(
        "viewport",
        (("web_setViewportSize", {"width": 641, "height": 479}),),
        observe="() => [innerWidth, innerHeight]",
        expected=[641, 479],
    ),
    Case("evaluate", (("web_evaluate", {"expression": "6 * 7"}),), returns=42),
    Case(
        "evaluate-arg",
        (
            (
                "web_evaluate",
                {"expression": "([a, b]) => ({sum: a + b, doc: document.title})", "arg": [2, 3]},
            ),
        ),
        returns={"sum": 5, "doc": "start"},
    ),
)

START_PAGE = "<!doctype html><title>start</title><p>start</p>"
AFTER_PAGE = "<!doctype html><title>after</title><p>after</p>"
