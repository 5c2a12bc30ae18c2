"""Runs the generator held at a named checkpoint (generator/shared/checkpoints.py), so a test acts on it
at exactly that point: no delays, no races with a fast or a slow machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO

# A bound on how long a run may take to reach its checkpoint; reaching it sooner costs nothing.
_REACH_DEADLINE_S = 300.0


def _sigint_as_at_a_terminal() -> None:
    """A suite started as a background job inherits SIGINT ignored (the shell's rule for `&`),
    and Python keeps an ignored SIGINT ignored. The tests stand for a user's Ctrl-C at a
    foreground run, so the generator starts with SIGINT at its default, whatever ran the suite."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class PausedRun:
    """A generator process held at `point` until `release()`; `wait()` gives its exit status."""

    def __init__(
        self, point: str, args: list[str], marker_dir: Path, env: dict[str, str] | None = None
    ):
        self.marker = marker_dir / f"pause-{point}-{time.monotonic_ns()}"
        run_env = {
            **(env or os.environ),
            "PLAYWRIGHT_TOOL_GENERATOR_PAUSE": f"{point}:{self.marker}",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", *args],
            cwd=REPO,
            env=run_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_sigint_as_at_a_terminal,
        )

    def wait_until_held(self) -> None:
        """Block until the run holds at its checkpoint; fail if it ends without reaching it."""
        deadline = time.monotonic() + _REACH_DEADLINE_S
        while not self.marker.exists():
            if self.process.poll() is not None:
                _, err = self.process.communicate()
                raise AssertionError(
                    f"the run ended ({self.process.returncode}) before its checkpoint:\n{err}"
                )
            if time.monotonic() > deadline:
                self.process.kill()
                raise AssertionError("the run did not reach its checkpoint")
            time.sleep(0.01)

    def signal(self, signum: signal.Signals) -> None:
        os.kill(self.process.pid, signum)

    def release(self) -> None:
        self.marker.unlink(missing_ok=True)

    def wait(self) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=_REACH_DEADLINE_S)
        return self.process.returncode, out, err
