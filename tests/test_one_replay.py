"""One API save replays its game at most once: the replay that tells whether the game was
over before the hand is the sheet the answer shows, its payments counted from it too. A
save to a game whose replay is kept scores its own hand only, through the API and the
sheet's form alike: counted, never timed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.variants import VARIANTS


def knock(seat: int, deadwood: int, other: int) -> dict[str, Any]:
    return {"outcome": "knock", "knocker": seat, "knocker_deadwood": deadwood,
            "defender_deadwood": other}


# The first hand (or deal) of each kind, and its totals worked out by hand.
FIRST: dict[str, tuple[list[str], dict[str, Any], dict[str, Any], list[Any]]] = {
    # A knock with 2 against 30: 28 to Ann.
    "gin": (["Ann", "Bob"], {}, knock(0, 2, 30), [28, 0]),
    # The upcard 9♥ lets a knock with 2 stand: 28, hearts score single.
    "oklahoma": (["Ann", "Bob"], {}, {**knock(0, 2, 30), "upcard": "9H"}, [28, 0]),
    # The captain (Y) knocks with 4 against 20: 16 to Y.
    "three_hand": (["X", "Y", "Z"], {"dealer": 0, "captain": 1}, knock(1, 4, 20), [0, 16, 0]),
    # Ann's table: she knocks with 2 against 30 (28); Cid's table is dead: 28 to Ann & Cid.
    "partnership": (["Ann", "Bob", "Cid", "Dan"], {},
                    {"tables": [knock(0, 2, 30), {"outcome": "dead"}]}, [28, 0]),
    # Plus less minus, Ann went out on a 10: 120 + 10 × 10, 30 − 40, 0 − 60.
    "remi": (["Ann", "Bob", "Cid"], {},
             {"went_out": 0, "discard_value": 10,
              "players": [{"plus": 120, "minus": 0}, {"plus": 30, "minus": 40},
                          {"plus": 0, "minus": 60}]},
             [220, -10, -60]),
}


def new_game(client: FlaskClient, kind: str, players: list[str], **body: Any) -> tuple[str, Any]:
    created = client.post("/api/v1/games", json={"variant": kind, "players": players, **body})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    return game["id"], {"X-Edit-Secret": game["edit_secret"]}


def counted_save(client: FlaskClient, kind: str, game_id: str, headers: Any,
                 body: dict[str, Any]) -> tuple[int, Any, int]:
    """Post one hand; its status, its answer and how many times the game was replayed."""
    variant = VARIANTS[kind]
    with mock.patch.object(variant, "sheet", wraps=variant.sheet) as replay:
        answer = client.post(f"/api/v1/games/{game_id}/hands", json=body, headers=headers)
    return answer.status_code, answer.get_json(), replay.call_count


@pytest.mark.parametrize("kind", list(FIRST))
def test_a_save_replays_once(client: FlaskClient, kind: str) -> None:
    players, setup, body, totals = FIRST[kind]
    game_id, headers = new_game(client, kind, players, **setup)
    status, answer, replays = counted_save(client, kind, game_id, headers, body)
    assert status == 201, answer
    assert replays == 1
    assert answer["hand"] == 1 and answer["totals"] == totals and answer["version"] == 1


def test_the_save_that_ends_a_game_with_a_stake_replays_once(client: FlaskClient) -> None:
    """The answer carries the payments, counted from the same replay; the next hand is
    refused as the game is over, again from one replay."""
    game_id, headers = new_game(client, "gin", ["Ann", "Bob"], stake="0.5", currency="EUR")
    status, answer, replays = counted_save(client, "gin", game_id, headers, knock(0, 1, 61))
    assert (status, replays, answer["totals"], answer["finished"]) == (201, 1, [60, 0], False)
    assert "payments" not in answer
    # 60 + 50 = 110 reaches the target of 100.
    status, answer, replays = counted_save(client, "gin", game_id, headers, knock(0, 1, 51))
    assert (status, replays, answer["totals"], answer["finished"]) == (201, 1, [110, 0], True)
    assert [(p["from"], p["to"], p["currency"]) for p in answer["payments"]] == [
        ("Bob", "Ann", "EUR")
    ]
    document = client.get(f"/api/v1/games/{game_id}").get_json()
    assert answer["payments"] == document["payments"]
    assert {k: v for k, v in document.items() if k != "hands"} == {
        k: v for k, v in answer.items() if k != "hand"
    }
    status, answer, replays = counted_save(client, "gin", game_id, headers, knock(1, 1, 20))
    assert (status, replays) == (409, 1)
    assert answer["errors"] == [{"where": "game", "message": "the game is over: no more hands"}]


# --- a save scores its own hand only ------------------------------------------------------

# Rules under which the first hands of ``FIRST`` end no game within 51 hands.
LONG = {"gin": {"preset": "classic", "target": 10000},
        "oklahoma": {"preset": "oklahoma", "target": 10000},
        "three_hand": {"preset": "three_hand", "target": 10000},
        "partnership": {"preset": "partnership", "target": 10000},
        "remi": {"preset": "remi", "deals": 1000}}


def fifty_hands(client: FlaskClient, kind: str) -> tuple[str, Any]:
    """A game of ``kind`` with its first hand saved 50 times through the API: each save
    keeps the replay it made, so the game's is kept (warm)."""
    players, setup, body, _totals = FIRST[kind]
    game_id, headers = new_game(client, kind, players, rules=LONG[kind], **setup)
    for number in range(1, 51):
        answer = client.post(f"/api/v1/games/{game_id}/hands", json=body, headers=headers)
        assert answer.status_code == 201 and answer.get_json()["hand"] == number
    return game_id, headers


