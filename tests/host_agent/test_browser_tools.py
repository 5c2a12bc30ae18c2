"""Issue 24 item 3: the tools @playwright/mcp's users reach for, one naming rule over the default
listing (former names still answer everywhere), and the opt-in capabilities (`--caps`)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import urllib.request
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from host_tests.host_helpers import ServedHost, host_config
from mcp import Client

from host.calls import registry as registry_module
from host.calls.core import Host
from host.calls.registry import ToolRegistry
from host.calls.results import ToolOutcome
from host.commands.replay import check_trail, run
from host.settings.caps import CAPS
from host.shared.descriptors import HOST_TOOLS_DIR, find_generated_dir, read_descriptors
from host.trails.trail import read_trail
from host.transports.mcp_server import build_server
from host_agent.agent_pages import Pages

pytestmark = pytest.mark.browser

NAME_RULE = re.compile(r"browser_[a-z0-9]+(?:_[a-z0-9]+)*")
FORMER = {
    "web_snapshot": "browser_snapshot",
    "navigate": "browser_navigate",
    "click": "browser_click",
    "fill": "browser_type",
    "send_keys": "browser_send_keys",
    "screenshot": "browser_take_screenshot",
    "upload_file": "browser_file_upload",
    "dropdown_options": "browser_dropdown_options",
    "playwright_execute": "browser_execute_python",
    "web_waitForResponse": "browser_wait_for_response",
    "web_tabs": "browser_tabs",
    "web_objective": "browser_objective",
}
FORM = (
    "<title>Form</title><label>Name <input id=name></label>"
    "<label>Bio <textarea id=bio></textarea></label>"
    "<label>Size <select id=size><option value=s>Small</option><option value=l>Large</option>"
    "</select></label><label><input type=checkbox id=news> News</label>"
    "<label><input type=radio name=plan id=free> Free</label>"
    "<label><input type=radio name=plan id=pro> Pro</label>"
    "<button id=go disabled>Gone</button><p id=hit>none</p>"
    "<button id=big style='position:absolute;left:40px;top:300px;width:120px;height:40px'"
    " onclick=\"document.getElementById('hit').textContent = 'clicked ' + event.clientX\">Big</button>"
)


def data_url(html: str) -> str:
    return "data:text/html," + quote(html)


def value(outcome: ToolOutcome) -> Any:
    assert outcome.ok, outcome.text()
    return outcome.value


def failed(outcome: ToolOutcome, code: str) -> str:
    assert not outcome.ok and outcome.error is not None, outcome.text()
    assert outcome.error.code == code, outcome.text()
    return outcome.error.message


# -- the naming rule -------------------------------------------------------------------------


def test_every_listed_tool_follows_the_naming_rule_and_former_names_are_aliases() -> None:
    registry = ToolRegistry()
    generated = set()
    generated_dir = find_generated_dir()
    if generated_dir is not None:
        generated = {d.name for d in read_descriptors(generated_dir / "tools", "generated")}
    listed = [*registry.default_listing(), *(t for tools in CAPS.values() for t in tools)]
    for name in listed:
        assert NAME_RULE.fullmatch(name), f"{name} breaks the naming rule (browser_ + snake_case)"
        assert name not in generated, f"{name} is also a generated tool's name"
    assert set(registry.toolsets["caps"].tools) == {t for tools in CAPS.values() for t in tools}
    for former, now in FORMER.items():
        assert registry.resolve(former) == now and registry.lookup(former, None).name == now
    # Only canonical names are listed; every alias stands for a hand-authored tool.
    assert not set(registry.aliases) & set(registry.default_listing())
    assert all(registry.tools[t].origin == "host" for t in registry.aliases.values())
    # The frameworks' own tools keep their names (not in the default listing).
    assert {"webBrowser", "web_setUserAgent"} <= set(registry.tools)


def _tools_dir_with(tmp_path: Path, edit: dict[str, tuple[str, str]]) -> Path:
    folder = tmp_path / "tools"
    shutil.copytree(HOST_TOOLS_DIR, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for file, (old, new) in edit.items():
        path = folder / file
        path.write_text(path.read_text().replace(old, new, 1))
    return folder


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            {"browser_hover.tool.yaml": ("aliases: [hover]", "aliases: [hover, browser_click]")},
            "is the name",
        ),
        (
            {"browser_hover.tool.yaml": ("aliases: [hover]", "aliases: [hover, click]")},
            "already an alias",
        ),
        (
            {"browser_hover.tool.yaml": ("aliases: [hover]", "aliases: [hover, 'a b']")},
            "aliases must be",
        ),
        (
            {"browser_hover.tool.yaml": ("aliases: [hover]", "aliases: [browser_hover]")},
            "must differ",
        ),
    ],
)
def test_an_alias_clashing_with_a_name_or_another_alias_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: dict[str, tuple[str, str]], message: str
) -> None:
    monkeypatch.setattr(registry_module, "HOST_TOOLS_DIR", _tools_dir_with(tmp_path, edit))
    with pytest.raises(ValueError, match=message):
        ToolRegistry()


def test_former_names_answer_over_mcp_and_record_as_the_listed_name(
    pages: Pages, tmp_path: Path
) -> None:
    trail_path = tmp_path / "trail.yaml"

    async def scenario() -> tuple[list[str], Any, Any, Any]:
        async with Host(host_config(record=trail_path)) as host:
            server = build_server(host, host.registry.select(["default"]))
            async with Client(server, mode="legacy") as client:
                names = [t.name for t in (await client.list_tools()).tools]
                await client.call_tool("navigate", {"url": pages.url("/login")})
                typed = await client.call_tool("fill", {"target": "#u", "text": "ada"})
                clicked = await client.call_tool("browser_click", {"target": "button"})
                await client.call_tool("browser_resize", {"width": 600, "height": 500})
                form = await client.call_tool(
                    "browser_fill_form", {"fields": [{"target": "body", "value": "x"}]}
                )
            return names, typed, clicked, form

    names, typed, clicked, form = asyncio.run(scenario())
    assert "browser_type" in names and "fill" not in names and "web_snapshot" not in names
    assert all(NAME_RULE.fullmatch(n) for n in names)
    assert not typed.is_error and not clicked.is_error
    steps = read_trail(trail_path).steps
    assert [s.tool for s in steps] == [
        "browser_navigate",
        "browser_type",
        "browser_click",
        "browser_resize",
    ]
    # browser_fill_form is not kept in a trail, and says so while recording.
    notes = (form.structured_content or {}).get("notes") or []
    assert any(n.get("event") == "not_recorded" for n in notes), form

    # A trail recorded before the rename (former names) still checks and replays.
    old = tmp_path / "old.yaml"
    old.write_text(
        "- tools:\n"
        f"  - navigate:\n      url: {pages.url('/login')}\n"
        "  - fill:\n      target: '#u'\n      text: grace\n"
        "  - click:\n      target: button\n"
        "  - web_snapshot: {}\n"
    )
    trail = read_trail(old)
    registry = ToolRegistry()
    checked = check_trail(trail, registry, {}, skip_prompts=False)

    class Out:
        text = ""

        def write(self, part: str) -> None:
            Out.text += part

    status = asyncio.run(run(trail, host_config(), checked, {}, out=Out()))  # type: ignore[arg-type]
    assert status == 0, Out.text


def test_former_names_answer_through_the_scripting_callback(
    agent_host: ServedHost, pages: Pages
) -> None:
    def script(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        body = {
            "version": 1,
            "session_id": "naming",
            "invocation_id": tool,
            "action": {
                "type": "call_tool",
                "tool_name": tool,
                "arguments_json": json.dumps(arguments),
            },
        }
        request = urllib.request.Request(
            agent_host.base + "/scripting/callback",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())["result"]  # type: ignore[no-any-return]

    assert script("navigate", {"url": pages.url("/login")})["success"]
    assert script("web_tabs", {"action": "list"})["success"]
    assert script("browser_tabs", {"action": "list"})["success"]
    text = script("get_text", {"target": "h1"})
    assert text["success"] and "Sign in" in text["text_content"]


def test_the_new_actions_export_as_playwright_code() -> None:
    from host.trails.code import NotExportable, line_for

    assert line_for("browser_resize", {"width": 5, "height": 6}, "python") == (
        'page.set_viewport_size({"width": 5, "height": 6})'
    )
    assert line_for("browser_emulate_media", {"colorScheme": None}, "typescript") == (
        "await page.emulateMedia({ colorScheme: null });"
    )
    assert (
        line_for("browser_mouse_click_xy", {"x": 1, "y": 2}, "python") == "page.mouse.click(1, 2)"
    )
    drag = {"startX": 1, "startY": 2, "endX": 3, "endY": 4}
    assert line_for("browser_mouse_drag_xy", drag, "python").splitlines()[2] == (
        "page.mouse.move(3, 4, steps=10)"
    )
    assert line_for("click", {"target": "#a"}, "python") == line_for(
        "browser_click", {"target": "#a"}, "python"
    )
    with pytest.raises(NotExportable):
        line_for("browser_close", {}, "python")


# -- the new default tools ---------------------------------------------------------------------


def test_find_fill_form_resize_emulate_media_and_close(pages: Pages) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Host(host_config()) as host:
            call = host.call
            value(await call("k", "browser_navigate", {"url": data_url(FORM)}))
            found = value(await call("k", "browser_find", {"text": "LARGE"}))
            seen["found"] = found
            seen["nothing"] = value(await call("k", "browser_find", {"text": "zebra"}))
            ref = re.search(r"\[ref=(e\d+)\]", found["matches"][0]["path"][-1])
            assert ref is not None
            seen["filled"] = value(
                await call(
                    "k",
                    "browser_fill_form",
                    {
                        "fields": [
                            {"target": "#name", "value": "Ada"},
                            {"target": "label=Bio", "value": "two\nlines"},
                            {"target": ref.group(1), "value": "Large"},  # a ref browser_find gave
                            {"target": "#news", "value": True},
                            {"target": "#pro", "value": "true"},
                        ]
                    },
                )
            )
            seen["state"] = value(
                await call(
                    "k",
                    "browser_evaluate",
                    {
                        "expression": "() => [document.getElementById('name').value, bio.value, size.value,"
                        " news.checked, pro.checked, free.checked]"
                    },
                )
            )
            seen["bad_check"] = await call(
                "k",
                "browser_fill_form",
                {"fields": [{"target": "#name", "value": "B"}, {"target": "#news", "value": "x"}]},
            )
            seen["bad_field"] = await call(
                "k",
                "browser_fill_form",
                {"fields": [{"target": "#name", "value": "C"}, {"target": "e9999", "value": "x"}]},
            )
            seen["too_many"] = await call(
                "k",
                "browser_fill_form",
                {"fields": [{"target": "#name", "value": "x"}] * 21},
            )
            seen["resized"] = value(
                await call("k", "browser_resize", {"width": 500, "height": 400})
            )
            seen["size"] = value(
                await call(
                    "k", "browser_evaluate", {"expression": "() => [innerWidth, innerHeight]"}
                )
            )
            seen["huge"] = await call("k", "browser_resize", {"width": 50_000, "height": 400})
            value(
                await call("k", "browser_emulate_media", {"colorScheme": "dark", "media": "print"})
            )
            query = "() => [matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('print').matches]"
            seen["dark"] = value(await call("k", "browser_evaluate", {"expression": query}))
            value(await call("k", "browser_emulate_media", {"colorScheme": None, "media": None}))
            seen["cleared"] = value(await call("k", "browser_evaluate", {"expression": query}))
            seen["no_feature"] = await call("k", "browser_emulate_media", {})
            value(await call("k", "browser_navigate", {"url": pages.url("/login")}))
            value(
                await call("k", "browser_evaluate", {"expression": "() => document.cookie = 'a=1'"})
            )
            seen["closed"] = await call("k", "close", {})  # not an alias: a typo stays an error
            seen["close"] = await call("k", "browser_close", {})
            seen["sessions_after_close"] = len(host.sessions)
            seen["fresh"] = await call("k", "browser_tabs", {"action": "list"})
            value(await call("k", "browser_navigate", {"url": pages.url("/login")}))
            seen["cookie"] = value(
                await call("k", "browser_evaluate", {"expression": "() => document.cookie"})
            )
        return seen

    seen = asyncio.run(scenario())
    found = seen["found"]
    assert found["count"] == 1 and not found["truncated"]
    assert "Large" in found["matches"][0]["line"]
    assert any("combobox" in p for p in found["matches"][0]["path"])
    assert seen["nothing"]["count"] == 0 and seen["nothing"]["matches"] == []
    assert seen["filled"]["filled"] == 5
    assert seen["state"] == ["Ada", "two\nlines", "l", True, True, False]
    message = failed(seen["bad_check"], "invalid_argument")
    assert "fields[1]" in message and "1 field(s) before it were filled" in message
    assert seen["bad_check"].error.path == "fields[1].value"
    assert "fields[1] (e9999)" in failed(seen["bad_field"], "stale_ref")
    failed(seen["too_many"], "invalid_argument")
    assert seen["resized"]["viewport"] == {"width": 500, "height": 400}
    assert seen["size"] == [500, 400]
    failed(seen["huge"], "invalid_argument")
    assert seen["dark"] == [True, True] and seen["cleared"] == [False, False]
    failed(seen["no_feature"], "missing_argument")
    assert "did you mean" in failed(seen["closed"], "unknown_tool")
    close = seen["close"]
    assert value(close)["closed"] is True
    assert close.extras["session"]["ended"] is True
    assert "next call starts a new session" in close.extras["session"]["reason"]
    assert seen["sessions_after_close"] == 0
    fresh = seen["fresh"]
    assert "browser_close closed the browser session" in fresh.extras["session"]["reason"]
    assert [t["url"] for t in value(fresh)["tabs"]] == ["about:blank"]
    assert seen["cookie"] == ""


def test_find_bounds_its_matches(pages: Pages) -> None:
    many = "<title>Many</title>" + "".join(f"<p>needle {i}</p>" for i in range(60))
    many += "<p>" + "needle " * 100 + "</p>"

    async def scenario() -> Any:
        async with Host(host_config()) as host:
            value(await host.call("k", "browser_navigate", {"url": data_url(many)}))
            return value(await host.call("k", "browser_find", {"text": "needle"}))

    found = asyncio.run(scenario())
    assert found["count"] == 61 and found["truncated"] and len(found["matches"]) == 20
    assert all(len(m["line"]) <= 200 for m in found["matches"])


def test_network_request_detail_by_id(pages: Pages) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Host(host_config()) as host:
            value(await host.call("k", "browser_navigate", {"url": pages.url("/api")}))
            value(await host.call("k", "browser_click", {"target": "text=Load"}))
            value(await host.call("k", "browser_wait_for", {"text": "real"}))
            listed = value(await host.call("k", "browser_network_requests", {}))
            seen["listed"] = listed
            api = next(r for r in listed["requests"] if r["url"].endswith("/api/data"))
            # Still there after the list was taken (the list empties, the detail stays).
            seen["detail"] = value(
                await host.call("k", "browser_network_request", {"id": api["id"]})
            )
            page = next(r for r in listed["requests"] if r["url"].endswith("/api"))
            seen["page"] = value(
                await host.call("k", "browser_network_request", {"id": page["id"]})
            )
            seen["unknown"] = await host.call("k", "browser_network_request", {"id": 99_999})
            seen["zero"] = await host.call("k", "browser_network_request", {"id": 0})
        return seen

    seen = asyncio.run(scenario())
    ids = [r["id"] for r in seen["listed"]["requests"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    detail = seen["detail"]
    assert detail["method"] == "GET" and detail["resourceType"] == "fetch"
    assert detail["response"]["status"] == 200
    assert detail["response"]["headers"]["content-type"] == "application/json"
    assert json.loads(detail["response"]["body"]) == {"items": ["real"]}
    assert "requestHeaders" in detail and detail["failure"] is None
    assert "Load" in seen["page"]["response"]["body"]
    assert "browser_network_requests" in failed(seen["unknown"], "unknown_request")
    failed(seen["zero"], "invalid_argument")


# -- capabilities ------------------------------------------------------------------------------


def test_capability_tools_are_listed_and_callable_only_with_their_capability(
    pages: Pages, tmp_path: Path
) -> None:
    cap_tools = {t for tools in CAPS.values() for t in tools}

    async def listing(host: Host) -> set[str]:
        server = build_server(host, host.registry.select(["default"]))
        async with Client(server, mode="legacy") as client:
            return {t.name for t in (await client.list_tools()).tools}

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Host(host_config(output_dir=tmp_path)) as host:
            seen["plain"] = await listing(host)
            seen["refused"] = await host.call("k", "browser_pdf_save", {})
            seen["script_refused"] = await host.call(
                "k",
                "browser_mouse_click_xy",
                {"x": 1, "y": 1},
                enabled=host.registry.always_enabled(),
            )
        async with Host(host_config(output_dir=tmp_path, caps=("pdf",))) as host:
            seen["pdf_only"] = await listing(host)
            seen["vision_refused"] = await host.call("k", "browser_mouse_move_xy", {"x": 1, "y": 1})
        return seen

    seen = asyncio.run(scenario())
    assert not seen["plain"] & cap_tools
    assert "--caps pdf" in failed(seen["refused"], "tool_disabled")
    assert "--caps vision" in failed(seen["script_refused"], "tool_disabled")
    assert seen["pdf_only"] & cap_tools == {"browser_pdf_save"}
    assert "--caps vision" in failed(seen["vision_refused"], "tool_disabled")


def test_pdf_vision_and_tracing(pages: Pages, tmp_path: Path) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        config = host_config(output_dir=tmp_path, caps=("pdf", "tracing", "vision"))
        async with Host(config) as host:
            call = host.call
            seen["started"] = value(await call("k", "browser_start_tracing", {}))
            seen["again"] = await call("k", "browser_start_tracing", {})
            value(await call("k", "browser_navigate", {"url": data_url(FORM)}))
            seen["pdf"] = value(await call("k", "browser_pdf_save", {"filename": "../../escape"}))
            seen["pdf2"] = value(await call("k", "browser_pdf_save", {"filename": "escape.pdf"}))
            seen["pdf_default"] = value(await call("k", "browser_pdf_save", {}))
            value(await call("k", "browser_mouse_move_xy", {"x": 100, "y": 320}))
            seen["clicked"] = value(await call("k", "browser_mouse_click_xy", {"x": 100, "y": 320}))
            seen["hit"] = value(await call("k", "browser_get_text", {"target": "#hit"}))
            value(
                await call(
                    "k",
                    "browser_navigate",
                    {"url": pages.url("/drag")},
                )
            )
            value(
                await call(
                    "k",
                    "browser_mouse_drag_xy",
                    {"startX": 25, "startY": 25, "endX": 40, "endY": 100},
                )
            )
            seen["dropped"] = value(await call("k", "browser_get_text", {"target": "#out"}))
            seen["outside"] = await call("k", "browser_mouse_click_xy", {"x": -1, "y": 5})
            seen["stopped"] = value(await call("k", "browser_stop_tracing", {}))
            seen["not_started"] = await call("k", "browser_stop_tracing", {})
        return seen

    seen = asyncio.run(scenario())
    pdf = Path(seen["pdf"]["path"])
    # The session's own folder: <output>/sessions/<transport>-<random>/pdf/.
    assert pdf.parent.parent.parent == tmp_path / "sessions" and pdf.parent.name == "pdf"
    assert pdf.name == "escape.pdf"
    assert pdf.read_bytes().startswith(b"%PDF") and seen["pdf"]["size"] == pdf.stat().st_size
    assert Path(seen["pdf2"]["path"]).name == "escape (2).pdf"  # never replaces a file
    assert Path(seen["pdf_default"]["path"]).parent == pdf.parent
    assert seen["hit"]["text"].startswith("clicked 100")
    assert seen["dropped"]["text"] == "dropped"
    failed(seen["outside"], "invalid_argument")
    assert "already being traced" in failed(seen["again"], "tracing_active")
    trace = Path(seen["stopped"]["path"])
    assert trace.parent == pdf.parent.parent / "traces" and zipfile.is_zipfile(trace)
    assert "show-trace" in seen["stopped"]["open"]
    failed(seen["not_started"], "tracing_not_started")


def test_tracing_says_so_when_the_operator_traces_every_session(tmp_path: Path) -> None:
    from host.settings import browser_options

    if "save_trace" not in getattr(browser_options.BrowserOptions, "__dataclass_fields__", {}):
        pytest.skip("--save-trace is not in this tree yet")
    options = browser_options.BrowserOptions(save_trace=True)

    async def scenario() -> tuple[ToolOutcome, ToolOutcome]:
        config = host_config(output_dir=tmp_path, caps=("tracing",), browser=options)
        async with Host(config) as host:
            return (
                await host.call("k", "browser_start_tracing", {}),
                await host.call("k", "browser_stop_tracing", {}),
            )

    start, stop = asyncio.run(scenario())
    assert "--save-trace" in failed(start, "tracing_active")
    assert "--save-trace" in failed(stop, "tracing_active")


def test_a_click_that_finds_no_element_names_the_click(tmp_path: Path) -> None:
    """A click first checks whether its element opens a new tab, and that check is what waits:
    its timeout named `Locator.evaluate`, a method the caller never asked for (in a result and
    in replay). It names the click now, as type and hover name their own methods."""

    async def scenario() -> tuple[str, str]:
        async with Host(host_config(action_timeout=0.5)) as host:
            value(await host.call("k", "browser_navigate", {"url": data_url(FORM)}))
            clicked = await host.call("k", "browser_click", {"target": "#nope"})
            hovered = await host.call("k", "browser_hover", {"target": "#nope"})
            return failed(clicked, "playwright_error"), failed(hovered, "playwright_error")

    clicked, hovered = asyncio.run(scenario())
    assert "Locator.click: Timeout" in clicked and "Locator.evaluate" not in clicked, clicked
    assert "Locator.hover: Timeout" in hovered, hovered
