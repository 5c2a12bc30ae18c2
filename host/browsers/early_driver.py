"""Playwright's driver started at the top of the process, and handed to the pool's first start.

Starting Playwright's driver (a Node process) takes about 0.4 s, and a stdio host spends its
first 0.2 s importing itself before its pool asks for one. `spawn()` starts the driver before
those imports, exactly as Playwright would; a driver start made inside `adopting()` then takes
that process instead of spawning its own, so that Node starts on the other core meanwhile.

Guarantees:

- Only a process Playwright would have started itself is adopted: the same program and
  arguments (`compute_driver_executable()`, `run-driver`), the same environment (what
  `get_driver_env()` gives at that moment, `host.browsers.driver_env`'s additions included,
  compared whole) and the same standard error. Anything else, a process that has exited, or an
  installed Playwright other than `MIRRORED_VERSION` is not adopted: the process is killed and
  reaped, and Playwright spawns its own driver as usual.
- A spawned driver is handed out once: the first driver start inside `adopting()` takes it,
  or kills it and starts its own.
- `discard()` kills and reaps a process nobody adopted (the command line calls it on its way
  out, a SIGTERM included: `host.commands.entry`), so none is left running, nor a zombie. An
  adopted process is Playwright's, as its own would be: stopping Playwright closes its input and
  reaps it.
- On Linux the spawned driver cannot outlive the host: it is started with a parent-death signal
  (`PR_SET_PDEATHSIG`, SIGKILL, kept across its exec), so a host that ends before `discard()` or
  Playwright stops it (SIGKILL, a crash, a signal as the spawn returns) takes it along. Without
  it Node ran on until its own start was done and it saw its input closed: 0.4 s, seconds under
  load.

It mirrors playwright-python 1.63.0's `PipeTransport.connect` (playwright/_impl/_transport.py):
that spawns `node cli.js run-driver` with `asyncio.create_subprocess_exec` (pipes for standard
input and output, a 32 KiB read limit) and sets `_stopped_future`, `_proc` (of which `run()`,
`request_stop()` and `send()` use `stdin`, `stdout` and `communicate()`) and `_output`.
tests/host_tests/test_driver_env.py fails when the installed transport changes that shape.
"""

from __future__ import annotations

# This module is imported before the spawn, and the spawn is on the start's critical path:
# only what the interpreter already holds at that point (or nearly) is imported at the top;
# asyncio, typing, logging and Playwright's own modules later, where they are used.
import contextlib
import contextvars
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator

from host.browsers.driver_env import compile_cache_env

TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio
    from typing import Any

MIRRORED_VERSION = "1.63.0"
"""The playwright package whose `PipeTransport.connect` this module mirrors."""
READ_LIMIT = 32768
"""The read limit `PipeTransport.connect` gives the driver's output stream."""


class _Spawned:
    """A driver spawned early: the process, and how it was started."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        argv: tuple[str, ...],
        env: dict[str, str],
        stderr: int | None,
    ) -> None:
        self.process = process
        self.argv = argv
        self.env = env
        self.stderr = stderr


_spawned: _Spawned | None = None
_adopted: subprocess.Popen[bytes] | None = None
_ADOPTING: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "adopt_early_driver", default=False
)
_installed = False


def _stderr_fileno() -> int | None:
    """Where Playwright sends its driver's standard error (its `_get_stderr_fileno`, in short)."""
    try:
        if sys.stderr is None or sys.stderr.closed:
            return None
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def spawn() -> None:
    """Start Playwright's driver now, with the environment a pool's driver gets, for one later
    adoption. Nothing happens when one was spawned already, or when it cannot start (then
    Playwright's own start reports why)."""
    global _spawned
    if _spawned is not None or getattr(sys, "frozen", False):
        return
    try:
        import playwright
        from playwright._repo_version import version
    except ImportError:  # pragma: no cover - the package is a dependency
        return
    if version != MIRRORED_VERSION or playwright.__file__ is None:
        return
    # What `_driver.compute_driver_executable` and `_driver.get_driver_env` give, without
    # importing them (and `typing` and `inspect` with them) ahead of the spawn.
    driver = os.path.join(os.path.dirname(playwright.__file__), "driver")
    argv = (
        os.getenv("PLAYWRIGHT_NODEJS_PATH", os.path.join(driver, "node")),
        os.path.join(driver, "package", "cli.js"),
        "run-driver",
    )
    env = os.environ.copy()
    env["PW_LANG_NAME"] = "python"
    env["PW_LANG_NAME_VERSION"] = f"{sys.version_info.major}.{sys.version_info.minor}"
    env["PW_CLI_DISPLAY_VERSION"] = version
    env.update(compile_cache_env())
    stderr = _stderr_fileno()
    try:
        # As `asyncio.create_subprocess_exec` calls it, and bound to die with the host.
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
            bufsize=0,
            preexec_fn=_dies_with_the_host(),
        )
    except (OSError, subprocess.SubprocessError):
        return
    _spawned = _Spawned(process, argv, env, stderr)


PR_SET_PDEATHSIG = 1
"""Linux's `prctl` option: the signal a process gets when the thread that started it ends."""


