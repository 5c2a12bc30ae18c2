"""cli-core.spec.ts: the tools behind `playwright-cli open`, `click`, `dblclick`, `type`, `fill`,
`hover`, `select`, `check`, `upload`, `eval`, `dialog-*`, `resize` and `snapshot`, called as
ours: what the page did and what a model reads. The peer's generated `Ran Playwright code` lines
are dropped (our results have none), and so are the cases about the program's own output
(`--raw`, the snapshot file it writes, exit codes).

The host runs with the peer's default action timeout (`--timeout-action 5000`): a selector that
matches nothing fails after it, where the peer checks once and fails at once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost, serve_host

from peer_suite.cli_pages import EVENTS_PAGE, cli_only
from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "cli-core.spec.ts"
PEER_CASES = {
    "open": "test_open_close_and_a_url_with_a_query",
    "close": "test_open_close_and_a_url_with_a_query",
    "preserves URL with & query params": "test_open_close_and_a_url_with_a_query",
    "click button": "test_click_by_ref_and_by_selector",
    "click link": "test_click_link_navigates",
    "dblclick": "test_dblclick_and_hover_reach_the_page",
    "click with --modifiers": "test_click_with_modifiers",
    "type": "test_type_fill_and_fill_numeric",
    "fill": "test_type_fill_and_fill_numeric",
    "fill numeric": "test_type_fill_and_fill_numeric",
    "hover": "test_dblclick_and_hover_reach_the_page",
    "select": "test_select_check_and_uncheck",
    "check": "test_select_check_and_uncheck",
    "uncheck": "test_select_check_and_uncheck",
    "upload multiple files": "test_upload_multiple_files_into_the_file_chooser",
    "eval": "test_eval_a_function_an_expression_and_on_a_ref",
    "eval no arrow": "test_eval_a_function_an_expression_and_on_a_ref",
    "eval <ref>": "test_eval_a_function_an_expression_and_on_a_ref",
    "dialog-accept": "test_dialogs_accept_dismiss_and_prompt",
    "dialog-dismiss": "test_dialogs_accept_dismiss_and_prompt",
    "dialog-accept <prompt>": "test_dialogs_accept_dismiss_and_prompt",
    "resize": "test_resize",
    "snapshot": cli_only(
        "where the program writes a snapshot file (.playwright-cli/page-*.yml, relative to the "
        "working folder)"
    ),
    "click in iframe": "test_click_in_iframe",
    "click button with CSS selector": "test_click_by_ref_and_by_selector",
    "click button with role locator": "test_click_by_ref_and_by_selector",
    "click button with test id locator": "test_click_by_ref_and_by_selector",
    "click button with wrong css selector": "test_click_by_ref_and_by_selector",
    "partial snapshot": "test_partial_snapshot_by_selector_and_by_ref",
    "partial snapshot by ref": "test_partial_snapshot_by_selector_and_by_ref",
    "snapshot depth": "test_snapshot_depth",
    "snapshot --boxes": "test_snapshot_boxes",
    "eval --raw": cli_only("--raw printing a result without the markdown sections"),
    "eval --raw with error": cli_only("--raw printing an error without the markdown sections"),
    "snapshot --raw": cli_only("--raw printing the snapshot alone"),
    "--raw on command without output": cli_only("--raw printing nothing for a click"),
    "tool error exits with non-zero code": "test_click_on_an_unknown_ref_is_an_error",
    "codegen escapes single quotes in user input": (
        "differs: checks the Playwright code the peer generates for typed text; this host's "
        "results carry no generated code (typing such text is checked by cli-core 'fill')"
    ),
}

BUTTON = "<button>Submit</button>"
TEXTBOX = "<input type=text>"
FOCUSED = "() => document.activeElement && document.activeElement.textContent"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHost]:
    """The suite's host with the peer's default action timeout and an upload folder."""
    output = tmp_path_factory.mktemp("output")
    uploads = tmp_path_factory.mktemp("uploads")
    served = serve_host(
        "--caps",
        "vision,pdf,testing,storage,network",
        "--output-dir",
        str(output),
        "--upload-dir",
        str(uploads),
        "--timeout-action",
        "5000",
    )
    served.uploads = uploads  # type: ignore[attr-defined]
    yield served
    served.stop()


async def snapshot_of(agent: Agent, args: dict[str, object] | None = None) -> str:
    structured, _ = await called(agent, "browser_snapshot", dict(args or {}))
    return str(structured["result"]["snapshot"])


def test_open_close_and_a_url_with_a_query(host: ServedHost, server: PeerSite) -> None:
    with_query = f"{server.HELLO_WORLD}?a=1&b=2"

    async def body(agent: Agent) -> dict[str, object]:
        facts: dict[str, object] = {}
        opened, facts["open_text"] = await called(
            agent, "browser_navigate", {"url": server.HELLO_WORLD}
        )
        facts["open"] = opened["result"]
        facts["snapshot"] = await snapshot_of(agent)
        queried, _ = await called(agent, "browser_navigate", {"url": with_query})
        facts["query_url"] = queried["result"]["url"]
        closed, _ = await called(agent, "browser_close", {})
        facts["closed"] = closed
        after, _ = await called(agent, "browser_tabs", {"action": "list"})
        facts["after"] = after
        return facts

    facts = with_agent(host, body)
    opened = facts["open"]
    assert isinstance(opened, dict)
    assert (opened["url"], opened["title"]) == (server.HELLO_WORLD, "Title")
    assert server.HELLO_WORLD in str(facts["open_text"]) and "Title" in str(facts["open_text"])
    assert "- generic [active] [ref=e1]: Hello, world!" in str(facts["snapshot"])
    assert facts["query_url"] == with_query  # the & and its parameters kept
    closed = facts["closed"]
    assert isinstance(closed, dict) and closed["result"]["closed"] is True, closed
    assert closed["session"]["ended"] is True
    # The browser is gone: the next call starts afresh on a blank tab.
    after = facts["after"]
    assert isinstance(after, dict)
    assert [t["url"] for t in after["result"]["tabs"]] == ["about:blank"], after


def test_click_by_ref_and_by_selector(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", BUTTON)
    server.set_content("/testid", "<div data-testid=main><button>Submit</button></div>")

    async def body(agent: Agent) -> dict[str, object]:
        facts: dict[str, object] = {}
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        snapshot = await snapshot_of(agent)
        facts["snapshot"] = snapshot
        targets = {
            "ref": find_ref(snapshot, r'button "Submit"'),
            "css": "button",
            "role": 'getByRole("button", { name: "Submit" })',  # Playwright's locator code
        }
        for name, target in targets.items():
            await agent.ok("browser_evaluate", {"function": "() => document.body.focus()"})
            await called(agent, "browser_click", {"target": target})
            facts[name] = await agent.ok("browser_evaluate", {"function": FOCUSED})
        facts["wrong"] = await refused(agent, "browser_click", {"target": "#target"})
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/testid"})
        await called(agent, "browser_click", {"target": 'getByTestId("main").getByRole("button")'})
        facts["testid"] = await agent.ok("browser_evaluate", {"function": FOCUSED})
        return facts

    facts = with_agent(host, body)
    assert '- button "Submit" [ref=e2]' in str(facts["snapshot"])
    # Each form of target reached the button: the click focused it.
    assert facts["ref"] == facts["css"] == facts["role"] == facts["testid"] == "Submit", facts
    wrong = str(facts["wrong"])
    assert "#target" in wrong and "Timeout 5000ms" in wrong, wrong


def test_click_link_navigates(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", '<a href="/hello-world">Hello, world!</a>')

    async def body(agent: Agent) -> tuple[str, dict[str, object], str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        snapshot = await snapshot_of(agent)
        clicked, _ = await called(
            agent, "browser_click", {"target": find_ref(snapshot, r'link "Hello, world!"')}
        )
        return snapshot, clicked["result"], await snapshot_of(agent)

    snapshot, clicked, after = with_agent(host, body)
    assert '- link "Hello, world!" [ref=e2]' in snapshot
    assert (clicked["url"], clicked["title"]) == (server.HELLO_WORLD, "Title")
    assert "Hello, world!" in after


def test_click_in_iframe(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<h1>Hello</h1><iframe src="data:text/html,<button>World</button><main><iframe '
        "src='data:text/html,<p>Nested</p>'></iframe></main>\"></iframe><iframe "
        'src="data:text/html,<h1>Should be invisible</h1>" style="display: none;"></iframe>',
    )

    async def body(agent: Agent) -> tuple[str, str, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        snapshot = await snapshot_of(agent)
        ref = find_ref(snapshot, r'button "World"')
        await called(agent, "browser_click", {"target": ref})
        return snapshot, ref, await snapshot_of(agent)

    snapshot, ref, after = with_agent(host, body)
    assert ref == "f1e2", snapshot  # the button inside the first iframe
    assert "Nested" in snapshot and "Should be invisible" not in snapshot
    assert f'button "World" [active] [ref={ref}]' in after, after  # the click focused it


def test_dblclick_and_hover_reach_the_page(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", EVENTS_PAGE)

    async def body(agent: Agent) -> tuple[str, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        await called(agent, "browser_click", {"target": "#square", "doubleClick": True})
        after_dblclick = await snapshot_of(agent)
        await agent.ok("browser_evaluate", {"function": "() => log.textContent = ''"})
        await called(agent, "browser_hover", {"target": "#square"})
        return after_dblclick, await snapshot_of(agent)

    after_dblclick, after_hover = with_agent(host, body)
    assert "dblclick 0" in after_dblclick
    assert "mouse move 50 50" in after_hover  # the middle of the 100 x 100 square


def test_click_with_modifiers(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<button onclick="window.seen.push([event.ctrlKey || event.metaKey, event.shiftKey])">'
        "Submit</button><script>window.seen = []</script>",
    )

    async def body(agent: Agent) -> object:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        await called(agent, "browser_click", {"target": "button", "modifiers": ["Control"]})
        await called(
            agent, "browser_click", {"target": "button", "modifiers": ["Control", "Shift"]}
        )
        return await agent.ok("browser_evaluate", {"function": "() => JSON.stringify(seen)"})

    assert json.loads(str(with_agent(host, body))) == [[True, False], [True, True]]


def test_type_fill_and_fill_numeric(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", TEXTBOX)

    async def body(agent: Agent) -> list[str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        seen = [await snapshot_of(agent)]
        # `type` presses keys on the page: nothing has focus, so the textbox stays empty.
        await called(agent, "browser_send_keys", {"text": "Hello, world!"})
        await called(agent, "browser_press_key", {"key": "Enter"})
        seen.append(await snapshot_of(agent))
        ref = find_ref(seen[0], "textbox")
        await called(
            agent, "browser_type", {"target": ref, "text": "Hello, world!", "submit": True}
        )
        seen.append(await snapshot_of(agent))
        await called(agent, "browser_type", {"target": ref, "text": "42", "submit": True})
        seen.append(await snapshot_of(agent))
        return seen

    first, typed, filled, numeric = with_agent(host, body)
    assert "- textbox [ref=e2]" in first
    assert typed == "- textbox [ref=e2]", typed
    assert filled == "- textbox [active] [ref=e2]: Hello, world!", filled
    assert '[ref=e2]: "42"' in numeric, numeric


def test_select_check_and_uncheck(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/select", '<select><option value="1">One</option><option value="2">Two</option></select>'
    )
    server.set_content("/check", '<input type="checkbox">')
    server.set_content("/uncheck", '<input type="checkbox" checked>')

    async def body(agent: Agent) -> list[str]:
        seen = []
        # Refs after the first page carry the main frame's new number (Playwright renumbers it
        # when it leaves a document): f2e2 where the peer's fresh browser shows e2.
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/select"})
        ref = find_ref(await snapshot_of(agent), "combobox")
        await called(agent, "browser_select_option", {"target": ref, "values": ["Two"]})
        seen.append(await snapshot_of(agent))
        # The peer's `check`/`uncheck` set a checkbox whatever its state: a form field here.
        for path, value in (("/check", "true"), ("/uncheck", "false")):
            await agent.ok("browser_navigate", {"url": server.PREFIX + path})
            ref = find_ref(await snapshot_of(agent), "checkbox")
            field = {"name": "box", "type": "checkbox", "target": ref, "value": value}
            await called(agent, "browser_fill_form", {"fields": [field]})
            seen.append(await snapshot_of(agent) + "|" + ref)
        return seen

    selected, checked, unchecked = with_agent(host, body)
    assert '- option "Two" [selected]' in selected
    snapshot, ref = checked.split("|")
    assert f"- checkbox [checked] [active] [ref={ref}]" in snapshot, checked
    snapshot, ref = unchecked.split("|")
    assert f"- checkbox [active] [ref={ref}]" in snapshot, unchecked


def test_upload_multiple_files_into_the_file_chooser(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        """<input type="file" multiple><div id="result"></div><script>
        document.querySelector('input').addEventListener('change', event => {
          document.getElementById('result').textContent =
            'Received: ' + [...event.target.files].map(f => f.name).join(', ');
        });</script>""",
    )
    uploads: Path = host.uploads  # type: ignore[attr-defined]
    front, back = uploads / "front.txt", uploads / "back.txt"
    front.write_text("front")
    back.write_text("back")

    async def body(agent: Agent) -> tuple[str, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        ref = find_ref(await snapshot_of(agent), "button")
        await called(agent, "browser_click", {"target": ref})
        await called(agent, "browser_file_upload", {"paths": [str(front), str(back)]})
        both = await snapshot_of(agent)
        await called(agent, "browser_click", {"target": find_ref(both, "button")})
        await called(agent, "browser_file_upload", {"paths": [str(back)]})
        return both, await snapshot_of(agent)

    both, single = with_agent(host, body)
    assert "Received: front.txt, back.txt" in both
    assert "Received: back.txt" in single


def test_eval_a_function_an_expression_and_on_a_ref(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", BUTTON)

    async def body(agent: Agent) -> list[object]:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        arrow = await agent.ok("browser_evaluate", {"function": "() => document.title"})
        bare = await agent.ok("browser_evaluate", {"function": "document.title"})
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        ref = find_ref(await snapshot_of(agent), r'button "Submit"')
        name = await agent.ok(
            "browser_evaluate", {"function": "element => element.nodeName", "target": ref}
        )
        return [arrow, bare, name]

    assert with_agent(host, body) == ["Title", "Title", "BUTTON"]


def test_dialogs_accept_dismiss_and_prompt(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/alert", "<button onclick=\"alert('MyAlert')\">Button</button>")
    server.set_content(
        "/prompt",
        "<button onclick=\"document.body.textContent = prompt('MyAlert')\">Button</button>",
    )

    async def body(agent: Agent) -> list[str]:
        seen = []
        for accept in (True, False):
            await agent.ok("browser_navigate", {"url": server.PREFIX + "/alert"})
            ref = find_ref(await snapshot_of(agent), "button")
            _, clicked = await called(agent, "browser_click", {"target": ref})
            seen.append(clicked)
            await called(agent, "browser_handle_dialog", {"accept": accept})
            seen.append(await snapshot_of(agent))
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/prompt"})
        ref = find_ref(await snapshot_of(agent), "button")
        await called(agent, "browser_click", {"target": ref})
        await called(agent, "browser_handle_dialog", {"accept": True, "promptText": "my reply"})
        seen.append(await snapshot_of(agent))
        return seen

    accepted_click, accepted, dismissed_click, dismissed, prompted = with_agent(host, body)
    # The click's result tells the model an alert is open, and with what message.
    for clicked in (accepted_click, dismissed_click):
        assert "MyAlert" in clicked and "alert" in clicked, clicked
    assert "MyAlert" not in accepted and "MyAlert" not in dismissed
    assert "my reply" in prompted


def test_resize(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> object:
        await agent.ok("browser_navigate", {"url": server.PREFIX + "/empty.html"})
        await called(agent, "browser_resize", {"width": 480, "height": 320})
        return await agent.ok(
            "browser_evaluate", {"function": '() => window.innerWidth + "x" + window.innerHeight'}
        )

    assert with_agent(host, body) == "480x320"


def test_partial_snapshot_by_selector_and_by_ref(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", "<button id=one>Submit</button><button id=two>Cancel</button>")

    async def body(agent: Agent) -> list[str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        whole = await snapshot_of(agent)
        return [
            whole,
            await snapshot_of(agent, {"target": "#two"}),
            await refused(agent, "browser_snapshot", {"target": "button"}),
            await refused(agent, "browser_snapshot", {"target": "#target"}),
            await snapshot_of(agent, {"target": find_ref(whole, r'button "Cancel"')}),
            await refused(agent, "browser_snapshot", {"target": "e999"}),
        ]

    whole, by_selector, strict, no_match, by_ref, missing = with_agent(host, body)
    assert '- button "Submit" [ref=e2]' in whole and '- button "Cancel" [ref=e3]' in whole
    assert by_selector == by_ref == '- button "Cancel" [ref=e3]'
    assert "strict mode violation" in strict
    assert '"#target" does not match any element' in no_match
    assert "[stale_ref]" in missing and "e999" in missing


def test_snapshot_depth(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        "<ul><li><button id=one>Submit</button></li><li><button id=two>Cancel</button></li></ul>",
    )

    async def body(agent: Agent) -> tuple[str, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        return await snapshot_of(agent, {"depth": 1}), await snapshot_of(agent, {"depth": 100})

    limited, full = with_agent(host, body)
    assert limited == "- list [ref=e2]:\n  - listitem [ref=e3]\n  - listitem [ref=e5]"
    assert full == (
        '- list [ref=e2]:\n  - listitem [ref=e3]:\n    - button "Submit" [ref=e4]\n'
        '  - listitem [ref=e5]:\n    - button "Cancel" [ref=e6]'
    )


def test_snapshot_boxes(host: ServedHost, server: PeerSite) -> None:
    server.set_content(
        "/",
        '<style>body { margin: 0; }</style><button style="position:absolute;left:100px;'
        'top:50px;width:80px;height:40px;margin:0;padding:0;border:0;">click</button>',
    )

    async def body(agent: Agent) -> tuple[str, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        return await snapshot_of(agent, {"boxes": True}), await snapshot_of(agent)

    boxed, plain = with_agent(host, body)
    # x, y, width, height in CSS pixels (the peer's Playwright numbers this button e1, ours e2).
    assert re.search(r'- button "click" \[ref=e\d+\] \[box=100,50,80,40\]', boxed), boxed
    assert "[box=" not in plain


def test_click_on_an_unknown_ref_is_an_error(host: ServedHost, server: PeerSite) -> None:
    async def body(agent: Agent) -> str:
        await agent.ok("browser_navigate", {"url": server.HELLO_WORLD})
        await snapshot_of(agent)
        return await refused(agent, "browser_click", {"target": "e999"})

    error = with_agent(host, body)
    assert "[stale_ref]" in error and "e999" in error and "browser_snapshot" in error
