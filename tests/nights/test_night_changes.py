"""The organiser's changes to a night: a result corrected with a reason, a forfeit, a
late arrival, late tables carried over; and two "next round" together make one."""

from __future__ import annotations

import threading

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import NightRound
from tests.helpers import night_tables as tables
from tests.helpers import play_out
from tests.helpers import start_night as start


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
    night_id = start(client, players="Ann\nBob\nCy\nDi\nEd\nFay")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first = tables(app, night_id, 1)
    # The circle: Ann–Fay, Bob–Ed, Cy–Di. Ann and Bob win; Cy–Di plays on.
    assert [(t.a, t.b) for t in first] == [("Ann", "Fay"), ("Bob", "Ed"), ("Cy", "Di")]
    for table in first[:2]:
        play_out(client, table.game_id, 0)
        client.post(f"/g/{table.game_id}/confirm")
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "Their players sit the round out, without a bye" in page
    assert "nobody meets anyone twice" in page
    response = client.post(f"/n/{night_id}/rounds", data={"round": "1", "carry": "1"})
    assert response.status_code == 302
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "round 1" in page  # table 3 of round 1 is still shown, playing on
    # Cy and Di sit round 2 out (no bye); the other four meet those they have not:
    # Ann (the top seed) against Bob leaves Ed–Fay, who have not met either.
    second = tables(app, night_id, 2)
    assert [(t.a, t.b) for t in second] == [("Ann", "Bob"), ("Ed", "Fay")]
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][1]["byes"] == []
    play_out(client, first[2].game_id, 0)
    client.post(f"/g/{first[2].game_id}/confirm")
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["rounds"][0]["tables"][2]["state"] == "confirmed"
    assert [s["player"] for s in seen["standings"] if s["points"] == 2] == ["Ann", "Bob", "Cy"]
    for table in second:
        play_out(client, table.game_id, 1)
        client.post(f"/g/{table.game_id}/confirm")
    # Round 3, everyone back: nobody meets anyone again. Cy and Di have four still to
    # meet, the others three: Cy first, against Ann (the top seed of those); Di next,
    # against Ed (Di–Bob would leave Ed–Fay, who met); then Bob–Fay.
    client.post(f"/n/{night_id}/rounds", data={"round": "2"})
    assert [(t.a, t.b) for t in tables(app, night_id, 3)] == [
        ("Ann", "Cy"), ("Bob", "Fay"), ("Di", "Ed")]


def test_king_of_the_hill_carry_on_the_organisers_page(client: FlaskClient, app: Flask) -> None:
    # Three players: Ann–Bob at table 1, Cy sits out. With Ann–Bob still playing, only
    # Cy is free: no round can be paired, and the page says why.
    night_id = start(client, players="Ann\nBob\nCy", format="king_of_the_hill", rounds="3")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    page = client.get(f"/n/{night_id}").get_data(as_text=True)
    assert "keep their place on the hill" in page
    assert "without a bye and without a forfeit" in page
    response = client.post(f"/n/{night_id}/rounds", data={"round": "1", "carry": "1"},
                           follow_redirects=True)
    assert "No round can be paired with the players free now" in response.get_data(as_text=True)
    assert len(tables(app, night_id, 2)) == 0


def test_a_round_robin_waits_for_those_still_to_meet(client: FlaskClient, app: Flask) -> None:
    # Four: Ann–Di done, Bob–Cy playing on. Ann and Di have met; everyone else they
    # have still to meet is at the late table: no round until it is done.
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    first, second = tables(app, night_id, 1)
    play_out(client, first.game_id, 0)
    client.post(f"/g/{first.game_id}/confirm")
    response = client.post(f"/n/{night_id}/rounds", data={"round": "1", "carry": "1"},
                           follow_redirects=True)
    assert "No round can be paired with the players free now" in response.get_data(as_text=True)
    assert len(tables(app, night_id, 2)) == 0
    play_out(client, second.game_id, 1)
    client.post(f"/g/{second.game_id}/confirm")
    # Everyone free again and no round was made: the circle's round 2 (Ann fixed, the
    # others turned one seat: Ann Di Bob Cy; Ann takes seat b on an even round).
    client.post(f"/n/{night_id}/rounds", data={"round": "1"})
    assert [(t.a, t.b) for t in tables(app, night_id, 2)] == [("Cy", "Ann"), ("Di", "Bob")]


def test_a_round_robin_late_arrival_meets_nobody_twice(client: FlaskClient, app: Flask) -> None:
    # Worked out in tests/nights/test_pairing.py (test_round_robin_late_arrival_by_hand):
    # Ed arrives after the circle's round 1 of four; five rounds in all.
    night_id = start(client)
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    assert client.post(f"/n/{night_id}/arrive", data={"player": "Ed"}).status_code == 302
    made = [[(t.a, t.b) for t in tables(app, night_id, 1)]]
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["planned_rounds"] == 5
    for number in range(1, 6):
        for table in tables(app, night_id, number):
            play_out(client, table.game_id, 0)
            client.post(f"/g/{table.game_id}/confirm")
        response = client.post(f"/n/{night_id}/rounds", data={"round": str(number)},
                               follow_redirects=True)
        if number < 5:
            made.append([(t.a, t.b) for t in tables(app, night_id, number + 1)])
    assert "Every round is played and confirmed" in response.get_data(as_text=True)
    assert made == [
        [("Ann", "Di"), ("Bob", "Cy")],
        [("Ann", "Cy"), ("Bob", "Ed")],
        [("Ann", "Bob"), ("Di", "Ed")],
        [("Ann", "Ed"), ("Cy", "Di")],
        [("Bob", "Di"), ("Cy", "Ed")],
    ]
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert [r["byes"] for r in seen["rounds"]] == [[], ["Di"], ["Cy"], ["Bob"], ["Ann"]]


def test_a_round_robin_entrant_away_is_not_paired(client: FlaskClient, app: Flask) -> None:
    # Di is away from the start: Ann, Bob, Cy play a round robin of three among
    # themselves (no forfeits); Di has no bye, no points.
    night_id = start(client)
    assert client.post(f"/n/{night_id}/away", data={"player": "Di", "away": "1"}).status_code == 302
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = tables(app, night_id, 1)
    assert "Di" not in (table.a, table.b)
    seen = client.get(f"/api/v1/nights/{night_id}").get_json()
    assert seen["planned_rounds"] == 3
    assert "Di" not in seen["rounds"][0]["byes"] and len(seen["rounds"][0]["byes"]) == 1
    assert [s["points"] for s in seen["standings"] if s["player"] == "Di"] == [0]


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
