"""Benchmark of whole agent tasks (not a test): this host against `@playwright/mcp`, as ratios
measured in one run.

    python benchmarks/agent_tasks_bench.py [--runs 3] [--only TASK ...]

Five tasks an agent does, each scripted as an agent would run it over MCP stdio with the official
SDK client: one fresh server per task (the spawn and the handshake are part of the task), both
servers at their defaults, the same calls on both (the peer's tool and argument names, which this
host takes as a drop-in). A task navigates, reads the page's snapshot, finds the elements it needs
by role and name in it (`[ref=eN]`), acts on them by ref (`target`, the peer's argument name),
and reads the outcome:

- shadow: a field and a button inside an open shadow root; type, click, read the greeting;
- list: a list of 600 items in a scrolling panel; click item 480 (scrolled into view), read it;
- form: a form whose submit shows validation errors; submit empty, read the errors from the
  snapshot, fill the three fields, submit, read the confirmation;
- drag: drag a card onto a drop zone (`browser_drag`), read the zone;
- download: click a link that downloads a file; the answer must report the download.

Runs alternate task by task between the two servers; the medians of each task and of their sum
are printed with their ratio (target: the sum at most 0.7 x the peer's), and the calls each made.
Both run Debian's Chromium, headless and isolated.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.server
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Both servers exactly as host_bench.py starts them.
from host_bench import OURS_STDIO as OURS  # noqa: E402
from host_bench import THEIRS_STDIO as THEIRS  # noqa: E402

PAGES = {
    "/shadow": (
        "<title>shadow</title><greet-box></greet-box><script>"
        "customElements.define('greet-box', class extends HTMLElement { connectedCallback() {"
        " const root = this.attachShadow({mode: 'open'});"
        " root.innerHTML = `<label>Your name <input id=n></label><button id=g>Greet</button>"
        "<p id=out></p>`;"
        " root.getElementById('g').onclick = () => { root.getElementById('out').textContent ="
        " 'Hello ' + root.getElementById('n').value; }; } });</script>"
    ),
    "/list": (
        "<title>list</title><p id=picked>none</p>"
        "<div style='height:300px;overflow:auto' role=listbox aria-label=Items>"
        + "".join(
            f"<div role=option tabindex=0 onclick=\"document.getElementById('picked').textContent"
            f" = 'picked {i}'\">Item {i}</div>"
            for i in range(600)
        )
        + "</div>"
    ),
    "/form": (
        '<title>form</title><form id=f novalidate onsubmit="event.preventDefault();'
        " const errs = []; for (const [id, label] of [['name','Name'],['email','Email'],"
        "['age','Age']]) { const v = document.getElementById(id).value;"
        " if (!v) errs.push(label + ' is required'); }"
        " document.getElementById('errors').innerHTML = errs.map(e => '<li>' + e + '</li>').join('');"
        " document.getElementById('done').textContent = errs.length ? '' : 'Thanks, '"
        " + document.getElementById('name').value;\">"
        "<label>Name <input id=name></label><label>Email <input id=email></label>"
        "<label>Age <input id=age></label><button>Send</button></form>"
        "<ul id=errors aria-label=Errors></ul><p id=done></p>"
    ),
    "/drag": (
        "<title>drag</title><div id=card draggable=true role=button aria-label=Card"
        " ondragstart=\"event.dataTransfer.setData('text', 'card')\">Card</div>"
        "<div id=zone role=region aria-label=Zone style='width:200px;height:100px;border:1px solid'"
        " ondragover='event.preventDefault()' ondrop=\"event.preventDefault();"
        " this.textContent = 'dropped ' + event.dataTransfer.getData('text')\">Drop here</div>"
    ),
    "/download": "<title>download</title><a href=/file.txt download=report.txt>Get the report</a>",
}


def serve() -> str:
    """The tasks' pages on a local HTTP server; its origin."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/file.txt":
                body, kind = b"the report\n" * 100, "text/plain"
            else:
                body, kind = PAGES.get(path, "<title>none</title>").encode(), "text/html"
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


