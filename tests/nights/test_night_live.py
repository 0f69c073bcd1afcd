"""The board and the organiser's page follow the night through ``GET /n/<id>/live``: its
version is the night's own and the sum of its games' versions, so a hand saved at any
table and a confirmed result both move it; a result confirmed by two phones at once
counts once."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.models import Game, Night, NightChange, NightTable
from scorekeeper.services import nights as service
from tests.helpers import night_tables as tables
from tests.helpers import play_out
from tests.helpers import start_night as start


def live(client: FlaskClient, night_id: str, etag: str | None = None) -> tuple[int, str]:
    headers = {"If-None-Match": etag} if etag is not None else {}
    response = client.get(f"/n/{night_id}/live", headers=headers)
    return response.status_code, response.headers["ETag"]


def test_a_hand_saved_at_a_table_moves_the_night_on(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    # A new night is at version 0; making round 1 is its first change; no game has a
    # hand yet.
    assert live(client, night_id) == (200, '"0.0"')
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    assert live(client, night_id) == (200, '"1.0"')
    assert live(client, night_id, '"1.0"') == (304, '"1.0"')
    first, second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)  # two hands at table 1
    assert live(client, night_id, '"1.0"') == (200, '"1.2"')
    play_out(client, second.game_id, 1)  # and two at table 2
    assert live(client, night_id, '"1.2"') == (200, '"1.4"')


def test_a_confirmed_result_moves_the_night_on(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, _second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)
    assert live(client, night_id) == (200, '"1.2"')
    client.post(f"/g/{first.game_id}/confirm")
    # Confirming changes no game: only the night's own version moves.
    assert live(client, night_id, '"1.2"') == (200, '"2.2"')
    client.post(f"/g/{first.game_id}/confirm")  # confirmed already: nothing moves
    assert live(client, night_id, '"2.2"') == (304, '"2.2"')


def test_two_phones_confirming_at_once_count_once(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, _second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)
    sessions = app.extensions["scorekeeper.db"]
    # The second phone's request has read the table, still unconfirmed, when the
    # first phone's confirmation is saved.
    with sessions() as late:
        table = late.get(NightTable, first.id)
        night = late.get(Night, night_id)
        game = late.get(Game, first.game_id)
        assert table is not None and night is not None and game is not None
        assert table.confirmed_at is None
        late.commit()
        assert client.post(f"/g/{first.game_id}/confirm").status_code == 302
        assert service.confirm(late, night, table, game, by="table") is False
        late.commit()
    with sessions() as db:
        confirms = db.scalar(select(func.count()).select_from(NightChange).where(
            NightChange.night_id == night_id, NightChange.action == "confirm"))
        assert confirms == 1
    # Round 1 made (1), one confirmation counted (2).
    assert live(client, night_id) == (200, '"2.2"')
