"""``scorekeeper serve`` against a hostile visitor on the same network: a body longer
than its address takes is refused from its ``Content-Length`` before any of it is read
(only the import takes a long one); a body of unsaid length, a chunk of twenty hex
digits among them, is refused at once; an HTTP/1.1 request without ``Host`` is a 400;
an answer its client does not read is dropped after gunicorn's ``timeout``; a client
that hangs up is logged as gone (499), never as a server error; a path's control
characters reach the access log escaped; no control socket is shared with another
server; workers are replaced after a number of requests."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import gunicorn_config
from tests.trust_server import Browser, ServeProcess, create_game, hidden_fields

pytestmark = pytest.mark.slow

TIMEOUT = 2  # gunicorn's ``timeout`` for these servers, in seconds


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServeProcess]:
    served = ServeProcess(database_url, tmp_path, workers=1,
                          env={"GUNICORN_CMD_ARGS": f"--timeout={TIMEOUT}"})
    served.start()
    try:
        yield served
    finally:
        served.stop()


def exchange(port: int, request: bytes, then: bytes = b"") -> bytes:
    """Send ``request``; once the server has answered (or closed), send ``then``;
    everything the server sent until it closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request)
        got = conn.recv(65536)
        with contextlib.suppress(OSError):
            conn.sendall(then)
        while piece := conn.recv(65536):
            got += piece
        return got


def hang_up(port: int, request: bytes) -> None:
    """Send ``request``, then close the connection at once."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request)


def status(answer: bytes) -> int:
    """The status code of an HTTP/1.1 answer."""
    line = answer.split(b"\r\n", 1)[0]
    assert line.startswith(b"HTTP/1.1 "), answer[:300]
    return int(line.split()[1])


def test_bodies_hosts_and_hang_ups(server: ServeProcess, tmp_path: Path) -> None:
    port = server.port
    phone = Browser(server.base, timeout=30)
    game = create_game(phone)
    # Five 189 MB posts to /rules: each refused from its Content-Length; the body that
    # follows the headers is never read.
    for _ in range(5):
        answer = exchange(port, b"POST /rules HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                b"Content-Length: 189000000\r\n\r\n", then=b"x" * 65536)
        assert status(answer) == 413, answer
    # Just over the 1 MiB every address but the import takes.
    just_over = b"{" + b" " * (1024 * 1024)
    answer = exchange(port, b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            b"Content-Type: application/json\r\n"
                            b"Content-Length: %d\r\n\r\n" % len(just_over), then=just_over)
    assert status(answer) == 413
    # The import reads 2 MiB: the app answers it (the form has no CSRF token), not the
    # server's 413.
    upload = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n'
              b"Content-Type: application/json\r\n\r\n" + b" " * (2 * 1024 * 1024)
              + b"\r\n--b--\r\n")
    answer = exchange(port, b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            b"Content-Type: multipart/form-data; boundary=b\r\n"
                            b"Content-Length: %d\r\n\r\n" % len(upload) + upload)
    assert status(answer) == 400, answer[:300]
    assert b"Content Too Large" not in answer
    # A chunk size of twenty hex digits: refused at once, not waited on (gunicorn's
    # timeout would answer 408).
    chunked = exchange(port, b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: application/json\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n" + b"F" * 20 + b"\r\n")
    assert status(chunked) == 411, chunked
    # HTTP/1.1 without Host.
    assert status(exchange(port, b"GET / HTTP/1.1\r\n\r\n")) == 400
    # A path that would forge an access log line and colour the terminal.
    forged = (b"GET /g/x%0a127.0.0.1%20-%20-%20[01/Jan/2020:00:00:00%20+0000]%20%22GET%20"
              b"/admin%20HTTP/1.1%22%20200%20%1b[31m HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Connection: close\r\n\r\n")
    assert status(exchange(port, forged)) == 404
    # A client that asks for a game's export sixteen times over one connection and
    # reads none of it: once the system's buffers are full, an answer waits for it.
    exported = imported_game(phone, 1000)
    size = len(phone.get(f"/g/{exported}/export.json").body)
    assert size > 500_000
    unread = socket.socket()
    unread.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    unread.connect(("127.0.0.1", port))
    unread.sendall(f"GET /g/{exported}/export.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                   .encode() * 16)
    # Hang-ups: mid-body, and while the sheet's PDF is being made.
    hang_up(port, b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"pla")
    hang_up(port, f"GET /g/{game['id']}/sheet.pdf HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    # gunicorn gives a gone client's call 3 s to end; the export waits TIMEOUT once the
    # buffers are full. Until the three are logged (a minute at most):
    waited = time.monotonic() + 60
    while server.access_log.read_text(encoding="utf-8").count('" 499 ') < 3:
        assert time.monotonic() < waited, server.access_log.read_text(encoding="utf-8")
        time.sleep(0.5)
    assert phone.get("/static/style.css").status == 200
    unread.close()
    server.stop()  # its logs are whole
    errors = server.log.read_text(encoding="utf-8")
    # The answer it stopped at was dropped after the deadline (then gunicorn closed the
    # connection: the rest were never made).
    assert errors.count(f"GET /g/{exported}/export.json: the client read none of its answer "
                        f"for {TIMEOUT} s; dropped") == 1, errors
    assert "ERROR" not in errors, errors

    log = server.access_log.read_text(encoding="utf-8")
    lines = log.splitlines()
    assert "\x1b" not in log
    assert not any(line.startswith("127.0.0.1 - - [01/Jan/2020") for line in lines), log
    (line,) = [line for line in lines if "/g/x" in line]
    assert ('"GET /g/x\\x0a127.0.0.1 - - [01/Jan/2020:00:00:00 +0000] \\"GET /admin '
            'HTTP/1.1\\" 200 \\x1b[31m HTTP/1.1" 404 ') in line, line
    gone = [line for line in lines if '" 499 ' in line]
    assert len([line for line in gone if '"POST /api/v1/games HTTP/1.1" 499 0 ' in line]) == 1
    assert len([line for line in gone if f'"GET /g/{game["id"]}/sheet.pdf' in line]) == 1
    assert len([line for line in gone if f'"GET /g/{exported}/export.json' in line]) == 1
    assert not [line for line in lines if re.search(r'" 5\d\d ', line)], log
    # No control socket: one in the user's runtime folder would be every server's.
    assert not (tmp_path / "gunicorn.ctl").exists()


def imported_game(phone: Browser, hands: int) -> str:
    """A gin game of ``hands`` knocks of 1 against 2 (each seat in turn), imported
    through the import's form; its id."""
    quick = [{"inputs": {"mode": "quick", "outcome": "knock", "knocker": i % 2,
                         "knocker_deadwood": 1, "defender_deadwood": 2}}
             for i in range(hands)]
    document = json.dumps({"variant": "gin", "players": ["Ann", "Bob"],
                           "rules": {"preset": "classic", "target": 10000},
                           "setup": {"dealer": 0}, "hands": quick}).encode()
    token = hidden_fields(phone.get("/import").text)["csrf_token"]
    body = (b'--b\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            + token.encode() + b'\r\n--b\r\nContent-Disposition: form-data; name="file"; '
            b'filename="g.json"\r\nContent-Type: application/json\r\n\r\n'
            + document + b"\r\n--b--\r\n")
    made = phone.request("POST", "/import", body=body,
                         headers={"Content-Type": "multipart/form-data; boundary=b"})
    assert made.status == 302, made.text[:500]
    return made.headers["location"].rsplit("/", 1)[1]


