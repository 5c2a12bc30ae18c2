"""A page server shaped like the peer suite's `server` fixture: tests set what a path answers
(`set_content`, `set_route`) and read what the browser asked for (`requests`), so a translated
case reads like the case it comes from."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from local_server import LocalServer, PageHandler, serve


@dataclass
class Answer:
    """What one path answers: a status, a content type, a body and extra headers."""

    body: bytes
    kind: str = "text/html; charset=utf-8"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Request:
    """One request the server saw."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class PeerSite:
    """Serves on 127.0.0.1; `PREFIX`, `HELLO_WORLD` and `EMPTY_PAGE` as the peer's fixture names
    them. `/hello-world` and `/empty.html` answer from the start; everything else is set by a
    test (404 otherwise). Thread-safe: the server answers from its own threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: dict[str, Answer | Callable[[Request], Answer]] = {}
        self.requests: list[Request] = []
        self._httpd: LocalServer = serve(self._handler())
        self.PREFIX = self._httpd.origin
        self.HELLO_WORLD = self.PREFIX + "/hello-world"
        self.EMPTY_PAGE = self.PREFIX + "/empty.html"
        self.reset()

    def reset(self) -> None:
        """Forget every answer set and every request seen (between tests)."""
        with self._lock:
            self._answers = {
                "/hello-world": Answer(b"<title>Title</title><body>Hello, world!</body>"),
                "/empty.html": Answer(b""),
            }
            self.requests = []

    def set_content(
        self,
        path: str,
        body: str | bytes,
        kind: str = "text/html; charset=utf-8",
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> str:
        """Answer `path` with `body`; returns the full URL."""
        data = body.encode() if isinstance(body, str) else body
        with self._lock:
            self._answers[path] = Answer(data, kind, status, dict(headers or {}))
        return self.PREFIX + path

    def set_route(self, path: str, answer: Callable[[Request], Answer]) -> str:
        """Answer `path` with whatever `answer` returns for each request; returns the URL."""
        with self._lock:
            self._answers[path] = answer
        return self.PREFIX + path

    def seen(self, path: str) -> list[Request]:
        """The requests for `path` (query string ignored) so far."""
        with self._lock:
            return [r for r in self.requests if urlsplit(r.path).path == path]

    def stop(self) -> None:
        self._httpd.stop()

    def _answer(self, request: Request) -> Answer:
        with self._lock:
            self.requests.append(request)
            found = self._answers.get(urlsplit(request.path).path)
        if found is None:
            return Answer(b"not found", "text/plain", 404)
        return found(request) if callable(found) else found

    def _handler(self) -> type[PageHandler]:
        site = self

        class Handler(PageHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                request = Request(
                    self.command,
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length) if length else b"",
                )
                answer = site._answer(request)
                self.send_response(answer.status)
                self.send_header("content-type", answer.kind)
                self.send_header("content-length", str(len(answer.body)))
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(answer.body)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

        return Handler
