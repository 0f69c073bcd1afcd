"""A gin game keeps its tally: a hand saved through the API goes on from it instead of
replaying the game (``api.games._add_from_tally``, ``sheets.stored_tally``).

The tally is kept with the version it was worked out for and the engine's stamp; a
game changed any other way (a correction, an undo, an import, a new engine) is
replayed once, and keeps the new tally from then on. A hand entered on the sheet's
forms keeps it going too, from the replay that checked the form.
"""

from __future__ import annotations

import time
from contextlib import ExitStack, closing
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from scorekeeper import db
from scorekeeper.db import get_session
from scorekeeper.games import service
from scorekeeper.models import Change, Game, Hand, Submission
from scorekeeper.scoring.rules import RulesError
from scorekeeper.sheets import game_rules
from scorekeeper.stamp import STAMP
from scorekeeper.variants import gin as gin_module
from scorekeeper.variants.gin import hand_inputs
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


def send(client: FlaskClient, game_id: str, headers: dict[str, str], hand: dict[str, Any],
         key: str | None = None) -> tuple[int, Any]:
    extra = {"Idempotency-Key": key} if key else {}
    answer = client.post(f"/api/v1/games/{game_id}/hands", json=hand,
                         headers={**headers, **extra})
    return answer.status_code, answer.get_json()


def kept(app: Flask, game_id: str) -> dict[str, Any] | None:
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        return game.tally


def keep(app: Flask, game_id: str, **changes: Any) -> None:
    """Change the kept tally in place (what the next hand would go on from)."""
    with app.test_request_context(method="POST"):
        db = get_session()
        game = db.get(Game, game_id)
        assert game is not None and game.tally is not None
        game.tally = {**game.tally, **changes}
        db.commit()


def tally(version: int, hands: int, totals: list[int], boxes: list[int], dealer: int,
          winner: int | None = None) -> dict[str, Any]:
    return {"version": version, "stamp": STAMP[:16], "hands": hands, "totals": totals,
            "boxes": boxes, "dealer": dealer, "winner": winner}


def test_every_hand_saved_through_the_api_keeps_the_game_as_it_stands(
    app: Flask, client: FlaskClient
) -> None:
    """Classic, Ann deals first, the winner deals next. Ann knocks 3 against 12: 9.
    Bob goes gin against 7: 20 + 7 = 27. Ann knocks 2 against 30: 28, 37 in all."""
    game_id, headers = new_game(client)
    assert kept(app, game_id) is None
    status, answer = send(client, game_id, headers, knock(ANN, 3, 12))
    assert (status, answer["totals"]) == (201, [9, 0])
    assert kept(app, game_id) == tally(1, 1, [9, 0], [1, 0], ANN)
    status, answer = send(client, game_id, headers, gin(BOB, 7))
    assert (status, answer["hand"], answer["totals"]) == (201, 2, [9, 27])
    assert answer["next_dealer"] == BOB
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"], answer["needs"]) == (201, 3, [37, 27],
                                                                          [63, 73])
    assert (answer["version"], answer["boxes"], answer["finished"]) == (3, [2, 1], False)
    assert kept(app, game_id) == tally(3, 3, [37, 27], [2, 1], ANN)
    read = client.get(f"/api/v1/games/{game_id}").get_json()  # replayed from every hand
    assert [h["number"] for h in read["hands"]] == [1, 2, 3]
    assert read["totals"] == [37, 27]


