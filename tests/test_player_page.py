"""A player's page and its JSON, every figure worked out by hand on the group of
tests/test_groups.py (four games: G1 gin Ann v Bob, G2 gin Bob v Cid, G3 three-hand,
G4 Remi; stake 0.01 EUR a point) and on one hand entered with cards."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from tests.helpers import api, play


def player(client: FlaskClient, group: str, name: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/groups/{group}/players/{name}")
    assert answer.status_code == 200, answer.get_json()
    data: dict[str, Any] = answer.get_json()
    return data


def test_anns_figures_worked_out_by_hand(client: FlaskClient, friday: dict[str, Any]) -> None:
    group = friday["group"]["id"]
    ann = player(client, group, "Ann")
    # G1 won (278 v 125), G3 lost to Bob (0 v 71), G4 lost to Cid (5 v 130).
    assert (ann["games"], ann["wins"], ann["longest_streak"]) == (3, 1, 1)
    assert [round(r["win_rate"], 4) for r in ann["win_rate_history"]] == [1.0, 0.5, 0.3333]
    assert [r["game"] for r in ann["win_rate_history"]] == [
        friday["g1"]["id"], friday["g3"]["id"], friday["g4"]["id"]]
    # Won hands: 15, 55 and the 33 gin of G1 (none in G3; 5 is not G4's top score).
    assert round(ann["average_won_hand"], 2) == 34.33
    figures = ann["figures"]
    assert (figures["gins"], figures["undercuts_suffered"], figures.get("undercuts_made", 0),
            figures["knocks"]) == (1, 1, 0, 3)
    # G1: Bob pays 1.53, G4: Bob pays 0.35; she pays Bob 0.71 (G3) and Cid 1.25 (G4).
    assert (ann["money_won"], ann["money_lost"], ann["balance"]) == ("1.88", "1.96", "-0.08")
    assert ann["against"] == [
        # v Bob: G1 +153, G3 −71, G4 +35; v Cid: G3 0 – 0, G4 5 − 130.
        {"opponent": "Bob", "games": 3, "wins": 2, "losses": 1, "net": 117},
        {"opponent": "Cid", "games": 2, "wins": 0, "losses": 1, "net": -125},
    ]
    assert len(ann["rating_history"]) == 3
    assert ann["best_rating"] == max(r["rating"] for r in ann["rating_history"])
    assert ann["rating_history"][0]["rating"] > 0  # she won her first game
    assert client.get(f"/api/v1/groups/{group}/players/Zed").status_code == 404


def test_the_page_shows_the_figures_and_says_what_they_count(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    page = client.get(f"/groups/{friday['group']['id']}/players/Ann").get_data(as_text=True)

    def shown(cls: str) -> str:
        match = re.search(rf'<dd class="num {cls}">(.*?)</dd>', page, re.S)
        assert match, cls
        return match.group(1).strip()

    assert (shown("games"), shown("wins"), shown("rated-games")) == ("3", "1", "3")
    assert (shown("money-won"), shown("money-lost")) == ("€1.88", "€1.96")
    assert "Provisional: 2 more rated games before the number settles." in page
    assert 'id="rating-chart-title"' in page and 'id="win-rate-chart-title"' in page
    assert "A win rate is games won out of games played" in page


CARDS = {
    # Ann holds 3♥4♥5♥6♥ 7♣7♦7♠ 9♣9♦9♥, a gin, but lays 3♥4♥5♥ and keeps 6♥: a knock of 6.
    "knocker": {"seat": 0, "cards": "3H 4H 5H 6H 7C 7D 7S 9C 9D 9H",
                "melds": ["3H 4H 5H", "7C 7D 7S", "9C 9D 9H"]},
    # Bob melds nothing and lays nothing off: 2+4+6+8+10+10+10+1+3+5 = 59.
    "defender": {"cards": "2C 4D 6C 8D TC QD KC AS 3S 5D"},
}


def test_a_hand_entered_with_cards_counts_a_missed_gin_and_the_melds(
    client: FlaskClient,
) -> None:
    group = api(client, "/groups", {"name": "Deck", "players": ["Ann", "Bob"]})
    game = api(client, "/games", {"variant": "gin", "players": ["Ann", "Bob"],
                                  "rules": {"preset": "classic", "target": 50},
                                  "group": group["id"]}, group["edit_secret"])
    play(client, game, [CARDS])  # 59 − 6 = 53: Ann reaches 50
    ann = player(client, group["id"], "Ann")
    assert ann["figures"]["gin_missed"] == 1
    assert ann["average_knock_deadwood"] == 6
    assert ann["average_caught_deadwood"] == 59
    assert ann["melds"] == [{"cards": "3♥4♥5♥", "times": 1}, {"cards": "7♠7♦7♣", "times": 1},
                           {"cards": "9♥9♦9♣", "times": 1}]
    bob = player(client, group["id"], "Bob")
    assert (bob["melds"], bob["layoffs_per_hand"], bob["figures"].get("gin_missed", 0)) == (
        [], 0, 0)
