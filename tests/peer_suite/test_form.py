"""form.spec.ts: `browser_fill_form` fills textboxes, a slider, a select and a checkbox in one
call, with the peer's field shape ({name, type, target, value})."""

from __future__ import annotations

import json

from host_agent.agent_client import Agent, find_ref
from host_tests.host_helpers import ServedHost

from peer_suite.conftest import called, with_agent
from peer_suite.peer_site import PeerSite

SPEC = "form.spec.ts"
PEER_CASES = {
    "browser_fill_form (textbox)": "test_fill_form_fills_every_kind_of_field",
}

FORM = """<!DOCTYPE html><html><body><form>
<label><input type="text" id="name" name="name" /> Name</label>
<label><input type="email" id="email" name="email" /> Email</label>
<label><input type="range" id="age" name="age" min="18" max="100" /> Age</label>
<label><select id="country" name="country"><option value="">Choose a country</option>
<option value="us">United States</option><option value="uk">United Kingdom</option></select>
Country</label>
<label><input type="checkbox" name="subscribe" value="newsletter" /> Subscribe to newsletter</label>
</form></body></html>"""


def test_fill_form_fills_every_kind_of_field(host: ServedHost, server: PeerSite) -> None:
    server.set_content("/", FORM)

    async def body(agent: Agent) -> tuple[str, str, str]:
        await agent.ok("browser_navigate", {"url": server.PREFIX})
        _, snapshot = await called(agent, "browser_snapshot", {})
        fields = [
            ("Name textbox", "textbox", r'textbox "Name"', "John Doe"),
            ("Email textbox", "textbox", r'textbox "Email"', "john.doe@example.com"),
            ("Age textbox", "slider", r'slider "Age"', "25"),
            ("Country select", "combobox", r"combobox", "United States"),
            ("Subscribe checkbox", "checkbox", r'checkbox "Subscribe', "true"),
        ]
        _, text = await called(
            agent,
            "browser_fill_form",
            {
                "fields": [
                    {"name": name, "type": kind, "target": find_ref(snapshot, line), "value": value}
                    for name, kind, line, value in fields
                ]
            },
        )
        values = await agent.ok(
            "browser_evaluate",
            {
                "function": "() => JSON.stringify(['name', 'email', 'age', 'country'].map("
                " id => document.getElementById(id).value).concat("
                " document.querySelector('[name=subscribe]').checked))"
            },
        )
        _, after = await called(agent, "browser_snapshot", {})
        return text, values, after

    text, values, after = with_agent(host, body)
    assert json.loads(values) == ["John Doe", "john.doe@example.com", "25", "us", True], text
    # What the model reads afterwards shows the same, as the peer's snapshot does.
    assert "John Doe" in after and "john.doe@example.com" in after
    assert "checked" in after
