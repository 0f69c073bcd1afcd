"""Saving a hand through ``games.service``: the plain-row path the API takes and the ORM
path the pages take store the same four things (the hand, its idempotency key, its
history entry and the game's next version), in one transaction, on either database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper.db import get_session
from scorekeeper.games import service
from scorekeeper.models import Change, Game, GameData, GameRow, Hand, HandRow, Submission

KNOCK = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 12, "upcard": None}
GIN = {"mode": "quick", "outcome": "gin", "knocker": 1, "knocker_deadwood": 0,
       "defender_deadwood": 7, "upcard": "7S"}


def new_game(client: FlaskClient) -> str:
    response = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]})
    assert response.status_code == 201
    game_id: str = response.get_json()["id"]
    return game_id


def never_over(_game: GameData) -> bool:
    return False


@contextmanager
def locked(app: Flask, game_id: str, lock: Any = service.lock_row) -> Iterator[tuple[Any, Any]]:
    """A POST request's session and the game read with ``lock`` (the plain-row
    ``lock_row``, or the ORM's ``lock_game``)."""
    with app.test_request_context(method="POST"):
        db = get_session()
        game = lock(db, game_id)
        assert game is not None
        yield db, game


def stored(app: Flask, game_id: str) -> dict[str, Any]:
    """What the database holds for the game, read back through the ORM."""
    with app.test_request_context(method="POST"):
        db = get_session()
        game = db.get(Game, game_id)
        assert game is not None
        changes = db.scalars(select(Change).where(Change.game_id == game_id)
                             .order_by(Change.id)).all()
        keys = db.scalars(select(Submission).where(Submission.game_id == game_id)).all()
        return {
            "version": game.version,
            "hands": [(hand.number, hand.inputs) for hand in game.hands],
            "changes": [(c.action, c.hand_number, c.before, c.after, c.by) for c in changes],
            "keys": {key.key: key.hand_number for key in keys},
        }


def test_lock_row_reads_the_game_and_its_hands_in_order(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client)
    with app.test_request_context(method="POST"):
        db = get_session()
        assert service.lock_row(db, "no-such-game") is None
        game = service.lock_row(db, game_id)
        assert game is not None
        assert (game.id, game.variant, game.players, game.version) == (game_id, "gin",
                                                                        ["Ann", "Bob"], 0)
        assert game.hands == []
        for inputs in (KNOCK, GIN):
            service.add_hand(db, game, inputs, token=None, version=None, by="API",
                             finished=never_over)
        db.commit()
        again = service.lock_row(db, game_id)
        db.rollback()
    assert again is not None
    assert again.hands == [HandRow(1, KNOCK), HandRow(2, GIN)]
    assert again.version == 2


CARDS = {"mode": "cards", "knocker": 1, "knocker_cards": ["AS", "2S", "3S", "7H"],
         "knocker_melds": [["AS", "2S", "3S"]], "defender_cards": ["KD", "QD"],
         "defender_melds": None, "layoffs": [{"card": "4S", "meld": 0}], "upcard": None}


def test_the_hands_read_as_one_text_are_the_stored_hands_in_order(
    app: Flask, client: FlaskClient
) -> None:
    """``read_row`` reads every hand as one text of ``[number,inputs]`` pairs in the
    order the database finds them: the rows come back in hand order, each inputs
    exactly as stored (nested lists, ``None``, text that is not ASCII, quotes)."""
    game_id = new_game(client)
    odd = {"mode": "quick", "note": 'Пётр said "gin", \\ ok', "knocker": None}
    written = {3: GIN, 1: KNOCK, 4: odd, 2: CARDS}  # inserted in this order
    with app.test_request_context(method="POST"):
        db = get_session()
        for number, inputs in written.items():
            db.add(Hand(game_id=game_id, number=number, inputs=inputs))
        db.commit()
        game = service.lock_row(db, game_id)
        db.rollback()
    assert game is not None
    assert game.hands == [HandRow(1, KNOCK), HandRow(2, CARDS), HandRow(3, GIN), HandRow(4, odd)]
    assert game.hands[3].inputs["note"] == 'Пётр said "gin", \\ ok'
    assert stored(app, game_id)["hands"] == [(h.number, h.inputs) for h in game.hands]