def test_a_hand_goes_on_from_the_kept_tally_and_does_not_replay_the_hands(
    app: Flask, client: FlaskClient
) -> None:
    """Shown by a kept tally that says something else than the hands: while it is
    current, the next hand's answer adds to it (50 + 0, 0 + 27); the sheet, replayed
    from the hands, says 9 and 27."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    keep(app, game_id, totals=[50, 0])
    status, answer = send(client, game_id, headers, gin(BOB, 7))
    assert (status, answer["totals"]) == (201, [50, 27])
    assert client.get(f"/api/v1/games/{game_id}").get_json()["totals"] == [9, 27]


def test_a_tally_kept_by_another_engine_is_replayed_over(app: Flask, client: FlaskClient) -> None:
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    keep(app, game_id, totals=[50, 0], stamp="0" * 16)
    status, answer = send(client, game_id, headers, gin(BOB, 7))
    assert (status, answer["totals"]) == (201, [9, 27])
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)


def test_a_kept_tally_that_is_not_whole_is_replayed_over(app: Flask, client: FlaskClient) -> None:
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    keep(app, game_id, totals=None)
    status, answer = send(client, game_id, headers, gin(BOB, 7))
    assert (status, answer["totals"]) == (201, [9, 27])
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)


def test_a_correction_makes_the_kept_tally_stale_and_the_next_hand_replays_the_game(
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
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)  # kept, but for version 2
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"], answer["version"]) == (201, 3, [28, 52], 4)
    assert kept(app, game_id) == tally(4, 3, [28, 52], [1, 2], ANN)


def test_a_hand_saved_without_a_tally_clears_the_kept_one(app: Flask, client: FlaskClient) -> None:
    """Ann 9 through the API, Bob's gin on 7 (27) saved by ``service.add_hand`` with no
    tally (as a caller that worked none out), Ann 28 through the API: replayed."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    with app.test_request_context(method="POST"):
        db = get_session()
        game = service.lock_game(db, game_id)
        assert game is not None
        service.add_hand(db, game, {"mode": "quick", **gin(BOB, 7), "upcard": None}, token=None,
                         version=None, by="edit link", finished=lambda _game: False)
        db.commit()
    assert kept(app, game_id) is None
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"]) == (201, 3, [37, 27])
    assert kept(app, game_id) == tally(3, 3, [37, 27], [2, 1], ANN)


def open_the_edit_link(client: FlaskClient, game_id: str, headers: dict[str, str]) -> None:
    opened = client.get(f"/g/{game_id}?key={headers['X-Edit-Secret']}")
    assert (opened.status_code, opened.headers["Location"]) == (302, f"/g/{game_id}")


def on_the_sheet(client: FlaskClient, game_id: str, version: int, hand: dict[str, Any]) -> Any:
    """Enter ``hand`` with the sheet's quick form drawn at ``version`` (a phone that
    opened the edit link)."""
    form = {"version": str(version), **{name: str(value) for name, value in hand.items()}}
    return client.post(f"/g/{game_id}/hands", data=form)


def test_a_hand_entered_on_the_sheets_form_keeps_the_tally_going(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann 9 through the API; Bob's gin on 7 (20 + 7 = 27) on the sheet's form, which
    replays the game once (to check the form, and whether the game is over) and keeps
    the tally gone on by that hand; the next API hand goes on from it."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    open_the_edit_link(client, game_id, headers)
    replays = []
    real = gin_module.gin_sheet
    monkeypatch.setattr(gin_module, "gin_sheet", lambda game: replays.append(1) or real(game))
    assert on_the_sheet(client, game_id, 1, gin(BOB, 7)).status_code == 302
    assert len(replays) == 1
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)
    keep(app, game_id, totals=[50, 27])  # a tally that differs from the hands shows it
    status, answer = send(client, game_id, headers, knock(ANN, 2, 30))
    assert (status, answer["hand"], answer["totals"]) == (201, 3, [78, 27])
    assert len(replays) == 1  # the API hand went on from the tally


