"""Command-line pieces shared by `serve` and `executor`: addresses and the HTTP server's limits."""

from __future__ import annotations

import argparse


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
