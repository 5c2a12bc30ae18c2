"""The tests' page server: a client that hangs up prints nothing; any other handler error prints.

A leftover handler thread writing to a closed socket once printed a traceback into another
test's captured stderr and failed it. Each case here waits for its handler thread to end
(`block_on_close`), so what the thread printed is captured before the assertion.
"""

from __future__ import annotations

import http.server
import socket
import threading

import pytest
from local_server import serve

BODY = b"x" * (4 << 20)
"""Larger than any socket buffer, so writing it to a closed peer must fail."""


def _run_one(fail: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Serve one request whose client hangs up before the answer; the handler's stderr."""
    handling = threading.Event()
    client_gone = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            handling.set()
            client_gone.wait(30)
            if fail == "bug":
                raise ValueError("a bug in a page handler")
            self.send_response(200)
            self.send_header("content-length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)

        def log_message(self, *args: object) -> None:
            pass

    server = serve(Handler)
    # Read per request: the handler's thread is joined by `stop`, before the assertion.
    server.daemon_threads = False
    server.block_on_close = True
    with socket.create_connection(server.server_address[:2]) as client:
        client.sendall(b"GET / HTTP/1.0\r\n\r\n")
        # Until the handler runs, `stop` could end the server with the request never handled.
        assert handling.wait(30), "the server never handled the request"
        # SO_LINGER 0: close answers the handler's write with a reset, not a half-close.
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    client_gone.set()
    server.stop()
    return capsys.readouterr().err


def test_a_client_that_hangs_up_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run_one("hang-up", capsys) == ""


def test_a_handler_bug_still_prints(capsys: pytest.CaptureFixture[str]) -> None:
    err = _run_one("bug", capsys)
    assert "Traceback" in err and "ValueError: a bug in a page handler" in err
