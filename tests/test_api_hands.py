"""Hands saved through the API: each answered with the game as it stands, replayed from
its stored hands; a retried request stores its hand once; a game that is over takes no
more; every refusal names its field."""

from __future__ import annotations

import time
from contextlib import closing
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import get_session
from scorekeeper.models import Hand
from scorekeeper.services import games as service
from tests.conftest import PG_URL

ANN, BOB = 0, 1


def knock(seat: int, deadwood: int, other: int) -> dict[str, Any]:
    return {"outcome": "knock", "knocker": seat, "knocker_deadwood": deadwood,
            "defender_deadwood": other}


def gin(seat: int, other: int) -> dict[str, Any]:
    return {"outcome": "gin", "knocker": seat, "knocker_deadwood": 0, "defender_deadwood": other}


def wins(seat: int, points: int) -> dict[str, Any]:
    """A knock that scores exactly ``points`` (deadwood 1 against ``points`` + 1)."""
    return knock(seat, 1, points + 1)


def new_game(client: FlaskClient, **body: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"], **body})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    return game["id"], {"X-Edit-Secret": game["edit_secret"]}


def standing(client: FlaskClient, game_id: str) -> tuple[Any, ...]:
    """The game as ``GET /api/v1/games/<id>`` replays it: version, hands, totals,
    boxes, next dealer, winner."""
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    return (game["version"], len(game["hands"]), game["totals"], game["boxes"],
            game["next_dealer"], game["winner"])


def send(client: FlaskClient, game_id: str, headers: dict[str, str], hand: dict[str, Any],
         key: str | None = None) -> tuple[int, Any]:
    extra = {"Idempotency-Key": key} if key else {}
    answer = client.post(f"/api/v1/games/{game_id}/hands", json=hand,
                         headers={**headers, **extra})
    return answer.status_code, answer.get_json()


def test_every_hand_saved_through_the_api_is_answered_with_the_game_as_it_stands(
    app: Flask, client: FlaskClient
) -> None:
    """Classic, Ann deals first, the winner deals next. Ann knocks 3 against 12: 9.
    Bob goes gin against 7: 20 + 7 = 27. Ann knocks 2 against 30: 28, 37 in all."""
    game_id, headers = new_game(client)
    status, answer = send(client, game_id, headers, knock(ANN, 3, 12))
    assert (status, answer["totals"]) == (201, [9, 0])
    assert standing(client, game_id) == (1, 1, [9, 0], [1, 0], ANN, None)
    status, answer = send(client, game_id, headers, gin(BOB, 7))
    assert (status, answer["hand"], answer["totals"]) == (201, 2, [9, 27])
    assert answer["next_dealer"] == BOB
    assert standing(client, game_id) == (2, 2, [9, 27], [1, 1], BOB, None)
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"], answer["needs"]) == (201, 3, [37, 27],
                                                                          [63, 73])
    assert (answer["version"], answer["boxes"], answer["finished"]) == (3, [2, 1], False)
    assert standing(client, game_id) == (3, 3, [37, 27], [2, 1], ANN, None)
    read = client.get(f"/api/v1/games/{game_id}").get_json()  # replayed from every hand
    assert [h["number"] for h in read["hands"]] == [1, 2, 3]
    assert read["totals"] == [37, 27]


def test_a_hand_after_a_correction_counts_the_corrected_hand(
    app: Flask, client: FlaskClient
) -> None:
    """Hand 1 (Ann 9) is corrected on the sheet to Bob's gin against 5 (25); with
    Bob's gin on 7 (27) and Ann's knock of 2 against 30 (28): 28–52."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    send(client, game_id, headers, gin(BOB, 7))
    with app.test_request_context(method="POST"):
        db = get_session()
        game = service.lock_game(db, game_id)
        assert game is not None
        corrected = {"mode": "quick", **gin(BOB, 5), "upcard": None}
        service.edit_hand(db, game, 1, corrected, version=None, by="edit link")
        db.commit()
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"], answer["version"]) == (201, 3, [28, 52], 4)
    assert standing(client, game_id) == (4, 3, [28, 52], [1, 2], ANN, None)


def test_hands_saved_by_the_service_and_the_api_add_up(app: Flask, client: FlaskClient) -> None:
    """Ann 9 through the API, Bob's gin on 7 (27) saved by ``service.add_hand`` (as the
    web forms save), Ann 28 through the API: 37–27."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    with app.test_request_context(method="POST"):
        db = get_session()
        game = service.lock_game(db, game_id)
        assert game is not None
        service.add_hand(db, game, {"mode": "quick", **gin(BOB, 7), "upcard": None}, token=None,
                         version=None, by="edit link", finished=lambda _game: False)
        db.commit()
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"]) == (201, 3, [37, 27])
    assert standing(client, game_id) == (3, 3, [37, 27], [2, 1], ANN, None)


