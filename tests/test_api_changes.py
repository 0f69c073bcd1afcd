"""A hand corrected, deleted, undone and restored over the API as on the sheet: each
checked against the game's ``version``, answered with the game's new totals, refused
alike (a stale version, no edit secret, a confirmed club night table) and kept in the
game's history as the API's."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import get_session
from scorekeeper.models import Game
from tests.helpers import night_tables, start_night, version_of, win

API = "/api/v1"
ANN, BOB = 0, 1
STALE = ("the game changed since the version named; read the game again")
SETTLED = ("the result of this table is confirmed, so its game takes no more changes; "
           "the night's organiser can reopen the table")


def knock(seat: int, deadwood: int, other: int) -> dict[str, Any]:
    """A knock: the knocker scores ``other - deadwood`` (classic rules, no undercut;
    0 deadwood is gin)."""
    return {"outcome": "knock", "knocker": seat, "knocker_deadwood": deadwood,
            "defender_deadwood": other}


def new_game(client: FlaskClient, *hands: dict[str, Any]) -> tuple[str, dict[str, str]]:
    created = client.post(f"{API}/games", json={"players": ["Ann", "Bob"], "rules": "classic"})
    assert created.status_code == 201
    game_id, secret = created.get_json()["id"], {"X-Edit-Secret": created.get_json()["edit_secret"]}
    for hand in hands:
        added = client.post(f"{API}/games/{game_id}/hands", json=hand, headers=secret)
        assert added.status_code == 201, added.get_json()
    return game_id, secret


def game(client: FlaskClient, game_id: str) -> dict[str, Any]:
    read: dict[str, Any] = client.get(f"{API}/games/{game_id}").get_json()
    return read


def hands_of(client: FlaskClient, game_id: str) -> list[tuple[int, int, int]]:
    """Each hand's knocker and deadwood counts, in order."""
    return [(h["inputs"]["knocker"], h["inputs"]["knocker_deadwood"],
             h["inputs"]["defender_deadwood"]) for h in game(client, game_id)["hands"]]


def history(app: Flask, game_id: str) -> list[tuple[str, int | None, str]]:
    """The game's history: each entry's action, hand number and who made it."""
    with app.test_request_context():
        stored = get_session().get(Game, game_id)
        assert stored is not None
        return [(c.action, c.hand_number, c.by) for c in stored.changes]


def patch(client: FlaskClient, game_id: str, number: int, headers: dict[str, str],
          hand: dict[str, Any], version: int | None) -> Any:
    body = hand if version is None else {**hand, "version": version}
    return client.patch(f"{API}/games/{game_id}/hands/{number}", json=body, headers=headers)


def delete(client: FlaskClient, game_id: str, number: int, headers: dict[str, str],
           version: int | None) -> Any:
    query = "" if version is None else f"?version={version}"
    return client.delete(f"{API}/games/{game_id}/hands/{number}{query}", headers=headers)


def restore(client: FlaskClient, game_id: str, change: int, headers: dict[str, str],
            version: int | None = None) -> Any:
    body = {} if version is None else {"version": version}
    return client.post(f"{API}/games/{game_id}/changes/{change}/restore", json=body,
                       headers=headers)


def test_a_corrected_hand_changes_the_totals_and_the_history_keeps_it(
    client: FlaskClient, app: Flask
) -> None:
    # Ann knocks 1 against 11 (10), Bob 2 against 7 (5): 10 to 5.
    game_id, secret = new_game(client, knock(ANN, 1, 11), knock(BOB, 2, 7))
    assert game(client, game_id)["totals"] == [10, 5]
    # Hand 1 was really Ann 3 against 23: 20 for Ann, so 20 to 5.
    answer = patch(client, game_id, 1, secret, knock(ANN, 3, 23), game(client, game_id)["version"])
    assert answer.status_code == 200, answer.get_json()
    assert (answer.get_json()["hand"], answer.get_json()["totals"]) == (1, [20, 5])
    assert "hands" not in answer.get_json()  # the new totals, as adding a hand answers
    assert hands_of(client, game_id) == [(ANN, 3, 23), (BOB, 2, 7)]
    # Hand 2 was Bob knocking with 0 against 30: gin, 30 and the classic gin bonus of
    # 20, so 20 to 50.
    answer = patch(client, game_id, 2, secret, knock(BOB, 0, 30), None)
    assert answer.get_json()["totals"] == [20, 50]
    assert history(app, game_id) == [("create", None, "API"), ("add", 1, "API"),
                                     ("add", 2, "API"), ("edit", 1, "API"), ("edit", 2, "API")]


def test_a_correction_is_checked_as_a_new_hand_is(client: FlaskClient) -> None:
    game_id, secret = new_game(client, knock(ANN, 1, 11))
    answer = patch(client, game_id, 1, secret, knock(ANN, 11, 30), None)
    assert answer.status_code == 422
    assert [e["where"] for e in answer.get_json()["errors"]] == ["knocker_deadwood"]
    assert patch(client, game_id, 2, secret, knock(ANN, 1, 11), None).status_code == 404
    assert game(client, game_id)["totals"] == [10, 0]


