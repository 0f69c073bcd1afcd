"""The production server as ``make run`` starts it: ``scorekeeper serve`` migrates, then
gunicorn runs threaded workers, two per CPU core (at most four); a hand saved through
the API and the sheet printed."""

from __future__ import annotations

import gc
import logging
import os
import re
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from scorekeeper import gunicorn_config
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
    database, writing its standard error to ``server.log`` in ``tmp_path``; stopped
    (the whole process group) afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "XDG_RUNTIME_DIR": str(tmp_path),  # gunicorn's control socket
    }
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--instance", str(tmp_path / "instance"),
         "serve", "--host=127.0.0.1", f"--port={port}"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=log,
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
        log.close()


def first_answer(process: subprocess.Popen[bytes], browser: Browser, path: str,
                 log: Path) -> Reply:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(log.read_text())
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
    assert first_answer(process, browser, "/", tmp_path / "server.log").status == 200
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
    # More hands, each on a connection of its own, so that the workers take turns.
    # Bob's gin against 7: 20 + 7. Then Ann knocks 3 against 12 four times: 9 each (the
    # same hand again, meant so: X-Confirm).
    hands = [{"outcome": "gin", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 7}]
    hands += [{"outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
               "defender_deadwood": 12}] * 4
    for number, hand in enumerate(hands, 2):
        reply = browser.post_json(f"/api/v1/games/{game['id']}/hands", hand,
                                  headers={"X-Edit-Secret": game["edit_secret"],
                                           "X-Confirm": "repeat"})
        assert (reply.status, reply.json()["hand"]) == (201, number), reply.text
    assert reply.json()["totals"] == [56, 27]
    assert browser.get(f"/api/v1/games/{game['id']}").json()["totals"] == [56, 27]

    pdf = browser.get(f"/g/{game['id']}/sheet.pdf")
    assert pdf.status == 200
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.body.startswith(b"%PDF-")
    assert pdf.body.rstrip().endswith(b"%%EOF")

    # gunicorn ran scorekeeper.gunicorn_config's hook in every worker once it had built the
    # app: the app's objects (about 165,000) were frozen, not a handful.
    deadline = time.monotonic() + 60
    while True:
        log = (tmp_path / "server.log").read_text()
        frozen = dict(re.findall(  # gunicorn's lines say which worker: [pid] [level]
            r"\[(\d+)\] \[INFO\] built app frozen out of garbage collection: (\d+) objects", log))
        if len(frozen) >= workers or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(frozen) == workers, log
    assert min(int(count) for count in frozen.values()) > 50_000, log


def test_a_worker_collects_what_building_left_then_freezes_what_is_alive(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``gunicorn_config.post_worker_init``: garbage left in a reference cycle is collected, not
    frozen for ever; an object still in use is frozen (a full collection no longer walks
    it: ``gc.get_objects`` lists the collected generations only)."""

    class Node:
        def __init__(self) -> None:
            self.me = self  # a reference cycle: only the collector frees it

    kept, garbage = Node(), Node()
    gone = weakref.ref(garbage)
    del garbage
    worker = SimpleNamespace(log=logging.getLogger("gunicorn.error"))
    assert gc.get_freeze_count() == 0
    try:
        with caplog.at_level(logging.INFO, logger="gunicorn.error"):
            gunicorn_config.post_worker_init(worker)
        assert gone() is None
        assert not any(o is kept for o in gc.get_objects())
        [message] = caplog.messages
        said = re.fullmatch(
            r"built app frozen out of garbage collection: (\d+) objects", message)
        assert said is not None, message
        assert int(said[1]) >= gc.get_freeze_count() > 0  # frozen ones may yet be freed
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects())
