"""The history page says each change as a sentence a player reads:
names instead of seats, cards by their symbols, in the player's language."""

from __future__ import annotations

import html
import re
from typing import Any

from flask.testing import FlaskClient

from tests.helpers import new_game, quick, version_of


def sentences(client: FlaskClient, game_id: str, lang: str = "en") -> list[str]:
    """The history's entries, oldest first, as a reader sees them (the invisible isolates
    around names, U+2068 and U+2069, left out: tests/test_trust_names.py checks them)."""
    page = client.get(
        f"/g/{game_id}/history", headers={"Accept-Language": lang}
    ).get_data(as_text=True)
    page = page.replace("\u2068", "").replace("\u2069", "")
    found = [html.unescape(m) for m in re.findall(r'<p class="change">(.*?)</p>', page, re.S)]
    return list(reversed(found))


def api_game(client: FlaskClient, variant: str, players: list[str], **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games", json={"variant": variant, "players": players, **body}
    )
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def api_hand(client: FlaskClient, game: dict[str, Any], body: dict[str, Any]) -> None:
    response = client.post(
        f"/api/v1/games/{game['id']}/hands",
        json=body,
        headers={"X-Edit-Secret": game["edit_secret"]},
    )
    assert response.status_code == 201, response.get_json()


def test_gin_quick_hand_added_and_corrected(client: FlaskClient) -> None:
    game = new_game(client)
    quick(client, game, "knock", 1, 6, 22)
    quick(client, game, "dead", None)
    client.post(
        f"/g/{game}/hands/1/edit",
        data={
            "outcome": "knock",
            "knocker": "1",
            "knocker_deadwood": "4",
            "defender_deadwood": "22",
            "version": str(version_of(client, game)),
        },
    )
    client.post(f"/g/{game}/undo", data={"version": str(version_of(client, game))})
    assert sentences(client, game) == [
        "Game started.",
        "Hand 1 added: Bob knocked with 6; Ann's deadwood 22.",
        "Hand 2 added: dead hand.",
        "Hand 1 corrected: Bob knocked with 4 (was 6); Ann's deadwood 22.",
        "Hand 2 undone: dead hand.",
    ]
    page = client.get(f"/g/{game}/history").get_data(as_text=True)
    assert "{'" not in page and "knocker=" not in page and "mode" not in page


def test_gin_cards_and_a_change_of_outcome(client: FlaskClient) -> None:
    game = new_game(client)
    client.post(
        f"/g/{game}/hands/new",
        data={
            "knocker": "0",
            "version": str(version_of(client, game)),
            "knocker_cards": "KS KH KD 5S 6S 7S 9C TC JC JD",
            "defender_cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
        },
    )
    client.post(
        f"/g/{game}/hands/1/edit?mode=quick",
        data={
            "outcome": "gin",
            "knocker": "0",
            "defender_deadwood": "30",
            "version": str(version_of(client, game)),
        },
    )
    assert sentences(client, game)[1:] == [
        "Hand 1 added: Ann knocked: K♠ K♥ K♦ 5♠ 6♠ 7♠ 9♣ 10♣ J♣ J♦; "
        "Bob held 8♠ 9♠ 7♣ 8♣ 2♠ 2♥ 2♦ 2♣ A♣ 8♦.",
        "Hand 1 corrected: Ann went gin (was: Ann knocked: K♠ K♥ K♦ 5♠ 6♠ 7♠ 9♣ 10♣ J♣ J♦); "
        "Bob's deadwood 30 (was: Bob held 8♠ 9♠ 7♣ 8♣ 2♠ 2♥ 2♦ 2♣ A♣ 8♦).",
    ]


def test_oklahoma_names_the_upcard(client: FlaskClient) -> None:
    game = api_game(client, "oklahoma", ["Ann", "Bob"])
    api_hand(
        client,
        game,
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20,
         "upcard": "7S"},
    )
    assert sentences(client, game["id"])[1:] == [
        "Hand 1 added: Ann knocked with 3; Bob's deadwood 20; upcard 7♠."
    ]