@contextmanager
def counted_scoring(kind: str) -> Iterator[dict[str, mock.Mock]]:
    """Counts the hands the kind's replay scores and the games it replays whole."""
    variant = VARIANTS[kind]
    counted = {"score_one": mock.Mock(wraps=variant.score_one),
               "replay": mock.Mock(wraps=variant.replay)}
    with mock.patch.multiple(variant, **counted):
        yield counted


@pytest.mark.parametrize("kind", list(FIRST))
def test_an_api_save_to_a_long_game_scores_its_hand_only(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    """The hand is played on the replay kept for the version the save checks against:
    one hand scored, no game replayed; the answer is the one a whole replay gives."""
    body = FIRST[kind][2]
    game_id, headers = fifty_hands(client, kind)
    with counted_scoring(kind) as counted:
        answer = client.post(f"/api/v1/games/{game_id}/hands", json=body, headers=headers)
        assert answer.status_code == 201, answer.get_json()
        scored, replayed = counted["score_one"].call_count, counted["replay"].call_count
    assert (scored, replayed) == (1, 0)
    saved = answer.get_json()
    assert saved["hand"] == 51 and saved["version"] == 51
    if kind == "gin":  # 51 knocks of 2 against 30: 28 each to Ann
        assert saved["totals"] == [51 * 28, 0]
    app.extensions.pop("scorekeeper.sheets")  # the document replays all 51 hands
    with counted_scoring(kind) as counted:
        document = client.get(f"/api/v1/games/{game_id}").get_json()
        assert (counted["score_one"].call_count, counted["replay"].call_count) == (51, 1)
    assert {k: v for k, v in document.items() if k != "hands"} == {
        k: v for k, v in saved.items() if k != "hand"
    }


def test_a_page_save_to_a_long_game_scores_its_hand_only_and_keeps_the_sheet(
    client: FlaskClient,
) -> None:
    """The sheet's form: the hand is played on the kept replay (one hand scored), and the
    sheet the save redirects to is the one it played, kept."""
    game_id, headers = fifty_hands(client, "gin")
    secret = headers["X-Edit-Secret"]
    assert client.get(f"/g/{game_id}?key={secret}").status_code == 302
    with counted_scoring("gin") as counted:
        saved = client.post(f"/g/{game_id}/hands", data={
            "outcome": "knock", "knocker": "1", "knocker_deadwood": "3",
            "defender_deadwood": "10", "version": "50"})
        assert saved.status_code == 302, saved.get_data(as_text=True)
        assert (counted["score_one"].call_count, counted["replay"].call_count) == (1, 0)
        assert client.get(saved.headers["Location"]).status_code == 200
        assert (counted["score_one"].call_count, counted["replay"].call_count) == (1, 0)
    # 50 knocks of 2 against 30 for Ann, then Bob's knock of 3 against 10: 7.
    document = client.get(f"/api/v1/games/{game_id}").get_json()
    assert (document["version"], document["totals"]) == (51, [50 * 28, 7])


def test_a_save_whose_replay_is_not_kept_replays_the_game_once(
    app: Flask, client: FlaskClient
) -> None:
    """Another worker made the last change: this one replays the game (outside the
    write lock), scoring its 50 hands, and plays the new one on it."""
    body = FIRST["gin"][2]
    game_id, headers = fifty_hands(client, "gin")
    app.extensions.pop("scorekeeper.sheets")
    with counted_scoring("gin") as counted:
        answer = client.post(f"/api/v1/games/{game_id}/hands", json=body, headers=headers)
        assert (counted["score_one"].call_count, counted["replay"].call_count) == (51, 1)
    assert answer.status_code == 201 and answer.get_json()["totals"] == [51 * 28, 0]
