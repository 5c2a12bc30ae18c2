"""Browser cases for `web_*` tools (Page methods). See e2e_cases.py for the row format.

Rows marked "live object" are for tools whose descriptor says the Java method returns a live object
(Locator, Keyboard, JSHandle, ...) that the tool does not return: such a row asserts `returns=None`
and, where the method has an effect the page can see, that effect.
"""

from __future__ import annotations

import base64
import re
import struct
from collections.abc import Callable
from urllib.parse import urlsplit

from conftest import SLOW_PATH
from e2e_cases import Case

GEO_JS = """() => new Promise(resolve => navigator.geolocation.getCurrentPosition(
    p => resolve([p.coords.latitude, p.coords.longitude]),
    e => resolve('error: ' + e.message)))"""


def _decoded(result: object) -> bytes:
    assert isinstance(result, str), result
    return base64.b64decode(result, validate=True)


def _png_size(result: object) -> tuple[int, int] | None:
    """(width, height) of a base64 PNG, or None when `result` is not one."""
    data = _decoded(result)
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _pdf_page_size(result: object) -> tuple[float, float] | None:
    """(width, height) in points of a base64 PDF's first page, or None when `result` is not one."""
    data = _decoded(result)
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    if not data.startswith(b"%PDF-") or not boxes:
        return None
    return float(boxes[0][0]), float(boxes[0][1])


def _pdf_is_landscape(result: object) -> bool:
    size = _pdf_page_size(result)
    return size is not None and size[0] > size[1]


def _response_for(path: str) -> Callable[[object], bool]:
    """A check for a Response summary of a successful load of `path` on the page server."""

    def check(result: object) -> bool:
        return (
            isinstance(result, dict)
            and result.get("status") == 200
            and result.get("statusText") == "OK"
            and result.get("ok") is True
            and urlsplit(str(result.get("url"))).path == path
            and str(result.get("url")).startswith("http://127.0.0.1:")
        )

    return check


def _served(path: str) -> Callable[[object], bool]:
    def check(result: object) -> bool:
        return (
            isinstance(result, str)
            and result.startswith("http://127.0.0.1:")
            and (urlsplit(result).path == path)
        )

    return check


def _text_of(selector: str) -> str:
    return f"() => document.querySelector({selector!r}).textContent"


def _value_of(selector: str) -> str:
    return f"() => document.querySelector({selector!r}).value"


def _checked(selector: str) -> str:
    return f"() => document.querySelector({selector!r}).checked"


CHECKBOX_HTML = """<!doctype html><title>boxes</title>
<label><input type="checkbox" id="off"> off</label>
<label><input type="checkbox" id="on" checked> on</label>"""

STATES_HTML = """<!doctype html><title>states</title>
<button id="enabled">enabled</button>
<button id="disabled" disabled>disabled</button>
<input id="editable" value="e">
<input id="readonly" readonly value="r">
<p id="shown">shown</p>
<p id="hidden" style="display:none">hidden</p>
<input type="checkbox" id="ticked" checked>
<input type="checkbox" id="unticked">"""

FRAME_HTML = """<!doctype html><title>frames</title>
<iframe name="child" srcdoc="<p id='inner'>inside</p>"></iframe>"""

LINK_HTML = '<!doctype html><title>start</title><a id="next" href="{}">next</a>'

CLICK_DETAIL_HTML = """<!doctype html><title>detail</title>
<button id="b" style="padding:0;border:0;font-size:20px"
  onclick="this.textContent = [event.shiftKey, event.detail, event.offsetX, event.offsetY].join()"
>press me please</button>"""

DRAG_HTML = """<!doctype html><title>drag</title>
<div id="src" draggable="true" style="width:50px;height:50px;background:red">drag</div>
<div id="dst" style="width:80px;height:80px;margin-top:20px;background:blue"
  ondragover="event.preventDefault()"
  ondrop="event.preventDefault(); this.textContent = 'dropped'">target</div>"""

LATE_HTML = """<!doctype html><title>late</title>
<p id="early">early</p>
<script>
setTimeout(() => {
  const p = document.createElement('p');
  p.id = 'late';
  p.textContent = 'arrived';
  document.body.append(p);
  document.querySelector('#early').remove();
  window.__ready = true;
}, 200);
</script>"""

WORKER_HTML = """<!doctype html><title>worker</title>
<script>
const worker = new Worker(URL.createObjectURL(new Blob(['postMessage("up")'])));
worker.onmessage = event => { window.__worker = event.data; };
</script>"""

