"""The live server the browser tests use (tests/live.py) goes cleanly: a file that was
still being sent when it stopped is closed then, not left for the garbage collector
(whose warning failed a CI run: a static icon the service worker was fetching)."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import IO

import pytest
from flask import Flask, send_file

from tests.live import serve

pytestmark = [pytest.mark.slow, pytest.mark.once]


def test_a_file_still_being_sent_is_closed_when_the_server_stops(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (64 << 20))  # far more than the sockets' buffers hold
    opened: list[IO[bytes]] = []
    app = Flask(__name__)

    @app.get("/big")
    def download() -> object:
        handle = big.open("rb")
        opened.append(handle)
        return send_file(handle, mimetype="application/octet-stream")

    phone = socket.socket()
    try:
        with serve(app) as url:
            phone.connect(("127.0.0.1", int(url.rsplit(":", 1)[1])))
            phone.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            received = b""
            while b"\r\n\r\n" not in received or len(received) < 1 << 16:
                received += phone.recv(1 << 16)  # the body has begun: the file is being sent
            assert received.startswith(b"HTTP/1.1 200")
            time.sleep(0.5)  # the server fills the sockets' buffers and its thread is done
            # ... and the phone reads no more and stays connected while the server stops,
            # so most of the file is still waiting to be sent.
        assert len(opened) == 1
        assert opened[0].closed
    finally:
        phone.close()
