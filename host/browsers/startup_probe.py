"""Checks at start what only Playwright can judge: a device name, the permissions, a storage
state's contents, an init script that throws.

Guarantees: `probe_options` raises `OptionError` naming the option and the fix for the first
value Playwright refuses, so a bad value stops the host at start and never fails a call later;
it runs only when such an option was given (`BrowserOptions.needs_probe`), in a browser of its
own that it closes before returning.
"""

from __future__ import annotations

import difflib
import tempfile
from typing import Any

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from host.browsers.browser import BrowserPool
from host.settings.browser_options import OptionError
from host.settings.config import HostConfig
from host.shared.errors import HostError

_PROBE_PAGE = "data:text/html,<title>probe</title>"


async def probe_options(config: HostConfig) -> None:
    """Launch the configured browser, try the options that need it, close it."""
    # The probe's own browser: a persistent profile stays untouched until the host uses it.
    pool = BrowserPool(_without_profile(config))
    try:
        try:
            browser = await pool.browser(config.launch_timeout + 5)
        except HostError as error:
            raise OptionError(
                "--executable-path", f"{error.message} (needed to check the browser options)"
            ) from None
        options = config.browser
        if options.device:
            devices = pool.devices()
            if options.device not in devices:
                close = difflib.get_close_matches(options.device, list(devices), n=3, cutoff=0.5)
                hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
                raise OptionError(
                    "--device",
                    f"Playwright knows no device {options.device!r}{hint} (the names are those "
                    "of playwright.devices)",
                )
        if options.permissions:
            await _try(browser, "--grant-permissions", {"permissions": list(options.permissions)})
        if options.storage_state:
            await _try(browser, "--storage-state", {"storage_state": options.storage_state.value()})
        if options.save_video:
            with tempfile.TemporaryDirectory() as folder:
                await _try(browser, "--save-video", {"record_video_dir": folder}, open_page=True)
        for script in options.init_scripts:
            await _run_init_script(browser, script.path.name, script.source)
    finally:
        await pool.close()


def _without_profile(config: HostConfig) -> HostConfig:
    import dataclasses

    browser = dataclasses.replace(config.browser, user_data_dir=None)
    return dataclasses.replace(config, browser=browser, enable_execute=False)


async def _try(
    browser: Browser, option: str, kwargs: dict[str, Any], *, open_page: bool = False
) -> None:
    context = None
    try:
        context = await browser.new_context(**kwargs)
        if open_page:
            await context.new_page()
    except PlaywrightError as error:
        message = str(error.message).splitlines()[0].split(": ", 1)[-1]
        raise OptionError(option, f"Playwright refuses it: {message}") from None
    finally:
        if context is not None:
            await context.close()


async def _run_init_script(browser: Browser, name: str, source: str) -> None:
    context = await browser.new_context()
    try:
        await context.add_init_script(source)
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(_PROBE_PAGE)
        if errors:
            raise OptionError(
                "--init-script",
                f"{name} throws when a page loads: {errors[0][:300]}; fix the script or leave it out",
            )
    finally:
        await context.close()
