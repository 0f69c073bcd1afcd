"""Slow clients do not stop the server: ``scorekeeper serve`` reads each request whole
on its workers' event loops before one of the app's threads takes it, so clients that
send their headers, or a body, a byte at a time hold no thread, and a phone's pages
and saves are still answered (docs/deploy.md; ``bench/slow_clients.py`` measures it).

The server runs with one worker of eight threads, so that every slow client lands on
the threads of the worker that answers the phone: forty slow headers and twelve slow
bodies are each more than its threads."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import THREADS
from scorekeeper.gunicorn_config import CHUNK, SPOOL, WholeRequest
from tests.trust_server import Browser, create_game, free_port

pytestmark = pytest.mark.slow

SLOW_HEADERS = 40
SLOW_BODIES = 12


@pytest.fixture
def one_worker(database_url: str, tmp_path: Path) -> Iterator[str]:
    """``scorekeeper serve --workers=1`` on a free port, answering; its base URL."""
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url,
           "XDG_RUNTIME_DIR": str(tmp_path)}  # gunicorn's control socket
    log = tmp_path / "server.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", "--instance", str(tmp_path / "instance"),
             "serve", "--host=127.0.0.1", f"--port={port}", "--workers=1"],
            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=err,
            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                Browser(base, timeout=30).get("/static/style.css")
                break
            except OSError:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the server did not answer within a minute"
                time.sleep(0.2)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


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


def through_whole_request(
    messages: list[dict[str, Any]], answer: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]] | None:
    """The messages the app behind ``WholeRequest`` receives while it reads a request
    body to its end and once more, when the client sends ``messages`` (and then
    ``http.disconnect`` for ever); ``None`` if the app was never called. Each message
    the app gets, it gets only once the client has sent all of ``messages``. What is
    sent to the client goes into ``answer``."""
    sent = iter(messages)
    left = len(messages)

    async def receive() -> dict[str, Any]:
        nonlocal left
        left -= 1
        return next(sent, {"type": "http.disconnect"})

    got: list[dict[str, Any]] = []
    called = False

    async def app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal called
        called = True
        assert left <= 0  # every message of the client's was read first
        while not got or got[-1].get("more_body"):
            got.append(await receive())
        got.append(await receive())

    async def send(message: dict[str, Any]) -> None:
        assert answer is not None, message
        answer.append(message)

    asyncio.run(WholeRequest(app)({"type": "http"}, receive, send))
    return got if called else None


def test_the_app_reads_the_whole_body_once_it_is_in_in_pieces() -> None:
    # Past the spool's size (a temporary file), in pieces of every size.
    body = bytes(range(256)) * ((SPOOL + CHUNK) // 256) + b"end"
    parts = [body[:1], body[1:CHUNK + 5], b"", body[CHUNK + 5:]]
    got = through_whole_request(
        [{"type": "http.request", "body": part, "more_body": True} for part in parts[:-1]]
        + [{"type": "http.request", "body": parts[-1], "more_body": False}])
    assert got is not None
    *read, after = got
    assert b"".join(message["body"] for message in read) == body
    # CHUNK at a time: 1 MiB + 64 KiB is 17 pieces of 64 KiB, then the 3 bytes of "end".
    assert [len(message["body"]) for message in read] == [CHUNK] * 17 + [3]
    assert [message["more_body"] for message in read] == [True] * 17 + [False]
    assert {message["type"] for message in read} == {"http.request"}
    assert after == {"type": "http.disconnect"}


def test_an_empty_body_is_one_empty_message() -> None:
    got = through_whole_request([{"type": "http.request", "body": b"", "more_body": False}])
    assert got == [{"type": "http.request", "body": b"", "more_body": False},
                   {"type": "http.disconnect"}]


def test_a_client_that_stops_before_its_body_is_in_never_reaches_the_app() -> None:
    answer: list[dict[str, Any]] = []
    assert through_whole_request(
        [{"type": "http.request", "body": b"{", "more_body": True}], answer) is None
    assert [message["type"] for message in answer] == [
        "http.response.start", "http.response.body"]
    assert answer[0]["status"] == 408
    assert answer[1]["body"] == b"Request Timeout"
