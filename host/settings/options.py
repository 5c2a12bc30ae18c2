"""Command-line pieces shared by `serve` and `executor`: addresses and the HTTP server's limits."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

from host.settings.browser_options import OptionError


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `[::1]:PORT` or `PORT` (on 127.0.0.1)."""
    if text.isdigit():
        return "127.0.0.1", int(text)
    if text.startswith("["):
        host, _, port = text[1:].partition("]:")
    else:
        host, _, port = text.rpartition(":")
    if not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host or "127.0.0.1", int(port)


def within(
    option: str, value: float, least: float, default: float, most: float = math.inf
) -> float:
    """`value` of the numeric `option` when it is a finite number from `least` to `most`; else
    an `OptionError` that gives the range and the default (a value is never changed quietly)."""
    if not (math.isfinite(value) and least <= value <= most):
        upper = f" and at most {most:g}" if math.isfinite(most) else ""
        raise OptionError(option, f"give at least {least:g}{upper} (default {default:g})")
    return value


def add_http_limits(parser: argparse.ArgumentParser) -> None:
    """The HTTP server's limits, shared by `serve --http` and `executor`."""
    parser.add_argument(
        "--max-connections",
        type=int,
        default=512,
        metavar="N",
        help="HTTP connections held at once (default 512, kept below the descriptor limit); "
        "past it the oldest one still sending its request is closed, else 503",
    )
    parser.add_argument(
        "--http-header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's headers must arrive within this (default 10; else 408 and the "
        "connection closes)",
    )
    parser.add_argument(
        "--http-body-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a request's body must arrive within this (default 30; else 408 and the connection "
        "closes)",
    )


MAX_SHOWN = 200
"""The most characters of a message about an option that the host prints (a 5,000-digit value
is shown by its start and its length)."""


def shortened(text: str, limit: int = MAX_SHOWN) -> str:
    """`text` cut at `limit` characters, saying how long it was; one line."""
    text = text.replace("\n", " ")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the message, shortened, and where the
    options are listed), never its usage: `serve`'s usage is 50 lines, and the line that
    matters came last."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            2, f"{self.prog}: error: {shortened(message)} ({self.prog} --help lists the options)\n"
        )


def whole_number(least: int) -> Callable[[str], int]:
    """A type reading a whole number of at least `least`; one past Python's limit on digits is
    refused as any other."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < least:
            raise argparse.ArgumentTypeError(
                f"give a whole number of at least {least}, got {shortened(repr(text), 60)}"
            )
        return value

    return parse
