"""Issue 11 item 3: playwright_execute through MCP; off unless enabled, failure as content,
code that never returns stopped at the timeout with the session still usable."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from host_tests.host_helpers import ServedHost, serve_host
from mcp import Client

from host.calls.registry import ToolRegistry
from host.settings.limits import execute_timeout
from host_agent.agent_client import Agent, text_of
from host_agent.agent_pages import Pages

pytestmark = pytest.mark.browser


def run_agent(host: ServedHost, body: Any) -> Any:
    async def run() -> Any:
        async with Client(host.mcp_url) as client:
            return await body(Agent(client))

    return asyncio.run(run())


def test_timeout_sec_is_clamped_as_the_seed_clamps_it_and_the_schema_says_so() -> None:
    """Seed 000's contract: default 60, at most 300, below 1 the default; never refused."""
    assert execute_timeout({}) == 60
    assert execute_timeout({"timeout_sec": 1}) == 1
    assert execute_timeout({"timeout_sec": 42.5}) == 42.5
    assert execute_timeout({"timeout_sec": 0.5}) == 60
    assert execute_timeout({"timeout_sec": -3}) == 60
    assert execute_timeout({"timeout_sec": 300.5}) == 300
    assert execute_timeout({"timeout_sec": 1000}) == 300
    registry = ToolRegistry()
    descriptor = registry.tools[registry.resolve("playwright_execute")]
    schema = descriptor.parameters["properties"]["timeout_sec"]  # type: ignore[index]
    assert "minimum" not in schema and "maximum" not in schema  # type: ignore[operator]
    assert "clamped" in schema["description"]  # type: ignore[index]
    for outside in (0.5, 300.5, 1000, -1):
        registry.prepare(descriptor, {"code": "return 1", "timeout_sec": outside})  # accepted
    description = descriptor.description
    assert "60" in description and "at most 300" in description and "clamped" in description
    assert "result_too_large" in description
    assert "Locals do not persist" in description and "browser session does" in description
    assert "No screenshot" in description


def test_timeouts_outside_the_range_run_and_an_oversized_return_is_result_too_large(
    agent_host: ServedHost,
) -> None:
    async def body(agent: Agent) -> list[Any]:
        low = await agent.call("playwright_execute", {"code": "return 1", "timeout_sec": 0})
        high = await agent.call("playwright_execute", {"code": "return 2", "timeout_sec": 10**6})
        huge = await agent.call("playwright_execute", {"code": "return 'x' * (5 * 1024 * 1024)"})
        return [low, high, huge]

    low, high, huge = run_agent(agent_host, body)
    assert not low.is_error and low.structured_content["result"] == 1, text_of(low)
    assert not high.is_error and high.structured_content["result"] == 2, text_of(high)
    assert huge.is_error and "Error [result_too_large]" in text_of(huge), text_of(huge)
    assert "more than the host's limit" in text_of(huge)


def test_code_runs_on_the_current_tab_with_stdout_stderr_and_json_result(
    agent_host: ServedHost, pages: Pages
) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("navigate", {"url": pages.url("/select")})
        code = (
            "import sys\n"
            "print('hello', 1)\n"
            "sys.stderr.write('careful\\n')\n"
            "await page.select_option('#color', 'b')\n"
            "await context.add_cookies([{'name': 'k', 'value': 'v', 'url': page.url}])\n"
            "return {'title': await page.title(), 'out': await page.inner_text('#out'),\n"
            "        'cookies': [c['name'] for c in await context.cookies()]}"
        )
        first = await agent.call("playwright_execute", {"code": code})
        odd = await agent.call("playwright_execute", {"code": "return {1, 2}"})
        locals_gone = await agent.call("playwright_execute", {"code": "return code"})
        cookie = await agent.ok("evaluate", {"expression": "document.cookie"})
        return [first, odd, locals_gone, cookie]

    first, odd, locals_gone, cookie = run_agent(agent_host, body)
    assert not first.is_error
    assert first.structured_content == {
        "success": True,
        "result": {"title": "Select", "out": "chose b", "cookies": ["k"]},
        "stdout": "hello 1\n",
        "stderr": "careful\n",
        "error": None,
    }
    assert "stdout:\nhello 1" in text_of(first) and first.content[0].type == "text"
    assert len(first.content) == 1  # no screenshot appended
    assert (
        odd.structured_content["result"] == "{1, 2}"
        and "not JSON" in odd.structured_content["note"]
    )
    assert locals_gone.is_error and "NameError" in text_of(locals_gone)  # nothing persists
    assert cookie == "k=v"  # ... but the browser session does