def test_a_hand_entered_card_by_card_keeps_the_tally_going(
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
    assert kept(app, game_id) == tally(2, 2, [9, 11], [1, 1], BOB)


def test_the_hand_that_ends_the_game_on_the_sheet_keeps_a_finished_tally(
    app: Flask, client: FlaskClient
) -> None:
    """RULES.md §8's Russian game: A 15, B 47, A 55, B 28 through the API, A 33 on the
    sheet ends it at 103–75. The tally says Ann won; a hand more is refused, on the
    sheet and through the API, and nothing is stored."""
    game_id, headers = new_game(client, rules="russian")
    for hand in [wins(ANN, 15), wins(BOB, 47), wins(ANN, 55), wins(BOB, 28)]:
        assert send(client, game_id, headers, hand)[0] == 201
    open_the_edit_link(client, game_id, headers)
    assert on_the_sheet(client, game_id, 4, wins(ANN, 33)).status_code == 302
    assert kept(app, game_id) == tally(5, 5, [103, 75], [3, 2], ANN, winner=ANN)
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
    at 103–75, finals 278–125: B pays A 153 × 0.01 = 1.53. The last hand goes the whole
    way (every hand replayed); then the game takes no more hands."""
    game_id, headers = new_game(client, rules="russian", stake="0.01", currency="EUR")
    for hand in [wins(ANN, 15), wins(BOB, 47), wins(ANN, 55), wins(BOB, 28)]:
        assert send(client, game_id, headers, hand)[0] == 201
    assert kept(app, game_id) == tally(4, 4, [70, 75], [2, 2], BOB)
    status, answer = send(client, game_id, headers, wins(ANN, 33))
    assert (status, answer["hand"], answer["finished"], answer["winner"]) == (201, 5, True, ANN)
    assert answer["settlement"]["finals"] == [278, 125]
    [payment] = answer["payments"]
    assert (payment["from"], payment["to"], Decimal(payment["amount"])) == ("Bob", "Ann",
                                                                          Decimal("1.53"))
    assert kept(app, game_id) == tally(5, 5, [103, 75], [3, 2], ANN, winner=ANN)
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
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)


def test_wrong_inputs_on_a_game_with_a_tally_are_refused_at_their_field(
    app: Flask, client: FlaskClient
) -> None:
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    status, answer = send(client, game_id, headers, knock(ANN, 11, 12))
    assert status == 422, answer
    assert [e["where"] for e in answer["errors"]] == ["knocker_deadwood"]
    status, answer = send(client, game_id, {"X-Edit-Secret": "wrong"}, gin(BOB, 7))
    assert status == 403 and answer["errors"][0]["where"] == "X-Edit-Secret"
    assert kept(app, game_id) == tally(1, 1, [9, 0], [1, 0], ANN)


def test_kinds_that_replay_their_own_way_keep_no_tally(app: Flask, client: FlaskClient) -> None:
    """A Hollywood game scores three columns at once: it is replayed for every hand."""
    game_id, headers = new_game(client, variant="hollywood", rules="russian")
    for hand in [wins(ANN, 20), wins(BOB, 15)]:
        assert send(client, game_id, headers, hand)[0] == 201
    assert kept(app, game_id) is None


def test_an_oklahoma_game_goes_on_from_its_tally_with_each_hands_upcard(
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
    assert kept(app, game_id) == tally(2, 2, [7, 74], [1, 1], BOB)
    assert client.get(f"/api/v1/games/{game_id}").get_json()["totals"] == [7, 74]


@pytest.mark.skipif(not PG_URL, reason="on SQLite the save holds the write lock from its read "
                    "to its write: no other phone can come between")
def test_a_game_changed_between_the_read_and_the_write_gets_the_hand_after_the_change(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the game is read without a lock; another phone saves hand 2 (on
    the sheet: no tally kept) before this hand is written. The checked write finds the
    version moved and writes nothing; the hand is then saved the whole way, as hand 3:
    9 + 1 for Ann, 27 for Bob, and one history entry per hand this phone sent."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    original, writes = service.write_new_hand, []
    stored = [hand_inputs(hand, 2) for hand in (knock(ANN, 3, 12), gin(BOB, 7), knock(ANN, 5, 6))]

    def another_phone_first(connection: Any, game: Any, number: int, inputs: Any,
                            **kw: Any) -> Any:
        if not writes:
            with app.extensions["scorekeeper.engine"].begin() as other:
                other.execute(insert(Hand).values(game_id=game_id, number=2, inputs=stored[1]))
                other.execute(update(Game).where(Game.id == game_id)
                              .values(version=Game.version + 1, tally=None))
        writes.append((number, kw["unlocked"]))
        return original(connection, game, number, inputs, **kw)

    monkeypatch.setattr(service, "write_new_hand", another_phone_first)
    status, answer = send(client, game_id, headers, knock(ANN, 5, 6), key="phone-2")
    assert (status, answer["hand"], answer["totals"]) == (201, 3, [10, 27])
    assert writes == [(2, True), (3, False)]  # the checked write, then the locked one
    with app.test_request_context():
        db = get_session()
        hands = db.query(Hand.number, Hand.inputs).filter_by(game_id=game_id).all()
        added = db.query(Change.hand_number).filter_by(game_id=game_id, action="add").all()
    assert sorted(hands) == [(1, stored[0]), (2, stored[1]), (3, stored[2])]
    assert sorted(n for (n,) in added) == [1, 3]
    assert kept(app, game_id) == tally(3, 3, [10, 27], [2, 1], ANN)


def test_a_checked_write_of_a_game_changed_since_it_was_read_writes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """The version read was 1, the game is at 2 now: nothing of the hand is written, not
    even outside a transaction (PostgreSQL's autocommit: one statement, whose inserts
    take the game's id from the version's update)."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    send(client, game_id, headers, gin(BOB, 7))
    with app.test_request_context(method="POST"):
        game = service.read_row(get_session().connection(), game_id, hands=False)
        get_session().rollback()
        assert game is not None and game.version == 2
        game.version = 1
        with ExitStack() as stack:
            if db.autocommits():  # the statement alone, outside any transaction
                connection: Any = stack.enter_context(db.alone())
            else:
                connection = stack.enter_context(db.writer_engine().connect())
                stack.enter_context(connection.begin())
            with pytest.raises(service.Conflict):
                service.write_new_hand(connection, game, 7, knock(ANN, 5, 6), token="late",
                                       by="API", unlocked=True, tally=None)
        session = get_session()
        assert session.query(Hand.number).filter_by(game_id=game_id).count() == 2
        assert session.query(Change).filter_by(game_id=game_id, hand_number=7).count() == 0
        assert session.query(Submission).filter_by(key="late").count() == 0
        assert session.get(Game, game_id).version == 2  # type: ignore[union-attr]
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)


KEPT_ROWS = "the rows kept between hands serve PostgreSQL's checked write; on SQLite the " \
    "save reads the game under the write lock it holds anyway"


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games read from the database (``service.read_row``) from now on."""
    read, original = [], service.read_row

    def counted(connection: Any, game_id: str, **kw: Any) -> Any:
        read.append(game_id)
        return original(connection, game_id, **kw)

    monkeypatch.setattr(service, "read_row", counted)
    return read


@pytest.mark.skipif(not PG_URL, reason=KEPT_ROWS)
def test_a_hand_goes_on_from_the_row_the_last_hand_kept_without_reading_the_game(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first example again (9; 9 and 27; 37 and 27). After the first hand (which
    starts the tally, the whole way), no hand reads the game: each goes on from the
    row the last one kept (``sharedrows``), and is answered word for word as a hand of
    a game read afresh: the second game has its kept row thrown away before each."""
    kept_game, headers = new_game(client)
    read_game, read_headers = new_game(client)
    hands = [knock(ANN, 3, 12), gin(BOB, 7), knock(ANN, 2, 30)]
    answers, reads = [], []
    for hand in hands:
        answers.append(send(client, kept_game, headers, hand))
        with app.app_context():
            service.shared_rows().drop(read_game)
        again = send(client, read_game, read_headers, hand)
        same = {"id": kept_game, "created_at": answers[-1][1]["created_at"]}
        assert (again[0], again[1] | same) == answers[-1]
        reads = reads or count_reads(monkeypatch)
    assert [(status, answer["totals"]) for status, answer in answers] == [
        (201, [9, 0]), (201, [9, 27]), (201, [37, 27])]
    assert reads == [read_game, read_game]
    assert kept(app, kept_game) == tally(3, 3, [37, 27], [2, 1], ANN)
    assert client.get(f"/api/v1/games/{kept_game}").get_json()["totals"] == [37, 27]


