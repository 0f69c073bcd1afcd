"""Every explanation on a game's pages links the rule it applied, on the game's own card
(``/g/<id>/rules#<anchor>``): hands entered as totals, three-hand hands, Remi deals and
the final settlement. (Cards-mode gin hands, partnership deals, the history, /check and
rulings have their own tests.)"""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from helpers import (
    new_game,
    new_remi,
    new_three_hand,
    play_three_hand_example,
    post_remi_cards,
    quick,
    remi_quick_scores,
    win,
)

from tests.examples import SECTION_8

STEP = re.compile(r"<li>(.*?)</li>", re.S)
LINK = re.compile(r'<a class="rule-ref" href="/g/([\w-]+)/rules#([\w-]+)">')


def cited(client: FlaskClient, game_id: str, page: str = "") -> list[str]:
    """The rule each explanation step of the page links to, in order (every step has
    exactly one link, to this game's card)."""
    html = client.get(f"/g/{game_id}{page}").get_data(as_text=True)
    lists = re.findall(r'<ol class="explanation">(.*?)</ol>', html, re.S)
    anchors = []
    for step in (step for ol in lists for step in STEP.findall(ol)):
        links = LINK.findall(step)
        assert len(links) == 1 and links[0][0] == game_id, step
        anchors.append(links[0][1])
    return anchors


def test_a_gin_hand_entered_as_totals_cites_knock_and_gin(client: FlaskClient) -> None:
    game_id = new_game(client, "classic")
    assert quick(client, game_id, "knock", 0, 4, 20).status_code == 302
    assert quick(client, game_id, "gin", 1, None, 30).status_code == 302
    # "Knocker's deadwood 4, defender's 20." / "Deadwood 4 < 20: the knocker scores 16."
    assert cited(client, game_id, "/hands/1") == ["knock", "knock"]
    # "Knocker's deadwood 0, defender's 30." / "Gin: 30 + gin bonus 20 = 50."
    assert cited(client, game_id, "/hands/2") == ["knock", "gin"]


def test_the_final_settlement_cites_target_boxes_and_game(client: FlaskClient) -> None:
    game_id = new_game(client, "classic")
    win(client, game_id, 1, 50)
    win(client, game_id, 0, 53)
    win(client, game_id, 0, 53)
    # Ann reached 106 of 100 first · Ann: 106 · Bob: 50 · Ann wins by 56.
    assert cited(client, game_id) == ["target", "boxes", "boxes", "game-bonus"]


def test_a_three_hand_hand_cites_its_rules(client: FlaskClient) -> None:
    game_id = new_three_hand(client)
    play_three_hand_example(client, game_id)
    assert cited(client, game_id, "/hands/1") == ["knock", "knock"]
    assert cited(client, game_id, "/hands/2") == ["knock", "gin"]


def test_a_remi_deal_cites_sequences_sets_going_out_and_the_next_dealer(
    client: FlaskClient,
) -> None:
    game_id = new_remi(client)
    assert post_remi_cards(client, game_id, SECTION_8).status_code == 302
    remi_quick_scores(client, game_id, 20, -10, -10, 0)
    assert cited(client, game_id, "/hands/1") == [
        "going-out",  # Ann went out.
        "sequences", "sets", "going-out", "remi-scoring",  # Ann: 2♥–5♥, K K K, A♦ × 10
        "sequences", "remi-scoring", "remi-scoring",  # Bob: 3♣–6♣, Q♣ J♦ J♣ left, −10
        "sequences", "sets", "remi-scoring", "remi-scoring",  # Cy: 7♠–9♠, 9 9 9, A♠
        "sets", "remi-scoring", "remi-scoring",  # Dee: no sequence, so the queens count −
        "remi-end",  # Dee has the lowest total and deals next
    ]
    # Entered as totals: each player's sum, then who deals next.
    assert cited(client, game_id, "/hands/2") == ["remi-scoring"] * 4 + ["remi-end"]
