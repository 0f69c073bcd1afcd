"""A confirmation and the organiser's correction of the same table at the same moment: both
take the night's lock before the table's row, so one waits for the other and neither
deadlocks; the confirmation that comes second counts nothing and the corrected result
stands. A confirmation and a save to the table's game: the confirmation locks the game
after the night, so it waits for the save and counts the game as saved. On PostgreSQL,
where rows are locked one by one (SQLite writes one transaction at a time: no deadlock
to have)."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from scorekeeper.hands.stored import stored_hand
from scorekeeper.models import Game, Night, NightChange, NightTable
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as service
from tests.conftest import PG_URL
from tests.helpers import night_tables as tables
from tests.helpers import play_out
from tests.helpers import start_night as start

pytestmark = pytest.mark.skipif(not PG_URL, reason="row locks: PostgreSQL only")


def confirm_from(
    phone: Session, night_id: str, table: NightTable, answer: list[object]
) -> threading.Thread:
    """The other player's phone confirming ``table``'s result, on a thread of its own:
    what ``service.confirm`` answers (or the error the database raised) goes to
    ``answer``."""

    def confirm() -> None:
        try:
            night = phone.get(Night, night_id)
            phone_table = phone.get(NightTable, table.id)
            game = phone.get(Game, table.game_id)
            assert night and phone_table and game
            answer.append(service.confirm(phone, night, phone_table, game, by="table"))
            phone.commit()
        except Exception as exc:  # a deadlock the database broke: the test fails
            answer.append(exc)
            phone.rollback()

    confirming = threading.Thread(target=confirm)
    confirming.start()
    return confirming


def lock_waiters(app: Flask) -> int:
    """How many of the database's connections wait for a lock, once one does (or after
    10 s)."""
    with app.extensions["scorekeeper.db"]() as watch:
        for _ in range(500):
            waiting = watch.scalar(text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"))
            if waiting:
                break
            threading.Event().wait(0.02)
    return int(waiting or 0)


def test_a_confirmation_waits_for_a_correction_and_counts_nothing(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, _second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)  # Ann wins 110 to 0, not confirmed yet
    sessions = app.extensions["scorekeeper.db"]
    answer: list[object] = []
    with sessions() as organiser, sessions() as phone:
        # The organiser's correction has locked the night.
        night = service.lock_night(organiser, night_id)
        assert night is not None
        table = organiser.get(NightTable, first.id)
        assert table is not None

        confirming = confirm_from(phone, night_id, first, answer)
        # The phone's confirmation is waiting for a lock (the night's) ...
        assert lock_waiters(app) == 1
        # ... when the organiser's correction writes the table and commits.
        service.correct(organiser, night, table,
                        {"points_a": 100, "points_b": 0, "winner": "a", "shutout": True,
                         "forfeit": None}, reason="A card miscounted", by="organiser")
        organiser.commit()
        confirming.join(timeout=30)
        assert not confirming.is_alive()
    assert answer == [False]
    with sessions() as db:
        kept = db.get(NightTable, first.id)
        assert kept is not None and kept.result is not None
        assert (kept.result["points_a"], kept.result["points_b"]) == (100, 0)
        actions = db.scalars(select(NightChange.action).where(
            NightChange.night_id == night_id).order_by(NightChange.id)).all()
        assert actions == ["create", "round", "correct"]
        assert db.scalar(select(func.count()).select_from(NightChange).where(
            NightChange.night_id == night_id, NightChange.action == "confirm")) == 0


def test_a_confirmation_waits_for_a_save_to_the_tables_game_and_counts_it(
    client: FlaskClient, app: Flask
) -> None:
    """A correction of hand 2 saved while the other player taps "confirm": the
    confirmation waits for the save (it locks the game after the night, as a save
    locks it) and counts the game as saved, 100 – 0, not the 110 – 0 read before."""
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, _second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)  # Ann wins 110 to 0: 60, then 50
    sessions = app.extensions["scorekeeper.db"]
    answer: list[object] = []
    with sessions() as scorer, sessions() as phone:
        game = game_service.lock_game(scorer, str(first.game_id))
        assert game is not None
        # The scorer's save holds the game's lock: hand 2 was 40, not 50.
        inputs = {**game.hands[1].inputs, "defender_deadwood": 41}
        game_service.edit_hand(scorer, game, 2, stored_hand(inputs), version=game.version,
                               by="table")
        scorer.flush()

        confirming = confirm_from(phone, night_id, first, answer)
        assert lock_waiters(app) == 1
        scorer.commit()
        confirming.join(timeout=30)
        assert not confirming.is_alive()
    assert answer == [True]
    with sessions() as db:
        kept = db.get(NightTable, first.id)
        assert kept is not None and kept.result is not None
        assert (kept.result["points_a"], kept.result["points_b"]) == (100, 0)
