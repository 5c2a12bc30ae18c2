"""The one way tests serve pages: a threaded HTTP server on 127.0.0.1 that stays quiet when a
client goes away.

Browsers cancel requests and tests stop clients mid-answer, so a handler can write to a closed
socket after its test has ended. `http.server` prints that as a traceback on `sys.stderr`, which,
from a leftover thread, lands in whichever test of the same worker is capturing stderr then (a
test that asserts "no traceback" fails for a reason not its own). Any other handler error still
prints: a broken page server must stay visible.
"""

from __future__ import annotations

import http.server
import sys
import threading
from typing import Any


class LocalServer(http.server.ThreadingHTTPServer):
    """Serves on 127.0.0.1, any free port; a client that hangs up is not an error."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        """Stop serving and free the port."""
        self.shutdown()
        self.server_close()


def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> LocalServer:
    """Start a `LocalServer` for `handler` in a daemon thread."""
    server = LocalServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class PageHandler(http.server.BaseHTTPRequestHandler):
    """A request handler for the tests' page servers: `_send` answers with a body of a content
    type and its length; nothing is logged (a test's output stays its own)."""

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass
