"""A game of a fixed number of deals outside a night: chosen on the new-game form for
every kind, the sheet counts the deals left, the game ends after the last one (no hand
more, on the page or over the API), a level end is a drawn game on the sheet, in the
JSON and on paper, and each kind's rule card says how the last deal settles."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import (
    DEAD,
    api,
    enter_partnership,
    errors_at,
    knock,
    new_game,
    new_hollywood,
    new_partnership,
    new_three_hand,
    pdf_text,
    play,
    quick,
    state,
    value_of,
    win,
)


def words(html: str) -> str:
    """The page's words, tags and the isolates around names dropped."""
    text = unescape(re.sub(r"<[^>]+>", " ", html)).replace("\u2068", "").replace("\u2069", "")
    return " ".join(text.split())


def section(html: str, anchor: str) -> str:
    match = re.search(rf'<section class="rule[^"]*" id="{anchor}">(.*?)</section>', html, re.S)
    assert match, anchor
    return words(match.group(1))


def test_a_gin_game_of_two_deals_ends_after_them(client: FlaskClient) -> None:
    game = new_game(client, "russian", deals="2")
    assert state(client, game)["rules"]["deals"] == 2
    win(client, game, 0, 20)
    sheet = client.get(f"/g/{game}").get_data(as_text=True)
    assert re.search(r'class="num deals-left">1<', sheet)
    assert "Target 100 · 2 deals · knock ≤ 10" in words(sheet)
    win(client, game, 1, 15)
    data = state(client, game)
    # Ann is ahead 20 to 15: 20 + 100 game bonus + 1 × 25 = 145; Bob 15 + 25 = 40.
    assert data["finished"] is True and data["winner"] == 0
    assert data["settlement"]["finals"] == [145, 40] and data["settlement"]["margin"] == 105
    page = words(client.get(f"/g/{game}").get_data(as_text=True))
    assert "Ann wins the game" in page
    assert "Deal 2 was the last: Ann is ahead, 20 to 15, and wins the game." in page
    # A hand more is refused on the sheet and over the API; nothing is stored.
    refused = quick(client, game, "knock", 1, 1, 40)
    assert refused.status_code == 409
    assert "The game is over: no more hands." in refused.get_data(as_text=True)
    assert len(state(client, game)["hands"]) == 2


def test_a_drawn_game_on_the_sheet_in_json_and_on_paper(client: FlaskClient) -> None:
    game = new_game(client, "russian", deals="2")
    win(client, game, 0, 20)
    win(client, game, 1, 20)
    data = state(client, game)
    assert data["finished"] is True and data["winner"] is None
    assert data["settlement"] == {
        "winner": None, "shutout": False, "lines": [], "finals": [20, 20], "margin": 0,
        "explanation": data["settlement"]["explanation"]}
    assert [step["text"] for step in data["settlement"]["explanation"]] == [
        "Deal 2 was the last and the scores are level at 20: a drawn game, without bonuses."]
    page = words(client.get(f"/g/{game}").get_data(as_text=True))
    assert "A drawn game" in page and "wins the game" not in page
    assert "A drawn game at 20" in pdf_text(client.get(f"/g/{game}/sheet.pdf").data)


def test_a_drawn_game_in_persian_and_russian(client: FlaskClient) -> None:
    game = new_game(client, "russian", deals="1")
    quick(client, game, "dead", None)
    ru = words(client.get(f"/g/{game}", headers={"Accept-Language": "ru"}).get_data(
        as_text=True))
    assert "Ничья" in ru
    assert "Раздача 1 была последней, и счёт равный, по 0: ничья, без бонусов." in ru
    fa = words(client.get(f"/g/{game}", headers={"Accept-Language": "fa"}).get_data(
        as_text=True))
    assert "بازی مساوی" in fa


