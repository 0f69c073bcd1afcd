"""The production server's logs never hold an edit secret: ``scorekeeper serve``
(gunicorn) logs a request's path without its query string, where an edit link carries
the game's or the group's secret (``?key=…``), and hides a secret wherever else it
shows up: a path with "?" written as %3F, a request line gunicorn cannot parse (which
a threaded worker writes to its error log)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.trust_server import Browser, create_game, free_port


def raw(port: int, line: bytes) -> bytes:
    """Send one request line as it is (no client would), and read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(line + b"\r\nHost: 127.0.0.1\r\n\r\n")
        return conn.recv(4096)

pytestmark = pytest.mark.slow


def test_edit_links_reach_the_access_log_without_their_secrets(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    log, errors = tmp_path / "access.log", tmp_path / "error.log"
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url,
           "XDG_RUNTIME_DIR": str(tmp_path)}
    with log.open("wb") as out, errors.open("wb") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", "--instance", str(tmp_path / "instance"),
             "serve", "--host=127.0.0.1", f"--port={port}", "--workers=1"],
            cwd=tmp_path, env=env, stdout=out, stderr=err,
            start_new_session=True)
        try:
            browser = Browser(f"http://127.0.0.1:{port}", timeout=60)
            deadline = time.monotonic() + 60
            while True:
                try:
                    browser.get("/")
                    break
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline
                    time.sleep(0.2)
            game = create_game(browser)
            group = browser.post_json("/api/v1/groups", {"name": "Friday", "players": ["Ann"]})
            assert group.status == 201
            created = group.json()
            opened = [browser.get(f"/g/{game['id']}?key={game['edit_secret']}"),
                      browser.get(f"/groups/{created['id']}?key={created['edit_secret']}")]
            assert [reply.status for reply in opened] == [302, 302]
            assert browser.get(f"/g/{game['id']}").status == 200
            # The secret in the path, "?" written as %3F; request lines gunicorn cannot
            # parse, with a raw "é" or a tab in the secret.
            secret = game["edit_secret"]
            assert browser.get(f"/g/{game['id']}%3Fkey={secret}").status == 404
            refused = [raw(port, line.encode("latin-1")) for line in (
                f"GET /g/{game['id']}?key={secret}\xc3\xa9 HTTP/1.1",
                f"GET /g/{game['id']}?key={secret[:9]}\t{secret[9:]} HTTP/1.1")]
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    text = log.read_text()
    assert game["edit_secret"] not in text and created["edit_secret"] not in text
    assert "key=[hidden]" in text  # the %3F request's line, without its secret
    error_log = errors.read_text(errors="replace")
    # gunicorn read both lines and refused them (its asgi worker answers 400 without
    # logging the line; a threaded worker logs it, and the logger hides the secret).
    assert [answer.split(b"\r\n", 1)[0] for answer in refused] == [
        b"HTTP/1.1 400 Bad Request"] * 2
    for part in (secret, secret[:9], secret[9:]):
        assert part not in text and part not in error_log, part
    # The lines are still there, each with its path and status.
    for path in (f"/g/{game['id']}", f"/groups/{created['id']}"):
        assert re.search(rf'"GET {re.escape(path)} HTTP/1\.1" 302 ', text), text
    assert re.search(rf'"GET /g/{re.escape(game["id"])} HTTP/1\.1" 200 ', text), text
    assert re.search(r'"POST /api/v1/games HTTP/1\.1" 201 ', text), text
