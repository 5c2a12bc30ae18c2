"""The worker process of `playwright_execute`: runs one caller's code, then exits.

Started by `host.tools.browser_execute_python` ahead of need (Python and Playwright already imported), it reads one job
from stdin, connects to the host's browser over CDP, finds the session's current tab by its CDP
target id, and runs the code as the body of `async def(page, context, browser)`. `context` is a
proxy whose methods run on the session's real BrowserContext in the host (over this process's
stdin and stdout), because a CDP client sees other clients' contexts only as pages of the default
context. Its answer is one JSON line `{"done": {success, result, stdout, stderr, error}}` on
the protocol stream (the original stdout; the code's own stdout and stderr are captured).
The host kills the whole process group when the code overruns its time limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sys
import textwrap
import traceback
from typing import IO, Any

from playwright.async_api import Browser, Page, async_playwright

OUTPUT_LIMIT = 64 * 1024
RESULT_LIMIT = 4 * 1024 * 1024
"""The largest return value sent back (as JSON characters), unless the job names another."""
CONTEXT_METHODS = frozenset(
    {
        "add_cookies",
        "add_init_script",
        "clear_cookies",
        "clear_permissions",
        "cookies",
        "grant_permissions",
        "new_page",
        "set_extra_http_headers",
        "set_geolocation",
        "set_offline",
        "storage_state",
    }
)


class Protocol:
    """JSON lines to the host (the original stdout) and answers from it (stdin)."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.counter = 0

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message) + "\n")
        self.out.flush()

    def rpc(self, method: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        self.counter += 1
        self.send({"rpc": self.counter, "method": method, "args": args, "kwargs": kwargs})
        answer = json.loads(sys.stdin.readline() or "{}")
        if not answer.get("ok"):
            raise RuntimeError(answer.get("error") or "the host did not answer")
        return answer.get("value")


class SessionContext:
    """`context` inside playwright_execute: the session's BrowserContext, reached through the host."""

    def __init__(self, protocol: Protocol, browser: Browser, pages: dict[str, Page]) -> None:
        self._protocol = protocol
        self._pages = pages
        self.browser = browser

    @property
    def pages(self) -> list[Page]:
        ids = self._protocol.rpc("pages", [], {})
        return [self._pages[i] for i in ids if i in self._pages]

    def __getattr__(self, name: str) -> Any:
        if name not in CONTEXT_METHODS:
            raise AttributeError(
                f"context.{name} is not available in playwright_execute (the session's context "
                f"is reached through the host); available: {', '.join(sorted(CONTEXT_METHODS))}. "
                "Use page's own API (page.route, page.on, page.expect_response, ...) instead"
            )

        async def method(*args: Any, **kwargs: Any) -> Any:
            value = self._protocol.rpc(name, list(args), kwargs)
            if name == "new_page":
                await _map_pages(self.browser, self._pages)
                return self._pages[value]
            return value

        return method


async def _map_pages(browser: Browser, pages: dict[str, Page]) -> None:
    for context in browser.contexts:
        for page in context.pages:
            if page in pages.values():
                continue
            session = await context.new_cdp_session(page)
            try:
                info = await session.send("Target.getTargetInfo")
            finally:
                await session.detach()
            pages[str(info["targetInfo"]["targetId"])] = page


def _clip(text: str) -> str:
    if len(text) <= OUTPUT_LIMIT:
        return text
    return text[:OUTPUT_LIMIT] + f"\n... [{len(text) - OUTPUT_LIMIT} more characters]"


def to_json(value: Any) -> tuple[Any, str | None]:
    try:
        json.dumps(value)
        return value, None
    except (TypeError, ValueError):
        return str(
            value
        ), f"the return value ({type(value).__name__}) is not JSON; given as its text"


async def run(job: dict[str, Any], protocol: Protocol) -> dict[str, Any]:
    stdout, stderr = io.StringIO(), io.StringIO()
    body = textwrap.indent(job["code"], "    ") if job["code"].strip() else "    pass"
    source = f"async def __execute__(page, context, browser):\n{body}\n"
    namespace: dict[str, Any] = {"__name__": "__execute__"}
    try:
        exec(compile(source, "<code>", "exec"), namespace)
    except SyntaxError as wrong:
        line = (wrong.lineno or 2) - 1
        return {
            "success": False,
            "result": None,
            "stdout": "",
            "stderr": "",
            "error": f"SyntaxError: {wrong.msg} (line {line} of the code)",
        }
    async with async_playwright() as playwright:
        browser = await playwright.chromium.connect_over_cdp(job["endpoint"])
        for each in browser.contexts:
            # A listener keeps this client from dismissing dialogs: the host reports them.
            each.on("dialog", lambda dialog: None)
        pages: dict[str, Page] = {}
        await _map_pages(browser, pages)
        page = pages.get(job["target"])
        if page is None:
            return {
                "success": False,
                "result": None,
                "stdout": "",
                "stderr": "",
                "error": "the session's current tab was not found in the browser",
            }
        context = SessionContext(protocol, browser, pages)
        value: Any = None
        error: str | None = None
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                value = await namespace["__execute__"](page, context, browser)
            except BaseException as raised:  # the caller's code: report everything
                frames = [
                    f for f in traceback.extract_tb(raised.__traceback__) if f.filename == "<code>"
                ]
                for frame in frames:
                    frame.lineno = (frame.lineno or 2) - 1
                where = "".join(traceback.format_list(frames))
                error = f"{type(raised).__name__}: {raised}"
                if where:
                    error += "\nTraceback (line numbers are the code's):\n" + where.rstrip()
        result: dict[str, Any] = {
            "success": error is None,
            "result": None,
            "stdout": _clip(stdout.getvalue()),
            "stderr": _clip(stderr.getvalue()),
            "error": error,
        }
        if error is None:
            result["result"], note = to_json(value)
            if note:
                result["note"] = note
            size = len(json.dumps(result["result"], default=str))
            limit = int(job.get("limit") or RESULT_LIMIT)
            if size > limit:
                result.update(
                    success=False,
                    too_large=True,
                    result=None,
                    error=f"the return value is {size} characters of JSON, more than the host's "
                    f"limit of {limit}; return less (a slice, a count, a summary)",
                )
        return result


def _die_with_the_host() -> None:
    """Ask Linux to kill this process when the host that started it dies (PR_SET_PDEATHSIG)."""
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
        if os.getppid() == 1:  # the host died before the request took effect
            os._exit(1)


def main() -> None:
    _die_with_the_host()
    protocol_out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # stray writes to file descriptor 1 must not corrupt the protocol
    line = sys.stdin.readline()
    if not line:
        return
    protocol = Protocol(protocol_out)
    result = asyncio.run(run(json.loads(line), protocol))
    protocol.send({"done": result})
    os._exit(0)  # do not wait for the driver to wind down: the host has its answer


if __name__ == "__main__":
    main()