def test_a_hollywood_match_of_two_hands(client: FlaskClient) -> None:
    game = new_hollywood(client, "russian", deals="2")
    win(client, game, 0, 40)
    win(client, game, 0, 25)
    data = state(client, game)
    # Game 1: A 65, shutout: (65 + 100) × 2 + 2 × 25 = 380; game 2: A 25, shutout:
    # (25 + 100) × 2 + 25 = 275; game 3 got no hand: drawn at 0.
    assert data["finished"] is True
    assert [c["settlement"]["finals"] for c in data["columns"]] == [[380, 0], [275, 0], [0, 0]]
    assert [c["winner"] for c in data["columns"]] == [0, 0, None]
    assert data["match"] == {"finals": [655, 0], "leader": 0}
    assert quick(client, game, "knock", 1, 1, 11).status_code == 409
    assert "Game 3: a drawn game at 0" in pdf_text(client.get(f"/g/{game}/sheet.pdf").data)


def test_a_partnership_game_of_one_deal(client: FlaskClient) -> None:
    game = new_partnership(client, deals="1")
    # Ann +20 at table 1, Dan +25 at table 2: net 5 to Bob & Dan; 5 + 100 + 25 = 130,
    # Ann & Cid 0 (no deal won): the shutout doubles, (5 + 100) × 2 + 25 = 235.
    deal = (("knock", 0, 1, 21), ("knock", 1, 1, 26))
    assert enter_partnership(client, game, deal).status_code == 302
    data = state(client, game)
    assert data["finished"] is True and data["winner"] == 1
    assert data["settlement"]["finals"] == [0, 235]
    assert enter_partnership(client, game, deal).status_code == 409


def test_a_three_hand_game_of_one_hand(client: FlaskClient) -> None:
    game = new_three_hand(client, deals="1")
    # X in the box, Y captain: the captain knocks 1 against 17: Y +16 and wins.
    quick(client, game, "knock", 1, 1, 17)
    data = state(client, game)
    assert data["finished"] is True and data["winner"] == 1
    assert data["settlement"]["finals"] == [0, 16, 0]


