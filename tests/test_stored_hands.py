"""A stored hand has one shape per kind (``hands/stored.py``), each written by one builder:
the pages, the API and a backup's import store the same value for the same hand."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.hands.stored import (
    CardsGinHand,
    DeadHand,
    PartnershipDeal,
    QuickGinHand,
    RemiCardDeal,
    RemiCardEntry,
    RemiQuickDeal,
    RemiQuickEntry,
    cards_hand,
    dead_hand,
    partnership_deal,
    quick_hand,
    remi_card_deal,
    remi_quick_deal,
)

KNOCKER = ["7H", "8H", "9H", "2S", "3S", "4S", "KC", "KD", "KS", "AD"]  # deadwood 1
DEFENDER = ["5H", "6H", "2C", "3C", "4C", "QD", "JD", "9C", "9D", "8S"]
QUICK: dict[str, Any] = {"mode": "quick", "outcome": "knock", "knocker": 1,
                         "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": None}
DEAD: dict[str, Any] = {"mode": "quick", "outcome": "dead", "knocker": None,
                        "knocker_deadwood": None, "defender_deadwood": None, "upcard": None}
CARDS: dict[str, Any] = {"mode": "cards", "knocker": 0, "knocker_cards": KNOCKER,
                         "knocker_melds": None, "defender_cards": DEFENDER,
                         "defender_melds": None, "layoffs": None, "upcard": None}


def test_each_builder_writes_exactly_the_fields_of_its_type() -> None:
    quick = quick_hand("knock", 1, 3, 20, None)
    assert quick == QUICK and set(quick) == QuickGinHand.__required_keys__
    assert quick_hand("dead", 1, 3, 20, "7S") == {**DEAD, "upcard": "7S"}
    assert dead_hand() == DEAD and set(DEAD) == DeadHand.__required_keys__
    cards = cards_hand(0, KNOCKER, None, DEFENDER, None, None, None)
    assert cards == CARDS and set(cards) == CardsGinHand.__required_keys__
    deal = partnership_deal([quick_hand("gin", 0, 0, 12, None), dead_hand()])
    assert set(deal) == PartnershipDeal.__required_keys__
    assert deal == {"mode": "deal", "tables": [
        {**QUICK, "outcome": "gin", "knocker": 0, "knocker_deadwood": 0,
         "defender_deadwood": 12}, DEAD]}
    remi = remi_quick_deal(None, [{"plus": 10, "minus": 5, "discard_value": None}])
    assert set(remi) == RemiQuickDeal.__required_keys__
    assert set(remi["players"][0]) == RemiQuickEntry.__required_keys__
    held = remi_card_deal(0, [{"table": [["2S", "3S", "4S"]], "hand": [], "final_discard": "AD"}])
    assert set(held) == RemiCardDeal.__required_keys__
    assert set(held["players"][0]) == RemiCardEntry.__required_keys__


def new_game(client: FlaskClient, variant: str, players: list[str]) -> tuple[str, str]:
    created = client.post("/api/v1/games", json={"variant": variant, "players": players})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    return game["id"], game["edit_secret"]


@pytest.mark.parametrize(("variant", "players", "body", "stored"), [
    ("gin", ["Ann", "Bob"], {"outcome": "knock", "knocker": 1, "knocker_deadwood": 3,
                             "defender_deadwood": 20}, QUICK),
    ("oklahoma", ["Ann", "Bob"], {"outcome": "gin", "knocker": 0, "defender_deadwood": 12,
                                  "upcard": "7s"},
     {**QUICK, "outcome": "gin", "knocker": 0, "knocker_deadwood": 0,
      "defender_deadwood": 12, "upcard": "7S"}),
    ("hollywood", ["Ann", "Bob"], {"outcome": "dead"}, DEAD),
    ("gin", ["Ann", "Bob"], {"knocker": {"seat": 0, "cards": " ".join(KNOCKER)},
                             "defender": {"cards": DEFENDER}}, CARDS),
    ("three_hand", ["Xan", "Yul", "Zed"], {"outcome": "knock", "knocker": "captain",
                                           "knocker_deadwood": 3, "defender_deadwood": 20},
     QUICK),
    ("partnership", ["Ann", "Bob", "Cid", "Dan"],
     {"tables": [{"outcome": "knock", "knocker": 1, "knocker_deadwood": 3,
                  "defender_deadwood": 20}, {"outcome": "dead"}]},
     {"mode": "deal", "tables": [QUICK, DEAD]}),
    ("remi", ["Ann", "Bob", "Cid"],
     {"went_out": 0, "discard_value": 15,
      "players": [{"plus": 50}, {"plus": 20, "minus": 30}, {"minus": 25}]},
     {"mode": "quick", "went_out": 0, "players": [
         {"plus": 50, "minus": 0, "discard_value": 15},
         {"plus": 20, "minus": 30, "discard_value": None},
         {"plus": 0, "minus": 25, "discard_value": None}]}),
])
def test_the_api_stores_what_the_builder_writes(
    client: FlaskClient, variant: str, players: list[str], body: dict[str, Any],
    stored: dict[str, Any],
) -> None:
    game_id, secret = new_game(client, variant, players)
    added = client.post(f"/api/v1/games/{game_id}/hands", json=body,
                        headers={"X-Edit-Secret": secret})
    assert added.status_code == 201, added.get_json()
    read = client.get(f"/api/v1/games/{game_id}").get_json()
    assert read["hands"][0]["inputs"] == stored
