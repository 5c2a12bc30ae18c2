"""Pages the agent tasks run against, served on 127.0.0.1 (no network)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from urllib.parse import parse_qs, urlsplit

from local_server import LocalServer, PageHandler, serve

PAGES = {
    "/login": "<title>Sign in</title><h1>Sign in</h1><form action=/welcome>"
    "<label for=u>Username</label><input id=u name=user>"
    "<label for=p>Password</label><input id=p name=password type=password>"
    "<button type=submit>Sign in</button></form>",
    "/select": "<title>Select</title><label for=color>Color</label>"
    "<select id=color onchange=\"document.getElementById('out').textContent = 'chose ' + this.value\">"
    "<option value=r>Red</option><option value=g selected>Green</option>"
    "<option value=b>Blue</option><option value=x disabled>Gone</option></select><p id=out>none</p>",
    "/combo": "<title>Combo</title><label id=fl>Fruit</label>"
    "<input role=combobox aria-labelledby=fl aria-controls=fruits aria-expanded=false id=fruit readonly"
    " onclick=\"document.getElementById('fruits').hidden = false; this.setAttribute('aria-expanded', 'true')\">"
    "<ul role=listbox id=fruits hidden>"
    + "".join(
        f"<li role=option id=o{i} data-value={v.lower()} aria-selected=false"
        f" onclick=\"document.getElementById('fruit').value = '{v}';"
        f" document.getElementById('fruits').hidden = true\">{v}</li>"
        for i, v in enumerate(["Apple", "Banana", "Cherry"])
    )
    + "</ul>"
    "<button aria-haspopup=menu aria-controls=m>Actions</button>"
    "<div role=menu id=m><div role=menuitem>Copy</div><div role=menuitem aria-disabled=true>Paste</div></div>"
    "<div role=listbox id=many>"
    + "".join(f"<div role=option>Item {i}</div>" for i in range(250))
    + "</div>",
    "/upload": "<title>Upload</title><div class=drop id=drop><span>Drop a file here</span>"
    "<input type=file id=file onchange=\"document.getElementById('out').textContent ="
    " this.files[0].name + ':' + this.files[0].size\"></div><p id=out>nothing</p>",
    "/blank": "<title>First tab</title><a href=/second target=_blank>Open the second page</a>",
    "/second": "<title>Second page</title><h1>Second</h1>",
    "/later": "<title>Later</title><button onclick=\"setTimeout(() => location.href = '/second',"
    ' 100)">Go later</button>',
    "/frame": "<title>Frame</title><iframe id=inner src=/inner></iframe>",
    "/inner": "<title>Inner</title><label for=name>Inner name</label><input id=name>",
    "/console": "<title>Console</title><button onclick=\"console.log('clicked once');"
    " console.error('bad thing'); throw new Error('kaboom')\">Go</button>",
    "/modal": "<title>Modal</title><input id=field aria-label=Field value='old text'>"
    "<div role=dialog id=modal aria-label=Notice>Subscribe now!</div>"
    "<script>document.addEventListener('keydown', e => { if (e.key === 'Escape')"
    " document.getElementById('modal').remove() })</script>",
    "/confirm": "<title>Confirm</title><button onclick=\"document.getElementById('out').textContent ="
    " confirm('Delete it?') ? 'deleted' : 'kept'\">Delete</button><p id=out>untouched</p>",
    "/api": "<title>API</title><button onclick=\"fetch('/api/data').then(r => r.json()).then(d =>"
    " { document.getElementById('out').textContent = d.items.join(', ') })\">Load</button>"
    "<p id=out>empty</p>",
    "/keys": "<title>Keys</title><input id=a aria-label=First><input id=b aria-label=Second>",
    "/drag": "<title>Drag</title><div id=src draggable=true style='width:50px;height:50px;background:red'"
    " ondragstart=\"event.dataTransfer.setData('text', 'x')\">src</div>"
    "<div id=dst style='width:80px;height:80px;background:blue' ondragover='event.preventDefault()'"
    " ondrop=\"document.getElementById('out').textContent = 'dropped'\">dst</div><p id=out>none</p>"
    "<p id=hov onmouseover=\"this.textContent = 'hovered'\">hover me</p>",
}


@dataclass
class Pages:
    """The page server's base URL."""

    base: str

    def url(self, path: str) -> str:
        return self.base + path


def start_pages() -> tuple[Pages, LocalServer]:
    class Handler(PageHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = parse_qs(parts.query)
            path = parts.path
            if path in PAGES:
                self._send(200, "text/html; charset=utf-8", PAGES[path].encode())
            elif path == "/welcome":
                user = escape(query.get("user", ["?"])[0])
                body = f"<title>Welcome</title><h1>Welcome, {user}</h1>"
                self._send(200, "text/html; charset=utf-8", body.encode())
            elif path == "/favicon.ico":
                self._send(200, "image/x-icon", b"")
            elif path == "/api/data":
                self._send(200, "application/json", json.dumps({"items": ["real"]}).encode())
            elif path == "/whoami":
                cookie = escape(self.headers.get("cookie", ""))
                body = f"<title>whoami</title><p id=c>{cookie or 'no cookie'}</p>"
                self._send(200, "text/html; charset=utf-8", body.encode())
            else:
                self._send(404, "text/plain", b"not found")

    httpd = serve(Handler)
    return Pages(httpd.origin), httpd