SELECT_HTML = """<!doctype html><title>select</title>
<select id="one"><option value="r">Red</option><option value="b">Blue</option></select>
<select id="many" multiple>
  <option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option>
</select>"""

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
    Case("evaluate", (("web_evaluate", {"script": "6 * 7"}),), returns=42),
    Case(
        "evaluate-arg",
        (
            (
                "web_evaluate",
                {"script": "([a, b]) => ({sum: a + b, doc: document.title})", "arg": [2, 3]},
            ),
        ),
        returns={"sum": 5, "doc": "start"},
    ),
    # --- adding to the page ---------------------------------------------------------------------
    # live object (ElementHandle): the effect is the script having run.
    Case(
        "page-add-script-tag",
        (("web_addScriptTag", {"content": "window.__kind = 'classic ' + typeof this"}),),
        observe="() => window.__kind",
        expected="classic object",
    ),
    # live object (ElementHandle): `type` reaches the tag, a module's top-level `this` is undefined.
    Case(
        "page-add-script-tag-module",
        (("web_addScriptTag", {"content": "window.__kind = typeof this", "type": "module"}),),
        observe="() => window.__kind",
        expected="undefined",
    ),
    # live object (ElementHandle): a script loaded from `url` ran.
    Case(
        "page-add-script-tag-url",
        (("web_addScriptTag", {"url": "data:text/javascript,window.__fromUrl%20%3D%207"}),),
        observe="() => window.__fromUrl",
        expected=7,
    ),
    # live object (ElementHandle): the effect is the style applying.
    Case(
        "page-add-style-tag",
        (("web_addStyleTag", {"content": "#title { color: rgb(1, 2, 3) }"}),),
        observe="() => getComputedStyle(document.querySelector('#title')).color",
        expected="rgb(1, 2, 3)",
    ),
    Case(
        "page-set-content",
        (
            (
                "web_setContent",
                {
                    "html": "<title>replaced</title><p id='fresh'>fresh</p>",
                    "waitUntil": "domcontentloaded",
                },
            ),
        ),
        observe="() => [document.title, document.querySelector('#fresh').textContent]",
        expected=["replaced", "fresh"],
    ),
    # --- reading the page -----------------------------------------------------------------------
    Case(
        "page-aria-snapshot",
        (("web_ariaSnapshot", {}),),
        returns='- heading "Hello" [level=1]\n- textbox: initial\n- button "Go"\n'
        "- paragraph: one\n- paragraph: two",
    ),
    Case(
        "page-aria-snapshot-ai",
        (("web_ariaSnapshot", {"mode": "ai", "timeout": 15000}),),
        returns='- generic [active] [ref=e1]:\n  - heading "Hello" [level=1] [ref=e2]\n'
        '  - textbox [ref=e3]: initial\n  - button "Go" [ref=e4]\n'
        "  - paragraph [ref=e5]: one\n  - paragraph [ref=e6]: two",
    ),
    Case(
        "page-aria-snapshot-depth",
        (("web_ariaSnapshot", {"depth": 2}),),
        html="<main><ul><li>a<ul><li>b</li></ul></li></ul></main>",
        returns="- main:\n  - list:\n    - listitem",
    ),
    Case(
        "page-content",
        (("web_content", {}),),
        html="<!doctype html><title>c</title><p>x</p>",
        returns="<!DOCTYPE html><html><head><title>c</title></head><body><p>x</p></body></html>",
    ),
    Case("page-title", (("web_title", {}),), returns="start"),
    Case("page-url", (("web_url", {}),), check=_served("/case/page-url")),
    Case(
        "page-text-content",
        (("web_textContent", {"selector": "#t"}),),
        html='<p id="t">seen<span style="display:none"> and unseen</span></p>',
        returns="seen and unseen",
    ),
    Case(
        "page-inner-text",
        (("web_innerText", {"selector": "#t"}),),
        html='<p id="t" style="text-transform:uppercase">seen<span style="display:none">no</span></p>',
        returns="SEEN",
    ),
    Case(
        "page-inner-html",
        (("web_innerHTML", {"selector": "#box"}),),
        html='<div id="box"><b>bold</b> text</div>',
        returns="<b>bold</b> text",
    ),
    # The live value, not the `value` attribute.
    Case(
        "page-input-value",
        (
            ("web_evaluate", {"script": "document.querySelector('#name').value = 'live'"}),
            ("web_inputValue", {"selector": "#name", "timeout": 15000}),
        ),
        returns="live",
    ),
    Case(
        "page-get-attribute",
        (("web_getAttribute", {"selector": "#name", "name": "id"}),),
        returns="name",
    ),
    Case(
        "page-get-attribute-missing",
        (("web_getAttribute", {"selector": "#go", "name": "data-none", "timeout": 15000}),),
        returns=None,
    ),
    Case(
        "page-eval-on-selector",
        (
            (
                "web_evalOnSelector",
                {
                    "selector": "#title",
                    "expression": "(e, tail) => e.textContent + tail",
                    "arg": "!",
                },
            ),
        ),
        returns="Hello!",
    ),
    Case(
        "page-eval-on-selector-all",
        (
            (
                "web_evalOnSelectorAll",
                {
                    "selector": ".item",
                    "expression": "(els, n) => els.map(e => e.textContent.repeat(n))",
                    "arg": 2,
                },
            ),
        ),
        returns=["oneone", "twotwo"],
    ),
    # --- element state --------------------------------------------------------------------------
    Case(
        "page-is-checked",
        (("web_isChecked", {"selector": "#ticked"}),),
        html=STATES_HTML,
        returns=True,
    ),
    Case(
        "page-is-disabled",
        (("web_isDisabled", {"selector": "#disabled"}),),
        html=STATES_HTML,
        returns=True,
    ),
    Case(
        "page-is-enabled",
        (("web_isEnabled", {"selector": "#enabled"}),),
        html=STATES_HTML,
        returns=True,
    ),
    Case(
        "page-is-editable",
        (("web_isEditable", {"selector": "#editable"}),),
        html=STATES_HTML,
        returns=True,
    ),
    Case(
        "page-is-editable-not",
        (("web_isEditable", {"selector": "#readonly"}),),
        html=STATES_HTML,
        returns=False,
    ),
    Case(
        "page-is-hidden",
        (("web_isHidden", {"selector": "#hidden"}),),
        html=STATES_HTML,
        returns=True,
    ),
    Case(
        "page-is-visible",
        (("web_isVisible", {"selector": "#shown"}),),
        html=STATES_HTML,
        returns=True,
    ),
    Case(
        "page-is-visible-not",
        (("web_isVisible", {"selector": "#hidden"}),),
        html=STATES_HTML,
        returns=False,
    ),
    Case(
        "page-click",
        (
            (
                "web_click",
                {
                    "selector": "#b",
                    "modifiers": ["Shift"],
                    "clickCount": 2,
                    "position": {"x": 5, "y": 6},
                    "button": "left",
                    "delay": 1,
                },
            ),
        ),
        html=CLICK_DETAIL_HTML,
        observe=_text_of("#b"),
        expected="true,2,5,6",
    ),
    Case(
        "page-dblclick",
        (("web_dblclick", {"selector": "#d"}),),
        html='<button id="d" ondblclick="this.textContent = \'double \' + event.detail">d</button>',
        observe=_text_of("#d"),
        expected="double 2",
    ),
    Case(
        "page-dispatch-event",
        (
            (
                "web_dispatchEvent",
                {"selector": "#title", "type": "ping", "eventInit": {"bubbles": True}},
            ),
        ),
        html="""<!doctype html><title>ping</title><h1 id="title">t</h1>
<script>document.body.addEventListener('ping', e => { document.title = 'pinged ' + e.bubbles })</script>""",
        observe="() => document.title",
        expected="pinged true",
    ),
    Case(
        "page-drag-and-drop",
        (
            (
                "web_dragAndDrop",
                {"source": "#src", "target": "#dst", "targetPosition": {"x": 10, "y": 10}},
            ),
        ),
        html=DRAG_HTML,
        observe=_text_of("#dst"),
        expected="dropped",
    ),
    Case(
        "page-hover",
        (("web_hover", {"selector": "#h", "modifiers": ["Alt"], "position": {"x": 1, "y": 1}}),),
        html='<div id="h" onmouseenter="this.textContent = \'hovered \' + event.altKey">x</div>',
        observe=_text_of("#h"),
        expected="hovered true",
    ),
    Case(
        "page-fill",
        (("web_fill", {"selector": "#name", "value": "filled in"}),),
        observe=_value_of("#name"),
        expected="filled in",
    ),
    Case(
        "page-focus",
        (("web_focus", {"selector": "#name"}),),
        observe="() => document.activeElement.id",
        expected="name",
    ),
    Case(
        "page-press",
        (("web_press", {"selector": "#e", "key": "Shift+KeyA"}),),
        html='<input id="e">',
        observe=_value_of("#e"),
        expected="A",
    ),
    Case(
        "page-type",
        (("web_type", {"selector": "#e", "text": "abc", "delay": 1}),),
        html='<input id="e" onkeydown="window.__keys = (window.__keys || 0) + 1">',
        observe="() => [document.querySelector('#e').value, window.__keys]",
        expected=["abc", 3],
    ),
    Case(
        "page-check",
        (("web_check", {"selector": "#off"}),),
        html=CHECKBOX_HTML,
        observe="() => [document.querySelector('#off').checked, document.querySelector('#on').checked]",
        expected=[True, True],
    ),
    Case(
        "page-uncheck",
        (("web_uncheck", {"selector": "#on"}),),
        html=CHECKBOX_HTML,
        observe="() => [document.querySelector('#off').checked, document.querySelector('#on').checked]",
        expected=[False, False],
    ),
    Case(
        "page-set-checked",
        (("web_setChecked", {"selector": "#off", "checked": True}),),
        html=CHECKBOX_HTML,
        observe=_checked("#off"),
        expected=True,
    ),
    Case(
        "page-select-option",
        (("web_selectOption", {"selector": "#one", "values": "b"}),),
        html=SELECT_HTML,
        returns=["b"],
        observe=_value_of("#one"),
        expected="b",
    ),
    # A string matches an option's value or its label (the Java overloads' rule).
    Case(
        "page-select-option-many",
        (("web_selectOption", {"selector": "#many", "values": ["r", "Blue"], "timeout": 15000}),),
        html=SELECT_HTML,
        returns=["r", "b"],
        observe="() => [...document.querySelector('#many').selectedOptions].map(o => o.value)",
        expected=["r", "b"],
    ),
    # An object picks by exactly one of value, label or index, alone or in a list of objects.
    Case(
        "page-select-option-by-label",
        (("web_selectOption", {"selector": "#one", "values": {"label": "Blue"}}),),
        html=SELECT_HTML,
        returns=["b"],
        observe=_value_of("#one"),
        expected="b",
    ),
    Case(
        "page-select-option-by-index",
        (("web_selectOption", {"selector": "#one", "values": {"index": 1}}),),
        html=SELECT_HTML,
        returns=["b"],
        observe=_value_of("#one"),
        expected="b",
    ),
    Case(
        "page-select-option-objects",
        (
            (
                "web_selectOption",
                {"selector": "#many", "values": [{"value": "r"}, {"label": "Green"}, {"index": 2}]},
            ),
        ),
        html=SELECT_HTML,
        returns=["r", "g", "b"],
        observe="() => [...document.querySelector('#many').selectedOptions].map(o => o.value)",
        expected=["r", "g", "b"],
    ),
    Case(
        "page-set-input-files",
        (
            (
                "web_setInputFiles",
                {
                    "selector": "#f",
                    "files": {"name": "a.txt", "mimeType": "text/plain", "buffer": "aGVsbG8="},
                },
            ),
        ),
        html='<input type="file" id="f" multiple>',
        observe="""() => { const f = document.querySelector('#f').files[0];
            return f.text().then(text => [f.name, f.type, text]) }""",
        expected=["a.txt", "text/plain", "hello"],
    ),
    Case(
        "page-set-input-files-many",
        (
            (
                "web_setInputFiles",
                {
                    "selector": "#f",
                    "files": [
                        {"name": "a.txt", "mimeType": "text/plain", "buffer": "aGk="},
                        {"name": "b.bin", "mimeType": "application/octet-stream", "buffer": ""},
                    ],
                },
            ),
        ),
        html='<input type="file" id="f" multiple>',
        observe="() => [...document.querySelector('#f').files].map(f => f.name + ':' + f.size)",
        expected=["a.txt:2", "b.bin:0"],
    ),
    # --- navigation -----------------------------------------------------------------------------
    Case(
        "page-reload",
        (
            ("web_evaluate", {"script": "window.__beforeReload = 1"}),
            ("web_reload", {"waitUntil": "load", "timeout": 15000}),
        ),
        check=_response_for("/case/page-reload"),
        observe="() => typeof window.__beforeReload",
        expected="undefined",
    ),
    Case(
        "page-go-back",
        (
            ("web_click", {"selector": "#next"}),
            # The click only starts the navigation; history moves once it has committed.
            ("web_waitForURL", {"url": "**/after/page-go-back"}),
            ("web_goBack", {"waitUntil": "load"}),
        ),
        html=LINK_HTML.format("/after/page-go-back"),
        check=_response_for("/case/page-go-back"),
        observe="() => document.title",
        expected="start",
    ),
    # The runner's page opened on about:blank, which has no Response: going back there returns null.
    Case(
        "page-go-back-to-blank",
        (("web_goBack", {"timeout": 15000}),),
        returns=None,
        observe="() => location.href",
        expected="about:blank",
    ),
    Case(
        "page-go-forward",
        (
            ("web_click", {"selector": "#next"}),
            # The click only starts the navigation; history moves once it has committed.
            ("web_waitForURL", {"url": "**/after/page-go-forward"}),
            ("web_goBack", {}),
            ("web_goForward", {"waitUntil": "domcontentloaded"}),
        ),
        html=LINK_HTML.format("/after/page-go-forward"),
        check=_response_for("/after/page-go-forward"),
        observe="() => document.title",
        expected="after",
    ),
    Case(
        "page-wait-for-url",
        (("web_waitForURL", {"url": "**/after/page-wait-for-url", "timeout": 15000}),),
        html="<title>soon gone</title><script>setTimeout(() => { location.href = '/after/page-wait-for-url' }, 200)</script>",
        observe="() => [location.pathname, document.title]",
        expected=["/after/page-wait-for-url", "after"],
    ),
    Case(
        "page-wait-for-load-state",
        (("web_waitForLoadState", {"state": "load", "timeout": 15000}),),
        observe="() => document.readyState",
        expected="complete",
    ),
    # Navigation timeouts only show as a failure; the row shows the setting leaves a reload working.
    Case(
        "page-set-default-navigation-timeout",
        (
            ("web_setDefaultNavigationTimeout", {"timeout": 15000}),
            ("web_reload", {}),
        ),
        check=_response_for("/case/page-set-default-navigation-timeout"),
    ),
    # --- waiting --------------------------------------------------------------------------------
    # live object (ElementHandle): the effect is that the element exists when the tool returns.
    Case(
        "page-wait-for-selector",
        (("web_waitForSelector", {"selector": "#early", "state": "detached", "timeout": 15000}),),
        html=LATE_HTML,
        observe="() => [document.querySelector('#early'), document.querySelector('#late').textContent]",
        expected=[None, "arrived"],
    ),
    # live object (JSHandle): the effect is that the condition holds when the tool returns.
    Case(
        "page-wait-for-function",
        (
            (
                "web_waitForFunction",
                {
                    "expression": "id => !!document.getElementById(id)",
                    "arg": "late",
                    "timeout": 15000,
                },
            ),
        ),
        html=LATE_HTML,
        observe="() => window.__ready",
        expected=True,
    ),
    Case(
        "page-wait-for-function-polling-interval",
        (
            (
                "web_waitForFunction",
                {"expression": "id => !!document.getElementById(id)", "arg": "late", "polling": 20},
            ),
        ),
        html=LATE_HTML,
        observe="() => window.__ready",
        expected=True,
    ),
    Case(
        "page-wait-for-function-polling-raf",
        (
            (
                "web_waitForFunction",
                {
                    "expression": "id => !!document.getElementById(id)",
                    "arg": "late",
                    "polling": "raf",
                },
            ),
        ),
        html=LATE_HTML,
        observe="() => window.__ready",
        expected=True,
    ),
    Case(
        "page-wait-for-timeout",
        (
            ("web_evaluate", {"script": "window.__t0 = performance.now()"}),
            ("web_waitForTimeout", {"timeout": 150}),
        ),
        observe="() => performance.now() - window.__t0 >= 150",
        expected=True,
    ),
    # Timeouts only show as a failure; the row shows a later wait still succeeds under the setting.
    Case(
        "page-set-default-timeout",
        (
            ("web_setDefaultTimeout", {"timeout": 15000}),
            ("web_waitForSelector", {"selector": "#late"}),
        ),
        html=LATE_HTML,
        observe=_text_of("#late"),
        expected="arrived",
    ),
    # --- frames, workers, page objects ----------------------------------------------------------
    Case(
        "page-frame",
        (("web_frame", {"name": "child"}),),
        html=FRAME_HTML,
        returns={"name": "child", "url": "about:srcdoc"},
    ),
    Case("page-frame-missing", (("web_frame", {"name": "nobody"}),), html=FRAME_HTML, returns=None),
    Case(
        "page-frames",
        (("web_frames", {}),),
        html=FRAME_HTML,
        check=lambda r: (
            isinstance(r, list)
            and [f["name"] for f in r] == ["", "child"]
            and _served("/case/page-frames")(r[0]["url"])
            and r[1]["url"] == "about:srcdoc"
        ),
    ),
    Case(
        "page-main-frame",
        (("web_mainFrame", {}),),
        check=lambda r: (
            isinstance(r, dict) and r["name"] == "" and _served("/case/page-main-frame")(r["url"])
        ),
    ),
    Case(
        "page-frame-locator",
        (("web_frameLocator", {"selector": "iframe[name=child]"}),),
        html=FRAME_HTML,
        same_as=lambda p: p.frame_locator("iframe[name=child]"),
    ),
    Case(
        "page-workers",
        (
            ("web_waitForFunction", {"expression": "() => window.__worker === 'up'"}),
            ("web_workers", {}),
        ),
        html=WORKER_HTML,
        check=lambda r: (
            isinstance(r, list)
            and len(r) == 1
            and str(r[0]["url"]).startswith("blob:http://127.0.0.1:")
        ),
    ),
    # The runner's page was not opened by another page.
    Case("page-opener", (("web_opener", {}),), returns=None),
    # Nothing can be observed in a closed page: the closed state is read back through a tool.
    Case(
        "page-close",
        (
            ("web_close", {"reason": "done with it", "runBeforeUnload": False}),
            ("web_isClosed", {}),
        ),
        returns=True,
    ),
    Case(
        "page-viewport-size-after-set",
        (
            ("web_setViewportSize", {"width": 500, "height": 400}),
            ("web_viewportSize", {}),
        ),
        returns={"width": 500, "height": 400},
    ),
    Case(
        "page-console-messages",
        (
            ("web_reload", {}),
            ("web_consoleMessages", {"filter": "since-navigation"}),
        ),
        html="<script>console.log('loaded', 1); console.warn('careful')</script>",
        returns=[{"type": "log", "text": "loaded 1"}, {"type": "warning", "text": "careful"}],
    ),
    Case(
        "page-clear-console-messages",
        (
            ("web_clearConsoleMessages", {}),
            ("web_evaluate", {"script": "console.log('late')"}),
            ("web_consoleMessages", {}),
        ),
        html="<script>console.log('early')</script>",
        returns=[{"type": "log", "text": "late"}],
    ),
    # No tool reads page errors back, so only the call itself is checked.
    Case(
        "page-clear-page-errors",
        (("web_clearPageErrors", {}),),
        html="<script>setTimeout(() => { throw new Error('uncaught') })</script>",
        returns=None,
    ),
    Case(
        "page-requests",
        (
            ("web_evaluate", {"script": "fetch('/data/page-requests').then(r => r.status)"}),
            ("web_requests", {}),
        ),
        check=lambda r: (
            isinstance(r, list)
            and [(urlsplit(q["url"]).path, q["method"], q["resourceType"]) for q in r]
            == [("/case/page-requests", "GET", "document"), ("/data/page-requests", "GET", "fetch")]
        ),
    ),
    # The object is only weakly held once the page drops it; a forced collection clears the WeakRef.
    Case(
        "page-request-gc",
        (
            (
                "web_evaluate",
                {
                    "script": "() => { window.__obj = {a: 1}; window.__ref = new WeakRef(window.__obj) }"
                },
            ),
            ("web_requestGC", {}),
            ("web_evaluate", {"script": "() => { window.__obj = null }"}),
            ("web_requestGC", {}),
        ),
        observe="() => window.__ref.deref() === undefined",
        expected=True,
    ),
    # --- media and output -----------------------------------------------------------------------
    Case(
        "page-emulate-media",
        (
            (
                "web_emulateMedia",
                {"media": "print", "colorScheme": "dark", "reducedMotion": "reduce"},
            ),
        ),
        observe="""() => [matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches,
            matchMedia('(prefers-reduced-motion: reduce)').matches]""",
        expected=[True, True, True],
    ),
    # `null` (JSON) switches the emulation off again.
    Case(
        "page-emulate-media-reset",
        (
            ("web_emulateMedia", {"media": "print"}),
            ("web_emulateMedia", {"media": None}),
        ),
        observe="() => [matchMedia('print').matches, matchMedia('screen').matches]",
        expected=[False, True],
    ),
    Case(
        "page-screenshot-clip",
        (
            (
                "web_screenshot",
                {"clip": {"x": 0, "y": 0, "width": 50, "height": 20}, "scale": "css"},
            ),
        ),
        check=lambda r: _png_size(r) == (50, 20),
    ),
    Case(
        "page-screenshot-full-page",
        (("web_screenshot", {"fullPage": True, "animations": "disabled", "caret": "hide"}),),
        html='<div style="height:1500px">tall</div>',
        check=lambda r: _png_size(r) == (1280, 1516),
    ),
    Case(
        "page-screenshot-jpeg",
        (
            (
                "web_screenshot",
                {
                    "type": "jpeg",
                    "quality": 50,
                    "clip": {"x": 0, "y": 0, "width": 30, "height": 10},
                },
            ),
        ),
        check=lambda r: _decoded(r).startswith(b"\xff\xd8\xff"),
    ),
    Case(
        "page-pdf-landscape",
        (("web_pdf", {"format": "A5", "landscape": True, "margin": {"top": "1cm"}}),),
        check=_pdf_is_landscape,
    ),
    # --- live objects and no-effect calls -------------------------------------------------------
    # Locator for each getBy*/locator tool: the handle of the Locator Python builds alike.
    Case(
        "page-get-by-alt-text",
        (("web_getByAltText", {"text": "logo", "exact": True}),),
        html='<img alt="logo" src="data:,">',
        same_as=lambda p: p.get_by_alt_text("logo", exact=True),
    ),
    Case(
        "page-get-by-label",
        (("web_getByLabel", {"text": "Name"}),),
        html='<label>Name <input id="n"></label>',
        same_as=lambda p: p.get_by_label("Name"),
    ),
    Case(
        "page-get-by-placeholder",
        (("web_getByPlaceholder", {"text": "your name", "exact": False}),),
        html='<input placeholder="Your name">',
        same_as=lambda p: p.get_by_placeholder("your name", exact=False),
    ),
    Case(
        "page-get-by-role",
        (("web_getByRole", {"role": "heading", "name": "Hello", "level": 1, "exact": True}),),
        same_as=lambda p: p.get_by_role("heading", name="Hello", level=1, exact=True),
    ),
    Case(
        "page-get-by-test-id",
        (("web_getByTestId", {"testId": "t1"}),),
        html='<p data-testid="t1">x</p>',
        same_as=lambda p: p.get_by_test_id("t1"),
    ),
    Case(
        "page-get-by-text",
        (("web_getByText", {"text": "one", "exact": True}),),
        same_as=lambda p: p.get_by_text("one", exact=True),
    ),
    Case(
        "page-get-by-title",
        (("web_getByTitle", {"text": "tip"}),),
        html='<span title="tip">x</span>',
        same_as=lambda p: p.get_by_title("tip"),
    ),
    Case(
        "page-locator",
        (("web_locator", {"selector": ".item", "hasText": "two", "hasNotText": "one"}),),
        same_as=lambda p: p.locator(".item", has_text="two", has_not_text="one"),
    ),
    # These change nothing a page can see: the single page is in front already and no highlight
    # is active.
    Case(
        "page-bring-to-front",
        (("web_bringToFront", {}),),
        observe="() => document.visibilityState",
        expected="visible",
    ),
    Case("page-hide-highlight", (("web_hideHighlight", {}),)),
)

