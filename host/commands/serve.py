"""`python -m host serve`: the host on stdio or streamable HTTP, from its checked options to its
shutdown."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import logging
import signal
import socket
import sys
import threading
from typing import TYPE_CHECKING

from host.calls.registry import ToolRegistry
from host.commands.serve_options import TOKEN_ENV, config_from
from host.commands.terminate import exit_cleanly
from host.settings.browser_options import OptionError
from host.settings.config import HostConfig
from host.settings.config_file import where_set
from host.settings.secrets_file import SecretsFileError, install_log_scrubber
from host.shared.yaml_cache import YamlCache, default_location

if TYPE_CHECKING:
    from host.browsers.browser import BrowserPool
    from host.calls.core import Host
    from host.sessions.keys import SessionKey
    from host.shared.jsontypes import JsonObject
    from host.transports.early_answers import CallAnswer, EarlyResponder
    from host.transports.stdio_wire import StdioWire

log = logging.getLogger("host")


def serve_command(args: argparse.Namespace) -> int:
    """`serve`, its logging set up, with no garbage collected while the host starts."""
    logging.basicConfig(
        level=args.log_level.upper(),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    _starting()
    try:
        return serve(args)
    finally:
        gc.enable()  # already, once serving; here for a start that failed or was interrupted


def serve(args: argparse.Namespace) -> int:
    """`serve`: check the options, then serve until the client or a signal ends it."""
    try:
        config = config_from(args)
    except OSError as error:
        print(f"error: cannot read the token file: {error.strerror}", file=sys.stderr)
        return 2
    except OptionError as error:
        print(f"error: {error}{where_set(error.option, args.config_origins)}", file=sys.stderr)
        return 2
    except SecretsFileError as error:
        print(f"error: {error}{where_set('--secrets', args.config_origins)}", file=sys.stderr)
        return 2
    if config.secrets:
        install_log_scrubber(config.secrets)
    if config.browser_endpoints:
        from host.browsers.endpoints import start_check

        lines, fatal = start_check(config)
        for line in lines:
            print(line, file=sys.stderr)
        if fatal:
            return 2
    if config.browser.needs_probe:
        from host.browsers.startup_probe import probe_options

        try:
            if config.browser.save_video:
                from host.browsers.video_encoder import ensure_encoder

                ensure_encoder(config.executable_path)
            asyncio.run(probe_options(config))
        except OptionError as error:
            print(f"error: {error}{where_set(error.option, args.config_origins)}", file=sys.stderr)
            return 2
    try:
        registry = ToolRegistry(config.generated_dir, YamlCache(default_location()))
        registry.select(config.toolsets)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if config.record is not None:
        from host.trails.recorder import Recorder, RecordingError

        try:
            Recorder(config.record, config.record_per_caller).close()
        except RecordingError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    if args.stdio:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve_stdio(config, registry))
        return 0
    from host.transports.http_server import ListenRefused, guarded_listener

    try:
        bind_host, port = args.http
        sock = guarded_listener(bind_host, port, config.token, TOKEN_ENV)
    except ListenRefused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    # uvicorn handles SIGTERM (graceful shutdown, the host closes its browser), then re-raises
    # it once done; this handler turns that into a normal exit with status 0.
    signal.signal(signal.SIGTERM, exit_cleanly)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_http(config, registry, sock))
    return 0


def _starting() -> None:
    """Collect no garbage while the host starts: its imports (the SDK's pydantic models above
    all) allocate much and free little, and collector passes over them cost ~50 ms."""
    gc.disable()


def _started() -> None:
    """The host is serving: what it made so far lives as long as the process, so it is left out
    of the collector's later passes (`gc.freeze`), and collecting resumes."""
    gc.freeze()
    gc.enable()


def _load_stdio_server() -> None:
    """Import the rest of the host, and what serving MCP on stdio needs but no more: the SDK's
    server modules without its package `__init__` files (which load the SDK's client and its
    HTTP client stack)."""
    from host.shared.lazy_packages import defer_init

    defer_init("mcp.server")
    import host.calls.core
    import host.transports.mcp_server  # noqa: F401