def test_three_hand_says_box_and_captain(client: FlaskClient) -> None:
    game = api_game(client, "three_hand", ["X", "Y", "Z"])
    api_hand(
        client,
        game,
        {"outcome": "knock", "knocker": "captain", "knocker_deadwood": 5,
         "defender_deadwood": 30},
    )
    assert sentences(client, game["id"])[1:] == [
        "Hand 1 added: the captain knocked with 5; the box's deadwood 30."
    ]


def test_partnership_says_each_table_with_its_players(client: FlaskClient) -> None:
    game = api_game(client, "partnership", ["Ann", "Bob", "Cid", "Dan"])
    first = {"tables": [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20},
        {"outcome": "dead"},
    ]}
    second = {"tables": [
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 12},
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 9},
    ]}
    api_hand(client, game, first)
    api_hand(client, game, second)
    assert sentences(client, game["id"])[1:] == [
        "Deal 1 added: table 1 (Ann v Bob): Ann knocked with 3, Bob's deadwood 20; "
        "table 2 (Cid v Dan): dead hand.",
        "Deal 2 added: table 1 (Ann v Dan): Dan went gin, Ann's deadwood 12; "
        "table 2 (Cid v Bob): Cid knocked with 2, Bob's deadwood 9.",
    ]


def test_remi_deals_in_words(client: FlaskClient) -> None:
    game = api_game(client, "remi", ["Ann", "Bob"])
    api_hand(
        client,
        game,
        {"went_out": 0, "final_discard": "AD", "players": [
            {"table": [["7S", "8S", "9S"]], "hand": "2H 3H 4H 5H"},
            {"table": [], "hand": "QC JD JC 6C 5C 4C 3C"},
        ]},
    )
    api_hand(
        client,
        game,
        {"went_out": None, "players": [{"plus": 20, "minus": 30}, {"plus": 0, "minus": 40}]},
    )
    assert sentences(client, game["id"])[1:] == [
        "Deal 1 added: Ann went out discarding A♦; Ann: 7♠ 8♠ 9♠ on the table, "
        "2♥ 3♥ 4♥ 5♥ in hand; Bob: Q♣ J♦ J♣ 6♣ 5♣ 4♣ 3♣ in hand.",
        "Deal 2 added: the stock ran out; Ann +20 −30; Bob +0 −40.",
    ]
    assert sentences(client, game["id"], "ru")[1:] == [
        "Раздача 1 добавлена: Ann: выход со сбросом A♦; Ann: на столе 7♠ 8♠ 9♠, "
        "на руке 2♥ 3♥ 4♥ 5♥; Bob: на руке Q♣ J♦ J♣ 6♣ 5♣ 4♣ 3♣.",
        "Раздача 2 добавлена: банк кончился; Ann +20 −30; Bob +0 −40.",
    ]


def test_persian_history(client: FlaskClient) -> None:
    game = new_game(client)
    quick(client, game, "knock", 1, 6, 22)
    assert sentences(client, game, "fa") == [
        "بازی شروع شد.",
        "دست 1 اضافه شد: Bob با 6 ضربه زد؛ جفت‌نشدهٔ Ann: 22.",
    ]


def test_restore_is_a_sentence_too(client: FlaskClient) -> None:
    game = new_game(client)
    quick(client, game, "gin", 0, None, 15)
    client.post(f"/g/{game}/undo", data={"version": str(version_of(client, game))})
    page = client.get(f"/g/{game}/history").get_data(as_text=True)
    action = re.findall(r'class="restore" action="([^"]+)"', page)[0]
    client.post(action, data={"version": str(version_of(client, game))})
    assert sentences(client, game)[1:] == [
        "Hand 1 added: Ann went gin; Bob's deadwood 15.",
        "Hand 1 undone: Ann went gin; Bob's deadwood 15.",
        "Hand 1 restored: Ann went gin; Bob's deadwood 15.",
    ]


