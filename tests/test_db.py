"""The database layer: several app processes on one SQLite file take turns."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import closing
from typing import Any

import pytest

from scorekeeper import db
from tests.conftest import PG_URL

QUICK = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20}


@pytest.mark.skipif(bool(PG_URL), reason="the file lock is SQLite's")
def test_two_apps_on_one_file_take_turns_without_losing_a_hand(make_app: Any) -> None:
    """Two apps (as two gunicorn workers would be) write to one game at once."""
    first, second = make_app(), make_app()
    game = first.test_client().post(
        "/api/v1/games", json={"players": ["Ann", "Bob"], "rules": {"target": 10000}}
    ).get_json()
    statuses: list[int] = []

    def phone(app: Any, name: str) -> None:
        client = app.test_client()
        for i in range(15):
            response = client.post(f"/api/v1/games/{game['id']}/hands", json=QUICK, headers={
                "X-Edit-Secret": game["edit_secret"], "Idempotency-Key": f"{name}-{i}"})
            statuses.append(response.status_code)

    threads = [threading.Thread(target=phone, args=(app, f"{n}{k}"))
               for n, app in enumerate((first, second)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 60
    hands = second.test_client().get(f"/api/v1/games/{game['id']}").get_json()["hands"]
    assert [h["number"] for h in hands] == list(range(1, 61))


def test_a_save_goes_through_at_once_while_a_sheet_pdf_is_typeset(
    make_app: Any, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone printing the sheet (held inside WeasyPrint) stalls no other phone's save:
    the read took no write lock, in this process or in another one."""
    from scorekeeper.pdf import render

    printer, saver = make_app(), make_app()  # two processes, as two gunicorn workers
    game = saver.test_client().post(
        "/api/v1/games", json={"players": ["Ann", "Bob"], "rules": {"target": 10000}}
    ).get_json()
    headers = {"X-Edit-Secret": game["edit_secret"]}
    hands = f"/api/v1/games/{game['id']}/hands"
    assert saver.test_client().post(hands, json=QUICK, headers=headers).status_code == 201

    typesetting, finish = threading.Event(), threading.Event()
    real = render.html_to_pdf

    def slow(html: str, *pictures: Any) -> bytes:
        typesetting.set()
        finish.wait(30)
        return real(html, *pictures)

    monkeypatch.setattr(render, "html_to_pdf", slow)
    printed: list[Any] = []
    saved: list[int] = []
    reader = threading.Thread(
        target=lambda: printed.append(printer.test_client().get(f"/g/{game['id']}/sheet.pdf"))
    )
    writers = [
        threading.Thread(target=lambda app=app: saved.append(
            app.test_client().post(hands, json=QUICK, headers=headers).status_code))
        for app in (saver, printer)
    ]
    reader.start()
    try:
        assert typesetting.wait(30)
        for writer in writers:  # the other process, then the printing one itself
            writer.start()
            writer.join(timeout=5)
            assert not writer.is_alive(), "a save waited for a PDF being typeset"
        if database_url.startswith("sqlite"):
            path = database_url.removeprefix("sqlite:///")
            conn = sqlite3.connect(path, timeout=0.1, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")  # SQLite's write lock is free
                conn.execute("ROLLBACK")
            finally:
                conn.close()
    finally:
        finish.set()
        reader.join(timeout=60)
        for writer in writers:
            if writer.is_alive() or writer.ident is not None:
                writer.join(timeout=60)
    assert saved == [201, 201]
    assert printed[0].status_code == 200
    assert printed[0].mimetype == "application/pdf"
    totals = saver.test_client().get(f"/api/v1/games/{game['id']}").get_json()["totals"]
    assert totals == [3 * 17, 0]


def test_a_get_that_writes_writes_through_the_writer(make_app: Any) -> None:
    """A page that stores something it worked out (a GET) still can: its reads take no
    lock, its flush and commit go through the writer (on SQLite: the file lock and
    ``BEGIN IMMEDIATE``), and the row is there for everyone."""
    from scorekeeper.db import get_session
    from scorekeeper.models import Game, Hand

    app = make_app()

    @app.get("/test/remember/<game_id>")
    def remember(game_id: str) -> str:
        db = get_session()
        stored = db.get(Game, game_id)
        assert stored is not None
        db.add(Hand(game_id=game_id, number=1, inputs=dict(QUICK, mode="quick", upcard=None)))
        db.commit()
        return "stored"

    game = app.test_client().post(
        "/api/v1/games", json={"players": ["Ann", "Bob"], "rules": {"target": 10000}}
    ).get_json()
    response = app.test_client().get(f"/test/remember/{game['id']}")
    assert (response.status_code, response.get_data(as_text=True)) == (200, "stored")
    hands = make_app().test_client().get(f"/api/v1/games/{game['id']}").get_json()["hands"]
    assert [(h["number"], h["totals"]) for h in hands] == [(1, [17, 0])]


def test_timestamps_come_back_in_utc_on_every_database(make_app: Any) -> None:
    """SQLite keeps no zone: without ``UTCDateTime`` the API wrote naive times there."""
    from datetime import UTC, datetime, timedelta

    client = make_app().test_client()
    before = datetime.now(UTC)
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    answer = client.get(f"/api/v1/games/{created['id']}").get_json()
    assert answer["created_at"].endswith("+00:00")
    moment = datetime.fromisoformat(answer["created_at"])
    assert before - timedelta(seconds=1) <= moment <= datetime.now(UTC) + timedelta(seconds=1)


def test_a_refused_hand_is_shown_again_without_holding_up_other_saves(
    make_app: Any, database_url: str
) -> None:
    """A phone whose hand is refused (deadwood 11 on a knock) gets the sheet back with
    the message; while that page is being drawn another phone's save goes through, and
    on SQLite the write lock is free."""
    from flask import before_render_template

    from tests.helpers import new_game, quick

    refuser, saver = make_app(), make_app()  # two processes
    phone = refuser.test_client()
    game_id = new_game(phone)
    rendering, finish = threading.Event(), threading.Event()

    def hold(_app: Any, template: Any, **_context: Any) -> None:
        if template.name == "games/sheet.html":
            rendering.set()
            finish.wait(30)

    secret = _secret(saver, game_id)
    other = saver.test_client()
    assert other.get(f"/g/{game_id}?key={secret}").status_code in (200, 302)
    before_render_template.connect(hold, refuser)
    refused: list[Any] = []
    thread = threading.Thread(target=lambda: refused.append(
        quick(phone, game_id, "knock", 0, 11, 20)))
    thread.start()
    try:
        assert rendering.wait(30)
        saving: list[int] = []
        save = threading.Thread(target=lambda: saving.append(
            quick(other, game_id, "knock", 1, 2, 9).status_code))
        save.start()
        save.join(timeout=5)
        assert not save.is_alive(), "a save waited for a refused form being shown again"
        assert saving == [302]
        if database_url.startswith("sqlite"):
            conn = sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0.1,
                                   isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
            finally:
                conn.close()
    finally:
        finish.set()
        thread.join(timeout=60)
        before_render_template.disconnect(hold, refuser)
    assert refused[0].status_code == 422
    assert "knock" in refused[0].get_data(as_text=True)
    hands = saver.test_client().get(f"/api/v1/games/{game_id}").get_json()["hands"]
    assert [h["totals"] for h in hands] == [[0, 7]]


def _secret(app: Any, game_id: str) -> str:
    from scorekeeper.models import Game

    with app.app_context():
        from scorekeeper.db import get_session

        game = get_session().get(Game, game_id)
        assert game is not None
        return str(game.edit_secret)


def hands_in_the_file_alone(path: str) -> int:
    """The hands an SQLite file holds by itself, its WAL left aside (``immutable``):
    what checkpoints have copied back into it."""
    with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as file_alone:
        if not file_alone.execute("SELECT 1 FROM sqlite_master WHERE name = 'hands'").fetchone():
            return 0  # not even the tables were copied back yet
        count: int = file_alone.execute("SELECT count(*) FROM hands").fetchone()[0]
        return count


def new_long_game(app: Any) -> tuple[Any, str, dict[str, str]]:
    client = app.test_client()
    game = client.post("/api/v1/games", json={"players": ["Ann", "Bob"],
                                              "rules": {"target": 10000}}).get_json()
    return client, f"/api/v1/games/{game['id']}/hands", {"X-Edit-Secret": game["edit_secret"]}


@pytest.mark.skipif(bool(PG_URL), reason="SQLite's WAL")
def test_saves_never_copy_the_wal_back_themselves(
    make_app: Any, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """250 hands write about 1,500 pages to the WAL, past the 1,000 at which SQLite's
    own commit would copy it back (and wait for two fsyncs holding the write lock):
    with the checkpointer held back, not one of them reaches the database file."""
    monkeypatch.setattr(db, "CHECKPOINT_SECONDS", 3600.0, raising=False)
    app = make_app()
    path = database_url.removeprefix("sqlite:///")
    client, url, headers = new_long_game(app)
    with closing(sqlite3.connect(path)) as other:  # everything so far in the file
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for _ in range(250):
        assert client.post(url, json=QUICK, headers=headers).status_code == 201
    frames = (os.path.getsize(path + "-wal") - 32) // (24 + 4096)  # WAL header, frames
    assert frames > 1000
    assert hands_in_the_file_alone(path) == 0


def wal_salts(path: str) -> bytes:
    """The WAL header's two salts: SQLite draws new ones each time a save writes the
    WAL over from its start (after everything in it was copied back)."""
    with open(path + "-wal", "rb") as wal:
        return wal.read(24)[16:24]


@pytest.mark.skipif(bool(PG_URL), reason="SQLite's WAL")
def test_the_checkpointer_copies_saves_back_soon_after_and_the_wal_starts_over(
    make_app: Any, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty saves reach the database file within moments, and a save after that
    writes the WAL over from its start rather than growing it. Without the
    checkpointer, SQLite would copy back only past 1,000 pages (about 160 hands)."""
    monkeypatch.setattr(db, "CHECKPOINT_SECONDS", 0.05, raising=False)
    app = make_app()
    path = database_url.removeprefix("sqlite:///")
    client, url, headers = new_long_game(app)
    for _ in range(20):
        assert client.post(url, json=QUICK, headers=headers).status_code == 201
    deadline = time.monotonic() + 10
    while hands_in_the_file_alone(path) != 20 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert hands_in_the_file_alone(path) == 20

    # The file may show the hands while the checkpoint is still syncing it, before the
    # WAL counts as copied back; so a save or two may still append. Within a few
    # checkpoint periods one finds it all copied back and starts over.
    salts, saves, size = wal_salts(path), 0, 0
    while wal_salts(path) == salts and saves < 60:
        time.sleep(0.1)
        size = os.path.getsize(path + "-wal")
        assert client.post(url, json=QUICK, headers=headers).status_code == 201
        saves += 1
    assert wal_salts(path) != salts  # this save wrote the WAL over from its start ...
    assert os.path.getsize(path + "-wal") <= size  # ... so the file did not grow