# Any-JSON results follow JavaScript's JSON.stringify: a Date is its ISO string, a URL its href,
# NaN and the infinities null.
CASES += (
    Case(
        "page-tap",
        (("web_tap", {"selector": "#go", "position": {"x": 2, "y": 2}}),),
        observe=_text_of("#go"),
        expected="clicked",
        touch=True,
    ),
    Case(
        "page-evaluate-date",
        (("web_evaluate", {"script": "new Date(Date.UTC(2020, 0, 2, 3, 4, 5))"}),),
        returns="2020-01-02T03:04:05.000Z",
    ),
    Case(
        "page-eval-on-selector-date",
        (
            (
                "web_evalOnSelector",
                {"selector": "#title", "expression": "e => new Date(Date.UTC(2020, 0, 2))"},
            ),
        ),
        returns="2020-01-02T00:00:00.000Z",
    ),
    Case(
        "page-evaluate-url",
        (("web_evaluate", {"script": "new URL('/a?b=1', 'http://x.test')"}),),
        returns="http://x.test/a?b=1",
    ),
    Case(
        "page-evaluate-not-finite",
        (("web_evaluate", {"script": "[NaN, Infinity, -Infinity, 1.5, {a: NaN}]"}),),
        returns=[None, None, None, 1.5, {"a": None}],
    ),
    Case(
        "page-navigate",
        (("web_navigate", {"url": "{origin}/after/page-navigate", "waitUntil": "load"}),),
        check=lambda r: (
            isinstance(r, dict)
            and r["status"] == 200
            and r["ok"] is True
            and r["statusText"] == "OK"
            and r["url"].endswith("/after/page-navigate")
        ),
        observe="() => document.title",
        expected="after",
    ),
    Case(
        "page-navigate-data-url",
        (("web_navigate", {"url": "data:text/html,<title>inline</title>"}),),
        observe="() => document.title",
        expected="inline",
    ),
)

