"""One API save replays its game once: the replay that tells whether the game was over
before the hand is the sheet the answer shows, its payments counted from it too."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
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
