"""A player's page and its JSON, every figure worked out by hand on the group of
tests/test_groups.py (four games: G1 gin Ann v Bob, G2 gin Bob v Cid, G3 three-hand,
G4 Remi; stake 0.01 EUR a point) and on one hand entered with cards."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rulebook import content
from scorekeeper.services.player_terms import GIN, REMI, TERMS, THREE_HAND
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
    assert "Games won out of games played, in per cent." in page


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


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Figures(HTMLParser):
    """What a player's page marks as figures: per ``data-term`` key, the words of its
    definition (the ``what`` inside it) and its links; and every value (``dd.num``),
    chart and head-to-head column that is not inside a defined figure."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str | None, bool]] = []  # tag, term, in a "what"
        self.words: dict[str, str] = {}
        self.links: dict[str, list[str]] = {}
        self.undefined: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        term = found.get("data-term") or (self.stack[-1][1] if self.stack else None)
        classes = (found.get("class") or "").split()
        what = "what" in classes or bool(self.stack and self.stack[-1][2])
        if term is None and ((tag == "dd" and "num" in classes)
                             or (tag == "figure" and "chart" in classes)):
            self.undefined.append(found.get("class") or tag)
        if term is not None:
            self.words.setdefault(term, "")
            if tag == "a" and what:
                self.links.setdefault(term, []).append(found.get("href") or "")
        if tag not in VOID:
            self.stack.append((tag, term, what))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass  # <path/>, <br/>: nothing a figure is written in

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1][1] is not None and self.stack[-1][2]:
            key = self.stack[-1][1]
            self.words[key] = " ".join((self.words[key] + " " + data).split())


def figures_of(html: str) -> Figures:
    parser = Figures()
    parser.feed(html)
    return parser


@pytest.fixture
def every_section(client: FlaskClient, friday: dict[str, Any]) -> str:
    """Friday's group with a game of Russian gin entered with cards added last: Ann has
    played every kind of hand, so her page shows every section."""
    group = friday["group"]
    game = api(client, "/games", {"variant": "gin", "players": ["Ann", "Bob"],
                                  "rules": {"preset": "russian", "target": 50},
                                  "group": group["id"]}, group["edit_secret"])
    play(client, game, [CARDS])
    return str(group["id"])


def test_every_figure_on_the_page_says_what_it_counts_in_every_language(
    client: FlaskClient, every_section: str
) -> None:
    pages = {
        language: figures_of(client.get(f"/groups/{every_section}/players/Ann",
                                        headers={"Accept-Language": language})
                             .get_data(as_text=True))
        for language in ("en", "fa", "ru")
    }
    english = pages["en"]
    for language, page in pages.items():
        # Nothing shown as a figure without a definition, and every definition in use.
        assert page.undefined == [], language
        assert set(page.words) == set(TERMS), language
        assert all(page.words.values()), language
    for key, words in english.words.items():
        # Each figure's own words (and, in Persian and Russian, translated ones).
        assert words.startswith(str(TERMS[key].meaning).split(" ")[0]), key
        assert pages["fa"].words[key] != words and pages["ru"].words[key] != words, key
    # Where a rule names the figure, its rule on the card of the gin Ann played last
    # (Russian), of three-hand gin and of Remi.
    assert english.links["gins"] == ["/rules/russian#gin"]
    assert english.links["shutouts-given"] == ["/rules/russian#shutout"]
    assert english.links["laid-off"] == ["/rules/russian#layoffs"]
    assert english.links["won-in-box"] == ["/rules/three_hand#roles"]
    assert english.links["went-out"] == ["/rules/remi#going-out"]
    assert "games" not in english.links  # nothing in the rules defines a game played
    assert "Rule: Gin" in english.words["gins"]
    assert "Правило: Джин" in pages["ru"].words["gins"]


def test_a_players_definitions_link_the_gin_card_of_his_latest_game(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    # Cid's latest game of gin is G3, three-hand gin (G4 is Remi).
    html = client.get(f"/groups/{friday['group']['id']}/players/Cid").get_data(as_text=True)
    assert figures_of(html).links["gins"] == ["/rules/three_hand#gin"]


def test_every_rule_a_definition_links_is_on_its_cards_under_the_same_title(
    app: Any,
) -> None:
    cards = {GIN: [n for n, (kind, _p) in content.CARDS.items() if kind in content.GIN_KINDS],
             THREE_HAND: ["three_hand"], REMI: ["remi"]}
    with app.test_request_context():
        titles = {name: {r.anchor: r.title for r in content.preset_card(name).items}
                  for names in cards.values() for name in names}
        for key, term in TERMS.items():
            if term.rule is None:
                continue
            for name in cards[term.rule.card]:
                assert titles[name].get(term.rule.anchor) == str(term.rule.title), (key, name)