def rules_cited(client: FlaskClient, game_id: str) -> list[tuple[str, str | None, str | None]]:
    """Each entry, oldest first: its sentence, and the href and title of the rule it cites."""
    page = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    page = page.replace("\u2068", "").replace("\u2069", "")  # names' isolates, unseen
    found = []
    for entry in re.findall(r'<li id="change-\d+">(.*?)</li>', page, re.S):
        sentence = html.unescape(re.findall(r'<p class="change">(.*?)</p>', entry, re.S)[0])
        links = re.findall(
            r'<span class="rule-cited">By the rule: <a class="rule-ref" href="([^"]+)">(.*?)</a>',
            entry)
        assert len(links) <= 1, entry
        href, title = links[0] if links else (None, None)
        found.append((sentence, href, title))
    return list(reversed(found))


def test_each_hand_entry_links_the_rule_it_applied(client: FlaskClient) -> None:
    game = new_game(client, preset="modern")
    rules = f"/g/{game}/rules"
    quick(client, game, "knock", 1, 6, 4)  # more deadwood than the defender: an undercut
    quick(client, game, "gin", 1, None, 15)
    quick(client, game, "big_gin", 0, None, 15)
    quick(client, game, "knock", 0, 5, 5)  # equal deadwood: the tie rule's undercut
    quick(client, game, "dead", None)
    client.post(f"/g/{game}/hands/1/edit", data={
        "outcome": "knock", "knocker": "1", "knocker_deadwood": "4", "defender_deadwood": "22",
        "version": str(version_of(client, game))})
    client.post(f"/g/{game}/undo", data={"version": str(version_of(client, game))})
    assert rules_cited(client, game) == [
        ("Game started.", None, None),
        ("Hand 1 added: Bob knocked with 6; Ann's deadwood 4.", f"{rules}#undercut", "Undercut"),
        ("Hand 2 added: Bob went gin; Ann's deadwood 15.", f"{rules}#gin", "Gin"),
        ("Hand 3 added: Ann went big gin; Bob's deadwood 15.", f"{rules}#big-gin", "Big gin"),
        ("Hand 4 added: Ann knocked with 5; Bob's deadwood 5.", f"{rules}#tie", "A tie"),
        ("Hand 5 added: dead hand.", f"{rules}#dead-hand", "Dead hand"),
        ("Hand 1 corrected: Bob knocked with 4 (was 6); Ann's deadwood 22 (was 4).",
         f"{rules}#knock", "Knocking"),
        ("Hand 5 undone: dead hand.", f"{rules}#dead-hand", "Dead hand"),
    ]
    # The game's card holds each of those rules under that anchor.
    card = client.get(rules).get_data(as_text=True)
    for anchor in ("undercut", "gin", "big-gin", "tie", "dead-hand", "knock"):
        assert re.search(f'<section class="rule[^"]*" id="{anchor}">', card), anchor


def test_a_deal_entry_links_its_kind_of_game_rule(client: FlaskClient) -> None:
    partnership = api_game(client, "partnership", ["Ann", "Bob", "Cid", "Dan"])
    api_hand(client, partnership, {"tables": [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 20},
        {"outcome": "dead"},
    ]})
    remi = api_game(client, "remi", ["Ann", "Bob"])
    api_hand(client, remi, {"went_out": None,
                            "players": [{"plus": 20, "minus": 30}, {"plus": 0, "minus": 40}]})
    assert [(href, title) for _, href, title in rules_cited(client, partnership["id"])] == [
        (None, None), (f"/g/{partnership['id']}/rules#teams", "Partnership: two tables")]
    assert [(href, title) for _, href, title in rules_cited(client, remi["id"])] == [
        (None, None), (f"/g/{remi['id']}/rules#remi-scoring", "Scoring a deal")]