def test_the_config_replaces_workers_with_jitter() -> None:
    assert gunicorn_config.max_requests >= 1000
    assert 0 < gunicorn_config.max_requests_jitter < gunicorn_config.max_requests
    printed = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config=python:scorekeeper.gunicorn_config",
         "--print-config", "scorekeeper:create_app()"],
        capture_output=True, text=True, check=True).stdout
    settings = dict(re.findall(r"^(\w+) += (.*)$", printed, re.MULTILINE))
    assert settings["max_requests"] == str(gunicorn_config.max_requests)
    assert settings["max_requests_jitter"] == str(gunicorn_config.max_requests_jitter)
    assert settings["control_socket_disable"] == "True"


def worker_of(master: int) -> int:
    (child,) = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(child)


def test_a_worker_is_replaced_after_its_requests(database_url: str, tmp_path: Path) -> None:
    served = ServeProcess(database_url, tmp_path, workers=1, env={
        "GUNICORN_CMD_ARGS": "--max-requests=10 --max-requests-jitter=0"})
    served.start()
    try:
        assert served.process is not None
        first = worker_of(served.process.pid)
        phone = Browser(served.base, timeout=30)
        # Each request on a connection of its own; the tenth is the first worker's last.
        answers = [phone.get("/static/style.css").status for _ in range(9)]
        deadline = time.monotonic() + 60
        while worker_of(served.process.pid) == first:
            answers.append(phone.get("/static/style.css").status)
            assert time.monotonic() < deadline, "the worker was never replaced"
            time.sleep(0.2)
        assert set(answers) == {200}
        assert phone.get("/").status == 200  # the new worker answers
    finally:
        served.stop()
