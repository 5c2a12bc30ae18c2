"""core.spec.ts: navigation (its status, the URLs a page may open, going back), select options,
resize, stale refs, and what a snapshot shows (hidden parents, depth, boxes, a part by ref).

Our navigate answers with page feedback, never a snapshot (the peer's `--snapshot-mode none`),
so where the peer reads refs from the navigate's snapshot these read them from browser_snapshot,
as a model on this host does."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import Answer, PeerSite, Request

pytestmark = pytest.mark.browser

SPEC = "core.spec.ts"
PEER_CASES = {
    "browser_navigate": "test_navigate_reports_the_page",
    "browser_navigate surfaces non-2xx HTTP status": "test_navigate_surfaces_a_non_2xx_status",
    "browser_navigate blocks file:// URLs by default": "test_navigate_blocks_file_urls_by_default",
    "browser_navigate allows about:, data: and javascript: protocols": (
        "test_navigate_allows_about_and_data_urls"
    ),
    "browser_navigate can navigate to file:// URLs allowUnrestrictedFileAccess is true": (
        "test_navigate_opens_file_urls_under_an_allowed_directory"
    ),
    "browser_navigate_back does not time out when load never fires": (
        "test_navigate_back_returns_when_load_never_fires"
    ),
    "browser_select_option": "test_select_option",
    "browser_select_option (multiple)": "test_select_option_multiple",
    "browser_resize": "test_resize",
    "old locator error message": "test_a_ref_of_a_removed_element_is_stale",
    "visibility: hidden > visible should be shown": "test_visible_inside_hidden_is_shown",
    "snapshot depth": "test_snapshot_depth",
    "snapshot with boxes": "test_snapshot_with_boxes",
    "snapshot by ref": "test_snapshot_by_ref",
}

LIST = "<ul><li>text</li><li><button>Button</button></li></ul>"


def test_navigate_reports_the_page(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> tuple[dict, str, str]:
        value, text = await called(agent, "browser_navigate", {"url": server.HELLO_WORLD})
        _, snapshot = await called(agent, "browser_snapshot", {})
        return value["result"], text, snapshot

    page, text, snapshot = with_agent(host, body)
    assert (page["url"], page["title"]) == (server.HELLO_WORLD, "Title")
    assert server.HELLO_WORLD in text and "'Title'" in text
    assert "- generic [active] [ref=e1]: Hello, world!" in snapshot


def test_navigate_surfaces_a_non_2xx_status(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/locked", "<title>Payment Required</title><body>Pay up</body>", status=402)
    server.set_content("/redirect", "", status=302, headers={"location": server.HELLO_WORLD})

    async def body(agent: Agent) -> tuple[dict, str, dict, str]:
        locked, locked_text = await called(
            agent, "browser_navigate", {"url": server.PREFIX + "/locked"}
        )
        moved, moved_text = await called(
            agent, "browser_navigate", {"url": server.PREFIX + "/redirect"}
        )
        return locked["result"], locked_text, moved["result"], moved_text

    locked, locked_text, moved, moved_text = with_agent(host, body)
    assert locked["status"] == 402 and "status: 402" in locked_text
    # A redirect to a 2xx page carries no status: neither the 302 hop nor the 200 landing.
    assert "status" not in moved and not re.search(r"^status:", moved_text, re.M)
    assert moved["url"] == server.HELLO_WORLD


def test_navigate_blocks_file_urls_by_default(host: ServedHost) -> None:
    async def body(agent: Agent) -> str:
        return await agent.fails("browser_navigate", {"url": "file:///etc/passwd"}, "url_blocked")

    text = with_agent(host, body)
    assert "file:" in text and "(at url)" in text


def test_navigate_allows_about_and_data_urls(host: ServedHost) -> None:
    """The peer's body opens about:blank and a data: URL (its title names javascript: too, which
    its body never opens; this host refuses javascript: URLs on purpose, as
    host_tests/test_hostile_runtime.py::test_no_tool_opens_a_local_file_or_a_browser_page checks)."""

    async def body(agent: Agent) -> tuple[dict, str, dict, str]:
        blank, _ = await called(agent, "browser_navigate", {"url": "about:blank"})
        _, blank_snapshot = await called(agent, "browser_snapshot", {})
        data, _ = await called(agent, "browser_navigate", {"url": "data:text/html,<h1>Hello</h1>"})
        _, data_snapshot = await called(agent, "browser_snapshot", {})
        return blank["result"], blank_snapshot, data["result"], data_snapshot

    blank, blank_snapshot, data, data_snapshot = with_agent(host, body)
    assert blank["url"] == "about:blank" and blank_snapshot.endswith("snapshot:\n")
    assert data["url"] == "data:text/html,<h1>Hello</h1>"
    assert re.search(r'- heading "Hello" \[level=1\] \[ref=e\d+\]', data_snapshot), data_snapshot


@pytest.fixture(scope="module")
def file_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedHost, Path]]:
    """A host whose operator lets pages open the files under one directory (the peer's
    allowUnrestrictedFileAccess opens every file; this host opens those the operator names)."""
    folder = tmp_path_factory.mktemp("files")
    served = serve_host("--allow-file-dir", str(folder))
    yield served, folder
    served.stop()


def test_navigate_opens_file_urls_under_an_allowed_directory(
    file_host: tuple[ServedHost, Path],
) -> None:
    served, folder = file_host
    (folder / "test.txt").write_text("Test file content")
    url = (folder / "test.txt").as_uri()

    async def body(agent: Agent) -> tuple[dict, str, str]:
        page, _ = await called(agent, "browser_navigate", {"url": url})
        _, snapshot = await called(agent, "browser_snapshot", {})
        outside = await agent.fails(
            "browser_navigate", {"url": "file:///etc/passwd"}, "url_blocked"
        )
        return page["result"], snapshot, outside

    page, snapshot, outside = with_agent(served, body)
    assert page["url"] == url
    assert "- generic [active] [ref=e1]: Test file content" in snapshot
    assert "(at url)" in outside  # a file outside the directory stays refused


def test_navigate_back_returns_when_load_never_fires(host: ServedHost, server: PeerSite) -> None:
    release = threading.Event()

    def hang(request: Request) -> Answer:
        release.wait(60)  # the image never loads while the test runs
        return Answer(b"")

    server.set_route("/hang", hang)
    server.set_content("/page-a", '<title>Page A</title><body>Page A<img src="/hang"></body>')
    server.set_content("/page-b", "<title>Page B</title><body>Page B</body>")

    async def body(agent: Agent) -> dict:
        await called(agent, "browser_navigate", {"url": server.PREFIX + "/page-a"})
        await called(agent, "browser_navigate", {"url": server.PREFIX + "/page-b"})
        back, _ = await called(agent, "browser_navigate_back", {})
        return back["result"]

    try:
        back = with_agent(host, body)
    finally:
        release.set()
    assert (back["url"], back["title"]) == (server.PREFIX + "/page-a", "Page A")


def test_select_option(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<title>Title</title><select><option value="foo">Foo</option>'
        '<option value="bar">Bar</option></select>',
    )

    async def body(agent: Agent) -> tuple[dict, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        selected, _ = await called(
            agent,
            "browser_select_option",
            {"element": "Select", "target": find_ref(snapshot, "combobox"), "values": ["bar"]},
        )
        _, after = await called(agent, "browser_snapshot", {})
        return selected["result"], after

    selected, after = with_agent(host, body)
    assert selected["selected"] == ["bar"]
    assert re.search(
        r'- combobox \[ref=e2\]:\n  - option "Foo"\n  - option "Bar" \[selected\]', after
    )


def test_select_option_multiple(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<title>Title</title><select multiple><option value="foo">Foo</option>'
        '<option value="bar">Bar</option><option value="baz">Baz</option></select>',
    )

    async def body(agent: Agent) -> str:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        await called(
            agent,
            "browser_select_option",
            {
                "element": "Select",
                "target": find_ref(snapshot, "listbox"),
                "values": ["bar", "baz"],
            },
        )
        _, after = await called(agent, "browser_snapshot", {})
        return after

    after = with_agent(host, body)
    assert (
        '- listbox [ref=e2]:\n  - option "Foo" [ref=e3]\n  - option "Bar" [selected] [ref=e4]\n'
        '  - option "Baz" [selected] [ref=e5]'
    ) in after


def test_resize(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<title>Resize Test</title><body><div id="size">Waiting for resize...</div><script>'
        "new ResizeObserver(() => { document.getElementById('size').textContent = "
        "`Window size: ${window.innerWidth}x${window.innerHeight}`; }).observe(document.body);"
        "</script></body>",
    )

    async def body(agent: Agent) -> tuple[dict, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        resized, _ = await called(agent, "browser_resize", {"width": 390, "height": 780})
        # The observer answers on the page's next frame: wait for its text as the peer polls.
        await called(agent, "browser_wait_for", {"text": "Window size: 390x780"})
        _, snapshot = await called(agent, "browser_snapshot", {})
        return resized["result"], snapshot

    resized, snapshot = with_agent(host, body)
    assert resized["viewport"] == {"width": 390, "height": 780}
    assert "Window size: 390x780" in snapshot


def test_a_ref_of_a_removed_element_is_stale(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<button>Button 1</button><button>Button 2</button><script>"
        "document.querySelector('button').addEventListener('click', () => {"
        " document.querySelectorAll('button')[1].remove(); });</script>",
    )

    async def body(agent: Agent) -> tuple[str, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        await called(agent, "browser_click", {"element": "Button 1", "target": "e2"})
        text = await agent.fails(
            "browser_click", {"element": "Button 2", "target": "e3"}, "stale_ref"
        )
        return snapshot, text

    snapshot, text = with_agent(host, body)
    assert '  - button "Button 1" [ref=e2]\n  - button "Button 2" [ref=e3]' in snapshot
    assert "ref e3 is not in the current snapshot" in text and "take a new snapshot" in text


def test_visible_inside_hidden_is_shown(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<div style="visibility: hidden;"><div style="visibility: visible;">'
        "<button>Button</button></div></div>",
    )

    async def body(agent: Agent) -> str:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        return (await called(agent, "browser_snapshot", {}))[1]

    assert '- button "Button"' in with_agent(host, body)


def test_snapshot_depth(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", LIST)

    async def body(agent: Agent) -> tuple[str, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        one, _ = await called(agent, "browser_snapshot", {"depth": 1})
        two, _ = await called(agent, "browser_snapshot", {"depth": 2})
        return one["result"]["snapshot"], two["result"]["snapshot"]

    one, two = with_agent(host, body)
    assert one == "- list [ref=e2]:\n  - listitem [ref=e3]: text\n  - listitem [ref=e4]"
    assert two == (
        "- list [ref=e2]:\n  - listitem [ref=e3]: text\n  - listitem [ref=e4]:\n"
        '    - button "Button" [ref=e5]'
    )


def test_snapshot_with_boxes(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<style>body { margin: 0; }</style><button style='position:absolute;left:100px;"
        "top:50px;width:80px;height:40px;margin:0;padding:0;border:0;'>click</button>",
    )

    async def body(agent: Agent) -> tuple[str, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        boxed, _ = await called(agent, "browser_snapshot", {"boxes": True})
        plain, _ = await called(agent, "browser_snapshot", {})
        return boxed["result"]["snapshot"], plain["result"]["snapshot"]

    boxed, plain = with_agent(host, body)
    assert re.search(r'- button "click" \[ref=e\d+\] \[box=100,50,80,40\]', boxed), boxed
    assert "[box=" not in plain


def test_snapshot_by_ref(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", LIST)

    async def body(agent: Agent) -> tuple[str, str]:
        await called(agent, "browser_navigate", {"url": server.PREFIX})
        await called(agent, "browser_snapshot", {})
        part, _ = await called(agent, "browser_snapshot", {"target": "e2"})
        return part["result"]["snapshot"], await refused(
            agent, "browser_snapshot", {"target": "e999"}
        )

    part, missing = with_agent(host, body)
    assert part == (
        "- list [ref=e2]:\n  - listitem [ref=e3]: text\n  - listitem [ref=e4]:\n"
        '    - button "Button" [ref=e5]'
    )
    assert "[stale_ref]" in missing and "ref e999 is not in the current snapshot" in missing
