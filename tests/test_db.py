"""The database layer: several app processes on one SQLite file take turns."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import pytest

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


def write_lock_free(database_url: str) -> bool:
    """Whether another connection takes SQLite's write lock within 0.1 s (PostgreSQL has
    no such lock: always true there)."""
    if not database_url.startswith("sqlite"):
        return True
    conn = sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0.1,
                           isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()
    return True


def test_a_save_goes_through_at_once_while_a_sheet_pdf_is_typeset(
    make_app: Any, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone printing the sheet (held inside WeasyPrint) stalls no other phone's save:
    the read took no write lock, in this process or in another one."""
    from scorekeeper.printing import render

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
        assert write_lock_free(database_url), "a save left SQLite's write lock taken"
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


def test_a_get_reads_without_writing_and_stores_through_a_writer_session(make_app: Any) -> None:
    """A page (a GET) reads through the reader, which refuses to write on SQLite; what
    it stores (a group's game summaries) goes through a session of the writer's own,
    and the row is there for everyone."""
    from sqlalchemy.exc import OperationalError

    from scorekeeper.db import get_session, writer_session
    from scorekeeper.models import Game, Hand

    app = make_app()
    on_sqlite = app.config["DATABASE_URL"].startswith("sqlite")

    @app.get("/test/remember/<game_id>")
    def remember(game_id: str) -> str:
        stored = get_session().get(Game, game_id)
        assert stored is not None
        inputs = dict(QUICK, mode="quick", upcard=None)
        if on_sqlite:
            get_session().add(Hand(game_id=game_id, number=2, inputs=inputs))
            with pytest.raises(OperationalError, match="readonly"):
                get_session().commit()
        with writer_session() as db:
            db.add(Hand(game_id=game_id, number=1, inputs=inputs))
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
        assert write_lock_free(database_url), "a refused form kept SQLite's write lock"
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


def test_a_refused_form_is_drawn_again_reading_with_the_write_lock_free(
    app: Any, client: Any, friday: dict[str, Any], database_url: str
) -> None:
    """Each refused change (a hand with a mistake, a hand sent from a page another save
    made stale, no PIN typed, no short names, a new game or night without players, a
    group's settings or payment with a mistake) is answered with its form again; while
    that page is drawn the request's session reads through the reader engine and holds
    no write transaction, so on SQLite another connection takes the write lock at once."""
    from flask import before_render_template

    from scorekeeper.db import get_session
    from tests.helpers import new_game, quick

    game_id = new_game(client)
    group_id = friday["group"]["id"]
    drawn: list[tuple[str, bool, bool]] = []

    def look(_app: Any, template: Any, **_context: Any) -> None:
        session = get_session()
        reading = session.get_bind() is app.extensions["scorekeeper.reader"]
        lock_free = write_lock_free(database_url)
        drawn.append((template.name, reading, lock_free))

    refusals = [
        (lambda: quick(client, game_id, "knock", 0, 11, 20), "games/sheet.html", 422),
        (lambda: quick(client, game_id, "knock", 0, 2, 9, version="7"), "games/sheet.html",
         409),
        (lambda: client.post(f"/g/{game_id}/unlock", data={"pin": ""}), "games/unlock.html",
         422),
        (lambda: client.post(f"/g/{game_id}/short-names", data={}), "games/sheet.html", 422),
        (lambda: client.post("/games/new", data={"variant": "gin"}), "games/new.html", 422),
        (lambda: client.post("/nights/new", data={"variant": "gin"}), "nights/new.html", 422),
        (lambda: client.post(f"/groups/{group_id}/settings", data={"settings-name": ""}),
         "groups/page.html", 422),
        (lambda: client.post(f"/groups/{group_id}/payments",
                             data={"payment-payer": "Ann", "payment-payee": "Ann",
                                   "payment-amount": "1"}),
         "groups/page.html", 422),
    ]
    before_render_template.connect(look, app)
    try:
        for send, template, status in refusals:
            drawn.clear()
            assert send().status_code == status, template
            # The page and every part drawn for it (a sheet draws other features' parts
            # first, services/page_parts.py) are read the same way.
            assert template in [name for name, _reading, _free in drawn], template
            assert {(reading, free) for _name, reading, free in drawn} == {(True, True)}
    finally:
        before_render_template.disconnect(look, app)
