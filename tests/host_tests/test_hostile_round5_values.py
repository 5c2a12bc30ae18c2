"""Round five of the hostile catalogue (issue 42), the values: what a model, a page or a file
supplies never reaches Playwright's shared driver unless it is strict JSON within Playwright's
field rules (docs/ERRORS.md, rows H5V*). A storage-state file holding `NaN` (Python's `json`
reads it, the driver's `JSON.parse` exits on it) used to end every session of the host.

Real Chromium and the real driver, through `Host.call`; the options through `python -m host`."""

from __future__ import annotations

import json
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.calls.core import Host
from host.calls.results import ToolOutcome
from host_tests.host_helpers import PYTHON, REPO, LoopThread, host_config

pytestmark = pytest.mark.browser


class Calls:
    """`Host.call` from the test's thread."""

    def __init__(self, loop: LoopThread, host: Host) -> None:
        self.loop = loop
        self.host = host

    def __call__(self, key: str, name: str, args: Any) -> ToolOutcome:
        return self.loop.run(self.host.call(key, name, args))

    def ok(self, key: str, name: str, args: Any) -> Any:
        outcome = self(key, name, args)
        assert outcome.ok, outcome.text()
        return outcome.value

    def refused(self, key: str, name: str, args: Any, path: str) -> str:
        """The message of a call refused with invalid_argument at argument `path`."""
        outcome = self(key, name, args)
        assert not outcome.ok and outcome.error is not None, outcome.text()
        assert (outcome.error.code, outcome.error.path) == ("invalid_argument", path), (
            outcome.text()
        )
        return outcome.error.message


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The host's output directory and an upload directory."""
    root = tmp_path_factory.mktemp("values")
    (root / "output").mkdir()
    (root / "uploads").mkdir()
    (root / "uploads" / "fine.txt").write_text("fine")
    return root / "output", root / "uploads"


@pytest.fixture(scope="module")
def calls(loop: LoopThread, folders: tuple[Path, Path]) -> Iterator[Calls]:
    output, uploads = folders
    host = Host(host_config(output_dir=output, upload_dirs=(uploads,), caps=frozenset({"storage"})))
    loop.run(host.start())
    try:
        yield Calls(loop, host)
    finally:
        loop.run(host.close(), 60)


def _cookie(**fields: Any) -> dict[str, Any]:
    return {"name": "planted", "value": "x", "domain": "127.0.0.1", "path": "/", **fields}


def _state(text: str) -> bytes:
    return text.encode("utf-8")


def _storage_folder(calls: Calls, session: str) -> Path:
    """The session's own storage folder (a session restores only from there), found as a model
    would: from the path its first save returns."""
    saved = calls.ok(session, "browser_storage_state", {"filename": "first.json"})
    return Path(saved["path"]).parent


# Each: the file's bytes and the field its refusal names. The first three ended the driver (and
# with it every session) before; the others were sent on, or failed with Playwright's first line
# ("Error setting storage state:"), which names nothing.
BAD_STATES: dict[str, tuple[bytes, str]] = {
    "NaN expires": (
        _state(json.dumps({"cookies": [_cookie(), _cookie()]}).replace("}]", ', "expires": NaN}]')),
        "cookies[1].expires",
    ),
    "Infinity in localStorage": (
        _state(
            '{"origins": [{"origin": "http://127.0.0.1:9", "localStorage": '
            '[{"name": "k", "value": Infinity}]}]}'
        ),
        "origins[0].localStorage[0].value",
    ),
    "-Infinity expires": (
        _state(json.dumps({"cookies": [_cookie()]}).replace("}]", ', "expires": -Infinity}]')),
        "cookies[0].expires",
    ),
    "a 400-digit expires": (
        _state(
            json.dumps({"cookies": [_cookie()]}).replace("}]", ', "expires": 1' + "0" * 400 + "}]")
        ),
        "cookies[0].expires",
    ),
    "a 5,000-digit number": (
        _state('{"cookies": [], "n": ' + "7" * 5000 + "}"),
        "digits",
    ),
    "a lone surrogate": (
        _state(json.dumps({"cookies": [_cookie()]}).replace('"x"', '"\\ud800"')),
        "cookies[0].value",
    ),
    "100,000 levels deep": (b"[" * 100_000 + b"]" * 100_000, "levels deep"),
    "sameSite in lower case": (
        _state(json.dumps({"cookies": [_cookie(sameSite="lax")]})),
        "cookies[0].sameSite",
    ),
    "a negative expires": (
        _state(json.dumps({"cookies": [_cookie(expires=-5)]})),
        "cookies[0].expires",
    ),
    "null for a boolean": (
        _state(json.dumps({"cookies": [_cookie(secure=None)]})),
        "cookies[0].secure",
    ),
    "a file: origin": (
        _state(json.dumps({"origins": [{"origin": "file:///etc", "localStorage": []}]})),
        "origins[0].origin",
    ),
    "not UTF-8": (b'{"cookies": "\xff"}', "UTF-8"),
}


