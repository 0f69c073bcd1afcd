"""The production server's access log never holds an edit secret: ``scorekeeper serve``
(gunicorn) logs a request's path without its query string, where an edit link carries
the game's or the group's secret (``?key=…``)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.trust_server import Browser, create_game, free_port

pytestmark = pytest.mark.slow


def test_edit_links_reach_the_access_log_without_their_secrets(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "access.log"
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url,
           "XDG_RUNTIME_DIR": str(tmp_path)}
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", "--instance", str(tmp_path / "instance"),
             "serve", "--host=127.0.0.1", f"--port={port}", "--workers=1"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.DEVNULL,
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
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    text = log.read_text()
    assert game["edit_secret"] not in text and created["edit_secret"] not in text
    assert "key=" not in text
    # The lines are still there, each with its path and status.
    for path in (f"/g/{game['id']}", f"/groups/{created['id']}"):
        assert re.search(rf'"GET {re.escape(path)} HTTP/1\.1" 302 ', text), text
    assert re.search(rf'"GET /g/{re.escape(game["id"])} HTTP/1\.1" 200 ', text), text
    assert re.search(r'"POST /api/v1/games HTTP/1\.1" 201 ', text), text