def open_the_edit_link(client: FlaskClient, game_id: str, headers: dict[str, str]) -> None:
    opened = client.get(f"/g/{game_id}?key={headers['X-Edit-Secret']}")
    assert (opened.status_code, opened.headers["Location"]) == (302, f"/g/{game_id}")


def on_the_sheet(client: FlaskClient, game_id: str, version: int, hand: dict[str, Any]) -> Any:
    """Enter ``hand`` with the sheet's quick form drawn at ``version`` (a phone that
    opened the edit link)."""
    form = {"version": str(version), **{name: str(value) for name, value in hand.items()}}
    return client.post(f"/g/{game_id}/hands", data=form)


def test_a_hand_entered_card_by_card_after_an_api_hand(
    app: Flask, client: FlaskClient
) -> None:
    """Ann 9 through the API, then RULES.md §8's example 7 card by card: Ann knocks
    and Bob undercuts her, 11 to Bob (as tests/test_games.py has it): 9 against 11."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    open_the_edit_link(client, game_id, headers)
    entered = client.post(f"/g/{game_id}/hands/new", data={
        "knocker": "0", "version": "1", "token": "c1",
        "knocker_cards": "KS KH KD 5S 6S 7S 9C TC JC JD",
        "defender_cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
    })
    assert entered.status_code == 302, entered.get_data(as_text=True)
    assert standing(client, game_id) == (2, 2, [9, 11], [1, 1], BOB, None)


def test_after_the_hand_that_ends_the_game_on_the_sheet_no_hand_is_taken(
    app: Flask, client: FlaskClient
) -> None:
    """RULES.md §8's Russian game: A 15, B 47, A 55, B 28 through the API, A 33 on the
    sheet ends it at 103–75: Ann won; a hand more is refused, on the
    sheet and through the API, and nothing is stored."""
    game_id, headers = new_game(client, rules="russian")
    for hand in [wins(ANN, 15), wins(BOB, 47), wins(ANN, 55), wins(BOB, 28)]:
        assert send(client, game_id, headers, hand)[0] == 201
    open_the_edit_link(client, game_id, headers)
    assert on_the_sheet(client, game_id, 4, wins(ANN, 33)).status_code == 302
    assert standing(client, game_id) == (5, 5, [103, 75], [3, 2], ANN, ANN)
    refused = on_the_sheet(client, game_id, 5, wins(BOB, 10))
    assert refused.status_code == 409
    assert "The game is over: no more hands." in refused.get_data(as_text=True)
    status, answer = send(client, game_id, headers, wins(BOB, 10))
    assert (status, answer["errors"][0]["message"]) == (409, "the game is over: no more hands")
    assert client.get(f"/api/v1/games/{game_id}").get_json()["version"] == 5


def test_the_hand_that_ends_the_game_is_answered_with_its_settlement_and_payments(
    app: Flask, client: FlaskClient
) -> None:
    """RULES.md §8's Russian game at 0.01 a point: A 15, B 47, A 55, B 28, A 33 ends it
    at 103–75, finals 278–125: B pays A 153 × 0.01 = 1.53; then the game takes no more
    hands."""
    game_id, headers = new_game(client, rules="russian", stake="0.01", currency="EUR")
    for hand in [wins(ANN, 15), wins(BOB, 47), wins(ANN, 55), wins(BOB, 28)]:
        assert send(client, game_id, headers, hand)[0] == 201
    assert standing(client, game_id) == (4, 4, [70, 75], [2, 2], BOB, None)
    status, answer = send(client, game_id, headers, wins(ANN, 33))
    assert (status, answer["hand"], answer["finished"], answer["winner"]) == (201, 5, True, ANN)
    assert answer["settlement"]["finals"] == [278, 125]
    [payment] = answer["payments"]
    assert (payment["from"], payment["to"], Decimal(payment["amount"])) == ("Bob", "Ann",
                                                                          Decimal("1.53"))
    assert standing(client, game_id) == (5, 5, [103, 75], [3, 2], ANN, ANN)
    status, refused = send(client, game_id, headers, wins(BOB, 10))
    assert status == 409 and refused["errors"][0]["where"] == "game"


def test_a_retried_hand_is_answered_with_its_number_and_stored_once(
    app: Flask, client: FlaskClient
) -> None:
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    first = send(client, game_id, headers, gin(BOB, 7), key="phone-1")
    again = send(client, game_id, headers, gin(BOB, 7), key="phone-1")
    assert (first[0], first[1]["hand"]) == (201, 2)
    assert (again[0], again[1]["hand"], again[1]["totals"]) == (200, 2, [9, 27])
    with app.test_request_context():
        numbers = get_session().query(Hand.number).filter_by(game_id=game_id).all()
    assert sorted(n for (n,) in numbers) == [1, 2]
    assert standing(client, game_id) == (2, 2, [9, 27], [1, 1], BOB, None)


def test_wrong_inputs_are_refused_at_their_field_and_store_nothing(
    app: Flask, client: FlaskClient
) -> None:
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    status, answer = send(client, game_id, headers, knock(ANN, 11, 12))
    assert status == 422, answer
    assert [e["where"] for e in answer["errors"]] == ["knocker_deadwood"]
    status, answer = send(client, game_id, {"X-Edit-Secret": "wrong"}, gin(BOB, 7))
    assert status == 403 and answer["errors"][0]["where"] == "X-Edit-Secret"
    assert standing(client, game_id) == (1, 1, [9, 0], [1, 0], ANN, None)


def test_an_oklahoma_game_scores_each_hand_with_its_upcard(
    app: Flask, client: FlaskClient
) -> None:
    """Modern values: Ann knocks 2 against 9 under a king of hearts: 7. Bob goes gin
    against 12 under the five of spades, which doubles it: (25 + 12) × 2 = 74."""
    game_id, headers = new_game(client, variant="oklahoma")
    status, answer = send(client, game_id, headers, {**knock(ANN, 2, 9), "upcard": "KH"})
    assert (status, answer["totals"]) == (201, [7, 0])
    status, answer = send(client, game_id, headers, {**gin(BOB, 12), "upcard": "5S"})
    assert (status, answer["hand"], answer["totals"], answer["needs"]) == (201, 2, [7, 74],
                                                                          [143, 76])
    assert standing(client, game_id) == (2, 2, [7, 74], [1, 1], BOB, None)
    assert client.get(f"/api/v1/games/{game_id}").get_json()["totals"] == [7, 74]


@pytest.mark.skipif(not PG_URL, reason="a database server that drops connections")
def test_a_hand_is_saved_when_the_database_dropped_the_pooled_connections(
    app: Flask, client: FlaskClient
) -> None:
    """The server dropped every connection (a restart) after the last hand: the pool
    pings each connection before handing it out, finds it dead and opens a new one,
    and the hand is saved once."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    engine = app.extensions["scorekeeper.engine"]
    with engine.connect(), engine.connect():  # two in the pool, both to be dropped
        pass
    dropped = _drop_other_connections(app)
    assert dropped >= 2
    status, answer = send(client, game_id, headers, gin(BOB, 7), key="after-restart")
    assert (status, answer["hand"], answer["totals"]) == (201, 2, [9, 27])
    assert standing(client, game_id) == (2, 2, [9, 27], [1, 1], BOB, None)
    assert [h["number"] for h in client.get(f"/api/v1/games/{game_id}").get_json()["hands"]] \
        == [1, 2]


