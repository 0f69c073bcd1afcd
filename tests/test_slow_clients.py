"""Slow clients do not stop the server: ``scorekeeper serve`` reads each request whole
on its workers' event loops before one of the app's threads takes it, so clients that
send their headers, or a body, a byte at a time hold no thread, and a phone's pages
and saves are still answered (docs/deploy.md; ``bench/slow_clients.py`` measures it).

The server runs with one worker of eight threads, so that every slow client lands on
the threads of the worker that answers the phone: forty slow headers and twelve slow
bodies are each more than its threads."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import THREADS
from scorekeeper.gunicorn_config import BUFFERED, PIECE, SPOOL, ThreadedWSGI
from tests.trust_server import Browser, ServeProcess, create_game

pytestmark = pytest.mark.slow

SLOW_HEADERS = 40
SLOW_BODIES = 12


@pytest.fixture
def one_worker(database_url: str, tmp_path: Path) -> Iterator[str]:
    """``scorekeeper serve --workers=1`` on a free port, answering; its base URL."""
    server = ServeProcess(database_url, tmp_path, workers=1)
    server.start()
    try:
        yield server.base
    finally:
        server.stop()


class Trickle:
    """Connections that each send a start at once, then one byte at a time, never
    finishing: a byte to each of them every fifth of a second until ``stop``."""

    def __init__(self, port: int, starts: list[bytes]) -> None:
        self.socks = []
        for start in starts:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(start)
            self.socks.append(sock)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        while not self.done.wait(0.2):
            for sock in self.socks:
                with contextlib.suppress(OSError):  # the server closed it: fine
                    sock.sendall(b"x")

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=10)
        for sock in self.socks:
            sock.close()


def test_a_phone_is_answered_while_slow_clients_trickle(one_worker: str) -> None:
    assert SLOW_HEADERS > THREADS and SLOW_BODIES > THREADS
    port = int(one_worker.rsplit(":", 1)[1])
    # Headers that never end; bodies that never arrive (each promises 1,000 bytes).
    header = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    body = (b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
    slow = Trickle(port, [header] * SLOW_HEADERS + [body] * SLOW_BODIES)
    try:
        # A generous timeout: on a server whose threads each wait on a slow client,
        # these requests wait behind them for ever.
        phone = Browser(one_worker, timeout=20)
        assert phone.get("/static/style.css").status == 200
        assert phone.get("/").status == 200
        game = create_game(phone, rules="classic")
        # Ann knocks with 5, Bob has 25 after layoffs: Ann scores 20 (classic).
        reply = phone.post_json(
            f"/api/v1/games/{game['id']}/hands",
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 25},
            headers={"X-Edit-Secret": game["edit_secret"]},
        )
        assert reply.status == 201, reply.text
        assert reply.json()["totals"] == [20, 0]
    finally:
        slow.stop()


MOST_BODY = 2 * SPOOL


HOST = (b"host", b"127.0.0.1:5000")


def serve(wsgi: Any, messages: list[dict[str, Any]],
          scope: dict[str, Any] | None = None, *, unread_after: int | None = None,
          deadline: float = 30.0) -> list[dict[str, Any]]:
    """What ``ThreadedWSGI`` sends for one request to ``wsgi`` whose client sends
    ``messages`` (then ``http.disconnect`` for ever); a client that stops reading after
    ``unread_after`` messages (a send then waits for ever) is given ``deadline``."""
    sent = iter(messages)
    answer: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return next(sent, {"type": "http.disconnect"})

    async def send(message: dict[str, Any]) -> None:
        if unread_after is not None and len(answer) >= unread_after and message.get("body"):
            # The client's window is full: a piece with bytes is never taken.
            await asyncio.Event().wait()
        answer.append(message)

    request = {"type": "http", "http_version": "1.1", "method": "POST", "scheme": "http",
               "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "",
               "headers": [HOST], "server": ("127.0.0.1", 5000),
               "client": ("127.0.0.1", 40000), **(scope or {})}
    served = ThreadedWSGI(wsgi, threads=2, most_body=MOST_BODY,
                          larger={"/import": 3 * MOST_BODY})
    served.deadline = deadline
    # On an event loop of its own thread: a browser test before this one on the same
    # pytest worker leaves Playwright's loop running on the main thread.
    with concurrent.futures.ThreadPoolExecutor(1) as apart:
        apart.submit(asyncio.run, served(request, receive, send)).result()
    return answer


def test_the_app_runs_on_a_thread_once_the_whole_body_is_in() -> None:
    # Past the spool's size (a temporary file), in pieces of every size.
    body = bytes(range(256)) * (SPOOL // 256) + b"end"
    parts = [body[:1], body[1:40_000], b"", body[40_000:]]
    messages = [{"type": "http.request", "body": part, "more_body": True} for part in parts]
    messages[-1]["more_body"] = False
    seen: dict[str, Any] = {}

    def echo(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen["thread"] = threading.current_thread().name
        seen["left"] = list(sent)  # what the client had not sent yet when the app ran
        data = environ["wsgi.input"].read()
        start_response("200 OK", [("Content-Type", "application/octet-stream"),
                                  ("Content-Length", str(len(data)))])
        return [data[:10], data[10:]]

    sent = iter(messages)
    answer = serve(echo, list(sent))
    assert seen == {"thread": "app_0", "left": []}
    assert answer == [
        {"type": "http.response.start", "status": 200,
         "headers": [(b"content-type", b"application/octet-stream"),
                     (b"content-length", b"65539")]},  # 256 × 256 + 3
        {"type": "http.response.body", "body": body[:PIECE], "more_body": True},
        {"type": "http.response.body", "body": b"end", "more_body": True},
        {"type": "http.response.body", "body": b""},
    ]


def test_the_environ_is_the_one_gunicorn_gives_a_wsgi_app() -> None:
    seen: dict[str, Any] = {}

    def look(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.update(environ, body=environ["wsgi.input"].read())
        start_response("404 NOT FOUND", [])
        return []

    answer = serve(look, [{"type": "http.request", "body": b"", "more_body": False}], {
        "method": "GET", "path": "/g/é?", "raw_path": b"/g/%C3%A9%3F",
        "query_string": b"key=a%26b", "client": ("192.0.2.7", 51000),
        "headers": [(b"host", b"127.0.0.1:5000"), (b"content-type", b"text/plain"),
                    (b"accept", b"text/html"), (b"accept", b"*/*")]})
    assert answer == [{"type": "http.response.start", "status": 404, "headers": []},
                      {"type": "http.response.body", "body": b""}]
    # "é" is the two bytes C3 A9, each shown as a Latin-1 character; %3F stays "?".
    assert {key: seen[key] for key in (
        "REQUEST_METHOD", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "REMOTE_ADDR",
        "SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL", "CONTENT_TYPE", "HTTP_HOST",
        "HTTP_ACCEPT", "wsgi.url_scheme")} == {
        "REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": "/g/\xc3\xa9?",
        "QUERY_STRING": "key=a%26b", "REMOTE_ADDR": "192.0.2.7", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "5000", "SERVER_PROTOCOL": "HTTP/1.1", "CONTENT_TYPE": "text/plain",
        "HTTP_HOST": "127.0.0.1:5000", "HTTP_ACCEPT": "text/html,*/*",
        "wsgi.url_scheme": "http"}
    assert seen["body"] == b""


def test_a_long_answer_follows_in_pieces_and_the_app_closes_it() -> None:
    closed = []

    class Pieces:
        def __iter__(self) -> Iterator[bytes]:
            for _ in range(5):
                yield b"x" * (BUFFERED // 2)

        def close(self) -> None:
            closed.append(True)

    def export(environ: dict[str, Any], start_response: Any) -> Pieces:
        start_response("200 OK", [("Content-Type", "application/json")])
        return Pieces()

    answer = serve(export, [{"type": "http.request", "body": b"", "more_body": False}])
    # Five halves of BUFFERED go to gunicorn a PIECE at a time; the last message carries
    # nothing.
    pieces = [(len(message["body"]), message.get("more_body")) for message in answer[1:]]
    assert pieces == [(PIECE, True)] * (5 * (BUFFERED // 2) // PIECE) + [(0, None)]
    assert closed == [True]


@pytest.mark.parametrize("length", [None, 8 * (BUFFERED // 2)])
def test_an_answer_its_client_does_not_read_is_dropped_after_the_deadline(
    length: int | None,
) -> None:
    made = []
    closed = []

    class Export:
        def __iter__(self) -> Iterator[bytes]:
            for _ in range(8):
                made.append(True)
                yield b"x" * (BUFFERED // 2)

        def close(self) -> None:
            closed.append(True)

    def export(environ: dict[str, Any], start_response: Any) -> Export:
        said = [] if length is None else [("Content-Length", str(length))]
        start_response("200 OK", [("Content-Type", "application/json"), *said])
        return Export()

    # The client takes the answer's start and three pieces, then reads nothing.
    answer = serve(export, [{"type": "http.request", "body": b"", "more_body": False}],
                   unread_after=4, deadline=0.2)
    # An answer of a said length is ended short of it (gunicorn then closes the
    # connection); one without is left unended (gunicorn closes it all the same).
    ended = [(0, None)] if length else []
    assert [(len(m.get("body", b"")), m.get("more_body")) for m in answer[1:]] == [
        (PIECE, True)] * 3 + ended
    # The thread had made the first BUFFERED bytes (two of the eight halves); the rest
    # was never made, and the app's iterable is closed.
    assert (len(made), closed) == (2, [True])


def test_a_client_that_stops_before_its_body_is_in_never_reaches_the_app() -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        raise AssertionError("the app was called")

    answer = serve(app, [{"type": "http.request", "body": b"{", "more_body": True}])
    assert answer == [
        {"type": "http.response.start", "status": 408,
         "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]},
        {"type": "http.response.body", "body": b"Request Timeout"},
    ]


def test_a_body_longer_than_the_app_takes_is_refused_before_the_app() -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        raise AssertionError("the app was called")

    # Said in Content-Length: refused before any of it is read.
    over = str(MOST_BODY + 1).encode()
    assert serve(app, [], {"headers": [HOST, (b"content-length", over)]}) == refused(
        413, b"Content Too Large")
    # Longer than its Content-Length said (gunicorn never passes that on; still):
    # refused once one byte past the limit has come.
    chunks = [{"type": "http.request", "body": b"x" * MOST_BODY, "more_body": True},
              {"type": "http.request", "body": b"x", "more_body": True}]
    assert serve(app, chunks) == refused(413, b"Content Too Large")
    # Chunked, of any size (a chunk of twenty hex digits too): its length is not said,
    # and it is refused before any of it is read.
    assert serve(app, [], {"headers": [HOST, (b"transfer-encoding", b"chunked")]}) == refused(
        411, b"Length Required")


def test_only_the_import_takes_a_longer_body() -> None:
    seen = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.append(len(environ["wsgi.input"].read()))
        start_response("204 No Content", [])
        return []

    body = [{"type": "http.request", "body": b"x" * (2 * MOST_BODY), "more_body": False}]
    length = [HOST, (b"content-length", str(2 * MOST_BODY).encode())]
    assert serve(app, body, {"path": "/import", "headers": length})[0]["status"] == 204
    assert seen == [2 * MOST_BODY]
    for path in ("/rules", "/import/", "/api/v1/games"):
        assert serve(app, body, {"path": path, "headers": length}) == refused(
            413, b"Content Too Large"), path
    assert seen == [2 * MOST_BODY]


def test_an_http_1_1_request_needs_one_host() -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("204 No Content", [])
        return []

    empty = [{"type": "http.request", "body": b"", "more_body": False}]
    bad = refused(400, b"Bad Request: HTTP/1.1 needs one Host header")
    assert serve(app, empty, {"headers": []}) == bad
    assert serve(app, empty, {"headers": [HOST, HOST]}) == bad
    assert serve(app, empty, {"http_version": "1.0", "headers": [HOST, HOST]}) == bad
    # HTTP/1.0 had no Host header; with one, or without, it is answered.
    assert serve(app, empty, {"http_version": "1.0", "headers": []})[0]["status"] == 204
    assert serve(app, empty)[0]["status"] == 204


def refused(status: int, text: bytes) -> list[dict[str, Any]]:
    """What ``ThreadedWSGI`` sends when it refuses a request itself."""
    return [{"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                         (b"connection", b"close")]},
            {"type": "http.response.body", "body": text}]
