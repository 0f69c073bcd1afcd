"""The organiser's changes to a night: a result corrected with a reason, a forfeit, a
late arrival, late tables carried over; and two "next round" together make one."""

from __future__ import annotations

import threading

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import NightRound
from tests.nights.test_night_pages import play_out, start, tables


def test_a_correction_with_its_reason_and_a_forfeit(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, _second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)
    client.post(f"/g/{first.game_id}/confirm")
    # The organiser corrects table 1 to a 30-20 win of Di (b).
    response = client.post(
        f"/n/{night_id}/rounds/1/tables/1/result",
        data={"what": "correct", "c-points_a": "20", "c-points_b": "30", "c-winner": "b",
              "c-shutout": "", "c-reason": "hand 2 was entered for the wrong player"})
    assert response.status_code == 302
    # Bob forfeits table 2 to Cy.
    response = client.post(
        f"/n/{night_id}/rounds/1/tables/2/result",
        data={"what": "forfeit", "f-side": "a", "f-reason": "went home"})
    assert response.status_code == 302
    history = client.get(f"/n/{night_id}/history").get_data(as_text=True)
    assert "result corrected to 20 – 30" in history
    assert "It was 110 – 0." in history
    assert "Reason: hand 2 was entered for the wrong player" in history
    assert "Reason: went home" in history
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    # Di 2 points (+10), Cy 2 points by forfeit (no game won, no points), Ann 0 (−10), Bob 0.
    assert [(s["player"], s["points"], s["games_won"], s["point_difference"])
            for s in seen["standings"]] == [
        ("Di", 2, 1, 10), ("Cy", 2, 0, 0), ("Bob", 0, 0, 0), ("Ann", 0, 0, -10)]


def test_a_correction_without_a_reason_is_refused_at_its_field(
    client: FlaskClient, app: Flask
) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    response = client.post(
        f"/n/{night_id}/rounds/1/tables/1/result",
        data={"what": "correct", "c-points_a": "20", "c-points_b": "30", "c-winner": "b",
              "c-reason": ""})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="c-reason"' in page and 'value="20"' in page


def test_late_tables_carried_over_count_once_confirmed(client: FlaskClient, app: Flask) -> None:
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)
    client.post(f"/g/{first.game_id}/confirm")
    response = client.post(f"/n/{night_id}/rounds", data={"round": "1", "carry": "1"})
    assert response.status_code == 302
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "round 1" in page  # table 2 of round 1 is still shown, playing on
    play_out(client, second.game_id, 1)
    client.post(f"/g/{second.game_id}/confirm")
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][1]["state"] == "confirmed"
    assert [s["player"] for s in seen["standings"] if s["points"] == 2] == ["Ann", "Cy"]


def test_a_late_arrival_plays_from_the_next_round(client: FlaskClient, app: Flask) -> None:
    night_id = start(client, format="swiss", rounds="3")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    assert client.post(f"/n/{night_id}/arrive", data={"player": "Ed"}).status_code == 302
    twice = client.post(f"/n/{night_id}/arrive", data={"player": "ed"})
    assert twice.status_code == 422
    assert "is in the night already" in twice.get_data(as_text=True)
    for table in tables(app, night_id, 1):
        play_out(client, table.game_id, 0)
        client.post(f"/g/{table.game_id}/confirm")
    client.post(f"/n/{night_id}/rounds", data={"round": "1"})
    second = tables(app, night_id, 2)
    seated = {name for t in second for name in (t.a, t.b)}
    with app.test_request_context():
        byes = get_session().scalars(select(NightRound.byes).where(NightRound.number == 2)).one()
    assert "Ed" in seated | set(byes)
    assert len(seated) + len(byes) == 5


def test_two_next_rounds_at_once_make_one(make_app: object, tmp_path: object) -> None:
    app: Flask = make_app()  # type: ignore[operator]
    organiser = app.test_client()
    night_id = start(organiser)
    with organiser.session_transaction() as session:
        cookie = dict(session)
    phones = []
    for _ in range(2):
        phone = app.test_client()
        with phone.session_transaction() as session:
            session.update(cookie)
        phones.append(phone)
    answers: list[int] = []
    barrier = threading.Barrier(2)

    def press(phone: FlaskClient) -> None:
        barrier.wait()
        answers.append(phone.post(f"/n/{night_id}/rounds", data={}).status_code)

    threads = [threading.Thread(target=press, args=(p,)) for p in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [302, 302]
    with app.test_request_context():
        assert get_session().scalar(select(func.count()).select_from(NightRound)) == 1
    assert len(tables(app, night_id, 1)) == 2