def test_a_hand_saved_from_plain_rows_stores_hand_key_history_and_version(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    with locked(app, game_id) as (db, game):
        assert isinstance(game, GameRow)
        number, new = service.add_hand(db, game, KNOCK, token="key-1", version=0, by="API",
                                       finished=never_over)
        db.commit()
        # The row in memory is the game as stored now: the answer is drawn from it.
        assert (number, new, game.version, game.hands) == (1, True, 1, [HandRow(1, KNOCK)])
    assert stored(app, game_id) == {
        "version": 1,
        "hands": [(1, KNOCK)],
        "changes": [
            ("create", None, None, {"players": ["Ann", "Bob"], "rules": _rules(app, game_id)},
             "API"),
            ("add", 1, None, KNOCK, "API"),
        ],
        "keys": {"key-1": 1},
    }


def test_a_hand_saved_from_the_orm_game_stores_the_same_and_reloads_its_hands(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    with locked(app, game_id, service.lock_game) as (db, game):
        service.add_hand(db, game, GIN, token=None, version=0, by="edit link",
                         finished=never_over)
        assert game.version == 1
        assert [(hand.number, hand.inputs) for hand in game.hands] == [(1, GIN)]
        db.commit()
    after = stored(app, game_id)
    assert (after["version"], after["hands"], after["keys"]) == (1, [(1, GIN)], {})
    assert after["changes"][-1] == ("add", 1, None, GIN, "edit link")


@pytest.mark.parametrize("path", ["rows", "orm"])
def test_a_used_key_refuses_the_second_hand_and_stores_none_of_it(
    app: Flask, client: FlaskClient, path: str
) -> None:
    game_id = new_game(client)
    with app.test_request_context(method="POST"):
        db = get_session()
        for inputs in (KNOCK, GIN):
            game = (service.lock_row if path == "rows" else service.lock_game)(db, game_id)
            assert game is not None
            try:
                service.add_hand(db, game, inputs, token="same", version=None, by="API",
                                 finished=never_over)
                db.commit()
            except IntegrityError:
                db.rollback()
                assert inputs is GIN
    after = stored(app, game_id)
    assert after["hands"] == [(1, KNOCK)]
    assert after["version"] == 1
    assert [c[0] for c in after["changes"]] == ["create", "add"]
    assert after["keys"] == {"same": 1}


def test_a_finished_game_takes_no_hand_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    with locked(app, game_id) as (db, game):
        with pytest.raises(service.GameOver):
            service.add_hand(db, game, KNOCK, token="k", version=None, by="API",
                             finished=lambda _game: True)
        db.rollback()
    assert stored(app, game_id)["hands"] == []
    assert stored(app, game_id)["version"] == 0


def _rules(app: Flask, game_id: str) -> dict[str, Any]:
    with app.test_request_context(method="POST"):
        game = get_session().get(Game, game_id)
        assert game is not None
        return dict(game.rules)


def test_the_api_takes_the_hand_that_ends_a_game_and_refuses_the_next(
    app: Flask, client: FlaskClient
) -> None:
    """Classic rules (target 100, no bonuses): two knocks of 60 − 2 = 58 end the game at
    116. The API replays the game once with the new hand last, and again without it only
    when the game is over with it: the answers must still be exactly right."""
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    url = f"/api/v1/games/{created['id']}/hands"
    knock = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 60}

    def send(key: str) -> Any:
        return client.post(url, json=knock, headers={
            "X-Edit-Secret": created["edit_secret"], "Idempotency-Key": key})

    first, ending = send("one"), send("two")
    assert (first.status_code, ending.status_code) == (201, 201)
    assert first.get_json() | {"id": None, "created_at": None} == first.get_json() | {
        "id": None, "created_at": None, "hand": 1, "version": 1, "totals": [58, 0],
        "boxes": [1, 0], "needs": [42, 100], "finished": False, "winner": None,
        "settlement": None}
    answer = ending.get_json()
    assert (answer["hand"], answer["version"], answer["totals"], answer["boxes"]) == (
        2, 2, [116, 0], [2, 0])
    assert (answer["finished"], answer["winner"], answer["needs"]) == (True, 0, [0, 100])
    assert (answer["settlement"]["finals"], answer["settlement"]["margin"]) == ([116, 0], 116)

    refused = send("three")
    assert refused.status_code == 409
    assert refused.get_json()["errors"] == [
        {"where": "game", "message": "the game is over: no more hands"}]
    retried = send("two")  # the ending hand's request again, after the game ended
    assert retried.status_code == 200
    assert (retried.get_json()["hand"], retried.get_json()["totals"]) == (2, [116, 0])
    assert [number for number, _inputs in stored(app, created["id"])["hands"]] == [1, 2]


def read_unlocked(app: Flask, game_id: str) -> GameRow:
    """The game as a save that reads before it locks sees it (an SQLite file's reader)."""
    reader = app.extensions["scorekeeper.reader"]
    with reader.connect() as connection, connection.begin():  # one snapshot, as the API's
        game = service.read_row(connection, game_id)
    assert game is not None
    return game


def first_read_is(app: Flask, monkeypatch: pytest.MonkeyPatch, stale: GameRow) -> list[str]:
    """Make the API read the game without the lock on every database (PostgreSQL has no
    separate reader of its own) and see ``stale`` the first time; later reads (under
    the lock) are real. The hand goes the whole way, as it does for a game that cannot
    go on from a kept tally (``_add_from_tally`` declines). Returns the list the reads
    are noted in."""
    from scorekeeper.api import games as api_games

    reads: list[str] = []
    fresh = service.read_row

    def stale_once(connection: Any, game_id: str) -> GameRow | None:
        reads.append(game_id)
        return stale if len(reads) == 1 else fresh(connection, game_id)

    monkeypatch.setattr(api_games, "_add_from_tally", lambda _game_id: None)
    monkeypatch.setattr(api_games, "snapshot_engine", lambda: app.extensions["scorekeeper.reader"])
    monkeypatch.setattr(service, "read_row", stale_once)
    return reads


def test_a_game_read_without_the_lock_is_saved_when_nothing_changed_meanwhile(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    game = read_unlocked(app, game_id)
    with app.test_request_context(method="POST"):
        db = get_session()
        number, new = service.add_hand(db, game, KNOCK, token="key-1", version=None, by="API",
                                       finished=never_over, unlocked=True)
        db.commit()
    assert (number, new, game.version) == (1, True, 1)
    after = stored(app, game_id)
    assert (after["version"], after["hands"], after["keys"]) == (1, [(1, KNOCK)], {"key-1": 1})
    assert after["changes"][-1] == ("add", 1, None, KNOCK, "API")


def test_a_game_read_without_the_lock_and_changed_meanwhile_is_a_conflict_and_stores_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Two phones read the game at version 0; the other one saves its hand first. This
    save's checked version bump finds version 1 and writes nothing (not its hand as a
    second hand 1, not its key, not its history entry); the API then saves it again
    under the lock, as hand 2."""
    game_id = new_game(client)
    game = read_unlocked(app, game_id)
    with locked(app, game_id) as (db, other):
        service.add_hand(db, other, GIN, token="other", version=None, by="API",
                         finished=never_over)
        db.commit()
        with pytest.raises(service.Conflict):
            service.add_hand(db, game, KNOCK, token="late", version=None, by="API",
                             finished=never_over, unlocked=True)
        db.rollback()
    after = stored(app, game_id)
    assert (after["version"], after["hands"], after["keys"]) == (1, [(1, GIN)], {"other": 1})
    assert [c[0] for c in after["changes"]] == ["create", "add"]


def test_the_api_saves_a_hand_under_the_lock_after_losing_the_race_for_it(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The API reads the game (here: as it was before another phone's hand) without the
    lock, loses the checked write, and saves the hand again under the lock as hand 2.
    Classic rules: a knock of 12 − 3 = 9 for Ann, then Bob's gin on 7 = 20 + 7 = 27."""
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    headers = {"X-Edit-Secret": created["edit_secret"]}
    url = f"/api/v1/games/{created['id']}/hands"
    stale = read_unlocked(app, created["id"])
    knock = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 12}
    assert client.post(url, json=knock, headers=headers).status_code == 201

    reads = first_read_is(app, monkeypatch, stale)
    gin = {"outcome": "gin", "knocker": 1, "knocker_deadwood": 0, "defender_deadwood": 7}
    answer = client.post(url, json=gin, headers={**headers, "Idempotency-Key": "g"})
    assert answer.status_code == 201
    assert (answer.get_json()["hand"], answer.get_json()["totals"]) == (2, [9, 27])
    assert len(reads) == 2  # the stale read, then the locked one
    after = stored(app, created["id"])
    assert after["hands"] == [(1, {**knock, "mode": "quick", "upcard": None}),
                              (2, {**gin, "mode": "quick", "upcard": None})]
    assert (after["version"], after["keys"]) == (2, {"g": 2})