class Agent:
    """A scripted agent: each call's text is its view of the page; refs come from the latest
    snapshot it was shown (a navigate's or an action's answer, else `browser_snapshot`)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.calls = 0
        self.seen = ""

    async def call(self, tool: str, args: dict[str, object]) -> str:
        self.calls += 1
        result = await self.client.call_tool(tool, args)
        text = "".join(getattr(block, "text", "") for block in result.content)
        if result.is_error:
            raise RuntimeError(f"{tool}: {text[:500]}")
        if "[ref=" in text:
            self.seen = text
        return text

    async def ref(self, role: str, name: str) -> str:
        """The ref of the element of `role` named `name` in the latest snapshot (a fresh one
        when it is not there)."""
        pattern = re.compile(rf'- {role} "{re.escape(name)}"[^\n]*\[ref=(e\d+)\]')
        found = pattern.search(self.seen)
        if found is None:
            await self.call("browser_snapshot", {})
            found = pattern.search(self.seen)
        if found is None:
            raise RuntimeError(f"no {role} {name!r} in the snapshot:\n{self.seen[:2000]}")
        return found.group(1)

    async def type(self, role: str, name: str, text: str) -> str:
        ref = await self.ref(role, name)
        return await self.call("browser_type", {"element": name, "target": ref, "text": text})

    async def click(self, role: str, name: str) -> str:
        ref = await self.ref(role, name)
        return await self.call("browser_click", {"element": name, "target": ref})

    async def read(self, expression: str) -> str:
        return await self.call("browser_evaluate", {"function": f"() => {expression}"})


async def shadow(agent: Agent, origin: str) -> None:
    await agent.call("browser_navigate", {"url": f"{origin}/shadow"})
    await agent.type("textbox", "Your name", "Ada")
    await agent.click("button", "Greet")
    said = await agent.read(
        "document.querySelector('greet-box').shadowRoot.getElementById('out').textContent"
    )
    assert "Hello Ada" in said, said


async def long_list(agent: Agent, origin: str) -> None:
    await agent.call("browser_navigate", {"url": f"{origin}/list"})
    await agent.click("option", "Item 480")
    said = await agent.read("document.getElementById('picked').textContent")
    assert "picked 480" in said, said


async def form(agent: Agent, origin: str) -> None:
    await agent.call("browser_navigate", {"url": f"{origin}/form"})
    await agent.click("button", "Send")
    if "Name is required" not in agent.seen:
        await agent.call("browser_snapshot", {})
    assert "Name is required" in agent.seen, agent.seen[:2000]
    await agent.type("textbox", "Name", "Ada")
    await agent.type("textbox", "Email", "ada@example.org")
    await agent.type("textbox", "Age", "36")
    await agent.click("button", "Send")
    said = await agent.read("document.getElementById('done').textContent")
    assert "Thanks, Ada" in said, said


async def drag(agent: Agent, origin: str) -> None:
    await agent.call("browser_navigate", {"url": f"{origin}/drag"})
    card, zone = await agent.ref("button", "Card"), await agent.ref("region", "Zone")
    await agent.call(
        "browser_drag",
        {"startElement": "Card", "startTarget": card, "endElement": "Zone", "endTarget": zone},
    )
    said = await agent.read("document.getElementById('zone').textContent")
    assert "dropped card" in said, said


async def download(agent: Agent, origin: str) -> None:
    await agent.call("browser_navigate", {"url": f"{origin}/download"})
    said = await agent.click("link", "Get the report")
    if "report.txt" not in said:  # a download reported a moment later, as an agent would look
        said = await agent.call("browser_snapshot", {})
    assert "report.txt" in said, said[:2000]


TASKS: dict[str, Callable[[Agent, str], Awaitable[None]]] = {
    "shadow": shadow,
    "list": long_list,
    "form": form,
    "drag": drag,
    "download": download,
}


async def run_task(
    task: Callable[[Agent, str], Awaitable[None]], params: StdioServerParameters, origin: str
) -> tuple[float, int]:
    """Seconds from the spawn to the task's last answer, and the calls it made."""
    start = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        agent = Agent(client)
        await task(agent, origin)
        elapsed = time.perf_counter() - start
    return elapsed, agent.calls


async def measure(names: list[str], runs: int) -> dict[str, dict[str, list[tuple[float, int]]]]:
    origin = serve()
    workdir = tempfile.mkdtemp(prefix="agent-tasks-")  # the peer writes its files to its cwd
    sides = {
        "ours": StdioServerParameters(command=OURS[0], args=OURS[1:], cwd=str(REPO)),
        "theirs": StdioServerParameters(command=THEIRS[0], args=THEIRS[1:], cwd=workdir),
    }
    found: dict[str, dict[str, list[tuple[float, int]]]] = {
        n: {"ours": [], "theirs": []} for n in names
    }
    for _ in range(runs):
        for name in names:
            for side, params in sides.items():  # alternating, task by task
                found[name][side].append(await run_task(TASKS[name], params, origin))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=sorted(TASKS), default=list(TASKS))
    args = parser.parse_args()
    found = asyncio.run(measure(args.only, args.runs))
    total = {"ours": 0.0, "theirs": 0.0}
    print(f"{'task':10} {'ours s':>8} {'theirs s':>9} {'ratio':>7}  calls (ours/theirs)")
    for name, sides in found.items():
        mine = statistics.median(t for t, _ in sides["ours"])
        other = statistics.median(t for t, _ in sides["theirs"])
        total["ours"] += mine
        total["theirs"] += other
        calls = f"{sides['ours'][0][1]}/{sides['theirs'][0][1]}"
        print(f"{name:10} {mine:8.2f} {other:9.2f} {mine / other:6.2f}x  {calls}")
    ratio = total["ours"] / total["theirs"]
    print(
        f"{'all':10} {total['ours']:8.2f} {total['theirs']:9.2f} {ratio:6.2f}x"
        "  (sum of the medians; target <= 0.7 x)"
    )


if __name__ == "__main__":
    main()
