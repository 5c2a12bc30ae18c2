"""Browser cases for `web_*` tools (Page methods). See e2e_cases.py for the row format."""

from __future__ import annotations

from e2e_cases import Case

GEO_JS = """() => new Promise(resolve => navigator.geolocation.getCurrentPosition(
    p => resolve([p.coords.latitude, p.coords.longitude]),
    e => resolve('error: ' + e.message)))"""

CASES: tuple[Case, ...] = (
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