def test_the_new_game_form_offers_deals_and_keeps_a_bad_number(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert 'id="deals"' in page
    assert 'data-show-if="variant:remi"' not in re.search(
        r'<div class="field[^"]*"[^>]*>\s*<label for="deals".*?</div>', page, re.S).group(0)
    response = client.post("/games/new", data={
        "variant": "gin", "player1": "Ann", "player2": "Bob", "preset": "classic",
        "dealer": "0", "deals": "0"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert errors_at(html, "deals")
    assert value_of(html, "deals") == "0"


@pytest.mark.parametrize(
    ("card", "first"),
    [
        ("classic", "A game may be given a number of deals when it starts (tournament play "
                    "against the clock): it then ends after that many deals if nobody "
                    "reaches the target first. A dead hand counts as a deal."),
        ("oklahoma", "A game may be given a number of deals when it starts"),
        ("three_hand", "A game may be given a number of deals when it starts"),
        ("hollywood", "A match may be given a number of hands when it starts (tournament "
                      "play against the clock): it then ends after that many hands if its "
                      "columns are not all closed by then. A dead hand counts too."),
        ("partnership", "A game may be given a number of deals when it starts (tournament "
                        "play against the clock): it then ends after that many deals if no "
                        "team reaches the target first. A level deal counts too."),
    ],
)
def test_every_gin_card_says_how_a_fixed_number_of_deals_ends(
    client: FlaskClient, card: str, first: str
) -> None:
    text = section(client.get(f"/rules/{card}").get_data(as_text=True), "deals")
    assert text.startswith(f"A fixed number of deals {first}")
    if card == "hollywood":
        assert "Each column still open then closes: the player ahead in it wins that game" in text
    else:
        ahead = "team" if card == "partnership" else "player"
        assert (f"After the last deal the {ahead} ahead on points wins the game: the game "
                "bonus, the shutout and the box bonuses are added as at the target.") in text
        assert ("Level at the top after the last deal: a drawn game. Nobody adds a game, "
                "shutout or box bonus, and the finals are the running totals.") in text


def test_a_games_card_names_its_deals_in_each_language(client: FlaskClient) -> None:
    game = new_game(client, "russian", deals="8")
    en = client.get(f"/g/{game}/rules").get_data(as_text=True)
    assert section(en, "deals").startswith(
        "A fixed number of deals This game ends after deal 8 if nobody reaches the target "
        "first: tournament play against the clock.")
    assert "changed; the preset says none" in section(en, "deals")
    ru = client.get(f"/g/{game}/rules", headers={"Accept-Language": "ru"}).get_data(
        as_text=True)
    assert "Партия заканчивается после раздачи номер 8, если никто не дошёл до цели " \
        "раньше" in section(ru, "deals")
    fa = client.get(f"/g/{game}/rules", headers={"Accept-Language": "fa"}).get_data(
        as_text=True)
    assert "اگر کسی زودتر به هدف نرسد، بازی پس از دست 8 تمام می‌شود" in section(fa, "deals")


def test_a_drawn_game_in_a_group_is_nobodys_win_and_moves_no_money(
    client: FlaskClient,
) -> None:
    group = api(client, "/groups", {"name": "Clock", "players": ["Ann", "Bob"],
                                    "stake": "0.10", "currency": "EUR"})
    drawn = api(client, "/games", {"variant": "gin", "players": ["Ann", "Bob"],
                                   "rules": {"preset": "russian", "deals": 2},
                                   "group": group["id"]}, group["edit_secret"])
    play(client, drawn, [knock(0, 1, 21), knock(1, 1, 21)])  # Ann +20, Bob +20
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    (game,) = data["games"]
    assert game["finished"] is True
    assert (game["winner"], game["winners"], game["finals"]) == (
        None, [], {"Ann": 20, "Bob": 20})
    assert game["payments"] == []
    rows = {row["name"]: row for row in data["standings"]}
    assert [(rows[n]["games"], rows[n]["wins"], rows[n]["margins"]) for n in ("Ann", "Bob")] \
        == [(1, 0, 0), (1, 0, 0)]
    # Level finals share the place: the two ratings stay equal.
    assert rows["Ann"]["rating"] == rows["Bob"]["rating"]


@pytest.mark.parametrize(
    ("variant", "rules", "players", "hand"),
    [
        ("gin", "classic", ["Ann", "Bob"], DEAD),
        ("oklahoma", "oklahoma", ["Ann", "Bob"], {**DEAD, "upcard": "KH"}),
        ("hollywood", "russian", ["Ann", "Bob"], DEAD),
        ("three_hand", "three_hand", ["Ann", "Bob", "Cid"], DEAD),
        ("partnership", "partnership", ["Ann", "Bob", "Cid", "Dan"], {"tables": [DEAD, DEAD]}),
    ],
)
def test_every_page_of_a_drawn_game_answers(
    client: FlaskClient, variant: str, rules: str, players: list[str], hand: dict[str, Any]
) -> None:
    """One dead hand (a deal of two) in a game of one deal: drawn at 0 on every page."""
    game = api(client, "/games", {"variant": variant, "players": players,
                                  "rules": {"preset": rules, "deals": 1}})
    play(client, game, [hand])
    data = state(client, game["id"])
    assert data["finished"] is True
    settlements = [c["settlement"] for c in data["columns"]] if variant == "hollywood" \
        else [data["settlement"]]
    assert [(s["winner"], s["finals"]) for s in settlements] == [
        (None, [0] * len(s["finals"])) for s in settlements]
    for path in ("", "/history", "/rules", "/rules.pdf", "/sheet.pdf", "/table"):
        response = client.get(f"/g/{game['id']}{path}")
        assert response.status_code == 200, path
    printed = pdf_text(client.get(f"/g/{game['id']}/sheet.pdf").data)
    drawn = "Game 1: a drawn game at 0" if variant == "hollywood" else "A drawn game at 0"
    assert drawn in printed
