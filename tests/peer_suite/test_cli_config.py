"""cli-config.spec.ts: `playwright-cli open` with a config file, `--mobile` and `--device`, and
`config-print`. A config file and the device options are this host's too (`serve --config`,
`--mobile`, `--device`), already checked in a real page by the host's tests, which the ledger
names; the peer's own config file places (`.playwright/cli.config.json`, a global one under the
home folder) and its `config-print` are the program's."""

from __future__ import annotations

import json
from pathlib import Path

from host_tests.test_peer_options import config_of

from peer_suite.cli_pages import cli_only

SPEC = "cli-config.spec.ts"
PEER_CASES = {
    "user-data-dir": cli_only("its config file's browser.userDataDir used by `open --persistent`"),
    "context options": (
        "host_tests/test_host_options.py::test_a_config_file_applies_and_the_command_line_wins"
    ),
    "--mobile emulates a mobile viewport": (
        "host_tests/test_peer_options.py::test_the_peers_names_set_our_values_in_the_peers_units"
    ),
    "--device emulates the given device": (
        "host_tests/test_host_options.py::"
        "test_a_device_an_init_script_and_a_storage_state_show_in_the_page"
    ),
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
    "context options with UTF-8 BOM": "test_a_config_file_with_a_byte_order_mark_is_read",
    "isolated": cli_only("no profile folder under its daemon folder with browser.isolated"),
    "global config": cli_only("a global config file under the home folder"),
    "project config overrides global config": cli_only(
        "its project config file winning over its global one"
    ),
}


def test_a_config_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    config = tmp_path / "host.json"
    # As some Windows editors (Notepad, PowerShell) write it: a UTF-8 byte order mark first.
    config.write_text("\ufeff" + json.dumps({"viewport-size": "800x600"}), encoding="utf-8")
    _, settings = config_of("--stdio", config=config)
    assert settings.browser.viewport == (800, 600)