def test_a_deleted_hand_goes_and_comes_back_at_its_number_once_confirmed(
    client: FlaskClient, app: Flask
) -> None:
    # Ann 10, Bob 5, Ann 7: 17 to 5.
    game_id, secret = new_game(client, knock(ANN, 1, 11), knock(BOB, 2, 7), knock(ANN, 2, 9))
    version = game(client, game_id)["version"]
    answer = delete(client, game_id, 2, secret, version)
    assert answer.status_code == 200, answer.get_json()
    deleted = answer.get_json()
    assert (deleted["hand"], deleted["totals"], deleted["version"]) == (2, [17, 0], version + 1)
    assert hands_of(client, game_id) == [(ANN, 1, 11), (ANN, 2, 9)]
    # Hand 2's place is taken (Ann's 7 moved up): asked first, nothing restored.
    asked = restore(client, game_id, deleted["change"], secret)
    assert asked.status_code == 409
    assert asked.get_json()["errors"] == [{"where": "change", "message": (
        "the hand comes back as hand 2, where hand 2 moves down one: nothing was restored. "
        "To restore it all the same, send it again with the header X-Confirm: move")}]
    assert hands_of(client, game_id) == [(ANN, 1, 11), (ANN, 2, 9)]
    moved = client.post(f"{API}/games/{game_id}/changes/{deleted['change']}/restore",
                        headers={**secret, "X-Confirm": "move"})
    assert moved.status_code == 200, moved.get_json()
    assert (moved.get_json()["hand"], moved.get_json()["totals"]) == (2, [17, 5])
    assert hands_of(client, game_id) == [(ANN, 1, 11), (BOB, 2, 7), (ANN, 2, 9)]
    # Each deletion comes back once; a change that is none is not found.
    again = restore(client, game_id, deleted["change"], {**secret, "X-Confirm": "move"})
    assert (again.status_code, again.get_json()["errors"]) == (
        409, [{"where": "change", "message": "was restored already"}])
    assert restore(client, game_id, deleted["change"] + 100, secret).status_code == 404
    assert history(app, game_id)[-2:] == [("delete", 2, "API"), ("restore", 2, "API")]


def test_the_last_hand_undone_comes_back_as_the_last(client: FlaskClient, app: Flask) -> None:
    game_id, secret = new_game(client, knock(ANN, 1, 11), knock(BOB, 2, 7))
    undone = delete(client, game_id, 2, secret, None)
    assert undone.get_json()["totals"] == [10, 0]
    assert delete(client, game_id, 2, secret, None).status_code == 404  # gone
    back = restore(client, game_id, undone.get_json()["change"], secret)
    assert back.status_code == 200, back.get_json()  # no hand in its place: no question
    assert (back.get_json()["hand"], back.get_json()["totals"]) == (2, [10, 5])
    assert history(app, game_id)[-2:] == [("delete", 2, "API"), ("restore", 2, "API")]


def test_a_stale_version_changes_nothing(client: FlaskClient, app: Flask) -> None:
    game_id, secret = new_game(client, knock(ANN, 1, 11), knock(BOB, 2, 7))
    read = game(client, game_id)["version"]
    deleted = delete(client, game_id, 2, secret, read).get_json()
    stale = read  # another client's change came after this one read the game
    answers = [
        patch(client, game_id, 1, secret, knock(ANN, 3, 23), stale),
        delete(client, game_id, 1, secret, stale),
        restore(client, game_id, deleted["change"], secret, stale),
    ]
    for answer in answers:
        assert (answer.status_code, answer.get_json()["errors"]) == (
            409, [{"where": "version", "message": STALE}])
    assert game(client, game_id)["totals"] == [10, 0]
    assert game(client, game_id)["version"] == read + 1
    assert history(app, game_id)[-1] == ("delete", 2, "API")


def test_without_the_edit_secret_nothing_changes(client: FlaskClient) -> None:
    game_id, secret = new_game(client, knock(ANN, 1, 11), knock(BOB, 2, 7))
    change = delete(client, game_id, 2, secret, None).get_json()["change"]
    for headers in ({}, {"X-Edit-Secret": "wrong"}):
        answers = [
            patch(client, game_id, 1, headers, knock(ANN, 3, 23), None),
            delete(client, game_id, 1, headers, None),
            restore(client, game_id, change, headers),
        ]
        assert [a.status_code for a in answers] == [403, 403, 403]
        assert {a.get_json()["errors"][0]["where"] for a in answers} == {"X-Edit-Secret"}
    assert game(client, game_id)["totals"] == [10, 0]


def test_a_confirmed_night_table_takes_no_change(client: FlaskClient, app: Flask) -> None:
    night_id = start_night(client, "Ann\nBob")
    client.post(f"/n/{night_id}/rounds", data={"round": "0"})
    (table,) = night_tables(app, night_id, 1)
    game_id = table.game_id
    assert game_id is not None
    with app.test_request_context():
        stored = get_session().get(Game, game_id)
        assert stored is not None
        secret = {"X-Edit-Secret": stored.edit_secret}
    assert client.get(f"/g/{game_id}?key={secret['X-Edit-Secret']}").status_code == 302
    # Ann 60, 10 deleted over the API (so there is a change to restore), 50: 110 to 0.
    win(client, game_id, ANN, 60)
    win(client, game_id, ANN, 10)
    change = delete(client, game_id, 2, secret, version_of(client, game_id)).get_json()["change"]
    win(client, game_id, ANN, 50)
    assert client.post(f"/g/{game_id}/confirm").status_code == 302
    before = game(client, game_id)
    assert before["totals"] == [110, 0]
    answers = [
        patch(client, game_id, 1, secret, knock(ANN, 1, 11), before["version"]),
        delete(client, game_id, 2, secret, before["version"]),
        restore(client, game_id, change, {**secret, "X-Confirm": "move"}, before["version"]),
    ]
    for answer in answers:
        assert (answer.status_code, answer.get_json()["errors"]) == (
            409, [{"where": "game", "message": SETTLED}])
    assert game(client, game_id) == before
