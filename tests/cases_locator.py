"""Browser cases for `web_locator_*` tools (Locator methods). See e2e_cases.py for the row format.

Every Locator tool runs on `page.locator(selector)`, so `selector` is always the first argument.
Tools whose Java method returns a live object (a Locator, FrameLocator, ElementHandle, JSHandle)
return nothing by design; their rows pass every optional argument (so a wrong keyword mapping
raises) and assert `returns=None`, plus an observable effect where the method has one.
"""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from conftest import SLOW_PATH
from e2e_cases import Case

THIS_FILE = str(Path(__file__).resolve())

ITEMS_HTML = """<!doctype html><title>items</title>
<ul id="list"><li class="item">one</li><li class="item">two <span style="display:none">hidden</span></li></ul>
<p id="mixed">a<span style="display:none">hidden</span>b</p>"""

FORM_HTML = """<!doctype html><title>form</title>
<input id="name" value="initial">
<input id="ro" value="fixed" readonly>
<input id="empty" onkeydown="this.dataset.keys = (this.dataset.keys || '') + event.key + ','">
<input type="checkbox" id="off">
<input type="checkbox" id="on" checked>
<button id="go">Go</button>
<button id="dead" disabled>Dead</button>
<div id="gone" style="display:none">gone</div>
<div id="box" style="position:absolute; left:10px; top:200px; width:100px; height:50px"></div>"""

# Observations on FORM_HTML: what was typed into #empty (value, keydown keys); both checkboxes.
TYPED = "() => (e => [e.value, e.dataset.keys])(document.getElementById('empty'))"
BOTH_CHECKED = "() => ['off', 'on'].map(id => document.getElementById(id).checked)"

BOX_HTML = """<!doctype html><title>box</title>
<style>body { margin: 0 } #box { width: 40px; height: 40px; background: rgb(255, 255, 255) }</style>
<div id="box"></div>"""

WAIT_HTML = """<!doctype html><title>wait</title>
<p id="status">pending</p>
<div id="later" style="display:none">later</div>
<div id="doomed">doomed</div>
<script>
setTimeout(() => {
  document.getElementById('status').textContent = 'done';
  document.getElementById('later').style.display = 'block';
  document.getElementById('doomed').remove();
  document.body.insertAdjacentHTML('beforeend', '<p id="late">late</p>');
}, 150);
</script>"""

DROP_HTML = """<!doctype html><title>drop</title>
<div id="zone" style="width:200px; height:100px">drop here</div>
<script>
const zone = document.getElementById('zone');
zone.addEventListener('dragover', e => e.preventDefault());
zone.addEventListener('drop', e => {
  e.preventDefault();
  const files = [...e.dataTransfer.files].map(f => f.name + ':' + f.size);
  zone.dataset.got = JSON.stringify({text: e.dataTransfer.getData('text/plain'), files});
});
</script>"""

SELECT_HTML = """<!doctype html><title>select</title>
<select id="color" onchange="document.body.dataset.changed = this.value">
  <option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option>
</select>
<select id="many" multiple>
  <option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option>
</select>"""

FILE_HTML = """<!doctype html><title>files</title>
<input type="file" id="file"><input type="file" id="files" multiple>"""

GET_BY_HTML = """<!doctype html><title>get-by</title>
<section id="scope">
  <img alt="Logo" src="data:,">
  <label for="email">Email</label><input id="email" placeholder="you@example.com">
  <span title="Tip">?</span><div data-testid="target">t</div>
  <h2>Heading</h2><button>Go</button>
</section>"""


def _png_rgb(encoded: object, x: int, y: int) -> tuple[int, ...]:
    """The RGB of pixel (x, y) in a base64 PNG (8-bit RGB/RGBA, as Chromium writes them)."""
    assert isinstance(encoded, str)
    png = base64.b64decode(encoded)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, bpp = 8, b"", 0, 0, 0
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", data[:10])
            assert depth == 8 and color in (2, 6)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += data
    raw, stride = zlib.decompress(idat), width * bpp
    prev = bytearray(stride)
    for row in range(y + 1):
        start = row * (stride + 1)
        kind_, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if kind_ == 1:
                line[i] = (line[i] + a) & 255
            elif kind_ == 2:
                line[i] = (line[i] + b) & 255
            elif kind_ == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind_ == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
    assert 0 <= x < width and y < height
    return tuple(prev[x * bpp : x * bpp + 3])


def _files_of(input_id: str) -> str:
    """JS that lists an <input type=file>'s files as name:type:content."""
    return f"""async () => Promise.all([...document.getElementById('{input_id}').files].map(
  async f => f.name + ':' + f.type + ':' + await f.text()))"""


def _is_png(result: object) -> bool:
    return isinstance(result, str) and base64.b64decode(result).startswith(b"\x89PNG\r\n\x1a\n")


def _is_jpeg(result: object) -> bool:
    return isinstance(result, str) and base64.b64decode(result).startswith(b"\xff\xd8\xff")