def test_a_game_reopened_by_a_correction_after_the_unlocked_read_takes_the_hand(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Classic to 100: two knocks of 60 − 2 = 58 end it at 116. The API reads it over;
    before it answers, hand 2 is corrected to a knock of 7 − 2 = 5 (63: going again).
    The game read without the lock is not trusted to be over: it is read again under
    the lock, and the hand is taken as hand 3."""
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    headers = {"X-Edit-Secret": created["edit_secret"]}
    url = f"/api/v1/games/{created['id']}/hands"
    big = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 60}
    for _ in range(2):
        assert client.post(url, json=big, headers=headers).status_code == 201
    over = read_unlocked(app, created["id"])
    small = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 2,
             "defender_deadwood": 7, "upcard": None}
    with locked(app, created["id"], service.lock_game) as (db, game):
        service.edit_hand(db, game, 2, small, version=None, by="edit link")
        db.commit()

    reads = first_read_is(app, monkeypatch, over)
    answer = client.post(url, json=big, headers=headers)
    assert answer.status_code == 201
    assert (answer.get_json()["hand"], answer.get_json()["totals"]) == (3, [121, 0])
    assert len(reads) == 2


def test_a_printed_sheet_reads_the_game_without_locking_it() -> None:
    """A save locks the game row it reads (``FOR UPDATE`` on PostgreSQL); a printed
    sheet, a GET, reads the same rows without the lock (``read_row(lock=False)``)."""
    from sqlalchemy.dialects import postgresql

    def sql(lock: bool) -> str:
        game, _hands = service._row_statements(lock)
        return str(game.statement.compile(dialect=postgresql.dialect()))

    assert sql(lock=True).endswith("FOR UPDATE")
    assert "FOR UPDATE" not in sql(lock=False)
