"""black over rendered Python: the one place that fixes how generated Python is laid out.

Kept apart from rendering so that black's cache entries, keyed by this module's code digest, survive
edits to views and templates (their output is in the key as text anyway).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal

from generator.shared import checkpoints
from generator.shared.cache import Cache
from generator.shared.diagnostics import ExitCode, GeneratorError
from generator.shared.dist_version import dist_version

LINE_LENGTH = 100
# Formatting in worker processes pays off only from this many uncached files per worker.
_PARALLEL_BATCH = 24
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


@functools.cache
def _black_version() -> str:
    return dist_version("black")


def _key(cache: Cache, text: str) -> str:
    return cache.value_key(__name__, "black", _black_version(), text)


_WORD = re.compile(r"\w+")


def same_structure(source: str, formatted: str) -> bool:
    """Whether `formatted` could be black's output for `source`: black changes layout (spaces,
    line breaks, brackets, quotes, the case of literal prefixes), never the words, so both must
    hold the same words in the same order. Cheap enough to run on every cached file."""
    return formatted.endswith("\n") and _WORD.findall(source.lower()) == _WORD.findall(
        formatted.lower()
    )


def format_python(path: str, text: str, cache: Cache) -> str:
    """black's formatting of `text`, from the cache when this exact text was formatted before."""
    key = _key(cache, text)
    cached = cache.load("black", key, functools.partial(same_structure, text))
    if cached is not None:
        return cached
    formatted = _format_uncached(path, text)
    cache.store("black", key, formatted)
    return formatted


def _format_uncached(path: str, text: str) -> str:
    import black  # imported only on a cache miss: it costs more than a whole up-to-date run
    from black.mode import Mode, TargetVersion
    from black.parsing import InvalidInput

    mode = Mode(target_versions={TargetVersion.PY311}, line_length=LINE_LENGTH)
    try:
        formatted = black.format_str(text, mode=mode)
    except InvalidInput as exc:
        raise GeneratorError(
            f"{path}: the rendered Python does not parse ({exc}). If you use custom templates, check them; "
            "otherwise this is a generator bug, please report it.",
            ExitCode.USER_INPUT,
        ) from None
    return formatted


def _worker_started(parent: int) -> None:
    """Runs first in every formatting worker: the worker must never outlive the generator.

    The kernel kills it when its parent dies, SIGKILL included (a parent-death signal); Ctrl-C is
    left to the parent, which stops the pool; SIGTERM ends it at once (the handler it inherited
    from the parent would raise inside black instead)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Not Linux: the pool's termination when the run ends is the only guard. Never exit here
    # for that: the pool would start a new worker in its place, without end.
    import ctypes  # only a worker needs it, and workers run only when black formats

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)  # the parent died before the guard was set: nothing would end this worker


def _format_in_worker(path: str, text: str) -> str:
    checkpoints.reached("formatting-worker")  # tests signal the generator while workers are busy
    return _format_uncached(path, text)


def format_all(texts: dict[str, str], cache: Cache) -> dict[str, str]:
    """black over every Python file; cache misses are formatted on all cores when there are many.

    The worker processes end with the run however it ends: the pool is terminated when formatting
    stops for any reason (an error, Ctrl-C, SIGTERM), and each worker dies with its parent."""
    keys = {path: _key(cache, text) for path, text in texts.items()}
    done = {
        path: cache.load("black", key, functools.partial(same_structure, texts[path]))
        for path, key in keys.items()
    }
    missing = [path for path, text in done.items() if text is None]
    workers = min(os.cpu_count() or 1, len(missing) // _PARALLEL_BATCH)
    if workers > 1:
        import multiprocessing

        import black  # noqa: F401  # imported before forking, so workers share it

        context = multiprocessing.get_context("fork")
        # Leaving the `with` block terminates the workers, also when an exception passes through.
        with context.Pool(workers, initializer=_worker_started, initargs=(os.getpid(),)) as pool:
            formatted = pool.starmap(
                _format_in_worker, [(p, texts[p]) for p in missing], chunksize=8
            )
        for path, text in zip(missing, formatted, strict=True):
            cache.store("black", keys[path], text)
            done[path] = text
    return {
        path: text if text is not None else format_python(path, texts[path], cache)
        for path, text in done.items()
    }