def test_a_bad_storage_state_is_refused_naming_the_field_and_no_session_loses_its_cookies(
    calls: Calls,
) -> None:
    calls.ok("keeper", "browser_cookie_set", {"name": "kept", "value": "1", "domain": "127.0.0.1"})
    storage = _storage_folder(calls, "restorer")
    for case, (data, field) in BAD_STATES.items():
        planted = storage / f"bad-{len(case)}-{case[:3].strip()}.json"
        planted.write_bytes(data)
        message = calls.refused(
            "restorer", "browser_set_storage_state", {"filename": planted.name}, "filename"
        )
        assert str(planted) in message and field in message, (case, message)
        # The driver is alive and the other session still holds its cookie.
        kept = calls.ok("keeper", "browser_cookie_get", {"name": "kept"})
        assert kept["cookie"] is not None and kept["cookie"]["value"] == "1", (case, kept)
    # A state saved in the session that was refused still restores there.
    cookie = {"name": "kept", "value": "1", "domain": "127.0.0.1"}
    calls.ok("restorer", "browser_cookie_set", cookie)
    saved = calls.ok("restorer", "browser_storage_state", {"filename": "good.json"})
    calls.ok("restorer", "browser_cookie_clear", {})
    calls.ok("restorer", "browser_set_storage_state", {"filename": saved["path"]})
    restored = calls.ok("restorer", "browser_cookie_get", {"name": "kept"})
    assert restored["cookie"] is not None and restored["cookie"]["value"] == "1"


@pytest.mark.parametrize("case", ["NaN expires", "100,000 levels deep", "a lone surrogate"])
def test_the_storage_state_option_refuses_a_bad_file_in_one_line(tmp_path: Path, case: str) -> None:
    data, field = BAD_STATES[case]
    state = tmp_path / "state.json"
    state.write_bytes(data)
    done = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--stdio", "--storage-state", str(state)],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("error: --storage-state: "), lines
    assert str(state.resolve()) in lines[0] and field in lines[0], lines


