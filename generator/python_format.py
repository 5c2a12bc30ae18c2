"""black over rendered Python: the one place that fixes how generated Python is laid out.

Kept apart from rendering so that black's cache entries, keyed by this module's code digest, survive
edits to views and templates (their output is in the key as text anyway).
"""

from __future__ import annotations

import concurrent.futures
import functools
import importlib.metadata
import multiprocessing
import os

from generator.cache import Cache
from generator.diagnostics import ExitCode, GeneratorError

LINE_LENGTH = 100
# Formatting in worker processes pays off only from this many uncached files per worker.
_PARALLEL_BATCH = 24


@functools.cache
def _black_version() -> str:
    return importlib.metadata.version("black")


def _key(cache: Cache, text: str) -> str:
    return cache.value_key(__name__, "black", _black_version(), text)


def format_python(path: str, text: str, cache: Cache) -> str:
    """black's formatting of `text`, from the cache when this exact text was formatted before."""
    key = _key(cache, text)
    cached = cache.load("black", key)
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


def format_all(texts: dict[str, str], cache: Cache) -> dict[str, str]:
    """black over every Python file; cache misses are formatted on all cores when there are many."""
    keys = {path: _key(cache, text) for path, text in texts.items()}
    done = {path: cache.load("black", key) for path, key in keys.items()}
    missing = [path for path, text in done.items() if text is None]
    workers = min(os.cpu_count() or 1, len(missing) // _PARALLEL_BATCH)
    if workers > 1:
        import black  # noqa: F401  # imported before forking, so workers share it

        context = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            formatted = pool.map(
                _format_uncached, missing, [texts[p] for p in missing], chunksize=8
            )
            for path, text in zip(missing, formatted, strict=True):
                cache.store("black", keys[path], text)
                done[path] = text
    return {
        path: text if text is not None else format_python(path, texts[path], cache)
        for path, text in done.items()
    }
