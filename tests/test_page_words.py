"""Words on the game pages a new player tripped over: who
deals at each partnership table, "box bonus" where "box" is also a role, a legend for
the ▮ mark, deals counted as deals."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient
from layout import sample_game

# The same on every database: run in the SQLite pass only (Makefile).
pytestmark = pytest.mark.once


def text_of(html: str, pattern: str) -> list[str]:
    """The text (tags stripped, spaces squeezed) of every match of ``pattern``."""
    return [
        " ".join(unescape(re.sub(r"<[^>]+>", " ", m)).split())
        for m in re.findall(pattern, html, re.S)
    ]


def test_partnership_says_who_deals_at_each_table(client: FlaskClient) -> None:
    game = client.post(
        "/api/v1/games",
        json={"variant": "partnership", "players": ["Ann", "Bob", "Cid", "Dan"], "dealer": 1},
    ).get_json()
    sheet = client.get(game["edit_url"], follow_redirects=True).get_data(as_text=True)
    # Deal 1: Ann v Bob and Cid v Dan; Bob (the first dealer) and his partner Dan deal.
    assert text_of(sheet, r'<div class="status" id="next-pairing">\s*<div>(.*?)</div>') == [
        "Next deal 1 Ann v Bob Bob deals Cid v Dan Dan deals"
    ]
    hand = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 12}
    response = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"tables": [hand, hand]},
        headers={"X-Edit-Secret": game["edit_secret"]},
    )
    assert response.status_code == 201, response.get_json()
    sheet = client.get(f"/g/{game['id']}").get_data(as_text=True)
    # Deal 2: opponents change (Ann v Dan, Cid v Bob) and the other team deals.
    assert text_of(sheet, r'<div class="status" id="next-pairing">\s*<div>(.*?)</div>') == [
        "Next deal 2 Ann v Dan Ann deals Cid v Bob Cid deals"
    ]
    assert text_of(sheet, r'<p class="hint legend">(.*?)</p>') == [
        "▮ box (deal won) · D: dealt at that table"]


def test_three_hand_rules_say_box_bonus(client: FlaskClient) -> None:
    sheet = client.get(f"/g/{sample_game(client, 'three_hand')}").get_data(as_text=True)
    assert text_of(sheet, r'<p class="muted rules-summary">(.*?)</p>') == [
        "Target 100 · knock ≤ 10 · gin 25 · undercut 10 · game 0 · box bonus 0"
    ]
    assert text_of(sheet, r'<p class="hint legend">(.*?)</p>') == ["▮ won the hand"]


def test_gin_sheet_explains_the_box_mark(client: FlaskClient) -> None:
    sheet = client.get(f"/g/{sample_game(client, 'gin')}").get_data(as_text=True)
    assert text_of(sheet, r'<p class="hint legend">(.*?)</p>') == ["▮ box (hand won)"]


def test_home_counts_deals_for_partnership_and_remi(client: FlaskClient) -> None:
    for kind in ("gin", "partnership", "remi"):
        game_id = sample_game(client, kind)
        client.get(f"/g/{game_id}")  # listed on this phone once opened
    home = client.get("/").get_data(as_text=True)
    listed = text_of(home, r'<small class="muted">(.*?)</small>')
    assert [line.split(" · ")[-1] for line in listed] == ["2 deals", "2 deals", "4 hands"]


def test_the_upcard_is_asked_for_only_in_oklahoma(client: FlaskClient) -> None:
    for kind, asked in (("gin", False), ("three_hand", False), ("oklahoma", True)):
        players = ["Ann", "Bob", "Cid"][: 3 if kind == "three_hand" else 2]
        game = client.post("/api/v1/games", json={"variant": kind, "players": players}).get_json()
        client.get(game["edit_url"])  # this phone keeps score
        game_id = game["id"]
        for page in (f"/g/{game_id}", f"/g/{game_id}/hands/new"):
            html = client.get(page).get_data(as_text=True)
            assert ('name="upcard"' in html) is asked, (kind, page)
    assert 'name="upcard"' in client.get("/check").get_data(as_text=True)  # any rules there


def test_without_javascript_the_new_game_page_keeps_every_field(client: FlaskClient) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    for name in ("player3", "player4", "captain", "deals", "hollywood_fourth", "oklahoma_ace"):
        assert f'name="{name}"' in html, name
    assert "hidden" not in re.findall(r'<div class="field"[^>]*>', html)[3]  # shown, not hidden
