"""Saving a hand through ``services.games``, the one way the API and the pages save: the
game read locked, then the hand, its idempotency key, its history entry and the game's
next version stored in one transaction, on either database."""

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
from scorekeeper.models import Change, Game, GameData, Submission
from scorekeeper.services import games as service

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
def locked(app: Flask, game_id: str) -> Iterator[tuple[Any, Any]]:
    """A POST request's session and the game read locked (``service.lock_game``)."""
    with app.test_request_context(method="POST"):
        db = get_session()
        game = service.lock_game(db, game_id)
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


def test_a_saved_hand_stores_hand_key_history_and_version(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    with locked(app, game_id) as (db, game):
        number, new = service.add_hand(db, game, KNOCK, token="key-1", version=0, by="API",
                                       finished=never_over)
        db.commit()
        # The game in memory is the game as stored now: the answer is drawn from it.
        assert (number, new, game.version) == (1, True, 1)
        assert [(hand.number, hand.inputs) for hand in game.hands] == [(1, KNOCK)]
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


def test_a_used_key_refuses_the_second_hand_and_stores_none_of_it(
    app: Flask, client: FlaskClient
) -> None:
    game_id = new_game(client)
    with app.test_request_context(method="POST"):
        db = get_session()
        for inputs in (KNOCK, GIN):
            game = service.lock_game(db, game_id)
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
    116; the next hand is refused, and the ending hand's request sent again is answered
    with its number."""
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
