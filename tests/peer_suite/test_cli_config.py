"""cli-config.spec.ts: `playwright-cli open` with a config file, `--mobile` and `--device`, and
`config-print`. The device options and a config file are this host's too (`serve --mobile`,
`--device`, `--config`), checked as the page sees them; the peer's own config file places
(`.playwright/cli.config.json`, a global one under the home folder) and its `config-print` are
the program's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from host_tests.host_helpers import serve_host
from mcp import Client

from peer_suite.cli_pages import cli_only
from peer_suite.peer_site import PeerSite

SPEC = "cli-config.spec.ts"
PEER_CASES = {
    "user-data-dir": cli_only("its config file's browser.userDataDir used by `open --persistent`"),
    "context options": "test_a_config_file_with_a_byte_order_mark_sets_the_viewport",
    "--mobile emulates a mobile viewport": "test_mobile_and_device_emulate_their_viewport",
    "--device emulates the given device": "test_mobile_and_device_emulate_their_viewport",
    "config-print prints merged config": (
        "differs: config-print calls the peer's browser_get_config (its `config` capability), "
        "which prints its resolved config in its own nested format; this host does not show "
        "its options to the model (they are the operator's: `serve --help`, docs/host.md)"
    ),
    "config-print prints merged config from file, env and cli": (
        "differs: config-print calls the peer's browser_get_config, the peer's config merged "
        "from its file, environment and command line in its own format; this host does not "
        "show its options to the model (a config file's values yield to the command line: "
        "host_tests/test_host_options.py)"
    ),
    "context options with UTF-8 BOM": "test_a_config_file_with_a_byte_order_mark_sets_the_viewport",
    "isolated": cli_only("no profile folder under its daemon folder with browser.isolated"),
    "global config": cli_only("a global config file under the home folder"),
    "project config overrides global config": cli_only(
        "its project config file winning over its global one"
    ),
}

VIEWPORT_PAGE = (
    '<head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body></body>'
)
SIZE = '() => window.innerWidth + "x" + window.innerHeight'


def page_value(options: list[str], url: str, expression: str) -> object:
    """`expression` evaluated on `url` in a host started with `options`."""
    served = serve_host(*options)

    async def run() -> object:
        async with Client(served.mcp_url) as client:
            opened = await client.call_tool("browser_navigate", {"url": url})
            assert not opened.is_error, opened.content
            result = await client.call_tool("browser_evaluate", {"function": expression})
            assert not result.is_error, result.content
            return (result.structured_content or {})["result"]

    try:
        return asyncio.run(run())
    finally:
        served.stop()


def test_mobile_and_device_emulate_their_viewport(server: PeerSite) -> None:
    server.set_content("/", VIEWPORT_PAGE)
    # Pixel 10 (the peer's --mobile device) and iPhone 15 device widths.
    assert page_value(["--mobile"], server.PREFIX, "window.innerWidth") == 360
    assert page_value(["--device", "iPhone 15"], server.PREFIX, "window.innerWidth") == 393


def test_a_config_file_with_a_byte_order_mark_sets_the_viewport(
    server: PeerSite, tmp_path: Path
) -> None:
    config = tmp_path / "host.json"
    # As some Windows editors (Notepad, PowerShell) write it: a UTF-8 byte order mark first.
    config.write_text("\ufeff" + json.dumps({"viewport-size": "800x600"}), encoding="utf-8")
    assert page_value(["--config", str(config)], server.EMPTY_PAGE, SIZE) == "800x600"
