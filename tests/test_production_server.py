"""The production server as ``make run`` starts it: ``scorekeeper serve`` migrates, then
gunicorn runs threaded workers, two per CPU core (at most four); a hand saved through
the API and the sheet printed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.cli import default_workers, gunicorn_args
from tests.trust_server import Browser, Reply, create_game, free_port

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def test_make_run_is_scorekeeper_serve() -> None:
    """So that starting ``scorekeeper serve`` below is starting what ``make run`` does."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe is not None
    assert recipe.group(1).strip() == (
        "$(VENV)/bin/scorekeeper serve --host=$(HOST) --port=$(PORT)"
        " $(if $(WORKERS),--workers=$(WORKERS))"
    )
    assert re.search(r"^WORKERS \?=$", makefile, re.MULTILINE)  # serve's own default
    assert re.search(r"^HOST +\?= 127\.0\.0\.1$", makefile, re.MULTILINE)


@pytest.mark.parametrize(("cores", "workers"), [(1, 2), (2, 4), (3, 4), (64, 4)])
def test_two_workers_per_core_at_most_four(
    cores: int, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cores)))
    assert default_workers() == workers


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``scorekeeper serve`` with make run's defaults, on a free port and the test's
    database; stopped (the whole process group) afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "XDG_RUNTIME_DIR": str(tmp_path),  # gunicorn's control socket
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--instance", str(tmp_path / "instance"),
         "serve", "--host=127.0.0.1", f"--port={port}"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        yield process, f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        if process.stderr:
            process.stderr.close()


def first_answer(process: subprocess.Popen[bytes], browser: Browser, path: str) -> Reply:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(process.stderr.read().decode() if process.stderr else "exited")
        try:
            return browser.get(path)
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not answer within a minute")


def test_gunicorn_saves_a_hand_and_prints_the_sheet(
    server: tuple[subprocess.Popen[bytes], str], tmp_path: Path
) -> None:
    process, base = server
    browser = Browser(base, timeout=60)
    assert first_answer(process, browser, "/").status == 200
    # serve replaced itself with gunicorn, started with make run's flags.
    cmdline = Path(f"/proc/{process.pid}/cmdline").read_bytes().decode().split("\0")[:-1]
    port = int(base.rsplit(":", 1)[1])
    workers = default_workers()
    assert cmdline == [
        sys.executable, "-m", "gunicorn", *gunicorn_args("127.0.0.1", port, workers)
    ]
    assert (tmp_path / "instance" / "secret_key").is_file()

    game = create_game(browser, rules="classic")
    # Ann knocks with 5, Bob has 25 after layoffs: Ann scores 20 (classic).
    reply = browser.post_json(
        f"/api/v1/games/{game['id']}/hands",
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 25},
        headers={"X-Edit-Secret": game["edit_secret"]},
    )
    assert reply.status == 201, reply.text
    answer = reply.json()
    assert answer["hand"] == 1
    assert answer["totals"] == [20, 0]

    pdf = browser.get(f"/g/{game['id']}/sheet.pdf")
    assert pdf.status == 200
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.body.startswith(b"%PDF-")
    assert pdf.body.rstrip().endswith(b"%%EOF")