def _drop_other_connections(app: Flask) -> int:
    """End every other session on the app's database, as a server restart would; how
    many there were."""
    url = app.extensions["scorekeeper.engine"].url
    with closing(psycopg.connect(url.set(drivername="postgresql").render_as_string(
            hide_password=False), autocommit=True)) as admin:
        row = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()
        # Terminated backends take a moment to go: wait until they have.
        for _ in range(100):
            left = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend'").fetchone()
            if left is not None and left[0] == 0:
                break
            time.sleep(0.02)
    return int(row[0]) if row is not None else 0


def test_answers_write_letters_as_themselves(client: FlaskClient) -> None:
    """JSON answers are UTF-8 with names and suits as typed, not ``\\u`` escapes."""
    created = client.post("/api/v1/games", json={"players": ["Пётр", "Zed"]})
    game = client.get(f"/api/v1/games/{created.get_json()['id']}")
    assert '"players":["Пётр","Zed"]'.encode() in game.get_data()
    settled = client.post("/api/v1/gin/settle", json={
        "knocker": {"cards": "KS KH KD 5S 6S 7S 9C TC JC JD"},
        "defender": {"cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"}})
    assert "J♦ = 10".encode() in settled.get_data()


def test_a_null_first_dealer_is_refused_at_its_field(client: FlaskClient) -> None:
    answer = client.post("/api/v1/games", json={"players": ["Ann", "Bob"], "dealer": None})
    assert (answer.status_code, answer.get_json()) == (
        422, {"errors": [{"where": "dealer", "message": "must be a seat number"}]})
