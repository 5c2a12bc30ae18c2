"""What `python -m host` and `playwright-tool-host` run first: for `serve --stdio`, Playwright's
driver is started (`host.browsers.early_driver`) before the rest of the host, the MCP SDK and
Playwright are imported, and the command line (`cli`) runs meanwhile.

Guarantees: the driver is started early only for `serve --stdio` with none of the options that
may bring a browser from elsewhere or change the driver's environment (`NOT_EARLY`, abbreviated
or not), nor `--help`; whatever is started early and not used by the host is killed and reaped
before `main` returns, however it returns. For `serve`, a SIGTERM is handled from the first thing
`main` does, before anything is imported or started: one that arrives while the host starts ends
it as one that arrives while it serves does, with status 0 and nothing left running (the driver
started early killed and reaped); once serving, the serving loop takes SIGTERM over
(`host.commands.serve`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence

from host.commands.terminate import exit_cleanly

NOT_EARLY = (
    "--browser-endpoint",
    "--cdp-endpoint",
    "--config",
    "--save-video",
    "--selenium-capabilities",
    "--help",
)
"""`serve` options after which no driver is started early: a browser reached elsewhere (whose
driver would differ, or would be wasted), a config file that may say so (it is not read here),
a video encoder that changes the driver's environment, or no serving at all."""


def starts_driver_early(arguments: Sequence[str]) -> bool:
    """Whether `arguments` (the command line, without the program) are `serve --stdio` with no
    option of `NOT_EARLY` (nor a prefix of one, which argparse takes for it)."""
    if not arguments or arguments[0] != "serve" or "--stdio" not in arguments:
        return False
    for argument in arguments[1:]:
        if argument == "-h":
            return False
        name = argument.split("=", 1)[0]
        if len(name) > 2 and name.startswith("--") and any(o.startswith(name) for o in NOT_EARLY):
            return False
    return True


def main() -> int:
    """The command line (`host.commands.cli.main`), Playwright's driver started ahead of it
    when `starts_driver_early`; for `serve`, SIGTERM handled before either."""
    if sys.argv[1:2] == ["serve"]:
        # First: a SIGTERM in the start (a second, several under load) found Python's default,
        # which ended the host at once, before `discard()` could stop the driver started early.
        signal.signal(signal.SIGTERM, exit_cleanly)
    from host.browsers import early_driver

    if starts_driver_early(sys.argv[1:]):
        early_driver.spawn()
    try:
        from host.commands.cli import main as cli_main

        status = cli_main()
    finally:
        early_driver.discard()
    if status == 0 and sys.argv[1:2] == ["serve"] and "--stdio" in sys.argv:
        _exit_now(status)  # served and closed everything (a refusal returns as any command)
    return status


def _exit_now(status: int) -> None:
    """End a stdio host that has closed everything (its sessions, browser, driver, trails) at
    once: the interpreter's own teardown of the SDK's modules is a tenth of a second more that
    the client waits for when it closes the session."""
    import logging

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)
