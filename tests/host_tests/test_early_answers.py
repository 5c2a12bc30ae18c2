"""A stdio host answers `initialize`, `tools/list` and `ping` from answers an earlier start kept,
while the SDK loads (host/transports/early_answers.py): byte for byte what the SDK answers, never for a
changed host, descriptor, toolset or flag, never from a damaged cache, and every other request
waits for the SDK in order, answered once. Real host processes over real pipes; nothing timed
(whether an answer came early is read from the host's log)."""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from host.calls.registry import ToolRegistry
from host.settings.config import HostConfig
from host.settings.secrets_file import Secrets
from host.shared.yaml_cache import YamlCache
from host.transports.early_answers import (
    MAX_ENTRIES,
    AnswerCache,
    Waiting,
    answer_prefix,
    base_key,
    plain_message,
)
from host.transports.stdio_wire import REQUEST_CANCELLED
from host_tests.host_helpers import HEADLESS_CHROMIUM, PYTHON, REPO

pytestmark = pytest.mark.browser

INITIALIZE = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "early-answers-test", "version": "1"},
}
EARLY_INITIALIZE = "answered initialize early"
EARLY_LIST = "answered tools/list early"


def command(*options: str) -> list[str]:
    return [
        PYTHON,
        "-m",
        "host",
        "serve",
        "--stdio",
        "--executable-path",
        HEADLESS_CHROMIUM,
        "--log-level",
        "info",
        *options,
    ]


def environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "XDG_CACHE_HOME": str(cache)}