def test_a_number_past_a_doubles_range_is_refused_naming_the_argument(calls: Calls) -> None:
    # JavaScript reads it as Infinity; it used to reach the page as one.
    message = calls.refused(
        "numbers", "web_evaluate", {"script": "x => String(x)", "arg": [1, 10**400]}, "arg[1]"
    )
    assert "past the range" in message
    assert calls.ok("numbers", "web_evaluate", {"script": "x => x", "arg": 2**53}) == 2**53


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"name": "a\x00b"}, "name", "U+0000"),
        ({"name": "n" * 4096}, "name", "4097 bytes"),
        ({"value": "a;b"}, "value", "';'"),
        ({"name": "a=b"}, "name", "'='"),
        ({"expires": -0.5}, "expires", "-1"),
        ({"path": "relative"}, "path", "from /"),
    ],
)
def test_a_cookie_chromium_or_playwright_would_refuse_names_its_argument(
    calls: Calls, fields: dict[str, Any], path: str, words: str
) -> None:
    # Before: playwright_error "Protocol error (Storage.setCookies): Invalid cookie fields".
    args = {"name": "n", "value": "v", "domain": "127.0.0.1", **fields}
    message = calls.refused("cookies", "browser_cookie_set", args, path)
    assert words in message, message


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"name": "a\x00b"}, "name", "U+0000"),
        ({"value": "a;b"}, "value", "';'"),
        ({"path": None}, "url", "a url, or a domain and a path"),
        ({"url": "https://127.0.0.1/"}, "domain", "not both"),
    ],
)
def test_web_cookie_add_refuses_the_same_cookies_naming_which(
    calls: Calls, fields: dict[str, Any], path: str, words: str
) -> None:
    # Before: playwright_error "Protocol error (Storage.setCookies): Invalid cookie fields".
    bad = {"name": "n", "value": "v", "domain": "127.0.0.1", "path": "/", **fields}
    cookies = [{"name": "fine", "value": "1", "domain": "127.0.0.1", "path": "/"}, bad]
    cookies[1] = {k: v for k, v in bad.items() if v is not None}
    message = calls.refused("cookies", "web_cookie_add", {"cookies": cookies}, f"cookies[1].{path}")
    assert words in message, message
    assert calls.ok("cookies", "web_cookie_list", {}) == []  # nothing added: refused before


ODD_PATHS = {"a NUL": "a\x00b.txt", "a 4,096-character name": "a" * 4096, "too long": "a/" * 2100}


@pytest.mark.parametrize("odd", list(ODD_PATHS))
def test_an_odd_file_path_is_an_invalid_argument_naming_it(calls: Calls, odd: str) -> None:
    # Before: call_failed with Python's "ValueError: embedded null byte" or OSError text.
    raw = ODD_PATHS[odd]
    for tool, args, path in [
        ("browser_drop", {"target": "#d", "paths": ["fine.txt", raw]}, "paths[1]"),
        ("browser_file_upload", {"target": "#f", "paths": [raw]}, "paths[0]"),
        ("browser_set_storage_state", {"filename": raw}, "filename"),
        ("webBrowser", {"action": "upload_file", "selector": "#f", "filePath": raw}, "filePath"),
    ]:
        message = calls.refused("paths", tool, args, path)
        assert "Error" not in message and "errno" not in message.lower(), message


# -- options and config files (no browser: each is refused before one starts) ------------------