@pytest.mark.skipif(not PG_URL, reason=KEPT_ROWS)
def test_two_workers_go_on_from_the_rows_they_share(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two apps on one database and one shared memory, as gunicorn's two workers: the
    hands sent to each in turn read the game once, the first time."""
    from scorekeeper import sharedrows

    monkeypatch.setattr(sharedrows, "_shared", None)
    sharedrows.share()
    first, second = make_app().test_client(), make_app().test_client()
    game_id, headers = new_game(first)
    answers = [send(first, game_id, headers, knock(ANN, 3, 12))]
    reads = count_reads(monkeypatch)
    answers += [send(worker, game_id, headers, hand) for worker, hand in (
        (second, gin(BOB, 7)), (first, knock(ANN, 2, 30)), (second, knock(ANN, 1, 2)))]
    assert [(status, a["hand"], a["totals"]) for status, a in answers] == [
        (201, 1, [9, 0]), (201, 2, [9, 27]), (201, 3, [37, 27]), (201, 4, [38, 27])]
    assert reads == []


@pytest.mark.skipif(not PG_URL, reason=KEPT_ROWS)
def test_a_game_put_in_a_group_since_its_last_hand_is_read_again_and_gets_its_stake(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann knocks 3 against 12 (9); then the game goes into a group playing for 0.02
    USD a point, which leaves its version as it was but moves its ``updated_at``: the
    write from the row kept without a stake finds the game changed and writes nothing,
    the game is read, and the second hand (Bob's gin, 27) is answered with the stake."""
    from tests.helpers import new_game as start
    from tests.test_groups import new_group

    game_id = start(client)
    with app.app_context():
        headers = {"X-Edit-Secret": get_session().get(Game, game_id).edit_secret}  # type: ignore[union-attr]
    status, answer = send(client, game_id, headers, knock(ANN, 3, 12))
    assert (status, answer["totals"], "stake" in answer) == (201, [9, 0], False)
    group = new_group(client)
    assert client.post(f"/groups/{group}/games", data={"add-game": game_id}).status_code == 302
    reads = count_reads(monkeypatch)
    status, answer = send(client, game_id, headers, gin(BOB, 7))
    assert (status, answer["hand"], answer["totals"], answer["version"]) == (201, 2, [9, 27], 2)
    assert (answer["stake"], answer["currency"]) == ("0.02", "USD")
    assert reads == [game_id]


@pytest.mark.skipif(not PG_URL, reason="statements sent alone are PostgreSQL's")
def test_a_statement_sent_alone_fails_as_sqlalchemys_error_and_writes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """Hand 1 was saved with the key "k1"; a checked write of hand 2 with the same key
    (the game's version still the one read) breaks the key's uniqueness: the whole
    statement fails as SQLAlchemy's ``IntegrityError`` (which sends the hand the whole
    way), the version and the hands stay as they were, and the connection is still
    good for the next statement."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12), key="k1")
    with app.test_request_context(method="POST"), db.alone() as connection:
        game = service.read_row(connection, game_id, lock=False, hands=False)
        assert game is not None and game.version == 1
        with pytest.raises(IntegrityError) as failed:
            service.write_new_hand(connection, game, 2, gin(BOB, 7), token="k1", by="API",
                                   unlocked=True, tally=None)
        assert isinstance(failed.value.orig, psycopg.errors.UniqueViolation)
        again = service.read_row(connection, game_id, lock=False, hands=True)
        assert again is not None and again.version == 1
        assert [h.number for h in again.hands] == [1]
    status, answer = send(client, game_id, headers, gin(BOB, 7), key="k2")
    assert (status, answer["hand"], answer["totals"]) == (201, 2, [9, 27])


@pytest.mark.skipif(not PG_URL, reason="a database server that drops connections")
def test_a_hand_is_saved_when_the_database_dropped_the_pooled_connections(
    app: Flask, client: FlaskClient
) -> None:
    """The server dropped every connection (a restart) a moment after the last hand:
    the pool's connections are too fresh to be pinged, so the hand's first statement
    (its read) finds its connection dead, which marks the pool's other connections
    dead too; the read is tried once more on a new one, and the hand is saved once."""
    game_id, headers = new_game(client)
    send(client, game_id, headers, knock(ANN, 3, 12))
    engine = app.extensions["scorekeeper.engine"]
    with engine.connect(), engine.connect():  # two in the pool: the retry's is dead too
        pass
    dropped = _drop_other_connections(app)
    assert dropped >= 2
    status, answer = send(client, game_id, headers, gin(BOB, 7), key="after-restart")
    assert (status, answer["hand"], answer["totals"]) == (201, 2, [9, 27])
    assert kept(app, game_id) == tally(2, 2, [9, 27], [1, 1], BOB)
    assert [h["number"] for h in client.get(f"/api/v1/games/{game_id}").get_json()["hands"]] \
        == [1, 2]


@pytest.mark.skipif(not PG_URL, reason="a database server that drops connections")
def test_a_connection_idle_for_a_while_is_pinged_and_replaced_when_dead(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page (not the hand's own retry) after the server dropped the connections:
    with every pooled connection counted as idle, the ping finds them dead and the
    page is read on a new one."""
    game_id, _headers = new_game(client)
    dropped = _drop_other_connections(app)
    assert dropped >= 1
    monkeypatch.setattr(db, "PING_IDLE_SECONDS", 0.0)
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200


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


def test_a_games_rules_are_read_the_same_whatever_their_order_and_kept_apart_by_type() -> None:
    """``sheets.game_rules`` keeps each set of settings it read: the same settings in
    another order read the same; ``True`` and ``1`` hash alike but only the first is a
    yes-or-no setting, so a game storing ``1`` is refused even after one storing
    ``True`` was read; a list (unhashable) is read, and refused, every time."""
    first = game_rules(with_rules({"target": 250, "knock_limit": 7, "tie_is_undercut": True}))
    again = game_rules(with_rules({"tie_is_undercut": True, "knock_limit": 7, "target": 250}))
    assert (first.target, first.knock_limit, first.tie_is_undercut) == (250, 7, True)
    assert again == first
    with pytest.raises(RulesError, match="tie_is_undercut"):
        game_rules(with_rules({"target": 250, "knock_limit": 7, "tie_is_undercut": 1}))
    with pytest.raises(RulesError, match="target"):
        game_rules(with_rules({"target": [250]}))


def with_rules(rules: dict[str, Any]) -> Any:
    """What ``game_rules`` reads of a game: its rules."""
    return SimpleNamespace(rules=rules)