async def serve_stdio(config: HostConfig, registry: ToolRegistry) -> None:
    """Serve MCP on stdin/stdout until the client is gone (stdin at EOF, stdout closed) or a
    SIGTERM/SIGINT arrives; then close every session, the browser and the driver, within
    `SHUTDOWN_LIMIT_S`."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopping: list[str] = []

    def on_signal(signum: int) -> None:
        if not stopping:  # a second signal during the (bounded) shutdown changes nothing
            stopping.append(signal.Signals(signum).name)
            task.cancel()

    # First, so that no moment is left between `host.commands.entry`'s handler, which raises,
    # and this one, which stops the host as serving does (a cancellation: the launch under way
    # is stopped, the browser and the driver closed).
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, on_signal, signum)
    from host.browsers.browser import BrowserPool
    from host.sessions.keys import SessionKey
    from host.transports.early_answers import AnswerCache, EarlyResponder, base_key
    from host.transports.early_answers import default_location as answers_location
    from host.transports.stdio import EOF_GRACE_S, cancelled_at_eof
    from host.transports.stdio_wire import StdioWire

    key = SessionKey("stdio", "stdio")  # one process, one connection: one session
    # The browser is launched first (Playwright's driver, a Node process, then Chromium; the
    # driver is the one `host/commands/entry.py` started before the host was imported, when it
    # could: `host/browsers/early_driver.py`), then the host and its session are made while the
    # launch goes on. The SDK is imported only once it is needed: until then what the client
    # sends first (initialize, tools/list, and tools/call once the host is up) is answered
    # without it, so that its import, 0.6 CPU-s, does not share the two cores with the launch
    # the first call waits for.
    pool = BrowserPool(config)
    pool.launch_soon()
    wire = StdioWire(config.max_body_bytes)
    # What the client asks first (initialize, tools/list) is answered from answers an earlier
    # start kept, and its calls by the host, before the SDK is loaded
    # (host/transports/early_answers.py).
    early = EarlyResponder(
        wire,
        lambda: base_key(config, registry),
        AnswerCache(answers_location()),
        max_depth=config.argument_limits.depth + 8,
    )
    early.start()
    host: Host | None = None
    try:
        from host.calls.core import Host

        host = Host(config, registry, pool)
        await host.start()
        host.warm(key)
        early.answer_calls(_early_calls(host, config, key))
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns the result when a
        # cancellation (SIGTERM) arrives as the event is set, and the cancellation is lost.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SDK_IDLE_S):
                await early.sdk_wanted.wait()
        log.info("loading the MCP SDK")
        if await _sdk_or_end(_load_in_background(loop), early):
            _started()
            await _serve(host, config, key, wire, early)
        else:
            # stdin ended with every line answered early: what is still running is answered
            # as at any end of stdin, and the host exits without waiting for the SDK's import.
            log.info("stopping: the client closed stdin")
            await early.drain(EOF_GRACE_S, cancelled_at_eof)
    except asyncio.CancelledError:
        log.info("stopping on %s", stopping[0] if stopping else "cancellation")
    finally:
        early.close()
        await shutdown(host, pool)
        wire.close()


def _load_in_background(loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
    """Import the MCP SDK in a daemon thread: an exit does not wait for an import under way
    (a pool's worker thread would be joined at exit, half a second after a short session)."""
    loaded: asyncio.Future[None] = loop.create_future()

    def done(error: BaseException | None) -> None:
        if loaded.done():
            return
        if error is None:
            loaded.set_result(None)
        else:
            loaded.set_exception(error)

    def load() -> None:
        try:
            _load_stdio_server()
        except BaseException as error:
            loop.call_soon_threadsafe(done, error)
        else:
            loop.call_soon_threadsafe(done, None)

    threading.Thread(target=load, name="mcp-sdk-import", daemon=True).start()
    return loaded


async def _sdk_or_end(loaded: asyncio.Future[None], early: EarlyResponder) -> bool:
    """Whether the SDK loaded (True) before stdin ended with nothing left for it (False)."""

    async def end() -> None:
        await early.ended_here.wait()

    ended = asyncio.ensure_future(end())
    try:
        await asyncio.wait({loaded, ended}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        ended.cancel()
    if loaded.done():
        loaded.result()  # a failed import is raised, as before
        return True
    return False


SDK_IDLE_S = 2.0
"""How long a stdio host waits, with nothing the SDK must answer, before importing it anyway."""


def _early_calls(host: Host, config: HostConfig, key: SessionKey) -> CallAnswer:
    """`tools/call` answered before the SDK is loaded: the same tools, session and result as
    the SDK's server (`host.transports.mcp_server.build_server`) gives."""
    from host.transports.call_results import call_result

    enabled = host.offered(host.registry.select(config.toolsets))

    async def call(name: str, arguments: JsonObject) -> JsonObject:
        outcome = await host.call(key, name, arguments, enabled=enabled)
        return call_result(outcome, config.image_responses)

    return call


async def _serve(
    host: Host, config: HostConfig, key: SessionKey, wire: StdioWire, early: EarlyResponder
) -> None:
    import anyio
    from mcp.shared.message import SessionMessage

    from host.transports.mcp_server import build_server
    from host.transports.stdio import serve_wire

    server = build_server(host, host.registry.select(config.toolsets), fixed_key=key)
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)
    async with anyio.create_task_group() as group:

        def gone(why: str) -> None:
            log.info("stopping: %s", why)
            if "stdout" in why:
                group.cancel_scope.cancel()

        async def run_server() -> None:
            await server.run(read_receive, write_send, server.create_initialization_options())
            group.cancel_scope.cancel()

        group.start_soon(run_server)
        group.start_soon(
            lambda: serve_wire(
                wire,
                read_send,
                write_receive,
                max_depth=config.argument_limits.depth + 8,
                on_gone=gone,
                early=early,
            )
        )


SHUTDOWN_LIMIT_S = 15.0


async def shutdown(host: Host | None, pool: BrowserPool) -> None:
    """Close the host (or, if it was not made yet, its browser pool) within `SHUTDOWN_LIMIT_S`;
    past it, kill the driver (and with it Chromium)."""
    closing = asyncio.ensure_future(host.close() if host is not None else pool.close())
    done, _ = await asyncio.wait({closing}, timeout=SHUTDOWN_LIMIT_S)
    if closing not in done:
        log.warning("closing the host took too long; its driver is killed")
        from host.browsers.browser import force_stop

        force_stop(pool)
        for endpoint in host.endpoints.endpoints[1:] if host is not None else []:
            force_stop(endpoint.pool)
    elif closing.exception() is not None:
        log.warning("closing the host failed: %s", closing.exception())


async def serve_http(config: HostConfig, registry: ToolRegistry, sock: socket.socket) -> None:
    from host.calls.core import Host
    from host.transports.http_app import build_app
    from host.transports.http_server import uvicorn_server

    bind_host, actual = sock.getsockname()[:2]
    # The host's own port is kept out of every session's reach (see host/sessions/selfguard.py).
    config = dataclasses.replace(config, guarded_ports=(*config.guarded_ports, actual))
    host = Host(config, registry)
    app = build_app(host, bind_host, port=actual)
    _started()
    shown = f"[{bind_host}]" if ":" in bind_host else bind_host
    server = uvicorn_server(
        app,
        config.http_limits(),
        log_level=logging.getLevelName(log.getEffectiveLevel()).lower(),
    )
    print(
        f"serving MCP at http://{shown}:{actual}/mcp and the scripting callback at http://{shown}:{actual}/scripting/callback",
        file=sys.stderr,
        flush=True,
    )
    try:
        await server.serve(sockets=[sock])
    finally:
        await shutdown(host, host.pool)