class RawHost:
    """A stdio host; lines written as given, every answer line kept raw (read by a thread)."""

    def __init__(self, cache: Path, *options: str) -> None:
        self.process = subprocess.Popen(
            command(*options),
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment(cache),
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.seen: list[bytes] = []
        self.log = b""
        self.readers = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._read_log, daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def _read_log(self) -> None:
        assert self.process.stderr is not None
        self.log = self.process.stderr.read()

    def send(self, *messages: dict[str, Any]) -> None:
        """All in one write: the host reads them as one burst."""
        assert self.process.stdin is not None
        data = b"".join(
            (json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode() for message in messages
        )
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answers(self, ids: set[Any], again: Any = None) -> dict[Any, bytes]:
        """The raw answer line of each id in `ids` (waiting for all of them); the id `again`
        is expected twice (a request that reused it), its second answer under `("again", id)`."""
        found: dict[Any, bytes] = {}
        expected = set(ids) | ({("again", again)} if again is not None else set())
        while not expected <= set(found):
            line = self.lines.get(timeout=90)
            self.seen.append(line)
            request_id = json.loads(line).get("id")
            if request_id == again and request_id in found:
                request_id = ("again", again)
            assert request_id not in found, f"answered twice: {line[:200]!r}"
            found[request_id] = line
        return found

    def close(self) -> list[bytes]:
        """Close stdin, wait for the exit; the answer lines that came after those read."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            assert self.process.wait(60) == 0
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(30)
        for reader in self.readers:
            reader.join(30)
        rest = []
        while not self.lines.empty():
            rest.append(self.lines.get())
        return rest

    def text(self) -> str:
        return self.log.decode("utf-8", "replace")


def opening(cache: Path, *options: str, extra: tuple[dict[str, Any], ...] = ()) -> RawHost:
    """A host sent initialize, initialized, tools/list (id 2), ping (id 3) and `extra` at once."""
    host = RawHost(cache, *options)
    host.send(
        {"id": 1, "method": "initialize", "params": INITIALIZE},
        {"method": "notifications/initialized"},
        {"id": 2, "method": "tools/list", "params": {}},
        {"id": 3, "method": "ping"},
        *extra,
    )
    return host


def first_answers(cache: Path, *options: str) -> tuple[dict[Any, bytes], str]:
    host = opening(cache, *options)
    answers = host.answers({1, 2, 3})
    assert host.close() == []
    return answers, host.text()


def listed(line: bytes) -> dict[str, str]:
    return {tool["name"]: tool["description"] for tool in json.loads(line)["result"]["tools"]}


def test_the_early_answers_are_the_sdks_byte_for_byte(tmp_path: Path) -> None:
    cold, log = first_answers(tmp_path)
    assert EARLY_INITIALIZE not in log and EARLY_LIST not in log
    warm, log = first_answers(tmp_path)
    assert EARLY_INITIALIZE in log and EARLY_LIST in log and "answered ping early" in log
    assert warm == cold
    assert json.loads(cold[1])["result"]["protocolVersion"] == "2025-06-18"
    assert listed(cold[2])
    assert cold[3] == b'{"jsonrpc":"2.0","id":3,"result":{}}\n'


def test_a_changed_toolset_flag_or_client_is_not_answered_early(tmp_path: Path) -> None:
    previous, _ = first_answers(tmp_path)
    for options in (("--toolset", "all"), ("--toolset", "all", "--enable-execute")):
        changed, log = first_answers(tmp_path, *options)
        assert EARLY_INITIALIZE not in log and EARLY_LIST not in log, options
        assert listed(changed[2]) != listed(previous[2]), options
        again, log = first_answers(tmp_path, *options)
        assert EARLY_LIST in log and again == changed, options
        previous = changed
    _, log = first_answers(tmp_path)
    assert EARLY_LIST in log  # each kept beside the others
    host = RawHost(tmp_path)
    other_version = {**INITIALIZE, "protocolVersion": "2025-03-26"}
    host.send(
        {"id": 1, "method": "initialize", "params": other_version},
        {"method": "notifications/initialized"},
        {"id": 2, "method": "tools/list"},
    )
    answers = host.answers({1, 2})
    host.close()
    assert EARLY_INITIALIZE not in host.text() and EARLY_LIST not in host.text()
    assert json.loads(answers[1])["result"]["protocolVersion"] == "2025-03-26"


def test_a_changed_descriptor_is_not_answered_early(tmp_path: Path) -> None:
    generated = tmp_path / "generated"
    shutil.copytree(REPO / "generated", generated)
    options = ("--generated", str(generated), "--toolset", "web_framework")
    cache = tmp_path / "cache"
    first_answers(cache, *options)
    before, log = first_answers(cache, *options)
    assert EARLY_LIST in log
    assert listed(before[2])["web_bringToFront"] == "Brings page to front (activates tab)."
    descriptor = generated / "tools" / "web_bringToFront.tool.yaml"
    descriptor.write_text(
        descriptor.read_text().replace(
            "description: Brings page to front (activates tab).",
            "description: Brings the page to the front.",
        )
    )
    after, log = first_answers(cache, *options)
    assert EARLY_INITIALIZE not in log and EARLY_LIST not in log
    assert listed(after[2])["web_bringToFront"] == "Brings the page to the front."
    again, log = first_answers(cache, *options)
    assert EARLY_LIST in log and again == after


@pytest.mark.parametrize("damage", ["not json", "tampered answer", "truncated", "other key"])
def test_a_damaged_cache_is_ignored_and_written_again(tmp_path: Path, damage: str) -> None:
    cold, _ = first_answers(tmp_path)
    kept = sorted((tmp_path / "playwright-tool-host" / "early-answers").glob("*.answer"))
    assert len(kept) == 3  # initialize, tools/list, ping
    texts = {path: path.read_bytes() for path in kept}
    for path, text in texts.items():
        header, _, result = text.partition(b"\n")
        if damage == "not json":
            path.write_bytes(b"{{{ not json\n" + result)
        elif damage == "truncated":
            path.write_bytes(text[: len(text) // 2])
        elif damage == "other key":  # the answer of another request, under this one's name
            other = next(p for p in texts if p != path)
            path.write_bytes(texts[other])
        else:
            result = result.replace(b'"tools":[', b'"tools":[{"name":"x"},', 1)
            result = result.replace(b"Browser tools.", b"Other tools.").replace(b"{}", b"[]")
            path.write_bytes(header + b"\n" + result)
    answers, log = first_answers(tmp_path)
    assert EARLY_INITIALIZE not in log and EARLY_LIST not in log and "ping early" not in log
    assert answers == cold
    assert {path: path.read_bytes() for path in kept} == texts  # written again
    warm, log = first_answers(tmp_path)
    assert EARLY_LIST in log and warm == cold


def test_a_call_sent_before_the_sdk_is_ready_is_answered_once(tmp_path: Path) -> None:
    first_answers(tmp_path)
    host = opening(
        tmp_path,
        extra=(
            {"id": 4, "method": "tools/call", "params": {"name": "browser_tabs", "arguments": {}}},
            {"id": 5, "method": "tools/list"},
            {"id": 6, "method": "ping"},
            {"id": 1, "method": "ping"},  # the id of the initialize answered early: used again
        ),
    )
    answers = host.answers({1, 2, 3, 4, 5, 6}, again=1)
    rest = host.close()
    assert rest == []  # nothing answered twice, no stray answer to the replayed initialize
    assert EARLY_INITIALIZE in host.text()
    assert json.loads(answers[1])["result"]["protocolVersion"] == "2025-06-18"
    call = json.loads(answers[4])["result"]
    assert not call.get("isError"), call
    assert "about:blank" in call["content"][0]["text"]
    assert listed(answers[5]) == listed(answers[2])
    assert json.loads(answers[6])["result"] == {}
    assert answers["again", 1] == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
    assert [json.loads(line)["id"] for line in host.seen[:3]] == [1, 2, 3]


EARLY_CALL = "answered tools/call early"
CALLS = (
    ("browser_navigate", {"url": "data:text/html,<title>t</title><p>h\u00e9 \u2028 x</p>"}),
    ("browser_tabs", {"action": "list"}),
    ("no_such_tool", {}),
    ("browser_navigate", {"url": 5}),
)


def _calls(first: int) -> tuple[dict[str, Any], ...]:
    return tuple(
        {"id": first + i, "method": "tools/call", "params": {"name": name, "arguments": args}}
        for i, (name, args) in enumerate(CALLS)
    )


def test_calls_answered_early_are_the_sdks_answers_byte_for_byte(tmp_path: Path) -> None:
    ids = {1, 2, 3, *(10 + i for i in range(len(CALLS)))}
    cold_host = opening(tmp_path, extra=_calls(10))
    cold = cold_host.answers(ids)
    assert cold_host.close() == []
    assert EARLY_CALL not in cold_host.text()  # no early session yet: the SDK answered them
    warm_host = opening(tmp_path, extra=_calls(10))
    warm = warm_host.answers(ids)
    assert warm_host.close() == []
    log = warm_host.text()
    assert log.count(EARLY_CALL) == len(CALLS), log[-3000:]
    # The SDK is loaded once the first call is answered, not before.
    assert log.index(EARLY_CALL) < log.index("loading the MCP SDK"), log[-3000:]
    assert warm == cold
    assert json.loads(warm[10])["result"]["isError"] is False
    assert [json.loads(warm[10 + i])["result"]["isError"] for i in range(1, 4)] == [
        False,
        True,
        True,
    ]


def test_a_call_with_more_than_a_name_and_arguments_waits_for_the_sdk(tmp_path: Path) -> None:
    first_answers(tmp_path)
    call = {
        "id": 4,
        "method": "tools/call",
        "params": {"name": "browser_tabs", "arguments": {}, "_meta": {"progressToken": 7}},
    }
    host = opening(tmp_path, extra=(call, *_calls(10)[1:2]))
    answers = host.answers({1, 2, 3, 4, 11})
    assert host.close() == []
    assert EARLY_INITIALIZE in host.text() and EARLY_CALL not in host.text()
    assert "about:blank" in json.loads(answers[4])["result"]["content"][0]["text"]
    assert not json.loads(answers[11])["result"]["isError"]


def test_calls_answered_early_can_be_cancelled_and_are_answered_at_the_end(
    tmp_path: Path,
) -> None:
    first_answers(tmp_path)
    hang = {"name": "browser_evaluate", "arguments": {"function": "() => new Promise(() => {})"}}
    host = opening(
        tmp_path,
        extra=(
            {"id": 4, "method": "tools/call", "params": hang},
            {"method": "notifications/cancelled", "params": {"requestId": 4}},
            {"id": 5, "method": "tools/call", "params": {"name": "browser_tabs", "arguments": {}}},
            {"id": 6, "method": "tools/call", "params": hang},
            # Not ids of a call: passed on to the SDK, the reader goes on.
            *(
                {"method": "notifications/cancelled", "params": {"requestId": odd}}
                for odd in ([6], True, {"a": 1})
            ),
            {"id": 7, "method": "ping"},
        ),
    )
    answers = host.answers({1, 2, 3, 5, 7})
    assert not json.loads(answers[5])["result"]["isError"], answers[5]  # the session goes on
    rest = host.close()  # call 6 still runs: answered `cancelled` once the grace is over
    assert [json.loads(line)["id"] for line in rest] == [6], rest
    assert json.loads(rest[0])["error"]["code"] == REQUEST_CANCELLED
    assert 4 not in [json.loads(line).get("id") for line in host.seen]  # cancelled: no answer
    assert host.text().count(EARLY_CALL) == 1  # call 5


def test_after_a_malformed_line_everything_waits_for_the_sdk(tmp_path: Path) -> None:
    cold, _ = first_answers(tmp_path)
    host = RawHost(tmp_path)
    assert host.process.stdin is not None
    host.process.stdin.write(
        b"".join(
            json.dumps(message).encode() + b"\n"
            for message in (
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
            )
        )
        + b"{not json\n"
        + b'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}\n'
    )
    host.process.stdin.flush()
    answers = host.answers({1, None, 2})
    assert host.close() == []
    assert EARLY_INITIALIZE in host.text() and EARLY_LIST not in host.text()
    assert json.loads(answers[None])["error"]["code"] == -32700
    assert answers[1] == cold[1] and answers[2] == cold[2]


def test_pipelined_requests_reach_the_sdk_in_order(tmp_path: Path) -> None:
    first_answers(tmp_path)
    calls = [
        {
            "id": 10 + i,
            "method": "tools/call",
            "params": {
                "name": "browser_evaluate",
                "arguments": {"expression": f"window.trail = (window.trail || '') + '{i}'"},
            },
        }
        for i in range(6)
    ]
    host = opening(
        tmp_path,
        extra=(
            {
                "id": 4,
                "method": "tools/call",
                "params": {"name": "browser_navigate", "arguments": {"url": "about:blank"}},
            },
            *calls,
        ),
    )
    answers = host.answers({1, 2, 3, 4, *(10 + i for i in range(6))})
    assert host.close() == []
    assert EARLY_LIST in host.text()
    for i in range(6):
        result = json.loads(answers[10 + i])["result"]
        assert not result.get("isError"), result
        assert "".join(str(j) for j in range(i + 1)) in result["content"][0]["text"]


def test_the_sdk_client_is_served_from_the_cache_as_by_the_sdk(tmp_path: Path) -> None:
    log = tmp_path / "host.log"
    shell = " ".join(f"'{part}'" for part in command())
    params = StdioServerParameters(
        command="/bin/sh",
        args=["-c", f"exec {shell} 2>>'{log}'"],
        cwd=str(REPO),
        env=environment(tmp_path),
    )

    async def session() -> tuple[list[str], str]:
        async with Client(params, mode="legacy") as client:
            tools = await client.list_tools()
            result = await client.call_tool("browser_tabs", {})
            assert not result.is_error, result
            return [tool.name for tool in tools.tools], str(client.server_info)

    cold = anyio.run(session)
    assert EARLY_INITIALIZE not in log.read_text()
    warm = anyio.run(session)
    assert log.read_text().count(EARLY_INITIALIZE) == 1
    assert log.read_text().count(EARLY_LIST) == 1
    assert warm == cold


# -- the parts, without a host -------------------------------------------------------------------


def test_only_plain_messages_are_read_early() -> None:
    assert plain_message(b'{"jsonrpc":"2.0","id":1,"method":"ping"}', 10) is not None
    for line in (
        b'{"jsonrpc":"2.0","id":1,"method":"ping","id":2}',  # a duplicate key
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}',
        b'{"jsonrpc":"1.0","id":1,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[[[[[[[[[[[[1]]]]]]]]]]]}}',
        b"\xff",
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\\ud800"}}',
    ):
        assert plain_message(line, 10) is None, line
    assert answer_prefix(7) == b'{"jsonrpc":"2.0","id":7,"result":'
    assert answer_prefix("a-1") == b'{"jsonrpc":"2.0","id":"a-1","result":'
    for odd in (True, 1.0, 2**60, 'a"b', "é", "", None):
        assert answer_prefix(odd) is None, odd
    assert Waiting(None).key is None


def test_a_cache_keeps_answers_by_key_and_checks_them(tmp_path: Path) -> None:
    location = tmp_path / "answers"
    cache = AnswerCache(location)
    key = "0123456789abcdef0123456789abcdef01234567"
    assert cache.get(key) is None
    cache.put(key, b'{"tools":[]}')
    assert AnswerCache(location).get(key) == b'{"tools":[]}'
    path = location / f"{key}.answer"
    path.write_bytes(path.read_bytes().replace(b"[]", b"[1]"))
    assert AnswerCache(location).get(key) is None
    cache.put("../not-a-key", b"{}")  # not a digest: not kept
    assert [p.name for p in location.iterdir()] == [path.name]
    for n in range(MAX_ENTRIES + 3):
        cache.put(f"{n:040x}", b"{}")
    assert len(list(location.iterdir())) == MAX_ENTRIES
    assert (location / f"{MAX_ENTRIES + 2:040x}.answer").exists()
    AnswerCache(None).put(key, b"{}")  # no location: nothing kept, nothing raised


def test_the_key_covers_the_configuration_the_toolsets_and_the_secrets_names() -> None:
    registry = ToolRegistry(None, YamlCache(None))
    config = HostConfig()
    key = base_key(config, registry)
    assert base_key(HostConfig(), registry) == key
    assert base_key(dataclasses.replace(config, token="another"), registry) == key
    assert base_key(dataclasses.replace(config, codegen="python"), registry) != key
    assert base_key(dataclasses.replace(config, caps=("x",)), registry) != key
    named = dataclasses.replace(config, secrets=Secrets({"A": "1"}))
    assert base_key(named, registry) != key
    same_names = dataclasses.replace(config, secrets=Secrets({"A": "2"}))
    assert base_key(same_names, registry) == base_key(named, registry)
    toolset = registry.toolsets["web_agent"]
    registry.toolsets["web_agent"] = dataclasses.replace(toolset, tools=toolset.tools[1:])
    assert base_key(config, registry) != key
    registry.toolsets["web_agent"] = toolset
    name = sorted(registry.tools)[0]
    descriptor = registry.tools[name]
    registry.tools[name] = dataclasses.replace(descriptor, description="changed")
    assert base_key(config, registry) != key
