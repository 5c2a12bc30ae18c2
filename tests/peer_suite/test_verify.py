"""verify.spec.ts: the `testing` capability's checks (`--caps testing`). A check that holds
answers; one that does not fails with `verification_failed` saying what was looked for. Elements
and text inside an iframe count; a list check finds each item in the list; a value check reads a
textbox's, slider's or select's value and whether a checkbox or radio is checked."""

from __future__ import annotations

from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, refused, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "verify.spec.ts"
PEER_CASES = {
    "browser_verify_element_visible": "test_verify_element_visible",
    "browser_verify_element_visible (not found)": "test_verify_element_visible",
    "browser_verify_element_visible (iframe)": "test_verify_element_visible",
    "browser_verify_text_visible (iframe)": "test_verify_text_visible",
    "browser_verify_text_visible": "test_verify_text_visible",
    "browser_verify_text_visible (not found)": "test_verify_text_visible",
    "browser_verify_text_visible (with quotes)": "test_verify_text_visible",
    "browser_verify_list_visible": "test_verify_list_visible",
    "browser_verify_list_visible (partial items)": "test_verify_list_visible",
    "browser_verify_list_visible (item not found)": "test_verify_list_visible",
    "browser_verify_value (textbox)": "test_verify_value_of_textboxes",
    "browser_verify_value (textbox wrong value)": "test_verify_value_of_textboxes",
    "browser_verify_value (checkbox checked)": "test_verify_value_of_checkboxes_and_radios",
    "browser_verify_value (checkbox unchecked)": "test_verify_value_of_checkboxes_and_radios",
    "browser_verify_value (checkbox wrong value)": "test_verify_value_of_checkboxes_and_radios",
    "browser_verify_value (radio checked)": "test_verify_value_of_checkboxes_and_radios",
    "browser_verify_value (slider)": "test_verify_value_of_a_slider_and_a_select",
    "browser_verify_value (combobox)": "test_verify_value_of_a_slider_and_a_select",
}

IFRAME_PAGE = """
  <title>Test Page</title>
  <h1>Outer frame text</h1>
  <iframe srcdoc="<html><body><h1>Inner iframe</h1></body></html>" width="400" height="200">
  </iframe>
"""


async def _snapshot(agent: Agent, url: str) -> str:
    await agent.ok("browser_navigate", {"url": url})
    _, text = await called(agent, "browser_snapshot", {})
    return text


async def _holds(agent: Agent, tool: str, args: dict[str, object]) -> None:
    structured, text = await called(agent, tool, args)
    assert structured["result"]["verified"], text


def test_verify_element_visible(host: ServedHost, server: PeerSite) -> None:
    page = server.set_content(
        "/",
        """<title>Test Page</title><button>Submit</button><h1>Welcome</h1>
        <div role="alert" aria-label="Success message"></div>""",
    )
    framed = server.set_content("/framed", IFRAME_PAGE)

    async def body(agent: Agent) -> str:
        await agent.ok("browser_navigate", {"url": page})
        tool = "browser_verify_element_visible"
        await _holds(agent, tool, {"role": "button", "accessibleName": "Submit"})
        await _holds(agent, tool, {"role": "heading", "accessibleName": "Welcome"})
        # An empty alert region has no size, yet the snapshot shows it: it counts.
        await _holds(agent, tool, {"role": "alert", "accessibleName": "Success message"})
        missing = await refused(agent, tool, {"role": "button", "accessibleName": "Cancel"})
        await agent.ok("browser_navigate", {"url": framed})
        await _holds(agent, tool, {"role": "heading", "accessibleName": "Inner iframe"})
        return missing

    missing = with_agent(host, body)
    assert "[verification_failed]" in missing
    assert 'role "button"' in missing and 'accessible name "Cancel"' in missing


def test_verify_text_visible(host: ServedHost, server: PeerSite) -> None:
    page = server.set_content(
        "/",
        """<title>Test Page</title><p>Hello world</p><div>Welcome to our site</div>
        <span>Status: Active</span><p>She said "Hello world"</p><div>It's a beautiful day</div>""",
    )
    framed = server.set_content("/framed", IFRAME_PAGE)

    async def body(agent: Agent) -> str:
        await agent.ok("browser_navigate", {"url": page})
        tool = "browser_verify_text_visible"
        for text in ("Hello world", "Welcome to our site", "Status: Active"):
            await _holds(agent, tool, {"text": text})
        # Quotes of either kind are text like any other.
        await _holds(agent, tool, {"text": 'She said "Hello world"'})
        await _holds(agent, tool, {"text": "It's a beautiful day"})
        missing = await refused(agent, tool, {"text": "Goodbye world"})
        await agent.ok("browser_navigate", {"url": framed})
        await _holds(agent, tool, {"text": "Inner iframe"})
        return missing

    missing = with_agent(host, body)
    assert "[verification_failed]" in missing and "Goodbye world" in missing