# Each tool once with only its required arguments, so every optional argument's absence is
# exercised: the row checks what Playwright's default does (the rows above pass the options).
CASES += (
    # Playwright needs one of url, path or content, which the schema does not say: the bare call
    # fails as a tool error and adds nothing to the page.
    Case(
        "page-add-script-tag-bare",
        (("web_addScriptTag", {}),),
        raises=("playwright_error", "Provide an object with a `url`, `path` or `content`"),
        observe="() => document.scripts.length",
        expected=0,
    ),
    Case(
        "page-add-style-tag-bare",
        (("web_addStyleTag", {}),),
        raises=("playwright_error", "Provide an object with a `url`, `path` or `content`"),
        observe="() => document.styleSheets.length",
        expected=0,
    ),
    # The default waitUntil is `load`: the slow image has arrived when the tool returns (with
    # `domcontentloaded` or `commit` the document would still be loading).
    Case(
        "page-set-content-bare",
        (
            ("web_setContent", {"html": f"<title>replaced</title><img src='{SLOW_PATH}'>"}),
            (
                "web_evaluate",
                {"script": "[document.title, document.readyState, document.images[0].complete]"},
            ),
        ),
        returns=["replaced", "complete", True],
    ),
    Case(
        "page-input-value-bare",
        (
            ("web_evaluate", {"script": "document.querySelector('#name').value = 'typed'"}),
            ("web_inputValue", {"selector": "#name"}),
        ),
        returns="typed",
    ),
    Case(
        "page-eval-on-selector-all-bare",
        (
            (
                "web_evalOnSelectorAll",
                {"selector": ".item", "expression": "els => els.map(e => e.textContent)"},
            ),
        ),
        returns=["one", "two"],
    ),
    # No modifier is held when none is given.
    Case(
        "page-hover-bare",
        (("web_hover", {"selector": "#h"}),),
        html='<div id="h" onmouseenter="this.textContent = \'hovered \' + event.altKey">x</div>',
        observe=_text_of("#h"),
        expected="hovered false",
    ),
    Case(
        "page-dispatch-event-bare",
        (("web_dispatchEvent", {"selector": "#go", "type": "click"}),),
        observe=_text_of("#go"),
        expected="clicked",
    ),
    Case(
        "page-drag-and-drop-bare",
        (("web_dragAndDrop", {"source": "#src", "target": "#dst"}),),
        html=DRAG_HTML,
        observe=_text_of("#dst"),
        expected="dropped",
    ),
    Case(
        "page-type-bare",
        (("web_type", {"selector": "#e", "text": "xy"}),),
        html='<input id="e" onkeydown="window.__keys = (window.__keys || 0) + 1">',
        observe="() => [document.querySelector('#e').value, window.__keys]",
        expected=["xy", 2],
    ),
    Case(
        "page-tap-bare",
        (("web_tap", {"selector": "#go"}),),
        observe=_text_of("#go"),
        expected="clicked",
        touch=True,
    ),
    Case(
        "page-go-forward-bare",
        (
            ("web_click", {"selector": "#next"}),
            # The click only starts the navigation; history moves once it has committed.
            ("web_waitForURL", {"url": "**/after/page-go-forward-bare"}),
            ("web_goBack", {}),
            ("web_goForward", {}),
        ),
        html=LINK_HTML.format("/after/page-go-forward-bare"),
        check=_response_for("/after/page-go-forward-bare"),
        observe="() => document.title",
        expected="after",
    ),
    # The navigation returns at commit; the tool's default state (`load`) waits for the slow image,
    # which `domcontentloaded` would not, so the page is complete when the next step reads it.
    Case(
        "page-wait-for-load-state-bare",
        (
            (
                "web_navigate",
                {"url": "{origin}/case/page-wait-for-load-state-bare?again", "waitUntil": "commit"},
            ),
            ("web_waitForLoadState", {}),
            ("web_evaluate", {"script": "[location.search, document.readyState]"}),
        ),
        html=f"<title>waiting</title><img src='{SLOW_PATH}'>",
        returns=["?again", "complete"],
    ),
    # An absent option leaves the emulation as it was (unlike `null`, which switches it off).
    Case(
        "page-emulate-media-bare",
        (
            ("web_emulateMedia", {"media": "print", "colorScheme": "dark"}),
            ("web_emulateMedia", {}),
        ),
        observe="() => [matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches]",
        expected=[True, True],
    ),
    # The viewport (1280 x 720 in a new context), not the full page.
    Case(
        "page-screenshot-bare",
        (("web_screenshot", {}),),
        html='<div style="height:1500px">tall</div>',
        check=lambda r: _png_size(r) == (1280, 720),
    ),
    # Letter, portrait: 8.5 x 11 inches in points.
    Case("page-pdf-bare", (("web_pdf", {}),), check=lambda r: _pdf_page_size(r) == (612.0, 792.0)),
    Case(
        "page-close-bare",
        (("web_close", {}), ("web_isClosed", {})),
        returns=True,
    ),
    # Locator handles: an absent `exact` is a case-insensitive substring match.
    Case(
        "page-get-by-alt-text-bare",
        (("web_getByAltText", {"text": "LOG"}),),
        html='<img alt="logo" src="data:,"><img alt="other" src="data:,">',
        same_as=lambda p: p.get_by_alt_text("LOG"),
    ),
    Case(
        "page-get-by-placeholder-bare",
        (("web_getByPlaceholder", {"text": "your"}),),
        html='<input placeholder="Your name"><input placeholder="other">',
        same_as=lambda p: p.get_by_placeholder("your"),
    ),
    Case(
        "page-get-by-text-bare",
        (("web_getByText", {"text": "TW"}),),
        same_as=lambda p: p.get_by_text("TW"),
    ),
    Case(
        "page-locator-bare",
        (("web_locator", {"selector": ".item"}),),
        same_as=lambda p: p.locator(".item"),
    ),
)