def _dies_with_the_host() -> Callable[[], None] | None:
    """What the driver's process runs between its fork and its exec, on Linux: ask the kernel
    for SIGKILL when the host's main thread (which spawns it, and ends last) ends, and exit at
    once if the host ended already. None where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes  # ~3 ms, paid before the spawn: the fork must not import

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):
        return None
    host = os.getpid()

    def die_with_the_host() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != host:  # the host ended before the request took effect
            os._exit(1)

    return die_with_the_host


def spawned_pid() -> int | None:
    """The process id of the driver spawned and not yet adopted nor discarded, if any."""
    return _spawned.process.pid if _spawned is not None else None


def adopted_pid() -> int | None:
    """The process id of the driver a driver start adopted, if one did."""
    return _adopted.pid if _adopted is not None else None


def discard() -> None:
    """Kill and reap the driver spawned and not adopted, if any; reap an adopted one that
    exited. Safe to call at any time, and again."""
    global _spawned
    spawned, _spawned = _spawned, None
    if spawned is not None:
        _stop(spawned.process)
    if _adopted is not None:
        _adopted.poll()


def _stop(process: subprocess.Popen[bytes]) -> None:
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)  # killed: it exits at once


@contextlib.contextmanager
def adopting() -> Iterator[None]:
    """While inside, a driver start (a task created) may adopt the spawned driver."""
    if _spawned is None:
        yield
        return
    _install()
    token = _ADOPTING.set(True)
    try:
        yield
    finally:
        _ADOPTING.reset(token)


def _install() -> None:
    """Wrap `PipeTransport.connect` once: inside `adopting()`, take the spawned driver when it
    is the one Playwright would spawn now; otherwise (and everywhere else) Playwright's own."""
    global _installed
    if _installed:
        return
    from playwright._impl._transport import PipeTransport

    original = PipeTransport.connect

    async def connect(self: PipeTransport) -> None:
        import asyncio

        adopted = await _take() if _ADOPTING.get() else None
        if adopted is None:
            return await original(self)
        transport: Any = self
        transport._stopped_future = asyncio.Future()
        transport._proc = adopted
        transport._output = adopted.stdin

    connect.__wrapped__ = original  # type: ignore[attr-defined]
    PipeTransport.connect = connect  # type: ignore[method-assign]
    _installed = True


def _mismatch(spawned: _Spawned) -> str | None:
    """How the spawned driver differs from the one Playwright would spawn here and now (None:
    it does not)."""
    from playwright._impl import _transport
    from playwright._repo_version import version

    if version != MIRRORED_VERSION:
        return f"playwright {version} is installed, not {MIRRORED_VERSION}"
    if getattr(sys, "frozen", False) or vars(_transport).get("__compiled__"):
        return "Playwright runs frozen"
    argv = (*_transport.compute_driver_executable(), "run-driver")  # type: ignore[attr-defined]
    if argv != spawned.argv:
        return f"the driver is {argv}, not {spawned.argv}"
    env: dict[str, str] = _transport.get_driver_env()  # type: ignore[attr-defined]
    if env != spawned.env:
        changed = sorted(
            k for k in env.keys() | spawned.env.keys() if env.get(k) != spawned.env.get(k)
        )
        return f"the environment differs in {', '.join(changed)}"
    if _transport._get_stderr_fileno() != spawned.stderr:
        return "standard error is elsewhere"
    if spawned.process.poll() is not None:
        return f"it exited with status {spawned.process.returncode}"
    return None


async def _take() -> _AdoptedProcess | None:
    """The spawned driver as Playwright's `_proc`, if it is the one Playwright would spawn;
    None after killing it if not. It is handed out once."""
    global _spawned, _adopted
    spawned, _spawned = _spawned, None
    if spawned is None:
        return None
    try:
        why = _mismatch(spawned)
        if why is None:
            adopted = await _AdoptedProcess.attach(spawned.process)
            _adopted = spawned.process
            _log().info("the driver started early (pid %d) is adopted", adopted.pid)
            return adopted
    except Exception as error:  # never worse than Playwright's own start
        why = f"it could not be attached ({error})"
    _log().info("the driver started early is not used: %s", why)
    _stop(spawned.process)
    return None


def _log() -> Any:
    import logging

    return logging.getLogger(__name__)


class _AdoptedProcess:
    """What `PipeTransport` (and `host.browsers.browser`) use of an `asyncio.subprocess.Process`,
    over a process already running: `stdin` (a `StreamWriter`), `stdout` (a `StreamReader`),
    `pid`, `returncode`, `kill()`, `wait()` and `communicate()`."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
    ) -> None:
        self._process = process
        self.pid = process.pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = None

    @classmethod
    async def attach(cls, process: subprocess.Popen[bytes]) -> _AdoptedProcess:
        import asyncio

        loop = asyncio.get_running_loop()
        stdout = asyncio.StreamReader(limit=READ_LIMIT, loop=loop)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdout), process.stdout)
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), process.stdin
        )
        stdin = asyncio.StreamWriter(transport, protocol, None, loop)
        return cls(process, stdin, stdout)

    @property
    def returncode(self) -> int | None:
        return self._process.poll()

    def send_signal(self, signum: int) -> None:
        self._process.send_signal(signum)

    def terminate(self) -> None:
        self._process.terminate()

    def kill(self) -> None:
        self._process.kill()

    async def wait(self) -> int:
        """Its exit status, once it exited (reaped then)."""
        import asyncio

        delay = 0.005
        while (code := self._process.poll()) is None:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)
        return code

    async def communicate(self, input: bytes | None = None) -> tuple[bytes, None]:
        """As `asyncio.subprocess.Process.communicate` with piped input and output: write
        `input`, close the input, read the output to its end, wait for the exit."""
        if input:
            self.stdin.write(input)
            with contextlib.suppress(ConnectionError):
                await self.stdin.drain()
        self.stdin.close()
        output = await self.stdout.read()
        await self.wait()
        return output, None