def _host(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """`python -m host ARGV` run to its end, with no input."""
    return subprocess.run(
        [PYTHON, "-m", "host", *argv],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _serve(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return _host("serve", "--stdio", *argv, cwd=cwd)


def _one_line_refusal(done: subprocess.CompletedProcess[str], *words: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr[-3000:]
    assert "Traceback" not in lines[0] and len(lines[0]) < 600, lines[0][:1000]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.mark.parametrize(
    ("command", "option", "value", "words"),
    [
        ("serve --stdio", "--max-connections", "2", "at least 8 (default 512)"),
        ("serve --stdio", "--http-header-timeout", "nan", "0.5"),
        ("executor --bind 127.0.0.1:0", "--max-concurrent", "0", "at least 1 (default 16)"),
        ("executor --bind 127.0.0.1:0", "--max-body-bytes", "10", "at least 1024"),
        ("executor --bind 127.0.0.1:0", "--step-timeout-ms", "5", "at least 100"),
        ("executor --bind 127.0.0.1:0", "--timeout-ms", "999999999", "at most 120000"),
    ],
)
def test_numbers_out_of_range_are_refused_not_changed(
    command: str, option: str, value: str, words: str
) -> None:
    # Before: raised to the least allowed without a word.
    _one_line_refusal(_host(*command.split(), option, value), option, words)


def test_a_port_in_use_stops_either_server_with_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        for command in (["serve", "--http", address], ["executor", "--bind", address]):
            _one_line_refusal(_host(*command), f"cannot listen on {address}")


LONG_NUMBER = "9" * 5000
"""Past Python's limit on the digits int() reads (4300)."""


@pytest.mark.parametrize("value", ["0", "-1", LONG_NUMBER, "1.5"])
def test_max_sessions_takes_a_whole_number_of_at_least_one(value: str) -> None:
    _one_line_refusal(_serve("--max-sessions", value), "--max-sessions", "at least 1")


@pytest.mark.parametrize("value", [LONG_NUMBER, "\u00b2", "65536"])
def test_a_port_past_the_digit_limit_or_not_in_ascii_digits_is_refused_in_one_line(
    value: str,
) -> None:
    done = subprocess.run(
        [PYTHON, "-m", "host", "serve", "--port", value],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    _one_line_refusal(done, "--port", "give a port from 0 to 65535")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('idle-timeout: "-Infinity"\n', ["'idle-timeout'", "-Infinity", "--idle-timeout"]),
        ("idle-timeout: -.inf\n", ["'idle-timeout'", "--idle-timeout"]),
        (f"max-sessions: {LONG_NUMBER}\n", ["'max-sessions'", "99999", "characters"]),
        ("max-sessions: 0\n", ["'max-sessions'", "at least 1", "'0'"]),
        ('headed: "yes"\n', ["'headed'", "true or false", '"yes"']),
        ("viewport-size: {width: 800}\n", ["'viewport-size'", "width"]),
        ("viewport-size: [\n  800x600\n", ["not valid YAML", "line 3"]),
    ],
)
def test_a_config_value_is_a_value_or_refused_naming_file_key_and_value(
    tmp_path: Path, text: str, words: list[str]
) -> None:
    config = tmp_path / "host.yaml"
    config.write_text(text)
    _one_line_refusal(_serve("--config", str(config)), str(config), *words)


def test_a_json_config_with_a_number_past_the_digit_limit_is_refused_by_key(
    tmp_path: Path,
) -> None:
    config = tmp_path / "host.json"
    config.write_text('{"max-sessions": ' + LONG_NUMBER + "}")
    _one_line_refusal(_serve("--config", str(config)), str(config), "'max-sessions'")


def test_a_config_value_that_looks_like_an_option_stays_a_value(tmp_path: Path) -> None:
    from host.commands.cli import build_parser, subcommands
    from host.settings.config_file import with_config

    config = tmp_path / "host.yaml"
    config.write_text('user-agent: "--enable-execute"\ntoolset: "--caps=storage"\n')
    parser = build_parser()
    argv, _ = with_config(
        subcommands(parser).choices["serve"], ["--stdio", "--config", str(config)]
    )
    args = parser.parse_args(["serve", *argv])
    assert args.user_agent == "--enable-execute" and args.enable_execute is False
    assert args.toolset == ["--caps=storage"] and args.caps == []


IDB_SCRIPT = """() => new Promise((resolve, reject) => {
  localStorage.setItem('flavour', 'oat');
  const open = indexedDB.open('shop', 3);
  open.onupgradeneeded = () => {
    const store = open.result.createObjectStore('carts', { keyPath: 'id' });
    store.createIndex('by_owner', ['owner', 'id'], { unique: false, multiEntry: false });
  };
  open.onsuccess = () => {
    const tx = open.result.transaction('carts', 'readwrite');
    tx.objectStore('carts').put({ id: 1, owner: 'ann', items: [{ sku: 'a', n: 2.5 }], at: new Date(0) });
    tx.oncomplete = () => resolve(true);
    tx.onerror = () => reject(tx.error);
  };
  open.onerror = () => reject(open.error);
})"""


def test_a_state_playwright_saved_with_indexeddb_passes_the_rules_and_restores(
    calls: Calls, app: Any
) -> None:
    # The rules mirror Playwright's; a state Playwright itself wrote (IndexedDB and all) passes.
    calls.ok("idb", "browser_navigate", {"url": app.url("/page")})
    assert calls.ok("idb", "web_evaluate", {"script": IDB_SCRIPT}) is True
    state = calls.ok("idb", "web_context_storageState", {"indexedDB": True})
    databases = state["origins"][0]["indexedDB"]
    assert databases[0]["name"] == "shop" and databases[0]["stores"][0]["records"], state
    saved = _storage_folder(calls, "idb-restored") / "with-idb.json"
    saved.write_text(json.dumps(state))
    calls.ok("idb-restored", "browser_set_storage_state", {"filename": saved.name})
    calls.ok("idb-restored", "browser_navigate", {"url": app.url("/page")})
    assert calls.ok("idb-restored", "web_evaluate", {"script": "localStorage.flavour"}) == "oat"


def _one(**fields: Any) -> bytes:
    return json.dumps({"cookies": [_cookie(**fields)]}).encode()


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (_one(url="http://a.example/"), "cookies[0].domain", "not both"),
        (
            json.dumps({"cookies": [{"name": "a", "value": "b", "url": "ftp://a/", "path": "/"}]}),
            "cookies[0].path",
            "not both",
        ),
        (
            json.dumps({"cookies": [{"name": "a", "value": "b", "url": "ftp://a/"}]}),
            "cookies[0].url",
            "http(s)",
        ),
        (
            json.dumps({"cookies": [{"name": "a", "value": "b", "domain": "x"}]}),
            "cookies[0].url",
            "a domain and a path",
        ),
        (
            json.dumps({"cookies": [{"value": "b", "domain": "x", "path": "/"}]}),
            "cookies[0].name",
            "missing",
        ),
        (_one(name="", value=""), "cookies[0].name", "a name or a value"),
        (_one(expires=253402300800), "cookies[0].expires", "253402300799"),
        (_one(httpOnly="yes"), "cookies[0].httpOnly", "true or false"),
        (json.dumps({"cookies": {}}), "cookies", "a list"),
        (
            json.dumps({"origins": [{"origin": "garbage", "localStorage": []}]}),
            "origins[0].origin",
            "http(s)",
        ),
        (
            json.dumps({"origins": [{"origin": "https://a.example"}]}),
            "origins[0].localStorage",
            "missing",
        ),
        (
            json.dumps(
                {
                    "origins": [
                        {
                            "origin": "https://a.example",
                            "localStorage": [],
                            "indexedDB": [{"name": "d", "version": 1.5, "stores": []}],
                        }
                    ]
                }
            ),
            "origins[0].indexedDB[0].version",
            "whole number",
        ),
        (
            json.dumps(
                {
                    "origins": [
                        {
                            "origin": "https://a.example",
                            "localStorage": [],
                            "opfs": [{"path": "/x", "type": "link"}],
                        }
                    ]
                }
            ),
            "origins[0].opfs[0].type",
            "file, directory",
        ),
        (
            json.dumps(
                {"credentials": [{"id": "i", "rpId": "r", "userHandle": "u", "privateKey": "k"}]}
            ),
            "credentials[0].publicKey",
            "missing",
        ),
        (b'"a state"', "the top level", "an object"),
    ],
)
def test_every_field_rule_of_playwright_names_the_field(
    data: str | bytes, field: str, words: str
) -> None:
    from host.settings.storage_state import storage_state_from
    from host.shared.errors import HostError

    with pytest.raises(HostError) as refused:
        storage_state_from(data.encode() if isinstance(data, str) else data, "/x/state.json")
    error = refused.value
    assert (error.code, error.path) == ("invalid_argument", "filename")
    assert f"/x/state.json is not a storage state this host can restore: {field}: " in error.message
    assert words in error.message, error.message


def test_what_playwright_accepts_passes() -> None:
    from host.settings.storage_state import storage_state_from

    for state in [
        {},
        {"cookies": [], "origins": []},
        {
            "cookies": [
                _cookie(expires=0),
                _cookie(expires=-1),
                _cookie(expires=253402300799),
            ]
        },
        {"cookies": [{"name": "", "value": "only a value", "url": "https://a.example/x"}]},
        {"cookies": [_cookie(sameSite="None", secure=True, partitionKey="https://a.example")]},
        {
            "origins": [
                {"origin": "http://[::1]:8080", "localStorage": [{"name": "k", "value": "é"}]}
            ]
        },
        {"cookies": [], "extra": {"left": "alone"}},
    ]:
        assert storage_state_from(json.dumps(state).encode(), "s.json") == state