CASES: tuple[Case, ...] = (
    # --- actions --------------------------------------------------------------------------------
    Case(
        "locator-click",
        (("web_locator_click", {"selector": "#go"}),),
        observe="() => document.getElementById('go').textContent",
        expected="clicked",
    ),
    Case(
        "locator-click-options",
        (
            (
                "web_locator_click",
                {
                    "selector": "#pad",
                    "modifiers": ["Shift"],
                    "position": {"x": 7, "y": 9},
                    "clickCount": 2,
                    "delay": 5,
                    "steps": 2,
                    "noWaitAfter": True,
                    "timeout": 15000,
                },
            ),
        ),
        html="""<!doctype html><body style="margin:0">
<div id="pad" style="width:100px; height:100px"
  onclick="this.textContent = [event.shiftKey, event.offsetX, event.offsetY, event.detail].join()">
</div>""",
        observe="() => document.getElementById('pad').textContent",
        expected="true,7,9,2",
    ),
    Case(
        "locator-dblclick",
        (("web_locator_dblclick", {"selector": "#go", "position": {"x": 3, "y": 4}, "delay": 5}),),
        html="""<!doctype html>
<button id="go" ondblclick="this.textContent = 'double ' + event.detail">Go</button>""",
        observe="() => document.getElementById('go').textContent",
        expected="double 2",
    ),
    Case(
        "locator-dispatchEvent-click",
        (("web_locator_dispatchEvent", {"selector": "#go", "type": "click"}),),
        observe="() => document.getElementById('go').textContent",
        expected="clicked",
    ),
    Case(
        "locator-dispatchEvent-init",
        (
            (
                "web_locator_dispatchEvent",
                {
                    "selector": "#k",
                    "type": "keydown",
                    "eventInit": {"key": "Q", "shiftKey": True},
                    "timeout": 15000,
                },
            ),
        ),
        html="""<!doctype html>
<input id="k" onkeydown="this.dataset.got = event.constructor.name + ':' + event.key + ':' + event.shiftKey">""",
        observe="() => document.getElementById('k').dataset.got",
        expected="KeyboardEvent:Q:true",
    ),
    Case(
        "locator-hover",
        (("web_locator_hover", {"selector": "#box", "position": {"x": 5, "y": 5}}),),
        html="""<!doctype html><style>#box:hover { background-color: rgb(0, 128, 0) }</style>
<div id="box" style="width:80px; height:40px" onmouseover="this.dataset.over = 'yes'"></div>""",
        observe="""() => { const b = document.getElementById('box');
  return [b.matches(':hover'), getComputedStyle(b).backgroundColor, b.dataset.over]; }""",
        expected=[True, "rgb(0, 128, 0)", "yes"],
    ),
    Case(
        "locator-focus",
        (("web_locator_focus", {"selector": "#name", "timeout": 15000}),),
        observe="() => document.activeElement.id",
        expected="name",
    ),
    Case(
        "locator-blur",
        (
            ("web_locator_focus", {"selector": "#name"}),
            ("web_locator_blur", {"selector": "#name", "timeout": 15000}),
        ),
        html="""<!doctype html><input id="name" onblur="this.dataset.blurred = 'yes'">""",
        observe="""() => [document.activeElement === document.body,
  document.getElementById('name').dataset.blurred]""",
        expected=[True, "yes"],
    ),
    Case(
        "locator-fill",
        (("web_locator_fill", {"selector": "#name", "value": "typed by fill", "timeout": 15000}),),
        observe="() => document.getElementById('name').value",
        expected="typed by fill",
    ),
    Case(
        "locator-clear",
        (("web_locator_clear", {"selector": "#name", "timeout": 15000}),),
        html="""<!doctype html>
<input id="name" value="initial" oninput="this.dataset.events = +(this.dataset.events || 0) + 1">""",
        observe="() => [document.getElementById('name').value, document.getElementById('name').dataset.events]",
        expected=["", "1"],
    ),
    Case(
        "locator-press",
        (("web_locator_press", {"selector": "#empty", "key": "Shift+KeyA", "delay": 5}),),
        html=FORM_HTML,
        observe=TYPED,
        expected=["A", "Shift,A,"],
    ),
    Case(
        "locator-pressSequentially",
        (("web_locator_pressSequentially", {"selector": "#empty", "text": "abc", "delay": 5}),),
        html=FORM_HTML,
        observe=TYPED,
        expected=["abc", "a,b,c,"],
    ),
    Case(
        "locator-type",
        (("web_locator_type", {"selector": "#empty", "text": "xyz", "timeout": 15000}),),
        html=FORM_HTML,
        observe=TYPED,
        expected=["xyz", "x,y,z,"],
    ),
    Case(
        "locator-check",
        (("web_locator_check", {"selector": "#off", "timeout": 15000}),),
        html=FORM_HTML,
        observe="() => document.getElementById('off').checked",
        expected=True,
    ),
    Case(
        "locator-check-trial",
        (("web_locator_check", {"selector": "#off", "trial": True}),),
        html=FORM_HTML,
        observe="() => document.getElementById('off').checked",
        expected=False,
    ),
    Case(
        "locator-uncheck",
        (("web_locator_uncheck", {"selector": "#on", "timeout": 15000}),),
        html=FORM_HTML,
        observe="() => document.getElementById('on').checked",
        expected=False,
    ),
    Case(
        "locator-setChecked-true",
        (("web_locator_setChecked", {"selector": "#off", "checked": True}),),
        html=FORM_HTML,
        observe=BOTH_CHECKED,
        expected=[True, True],
    ),
    Case(
        "locator-setChecked-false",
        (("web_locator_setChecked", {"selector": "#on", "checked": False, "force": True}),),
        html=FORM_HTML,
        observe=BOTH_CHECKED,
        expected=[False, False],
    ),
    Case(
        "locator-selectText-paragraph",
        (("web_locator_selectText", {"selector": "#para", "timeout": 15000}),),
        html="""<!doctype html><p id="para">select me</p><p>not me</p>""",
        observe="() => window.getSelection().toString()",
        expected="select me",
    ),
    Case(
        "locator-selectText-input",
        (("web_locator_selectText", {"selector": "#name", "force": True}),),
        observe="""() => { const i = document.getElementById('name');
  return [document.activeElement === i, i.selectionStart, i.selectionEnd]; }""",
        expected=[True, 0, 7],
    ),
    Case(
        "locator-scrollIntoViewIfNeeded",
        (("web_locator_scrollIntoViewIfNeeded", {"selector": "#far", "timeout": 15000}),),
        html="""<!doctype html><div style="height:3000px">spacer</div><p id="far">far away</p>
<div style="height:3000px">spacer</div>""",
        observe="""() => { const r = document.getElementById('far').getBoundingClientRect();
  return [scrollY > 2000, r.top >= 0 && r.bottom <= innerHeight]; }""",
        expected=[True, True],
    ),
    Case(
        "locator-drop-data",
        (
            (
                "web_locator_drop",
                {"selector": "#zone", "payload": {"data": {"text/plain": "dropped text"}}},
            ),
        ),
        html=DROP_HTML,
        observe="() => JSON.parse(document.getElementById('zone').dataset.got)",
        expected={"text": "dropped text", "files": []},
    ),
    Case(
        "locator-drop-file-path",
        (
            (
                "web_locator_drop",
                {
                    "selector": "#zone",
                    "payload": {"files": THIS_FILE, "data": {"text/plain": "with file"}},
                    "position": {"x": 10, "y": 10},
                    "timeout": 15000,
                },
            ),
        ),
        html=DROP_HTML,
        observe="() => JSON.parse(document.getElementById('zone').dataset.got).files[0].split(':')[0]",
        expected="cases_locator.py",
    ),
    Case(
        "locator-dragTo",
        (
            (
                "web_locator_dragTo",
                {
                    "selector": "#src",
                    "target": "#dst",
                    "sourcePosition": {"x": 5, "y": 5},
                    "targetPosition": {"x": 20, "y": 10},
                    "steps": 3,
                    "timeout": 15000,
                },
            ),
        ),
        # Mouse-driven drag (not HTML5 draggable, whose drop is timing-sensitive in headless runs):
        # pressed on #src at (5, 5), released on #dst at (20, 10), with at least `steps` moves.
        html="""<!doctype html><body style="margin:0">
<div id="src" style="width:50px; height:30px">src</div>
<div id="dst" style="width:100px; height:60px; margin-top:40px">dst</div>
<script>
const log = {moves: 0};
addEventListener('mousedown', e => { log.down = e.target.id + '@' + e.offsetX + ',' + e.offsetY; });
addEventListener('mousemove', e => { if (log.down) log.moves++; });
addEventListener('mouseup', e => { log.up = e.target.id + '@' + e.offsetX + ',' + e.offsetY; });
</script>""",
        observe="() => [log.down, log.up, log.moves >= 3]",
        expected=["src@5,5", "dst@20,10", True],
    ),
    Case(
        "locator-dragTo-trial",
        (("web_locator_dragTo", {"selector": "#src", "target": "#dst", "trial": True}),),
        html="""<!doctype html>
<div id="src" onmousedown="document.body.dataset.pressed = 'yes'">src</div>
<div id="dst" style="margin-top:40px">dst</div>""",
        observe="() => 'pressed' in document.body.dataset",
        expected=False,
    ),
    Case(
        "locator-selectOption-value",
        (("web_locator_selectOption", {"selector": "#color", "values": "g", "timeout": 15000}),),
        html=SELECT_HTML,
        returns=["g"],
        observe="() => [document.getElementById('color').value, document.body.dataset.changed]",
        expected=["g", "g"],
    ),
    Case(
        "locator-selectOption-multiple",
        # A string matches an option's value ("r") or its label ("Blue").
        (
            (
                "web_locator_selectOption",
                {"selector": "#many", "values": ["r", "Blue"], "force": True},
            ),
        ),
        html=SELECT_HTML,
        returns=["r", "b"],
        observe="() => [...document.getElementById('many').selectedOptions].map(o => o.value)",
        expected=["r", "b"],
    ),
    Case(
        "locator-selectOption-by-value",
        (("web_locator_selectOption", {"selector": "#color", "values": {"value": "b"}}),),
        html=SELECT_HTML,
        returns=["b"],
        observe="() => [document.getElementById('color').value, document.body.dataset.changed]",
        expected=["b", "b"],
    ),
    Case(
        "locator-selectOption-objects",
        (
            (
                "web_locator_selectOption",
                {"selector": "#many", "values": [{"index": 1}, {"label": "Blue"}]},
            ),
        ),
        html=SELECT_HTML,
        returns=["g", "b"],
        observe="() => [...document.getElementById('many').selectedOptions].map(o => o.value)",
        expected=["g", "b"],
    ),
    Case(
        "locator-setInputFiles",
        (
            (
                "web_locator_setInputFiles",
                {
                    "selector": "#file",
                    "files": {"name": "note.txt", "mimeType": "text/plain", "buffer": "aGVsbG8="},
                    "timeout": 15000,
                },
            ),
        ),
        html=FILE_HTML,
        observe=_files_of("file"),
        expected=["note.txt:text/plain:hello"],
    ),
    Case(
        "locator-setInputFiles-list",
        (
            (
                "web_locator_setInputFiles",
                {
                    "selector": "#files",
                    "files": [
                        {"name": "a.txt", "mimeType": "text/plain", "buffer": "YQ=="},
                        {"name": "b.csv", "mimeType": "text/csv", "buffer": "eCx5"},
                    ],
                },
            ),
        ),
        html=FILE_HTML,
        observe=_files_of("files"),
        expected=["a.txt:text/plain:a", "b.csv:text/csv:x,y"],
    ),
    # --- reads: strings, lists, numbers, booleans ---------------------------------------------
    Case(
        "locator-textContent",
        (("web_locator_textContent", {"selector": "#title"}),),
        returns="Hello",
    ),
    Case(
        "locator-innerText",
        (("web_locator_innerText", {"selector": "#mixed", "timeout": 15000}),),
        html=ITEMS_HTML,
        returns="ab",
    ),
    Case(
        "locator-innerHTML",
        (("web_locator_innerHTML", {"selector": "#rich", "timeout": 15000}),),
        html="""<!doctype html><div id="rich"><b>bold</b> &amp; plain</div>""",
        returns="<b>bold</b> &amp; plain",
    ),
    Case(
        "locator-inputValue",
        (("web_locator_inputValue", {"selector": "#name", "timeout": 15000}),),
        returns="initial",
    ),
    Case(
        "locator-getAttribute",
        (("web_locator_getAttribute", {"selector": "#name", "name": "value", "timeout": 15000}),),
        returns="initial",
    ),
    Case(
        "locator-getAttribute-missing",
        (("web_locator_getAttribute", {"selector": "#name", "name": "placeholder"}),),
        returns=None,
    ),
    Case(
        "locator-allTextContents",
        (("web_locator_allTextContents", {"selector": ".item"}),),
        html=ITEMS_HTML,
        returns=["one", "two hidden"],
    ),
    Case(
        "locator-allInnerTexts",
        (("web_locator_allInnerTexts", {"selector": ".item"}),),
        html=ITEMS_HTML,
        returns=["one", "two"],
    ),
    Case("locator-count", (("web_locator_count", {"selector": ".item"}),), returns=2),
    Case("locator-count-zero", (("web_locator_count", {"selector": ".missing"}),), returns=0),
    Case(
        "locator-isChecked-true",
        (("web_locator_isChecked", {"selector": "#on", "timeout": 15000}),),
        html=FORM_HTML,
        returns=True,
    ),
    Case(
        "locator-isChecked-false",
        (("web_locator_isChecked", {"selector": "#off"}),),
        html=FORM_HTML,
        returns=False,
    ),
    Case(
        "locator-isDisabled-true",
        (("web_locator_isDisabled", {"selector": "#dead", "timeout": 15000}),),
        html=FORM_HTML,
        returns=True,
    ),
    Case(
        "locator-isDisabled-false",
        (("web_locator_isDisabled", {"selector": "#go"}),),
        html=FORM_HTML,
        returns=False,
    ),
    Case(
        "locator-isEnabled-true",
        (("web_locator_isEnabled", {"selector": "#go", "timeout": 15000}),),
        html=FORM_HTML,
        returns=True,
    ),
    Case(
        "locator-isEnabled-false",
        (("web_locator_isEnabled", {"selector": "#dead"}),),
        html=FORM_HTML,
        returns=False,
    ),
    Case(
        "locator-isEditable-true",
        (("web_locator_isEditable", {"selector": "#name", "timeout": 15000}),),
        html=FORM_HTML,
        returns=True,
    ),
    Case(
        "locator-isEditable-false",
        (("web_locator_isEditable", {"selector": "#ro"}),),
        html=FORM_HTML,
        returns=False,
    ),
    Case(
        "locator-isVisible-true",
        (("web_locator_isVisible", {"selector": "#go", "timeout": 15000}),),
        html=FORM_HTML,
        returns=True,
    ),
    Case(
        "locator-isVisible-false",
        (("web_locator_isVisible", {"selector": "#gone"}),),
        html=FORM_HTML,
        returns=False,
    ),
    Case(
        "locator-isHidden-true",
        (("web_locator_isHidden", {"selector": "#gone", "timeout": 15000}),),
        html=FORM_HTML,
        returns=True,
    ),
    Case(
        "locator-isHidden-false",
        (("web_locator_isHidden", {"selector": "#go"}),),
        html=FORM_HTML,
        returns=False,
    ),
    Case(
        "locator-boundingBox",
        (("web_locator_boundingBox", {"selector": "#box", "timeout": 15000}),),
        html=FORM_HTML,
        returns={"x": 10, "y": 200, "width": 100, "height": 50},
    ),
    Case(
        "locator-boundingBox-hidden",
        (("web_locator_boundingBox", {"selector": "#gone"}),),
        html=FORM_HTML,
        returns=None,
    ),
    Case(
        "locator-ariaSnapshot",
        (("web_locator_ariaSnapshot", {"selector": "#go"}),),
        returns='- button "Go"',
    ),
    Case(
        "locator-ariaSnapshot-options",
        # depth 1 stops at the top list's items; ai mode adds refs; boxes adds [box=x,y,w,h]
        # (the list's box includes its 40px default left padding; its height depends on the font).
        (
            (
                "web_locator_ariaSnapshot",
                {"selector": "#list", "depth": 1, "mode": "ai", "boxes": True, "timeout": 15000},
            ),
        ),
        html="""<!doctype html><body style="margin:0">
<ul id="list" style="position:absolute; left:5px; top:6px; width:70px; margin:0">
  <li>top<ul><li>deep item</li></ul></li>
</ul>""",
        check=lambda r: (
            isinstance(r, str)
            and r.startswith("- list [ref=e1] [box=5,6,110,")
            and "\n  - listitem [ref=e2] [box=45,6,70," in r
            and "deep item" not in r
            and "top" not in r
        ),
    ),
    Case(
        "locator-screenshot",
        # `style` is applied while shooting: the white box comes out red.
        (
            (
                "web_locator_screenshot",
                {
                    "selector": "#box",
                    "style": "#box { background: rgb(255, 0, 0) !important }",
                    "scale": "css",
                    "animations": "disabled",
                    "caret": "hide",
                    "omitBackground": False,
                    "type": "png",
                    "timeout": 15000,
                },
            ),
        ),
        html=BOX_HTML,
        check=lambda r: _is_png(r) and _png_rgb(r, 20, 20) == (255, 0, 0),
    ),
    Case(
        "locator-screenshot-jpeg",
        (("web_locator_screenshot", {"selector": "#box", "type": "jpeg", "quality": 50}),),
        html=BOX_HTML,
        check=_is_jpeg,
    ),
    Case(
        "locator-page",
        (("web_locator_page", {"selector": "#go"}),),
        check=lambda r: (
            isinstance(r, dict)
            and set(r) == {"url"}
            and str(r["url"]).startswith("http://127.0.0.1:")
            and str(r["url"]).endswith("/case/locator-page")
        ),
    ),
    Case(
        "locator-description",
        # Locator.describe() appends `>> internal:describe="..."` to the selector; description
        # reads it back, so a described selector is the way to reach a non-null description.
        (("web_locator_description", {"selector": '#go >> internal:describe="The Go button"'}),),
        returns="The Go button",
    ),
    Case(
        "locator-description-none",
        (("web_locator_description", {"selector": "#go"}),),
        returns=None,
    ),
    # --- evaluation -----------------------------------------------------------------------------
    Case(
        "locator-evaluate",
        (
            (
                "web_locator_evaluate",
                {
                    "selector": "#name",
                    "expression": "(el, o) => ({tag: el.tagName, value: el.value, n: o.n * 2})",
                    "arg": {"n": 21},
                },
            ),
        ),
        returns={"tag": "INPUT", "value": "initial", "n": 42},
    ),
    Case(
        "locator-evaluateAll",
        (
            (
                "web_locator_evaluateAll",
                {
                    "selector": ".item",
                    "expression": "(els, sep) => els.map(e => e.textContent).join(sep)",
                    "arg": " | ",
                },
            ),
        ),
        returns="one | two",
    ),
    # --- waiting --------------------------------------------------------------------------------
    Case(
        "locator-waitFor-visible",
        # #later is shown 150 ms after load: the observation proves the tool waited.
        (("web_locator_waitFor", {"selector": "#later", "state": "visible", "timeout": 15000}),),
        html=WAIT_HTML,
        returns=None,
        observe="() => getComputedStyle(document.getElementById('later')).display",
        expected="block",
    ),
    Case(
        "locator-waitFor-detached",
        (("web_locator_waitFor", {"selector": "#doomed", "state": "detached", "timeout": 15000}),),
        html=WAIT_HTML,
        returns=None,
        observe="() => document.getElementById('doomed') === null",
        expected=True,
    ),
    Case(
        "locator-waitFor-attached-hidden",
        # The default state (visible) would time out on a display:none element; attached does not.
        (("web_locator_waitFor", {"selector": "#gone", "state": "attached", "timeout": 15000}),),
        html=FORM_HTML,
        returns=None,
    ),
    Case(
        "locator-waitForFunction",
        # #status turns 'done' 150 ms after load: the observation proves the tool waited.
        (
            (
                "web_locator_waitForFunction",
                {
                    "selector": "#status",
                    "expression": "(el, want) => el.textContent === want",
                    "arg": "done",
                    "timeout": 15000,
                },
            ),
        ),
        html=WAIT_HTML,
        returns=None,
        observe="() => document.getElementById('status').textContent",
        expected="done",
    ),
    # --- highlight ------------------------------------------------------------------------------
    Case(
        "locator-highlight",
        # Returns nothing by design; the overlay (Playwright's glass pane) is put up.
        (("web_locator_highlight", {"selector": "#box", "style": "outline: 2px solid red"}),),
        html=BOX_HTML,
        returns=None,
        observe="() => !!document.querySelector('x-pw-glass')?.matches(':popover-open')",
        expected=True,
    ),
    Case(
        "locator-highlight-style-pixel",
        # The overlay lives in a closed shadow root, so look at it: with `style` painting it blue,
        # the white box shoots blue.
        (
            ("web_locator_highlight", {"selector": "#box", "style": "background: rgb(0, 0, 255)"}),
            ("web_locator_screenshot", {"selector": "#box", "scale": "css"}),
        ),
        html=BOX_HTML,
        check=lambda r: _png_rgb(r, 20, 20) == (0, 0, 255),
    ),
    Case(
        "locator-hideHighlight",
        (
            ("web_locator_highlight", {"selector": "#box"}),
            ("web_locator_hideHighlight", {"selector": "#box"}),
        ),
        html=BOX_HTML,
        returns=None,
    ),
    Case(
        "locator-hideHighlight-pixel",
        # After hideHighlight the blue overlay is gone: the box shoots white again.
        (
            ("web_locator_highlight", {"selector": "#box", "style": "background: rgb(0, 0, 255)"}),
            ("web_locator_hideHighlight", {"selector": "#box"}),
            ("web_locator_screenshot", {"selector": "#box", "scale": "css"}),
        ),
        html=BOX_HTML,
        check=lambda r: _png_rgb(r, 20, 20) == (255, 255, 255),
    ),
    # --- locator builders: each returns the selector handle of the Locator (or FrameLocator)
    # Playwright's Python API builds from the same arguments (`same_as`), which must locate the
    # same elements. Every optional argument is passed so that a wrong keyword mapping shows.
    Case(
        "locator-all",
        (("web_locator_all", {"selector": ".item"}),),
        same_as=lambda p: [p.locator(".item").nth(0), p.locator(".item").nth(1)],
    ),
    Case(
        "locator-first",
        (("web_locator_first", {"selector": ".item"}),),
        same_as=lambda p: p.locator(".item").first,
    ),
    Case(
        "locator-last",
        (("web_locator_last", {"selector": ".item"}),),
        same_as=lambda p: p.locator(".item").last,
    ),
    Case(
        "locator-nth",
        (("web_locator_nth", {"selector": ".item", "index": 1}),),
        same_as=lambda p: p.locator(".item").nth(1),
    ),
    Case(
        "locator-normalize",
        # normalize resolves the selector in the page (it fails on no match): a best-practice one.
        (("web_locator_normalize", {"selector": "#go"}),),
        check=lambda r: isinstance(r, str) and r != "#go",
    ),
    Case(
        "locator-describe",
        (("web_locator_describe", {"selector": "#go", "description": "The Go button"}),),
        same_as=lambda p: p.locator("#go").describe("The Go button"),
    ),
    Case(
        "locator-filter",
        (
            (
                "web_locator_filter",
                {"selector": ".item", "hasText": "one", "hasNotText": "two", "visible": True},
            ),
        ),
        same_as=lambda p: p.locator(".item").filter(
            has_text="one", has_not_text="two", visible=True
        ),
    ),
    Case(
        "locator-locator",
        (
            (
                "web_locator_locator",
                {
                    "selector": "#list",
                    "selectorOrLocator": "li",
                    "hasText": "one",
                    "hasNotText": "two",
                },
            ),
        ),
        html=ITEMS_HTML,
        same_as=lambda p: p.locator("#list").locator("li", has_text="one", has_not_text="two"),
    ),
    Case(
        "locator-and",
        (("web_locator_and", {"selector": "button", "locator": "#go"}),),
        same_as=lambda p: p.locator("button").and_(p.locator("#go")),
    ),
    Case(
        "locator-or",
        (("web_locator_or", {"selector": "#go", "locator": "#name"}),),
        same_as=lambda p: p.locator("#go").or_(p.locator("#name")),
    ),
    Case(
        "locator-contentFrame",
        (("web_locator_contentFrame", {"selector": "#frame"}),),
        html="""<!doctype html><iframe id="frame" srcdoc="<p>inside</p>"></iframe>""",
        same_as=lambda p: p.locator("#frame").content_frame,
    ),
    Case(
        "locator-getByAltText",
        (("web_locator_getByAltText", {"selector": "#scope", "text": "Logo", "exact": True}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_alt_text("Logo", exact=True),
    ),
    Case(
        "locator-getByLabel",
        (("web_locator_getByLabel", {"selector": "#scope", "text": "Email", "exact": False}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_label("Email", exact=False),
    ),
    Case(
        "locator-getByPlaceholder",
        (
            (
                "web_locator_getByPlaceholder",
                {"selector": "#scope", "text": "you@example.com", "exact": True},
            ),
        ),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_placeholder("you@example.com", exact=True),
    ),
    Case(
        "locator-getByRole",
        (
            (
                "web_locator_getByRole",
                {
                    "selector": "#scope",
                    "role": "button",
                    "name": "Go",
                    "exact": True,
                    "checked": False,
                    "description": "",
                    "disabled": False,
                    "expanded": False,
                    "includeHidden": False,
                    "level": 2,
                    "pressed": False,
                    "selected": False,
                },
            ),
        ),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_role(
            "button",
            name="Go",
            exact=True,
            checked=False,
            description="",
            disabled=False,
            expanded=False,
            include_hidden=False,
            level=2,
            pressed=False,
            selected=False,
        ),
        locates=False,  # every option at once: no role supports them all
    ),
    Case(
        "locator-getByTestId",
        (("web_locator_getByTestId", {"selector": "#scope", "testId": "target"}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_test_id("target"),
    ),
    Case(
        "locator-getByText",
        (("web_locator_getByText", {"selector": "#scope", "text": "Heading", "exact": True}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_text("Heading", exact=True),
    ),
    Case(
        "locator-getByTitle",
        (("web_locator_getByTitle", {"selector": "#scope", "text": "Tip", "exact": False}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_title("Tip", exact=False),
    ),
    # --- handles chain: each step's handle is the next step's selector ---------------------------
    Case(
        "locator-handles-chain",
        (
            ("web_getByRole", {"role": "listitem"}),
            ("web_locator_filter", {"selector": "{previous}", "hasText": "two"}),
            ("web_locator_first", {"selector": "{previous}"}),
            ("web_locator_click", {"selector": "{previous}"}),
        ),
        html=(
            '<!doctype html><ul><li onclick="this.dataset.hit = 1">one</li>'
            '<li onclick="this.dataset.hit = 2">two</li></ul>'
        ),
        observe="() => [...document.querySelectorAll('li')].map(li => li.dataset.hit ?? null)",
        expected=[None, "2"],
    ),
    Case(
        # No selector (optional from 1.63): any frame on the page. Its handle chains like the
        # frame locator's own locator(): the any-frame step alone, no frame element to enter
        # (Playwright refuses "internal:control=any-frame >> internal:control=enter-frame >> ...").
        "locator-any-frame-handle-chains",
        (
            ("web_frameLocator", {}),
            ("web_locator_getByLabel", {"selector": "{previous}", "text": "Card"}),
            ("web_locator_fill", {"selector": "{previous}", "value": "4242"}),
        ),
        html=(
            '<!doctype html><p>main</p><iframe id="pay" '
            'srcdoc="<label>Card <input id=inner></label>"></iframe>'
        ),
        observe="() => document.getElementById('pay').contentDocument.getElementById('inner').value",
        expected="4242",
    ),
    Case(
        "locator-handles-chain-into-a-frame",
        (
            ("web_frameLocator", {"selector": "#pay"}),
            ("web_locator_getByLabel", {"selector": "{previous}", "text": "Card"}),
            ("web_locator_fill", {"selector": "{previous}", "value": "4242"}),
        ),
        html=(
            '<!doctype html><label>Card <input id="outer"></label><iframe id="pay" '
            'srcdoc="<label>Card <input id=inner></label>"></iframe>'
        ),
        observe=(
            "() => [document.getElementById('outer').value,"
            " document.getElementById('pay').contentDocument.getElementById('inner').value]"
        ),
        expected=["", "4242"],
    ),
)

# Tapping needs a context that emulates a touch screen.
CASES += (
    Case(
        "locator-tap",
        (("web_locator_tap", {"selector": "#go", "position": {"x": 3, "y": 3}}),),
        html="""<!doctype html>
<button id="go" ontouchstart="this.dataset.touched = 'yes'" onclick="this.textContent = 'tapped'">Go</button>""",
        observe="() => [document.getElementById('go').dataset.touched, document.getElementById('go').textContent]",
        expected=["yes", "tapped"],
        touch=True,
    ),
)

# The page changes when the slow fetch is answered, well after load: a wait that returned early
# would let the next step read it unchanged.
SLOW_WAIT_HTML = f"""<!doctype html><title>wait</title>
<p id="status">pending</p>
<div id="later" style="display:none">later</div>
<script>
fetch('{SLOW_PATH}').then(() => {{
  document.getElementById('status').textContent = 'done';
  document.getElementById('later').style.display = 'block';
}});
</script>"""

# The mouse-driven drag of locator-dragTo, without positions: pressed and released at centres.
DRAG_LOG_HTML = """<!doctype html><body style="margin:0">
<div id="src" style="width:50px; height:30px">src</div>
<div id="dst" style="width:100px; height:60px; margin-top:40px">dst</div>
<script>
const log = {};
addEventListener('mousedown', e => { log.down = e.target.id + '@' + e.offsetX + ',' + e.offsetY; });
addEventListener('mouseup', e => { log.up = e.target.id + '@' + e.offsetX + ',' + e.offsetY; });
</script>"""


def _png_size(result: object) -> tuple[int, int]:
    assert _is_png(result) and isinstance(result, str)
    width, height = struct.unpack(">II", base64.b64decode(result)[16:24])
    return width, height


# Each tool once with only its required arguments, so every optional argument's absence is
# exercised: the row checks what Playwright's default does (the rows above pass the options).
CASES += (
    Case(
        "locator-dblclick-bare",
        (("web_locator_dblclick", {"selector": "#go"}),),
        html="""<!doctype html>
<button id="go" ondblclick="this.textContent = 'double ' + event.detail + ' ' + event.shiftKey">Go</button>""",
        observe="() => document.getElementById('go').textContent",
        expected="double 2 false",
    ),
    # The default position is the element's centre (80 x 40 here).
    Case(
        "locator-hover-bare",
        (("web_locator_hover", {"selector": "#box"}),),
        html="""<!doctype html><div id="box" style="width:80px; height:40px"
  onmouseover="this.dataset.at = event.offsetX + ',' + event.offsetY"></div>""",
        observe="""() => { const b = document.getElementById('box');
  return [b.matches(':hover'), b.dataset.at]; }""",
        expected=[True, "40,20"],
    ),
    Case(
        "locator-blur-bare",
        (
            ("web_locator_focus", {"selector": "#name"}),
            ("web_locator_blur", {"selector": "#name"}),
        ),
        html="""<!doctype html><input id="name" onblur="this.dataset.blurred = 'yes'">""",
        observe="""() => [document.activeElement === document.body,
  document.getElementById('name').dataset.blurred]""",
        expected=[True, "yes"],
    ),
    Case(
        "locator-clear-bare",
        (("web_locator_clear", {"selector": "#name"}),),
        observe="() => document.getElementById('name').value",
        expected="",
    ),
    Case(
        "locator-press-bare",
        (("web_locator_press", {"selector": "#empty", "key": "Shift+KeyB"}),),
        html=FORM_HTML,
        observe=TYPED,
        expected=["B", "Shift,B,"],
    ),
    Case(
        "locator-pressSequentially-bare",
        (("web_locator_pressSequentially", {"selector": "#empty", "text": "hi"}),),
        html=FORM_HTML,
        observe=TYPED,
        expected=["hi", "h,i,"],
    ),
    Case(
        "locator-type-bare",
        (("web_locator_type", {"selector": "#empty", "text": "ok"}),),
        html=FORM_HTML,
        observe=TYPED,
        expected=["ok", "o,k,"],
    ),
    Case(
        "locator-check-bare",
        (("web_locator_check", {"selector": "#off"}),),
        html=FORM_HTML,
        observe=BOTH_CHECKED,
        expected=[True, True],
    ),
    Case(
        "locator-uncheck-bare",
        (("web_locator_uncheck", {"selector": "#on"}),),
        html=FORM_HTML,
        observe=BOTH_CHECKED,
        expected=[False, False],
    ),
    Case(
        "locator-selectText-bare",
        (("web_locator_selectText", {"selector": "#para"}),),
        html="""<!doctype html><p id="para">select me</p><p>not me</p>""",
        observe="() => window.getSelection().toString()",
        expected="select me",
    ),
    Case(
        "locator-scrollIntoViewIfNeeded-bare",
        (("web_locator_scrollIntoViewIfNeeded", {"selector": "#far"}),),
        html="""<!doctype html><div style="height:3000px">spacer</div><p id="far">far away</p>
<div style="height:3000px">spacer</div>""",
        observe="""() => { const r = document.getElementById('far').getBoundingClientRect();
  return [scrollY > 2000, r.top >= 0 && r.bottom <= innerHeight]; }""",
        expected=[True, True],
    ),
    Case(
        "locator-dragTo-bare",
        (("web_locator_dragTo", {"selector": "#src", "target": "#dst"}),),
        html=DRAG_LOG_HTML,
        observe="() => [log.down, log.up]",
        expected=["src@25,15", "dst@50,30"],
    ),
    Case(
        "locator-tap-bare",
        (("web_locator_tap", {"selector": "#go"}),),
        html="""<!doctype html>
<button id="go" ontouchstart="this.dataset.touched = 'yes'" onclick="this.textContent = 'tapped'">Go</button>""",
        observe="() => [document.getElementById('go').dataset.touched, document.getElementById('go').textContent]",
        expected=["yes", "tapped"],
        touch=True,
    ),
    # --- reads ----------------------------------------------------------------------------------
    Case(
        "locator-innerText-bare",
        (("web_locator_innerText", {"selector": "#mixed"}),),
        html=ITEMS_HTML,
        returns="ab",
    ),
    Case(
        "locator-innerHTML-bare",
        (("web_locator_innerHTML", {"selector": "#list"}),),
        html="""<!doctype html><div id="list"><i>it</i> &lt;</div>""",
        returns="<i>it</i> &lt;",
    ),
    Case(
        "locator-inputValue-bare",
        (
            ("web_locator_fill", {"selector": "#name", "value": "changed"}),
            ("web_locator_inputValue", {"selector": "#name"}),
        ),
        returns="changed",
    ),
    # The default scale is the device's (1 here): the 40 x 40 white box, as it is.
    Case(
        "locator-screenshot-bare",
        (("web_locator_screenshot", {"selector": "#box"}),),
        html=BOX_HTML,
        check=lambda r: _png_size(r) == (40, 40) and _png_rgb(r, 20, 20) == (255, 255, 255),
    ),
    # --- evaluation -----------------------------------------------------------------------------
    Case(
        "locator-evaluate-bare",
        (
            (
                "web_locator_evaluate",
                {"selector": "#name", "expression": "el => el.tagName + ':' + el.value"},
            ),
        ),
        returns="INPUT:initial",
    ),
    Case(
        "locator-evaluateAll-bare",
        (
            (
                "web_locator_evaluateAll",
                {"selector": ".item", "expression": "els => els.map(e => e.textContent)"},
            ),
        ),
        html=ITEMS_HTML,
        returns=["one", "two hidden"],
    ),
    # --- waiting: the step after the wait reads the page at once, so a wait that returned early
    # shows.
    # The default state is `visible`.
    Case(
        "locator-waitFor-bare",
        (
            ("web_locator_waitFor", {"selector": "#later"}),
            (
                "web_evaluate",
                {"script": "getComputedStyle(document.getElementById('later')).display"},
            ),
        ),
        html=SLOW_WAIT_HTML,
        returns="block",
    ),
    Case(
        "locator-waitForFunction-bare",
        (
            (
                "web_locator_waitForFunction",
                {"selector": "#status", "expression": "el => el.textContent === 'done'"},
            ),
            ("web_evaluate", {"script": "document.getElementById('status').textContent"}),
        ),
        html=SLOW_WAIT_HTML,
        returns="done",
    ),
    # --- locator builders with no option: an absent `exact` is a case-insensitive substring match.
    Case(
        "locator-filter-bare",
        (("web_locator_filter", {"selector": ".item"}),),
        same_as=lambda p: p.locator(".item").filter(),
    ),
    Case(
        "locator-locator-bare",
        (("web_locator_locator", {"selector": "#list", "selectorOrLocator": "li"}),),
        html=ITEMS_HTML,
        same_as=lambda p: p.locator("#list").locator("li"),
    ),
    Case(
        "locator-getByAltText-bare",
        (("web_locator_getByAltText", {"selector": "#scope", "text": "logo"}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_alt_text("logo"),
    ),
    Case(
        "locator-getByPlaceholder-bare",
        (("web_locator_getByPlaceholder", {"selector": "#scope", "text": "EXAMPLE"}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_placeholder("EXAMPLE"),
    ),
    Case(
        "locator-getByRole-bare",
        (("web_locator_getByRole", {"selector": "#scope", "role": "button"}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_role("button"),
    ),
    Case(
        "locator-getByText-bare",
        (("web_locator_getByText", {"selector": "#scope", "text": "head"}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_text("head"),
    ),
    Case(
        "locator-getByTitle-bare",
        (("web_locator_getByTitle", {"selector": "#scope", "text": "tip"}),),
        html=GET_BY_HTML,
        same_as=lambda p: p.locator("#scope").get_by_title("tip"),
    ),
)

# Rows that fail because the generated code is wrong; not part of CASES (see the report).
GENERATOR_BUGS: tuple[Case, ...] = (
    Case(
        "locator-drop-file-buffer",
        # The schema leaves payload.files untyped ({}), and the description promises in-memory
        # buffers, but a JSON FilePayload can only carry its buffer as a (base64) string and the
        # shim passes it to Playwright unconverted, which wants bytes.
        (
            (
                "web_locator_drop",
                {
                    "selector": "#zone",
                    "payload": {
                        "files": [
                            {
                                "name": "note.txt",
                                "mimeType": "text/plain",
                                "buffer": base64.b64encode(b"hello").decode(),
                            }
                        ]
                    },
                },
            ),
        ),
        html=DROP_HTML,
        observe="() => JSON.parse(document.getElementById('zone').dataset.got).files",
        expected=["note.txt:5"],
    ),
)