def test_verify_list_visible(host: ServedHost, server: PeerSite) -> None:
    three = server.set_content(
        "/three", "<title>Test Page</title><ul><li>Apple</li><li>Banana</li><li>Cherry</li></ul>"
    )
    four = server.set_content(
        "/four",
        "<title>Test Page</title><ul><li>Apple</li><li>Banana</li><li>Cherry</li><li>Date</li></ul>",
    )
    two = server.set_content(
        "/two", "<title>Test Page</title><ul><li>Apple</li><li>Banana</li></ul>"
    )

    async def body(agent: Agent) -> str:
        tool = "browser_verify_list_visible"
        for url, items in ((three, ["Apple", "Banana", "Cherry"]), (four, ["Apple", "Cherry"])):
            target = find_ref(await _snapshot(agent, url), r"- list ")
            await _holds(agent, tool, {"element": "Fruit list", "target": target, "items": items})
        target = find_ref(await _snapshot(agent, two), r"- list ")
        return await refused(
            agent, tool, {"element": "Fruit list", "target": target, "items": ["Apple", "Cherry"]}
        )

    missing = with_agent(host, body)
    assert "[verification_failed]" in missing and "'Cherry'" in missing, missing
    assert "(at items[1])" in missing


def test_verify_value_of_textboxes(host: ServedHost, server: PeerSite) -> None:
    page = server.set_content(
        "/",
        """<title>Test Page</title><form>
        <input type="text" aria-label="Name" value="John Doe" />
        <input type="email" aria-label="Email" value="john@example.com" /></form>""",
    )

    async def body(agent: Agent) -> str:
        snapshot = await _snapshot(agent, page)
        name, email = find_ref(snapshot, 'textbox "Name"'), find_ref(snapshot, 'textbox "Email"')
        tool = "browser_verify_value"
        await _holds(
            agent,
            tool,
            {"type": "textbox", "element": "Name textbox", "target": name, "value": "John Doe"},
        )
        await _holds(
            agent,
            tool,
            {
                "type": "textbox",
                "element": "Email textbox",
                "target": email,
                "value": "john@example.com",
            },
        )
        return await refused(
            agent,
            tool,
            {"type": "textbox", "element": "Name textbox", "target": name, "value": "Jane Smith"},
        )

    wrong = with_agent(host, body)
    assert "[verification_failed]" in wrong
    assert "'Jane Smith'" in wrong and "got 'John Doe'" in wrong, wrong


def test_verify_value_of_checkboxes_and_radios(host: ServedHost, server: PeerSite) -> None:
    checked = server.set_content(
        "/checked",
        """<title>Test Page</title><form><input type="checkbox" name="subscribe" checked />
        <label for="subscribe">Subscribe to newsletter</label></form>""",
    )
    unchecked = server.set_content(
        "/unchecked",
        """<title>Test Page</title><form><input type="checkbox" name="subscribe" />
        <label for="subscribe">Subscribe to newsletter</label></form>""",
    )
    radios = server.set_content(
        "/radios",
        """<title>Test Page</title><form>
        <label for="red">Red</label><input id="red" type="radio" name="color" value="red" checked />
        <label for="blue">Blue</label><input id="blue" type="radio" name="color" value="blue" />
        </form>""",
    )

    async def body(agent: Agent) -> str:
        tool = "browser_verify_value"
        box = {"type": "checkbox", "element": "Subscribe checkbox"}
        target = find_ref(await _snapshot(agent, checked), "checkbox")
        await _holds(agent, tool, {**box, "target": target, "value": "true"})
        wrong = await refused(agent, tool, {**box, "target": target, "value": "false"})
        target = find_ref(await _snapshot(agent, unchecked), "checkbox")
        await _holds(agent, tool, {**box, "target": target, "value": "false"})
        snapshot = await _snapshot(agent, radios)
        red, blue = find_ref(snapshot, 'radio "Red"'), find_ref(snapshot, 'radio "Blue"')
        radio = {"type": "radio", "element": "Color radio"}
        await _holds(agent, tool, {**radio, "target": red, "value": "true"})
        await _holds(agent, tool, {**radio, "target": blue, "value": "false"})
        return wrong

    wrong = with_agent(host, body)
    assert "[verification_failed]" in wrong
    assert "expected checked false" in wrong and "it is true" in wrong, wrong


def test_verify_value_of_a_slider_and_a_select(host: ServedHost, server: PeerSite) -> None:
    slider = server.set_content(
        "/slider",
        """<title>Test Page</title><form>
        <input type="range" name="volume" min="0" max="100" value="75" /><label>Volume</label>
        </form>""",
    )
    select = server.set_content(
        "/select",
        """<title>Test Page</title><form><select name="country">
        <option>Choose a country</option><option selected>United States</option>
        <option>United Kingdom</option></select></form>""",
    )

    async def body(agent: Agent) -> str:
        tool = "browser_verify_value"
        target = find_ref(await _snapshot(agent, slider), "slider")
        await _holds(
            agent,
            tool,
            {"type": "slider", "element": "Volume slider", "target": target, "value": "75"},
        )
        target = find_ref(await _snapshot(agent, select), "combobox")
        combobox = {"type": "combobox", "element": "Country select", "target": target}
        await _holds(agent, tool, {**combobox, "value": "United States"})
        return await refused(agent, tool, {**combobox, "value": "United Kingdom"})

    wrong = with_agent(host, body)
    assert "[verification_failed]" in wrong and "got 'United States'" in wrong, wrong
