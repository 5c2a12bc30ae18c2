"""Issue 11 items 2 and 5 through MCP (streamable HTTP, default toolset): targets and refs,
feedback, send_keys, screenshot, upload_file's rules, dropdown_options."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any, TypeVar

import pytest
from host_tests.host_helpers import ServedHost, host_config

from host.sessions.targets import split_chain, to_selector
from host.sessions.uploads import read_upload
from host.settings.config import HostConfig
from host.shared.errors import HostError
from host_agent.agent_client import Agent, find_ref, text_of, with_agent
from host_agent.agent_pages import Pages

pytestmark = pytest.mark.browser

T = TypeVar("T")


def test_selector_forms_agents_write_become_playwright_selectors() -> None:
    assert to_selector("e12") == "aria-ref=e12"
    assert to_selector("f1e3") == "aria-ref=f1e3"
    assert to_selector("label=Email address") == 'internal:label="Email address"i'
    assert to_selector('label="Email"') == 'internal:label="Email"s'
    assert to_selector("placeholder=Search") == 'internal:attr=[placeholder="Search"i]'
    assert to_selector("testid=save") == 'internal:testid=[data-testid="save"s]'
    assert to_selector("role=button[name='Submit']") == "role=button[name='Submit']"
    assert to_selector("#pay >> enter-frame >> label=Card") == (
        '#pay >> internal:control=enter-frame >> internal:label="Card"i'
    )
    assert split_chain("text='a >> b' >> css=p") == ["text='a >> b'", "css=p"]


def test_every_target_form_reaches_its_element(agent_host: ServedHost, pages: Pages) -> None:
    async def body(agent: Agent) -> list[str]:
        await agent.ok("navigate", {"url": pages.url("/login")})
        snapshot = (await agent.ok("web_snapshot"))["snapshot"]
        targets = [
            find_ref(snapshot, 'textbox "Username"'),
            "#u",
            "label=Username",
            "role=textbox[name='Username']",
            'role=textbox[name="Username"]',
        ]
        seen = []
        for target in targets:
            seen.append(await agent.ok("evaluate", {"target": target, "expression": "e => e.id"}))
        await agent.ok("navigate", {"url": pages.url("/frame")})
        inner = "#inner >> enter-frame >> label=Inner name"
        await agent.ok("fill", {"target": inner, "text": "via frame"})
        seen.append(await agent.ok("evaluate", {"target": inner, "expression": "e => e.value"}))
        await agent.ok("navigate", {"url": pages.url("/blank")})
        text = await agent.ok(
            "evaluate", {"target": "text=Open the second", "expression": "e => e.tagName"}
        )
        seen.append(text)
        return seen

    assert with_agent(agent_host, body) == ["u"] * 5 + ["via frame", "A"]


def test_a_ref_not_in_the_current_snapshot_fails_at_once(
    agent_host: ServedHost, pages: Pages
) -> None:
    async def body(agent: Agent) -> tuple[float, str, str]:
        await agent.ok("navigate", {"url": pages.url("/select")})
        started = time.monotonic()
        never = await agent.fails("click", {"target": "e7"}, "stale_ref")  # no snapshot yet
        elapsed = time.monotonic() - started
        snapshot = (await agent.ok("web_snapshot"))["snapshot"]
        ref = find_ref(snapshot, "combobox")
        await agent.ok("navigate", {"url": pages.url("/select")})  # a new document
        gone = await agent.fails("dropdown_options", {"target": ref}, "stale_ref")
        return elapsed, never, gone

    elapsed, never, gone = with_agent(agent_host, body)
    # "Within a second" in the issue; < 20 s keeps a loaded machine green and still proves the
    # call did not wait for an action timeout (30 s on the served host here).
    assert elapsed < 20
    assert "take a new snapshot" in never and "take a new snapshot" in gone


def test_snapshot_of_a_part_with_depth_and_the_size_cap(
    agent_host: ServedHost, pages: Pages
) -> None:
    async def body(agent: Agent) -> tuple[Any, Any, Any]:
        await agent.ok("navigate", {"url": pages.url("/combo")})
        part = await agent.ok("web_snapshot", {"target": "#m"})
        shallow = await agent.ok("web_snapshot", {"depth": 1})
        whole = await agent.call("web_snapshot", {})
        return part, shallow, whole

    part, shallow, whole = with_agent(agent_host, body)
    assert part["snapshot"].startswith("- menu") and "Copy" in part["snapshot"]
    assert "Item 3" not in shallow["snapshot"]
    assert "Item 249" in whole.structured_content["result"]["snapshot"]
    assert text_of(whole).startswith("page: ") and "snapshot:\n- " in text_of(whole)


def test_snapshot_output_is_capped_with_a_note() -> None:
    from host.calls.core import Host

    async def run() -> dict[str, Any]:
        async with Host(host_config(snapshot_limit=300)) as host:
            html = "<ul>" + "".join(f"<li>row {i}</li>" for i in range(100)) + "</ul>"
            await host.call("k", "navigate", {"url": "data:text/html," + html})
            outcome = await host.call("k", "web_snapshot", {})
            assert outcome.ok and outcome.display is not None
            assert "[the snapshot was cut at 300 characters" in outcome.display
            return outcome.value  # type: ignore[return-value]

    value = asyncio.run(run())
    assert len(value["snapshot"]) <= 300 and "row 99" not in value["snapshot"]
    assert "pass a target" in value["truncated"]


def test_actions_answer_with_feedback_never_null(agent_host: ServedHost, pages: Pages) -> None:
    async def body(agent: Agent) -> list[Any]:
        results = [await agent.ok("navigate", {"url": pages.url("/drag")})]
        results.append(await agent.ok("hover", {"target": "#hov"}))
        results.append(await agent.ok("drag", {"target": "#src", "to": "#dst"}))
        results.append(await agent.ok("wait_for", {"text": "dropped"}))
        results.append(await agent.ok("get_text", {"target": "#hov"}))
        return results

    results = with_agent(agent_host, body)
    for feedback in results[:4]:
        assert feedback["title"] == "Drag" and feedback["tabs"] == 1
        assert feedback["url"].endswith("/drag")
    assert results[4]["text"] == "hovered"


def test_send_keys_single_keys_and_combinations(agent_host: ServedHost, pages: Pages) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("navigate", {"url": pages.url("/keys")})
        await agent.ok("send_keys", {"target": "label=Second", "keys": "Shift+Tab"})
        focused = await agent.ok("evaluate", {"expression": "document.activeElement.id"})
        await agent.ok("send_keys", {"text": "abc"})
        await agent.ok("send_keys", {"keys": "Control+a Backspace", "text": "z"})
        value = await agent.ok("evaluate", {"expression": "document.getElementById('a').value"})
        bad = await agent.fails("send_keys", {"keys": "NoSuchKey"}, "playwright_error")
        empty = await agent.fails("send_keys", {}, "missing_argument")
        return [focused, value, bad, empty]

    focused, value, bad, empty = with_agent(agent_host, body)
    assert (focused, value) == ("a", "z")
    assert "NoSuchKey" in bad and "give keys, text or both" in empty


def test_screenshot_of_the_full_page_and_of_an_element(
    agent_host: ServedHost, pages: Pages
) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("navigate", {"url": pages.url("/drag")})
        full = await agent.call("screenshot", {"fullPage": True})
        part = await agent.call("screenshot", {"target": "#src"})
        return [full, part]

    for shot in with_agent(agent_host, body):
        assert not shot.is_error and shot.content[0].type == "image"
        assert shot.structured_content["result"]["image"] == "image/png"


def test_upload_rules_each_refusal_names_its_rule(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "ok.txt").write_text("data")
    (allowed / "empty.txt").write_text("")
    (allowed / "sub").mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    os.symlink(outside, allowed / "link.txt")
    config = host_config(upload_dirs=(allowed,))

    def refusal(config: HostConfig, path: str) -> str:
        with pytest.raises(HostError) as raised:
            read_upload(config, path, 100)
        return f"{raised.value.code}: {raised.value.message}"

    assert read_upload(config, "ok.txt", 100).path == allowed / "ok.txt"
    assert read_upload(config, "ok.txt", 100).data == b"data"
    assert read_upload(config, str(allowed / "sub" / ".." / "ok.txt"), 100).name == "ok.txt"
    assert refusal(host_config(), "ok.txt").startswith("upload_disabled: rule 'uploads are off'")
    assert refusal(config, "link.txt").startswith("upload_not_allowed: rule 'no symlink'")
    assert "rule 'inside an allowed directory'" in refusal(config, "../secret.txt")
    assert "rule 'inside an allowed directory'" in refusal(config, str(outside))
    assert refusal(config, "missing.txt").startswith("upload_not_found: rule 'must exist'")
    assert refusal(config, "sub").startswith("upload_not_a_file: rule 'regular file'")
    assert refusal(config, "empty.txt").startswith("upload_empty: rule 'not empty'")


def test_upload_through_mcp_to_an_input_and_a_refusal(
    agent_host: ServedHost, pages: Pages, upload_dir: Path
) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("navigate", {"url": pages.url("/upload")})
        done = await agent.ok(
            "upload_file", {"target": "#file", "path": str(upload_dir / "report.txt")}
        )
        refused = await agent.fails(
            "upload_file", {"target": "#file", "path": "/etc/passwd"}, "upload_not_allowed"
        )
        await agent.ok("navigate", {"url": pages.url("/second")})
        no_input = await agent.fails(
            "upload_file", {"target": "h1", "path": "report.txt"}, "no_file_input"
        )
        return [done, refused, no_input]

    done, refused, no_input = with_agent(agent_host, body)
    assert done["uploaded"] == "report.txt" and done["bytes"] == 18
    assert "outside the allowed directories" in refused
    assert "not a file input" in no_input


def test_dropdown_options_of_a_menu_a_listbox_and_a_long_list(
    agent_host: ServedHost, pages: Pages
) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("navigate", {"url": pages.url("/combo")})
        menu = await agent.ok("dropdown_options", {"target": "role=button[name='Actions']"})
        many = await agent.ok("dropdown_options", {"target": "#many"})
        hidden = await agent.ok("dropdown_options", {"target": "#fruit"})
        return [menu, many, hidden]

    menu, many, hidden = with_agent(agent_host, body)
    assert [(o["text"], o["disabled"]) for o in menu["options"]] == [
        ("Copy", False),
        ("Paste", True),
    ]
    assert menu["options"][0]["target"] == 'role=menuitem[name="Copy"s]'
    assert len(many["options"]) == 200 and many["truncated"] is True
    assert hidden["truncated"] is False and [o["text"] for o in hidden["options"]] == [
        "Apple",
        "Banana",
        "Cherry",
    ]