def test_an_exception_is_content_the_model_can_correct_from(agent_host: ServedHost) -> None:
    async def body(agent: Agent) -> list[Any]:
        failed = await agent.call(
            "playwright_execute",
            {"code": "print('before')\nx = 1\nraise ValueError(f'bad value {x}')"},
        )
        syntax = await agent.call("playwright_execute", {"code": "return (("})
        return [failed, syntax]

    failed, syntax = run_agent(agent_host, body)
    assert failed.is_error
    text = text_of(failed)
    assert "Error [execution_error] playwright_execute: ValueError: bad value 1" in text
    assert "line 3, in __execute__" in text and "stdout:\nbefore" in text
    structured = failed.structured_content
    assert structured["success"] is False and structured["result"] is None
    assert structured["stdout"] == "before\n" and structured["error"].startswith("ValueError")
    assert syntax.is_error and "SyntaxError" in text_of(syntax) and "line 1" in text_of(syntax)


@pytest.mark.parametrize(
    "code", ["while True:\n    pass", "import time\ntime.sleep(1000)"], ids=["busy", "sleep"]
)
def test_code_that_never_returns_is_stopped_and_the_session_stays_usable(
    agent_host: ServedHost, pages: Pages, code: str
) -> None:
    async def body(agent: Agent) -> list[Any]:
        await agent.ok("navigate", {"url": pages.url("/second")})
        stopped = await agent.call("playwright_execute", {"code": code, "timeout_sec": 1.5})
        after = await agent.call("playwright_execute", {"code": "return await page.title()"})
        tool = await agent.ok("get_text", {"target": "h1"})
        return [stopped, after, tool]

    stopped, after, tool = run_agent(agent_host, body)
    assert stopped.is_error and "Error [timeout]" in text_of(stopped)
    assert "did not finish within 1.5 s and was stopped" in text_of(stopped)
    assert stopped.structured_content["success"] is False
    assert not after.is_error and after.structured_content["result"] == "Second page"
    assert tool["text"] == "Second"


@pytest.fixture(scope="module")
def plain_host() -> Iterator[ServedHost]:
    """A host started without --enable-execute, listing every tool."""
    host = serve_host("--toolset", "all")
    yield host
    host.stop()


def test_off_unless_enabled_absent_from_the_listing_and_refused_everywhere(
    plain_host: ServedHost,
) -> None:
    async def body(agent: Agent) -> tuple[list[str], str]:
        names = [t.name for t in (await agent.client.list_tools()).tools]
        refused = await agent.fails("playwright_execute", {"code": "return 1"}, "tool_disabled")
        return names, refused

    names, refused = run_agent(plain_host, body)
    assert "browser_execute_python" not in names and "browser_snapshot" in names
    assert "--enable-execute" in refused
    envelope = {
        "version": 1,
        "session_id": "s",
        "invocation_id": "i",
        "action": {
            "type": "call_tool",
            "tool_name": "playwright_execute",
            "arguments_json": json.dumps({"code": "return 1"}),
        },
    }
    request = urllib.request.Request(
        plain_host.base + "/scripting/callback",
        data=json.dumps(envelope).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.loads(response.read())["result"]
    assert answer["success"] is False and "[tool_disabled]" in answer["error_message"]
