"""Oklahoma gin (RULES.md §3) as a game: the upcard entered per hand sets its knock limit,
an ace allows gin only (or a knock with 1), a spade upcard doubles the hand."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient
from helpers import new_oklahoma, pdf_lines, state


def hand(
    client: FlaskClient,
    game: str,
    upcard: str,
    outcome: str = "knock",
    knocker: int = 0,
    k: int | None = None,
    d: int | None = None,
) -> Any:
    """Post a quick hand the way the sheet's form sends it."""
    data = {
        "outcome": outcome,
        "knocker": str(knocker),
        "upcard": upcard,
        "version": str(state(client, game)["version"]),
    }
    if k is not None:
        data["knocker_deadwood"] = str(k)
    if d is not None:
        data["defender_deadwood"] = str(d)
    return client.post(f"/g/{game}/hands", data=data)


def error_at(page: str, field: str) -> str:
    """The error messages shown in the field named ``field``."""
    block = page.split(f'name="{field}"')[1].split("</div>")[0]
    return " ".join(re.findall(r'class="error"[^>]*>([^<]*)<', block))


def test_target_150_by_default(client: FlaskClient) -> None:
    page = client.get("/games/new?variant=oklahoma").get_data(as_text=True)
    assert re.search(r'<option selected value="oklahoma">|<option value="oklahoma" selected', page)
    game = new_oklahoma(client)
    assert state(client, game)["rules"]["target"] == 150
    assert "Target 150" in client.get(f"/g/{game}").get_data(as_text=True)
    usual = new_oklahoma(client, "")  # "the usual rules of this game"
    assert state(client, usual)["rules"]["target"] == 150


def test_the_upcard_is_asked_for_and_required(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    sheet = client.get(f"/g/{game}").get_data(as_text=True)
    assert 'name="upcard"' in sheet and "knock limit" in sheet and "an ace allows only gin" in sheet
    response = hand(client, game, "", k=2, d=10)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "needs the upcard" in error_at(page, "upcard")
    assert 'value="10"' in page  # what was typed is kept
    assert state(client, game)["hands"] == []


def test_a_knock_over_the_upcards_limit_is_refused_with_the_limit(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    response = hand(client, game, "4H", k=5, d=20)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "a knock needs 4 or less (the upcard is 4♥), this hand has 5" in error_at(
        page, "knocker_deadwood"
    )
    assert 'value="4H"' in page and 'value="5"' in page
    assert hand(client, game, "4H", k=4, d=20).status_code == 302
    row = client.get(f"/g/{game}").get_data(as_text=True).split('id="hand-1"')[1]
    assert "knock ≤ 4" in row.split("</tr>")[0]


@pytest.mark.parametrize(
    ("ace", "k", "accepted"),
    [("gin_only", 1, False), ("gin_only", 0, True), ("one", 1, True), ("one", 2, False)],
)
def test_an_ace_upcard(client: FlaskClient, ace: str, k: int, accepted: bool) -> None:
    game = new_oklahoma(client, oklahoma_ace=ace)
    assert state(client, game)["rules"]["oklahoma_ace"] == ace
    response = hand(client, game, "AH", k=k, d=20)
    assert (response.status_code == 302) is accepted
    if not accepted:
        message = error_at(response.get_data(as_text=True), "knocker_deadwood")
        assert ("only gin" in message) if ace == "gin_only" else ("needs 1 or less" in message)
    if ace == "one":
        assert "an ace allows a knock with 1" in client.get(f"/g/{game}").get_data(as_text=True)


def test_a_spade_upcard_doubles_gin_and_its_bonus(client: FlaskClient) -> None:
    game = new_oklahoma(client)  # modern bonuses: gin 25, undercut 25
    assert hand(client, game, "7S", "gin", 0, None, 12).status_code == 302
    data = state(client, game)
    assert data["hands"][0]["points"] == (12 + 25) * 2 and data["hands"][0]["doubled"]
    assert data["boxes"] == [1, 0]  # boxes never double
    row = client.get(f"/g/{game}").get_data(as_text=True).split('id="hand-1"')[1].split("</tr>")[0]
    assert "♠ ×2" in row and "+74" in row and "knock ≤ 7" in row


def test_a_spade_upcard_doubles_an_undercut_and_its_bonus(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    assert hand(client, game, "9S", "knock", 0, 8, 5).status_code == 302
    first = state(client, game)["hands"][0]
    assert first["outcome"] == "undercut" and first["winner"] == 1
    assert first["points"] == (3 + 25) * 2


def test_spade_doubling_can_be_turned_off(client: FlaskClient) -> None:
    game = new_oklahoma(client, spade_doubles="no")
    assert hand(client, game, "7S", "gin", 0, None, 12).status_code == 302
    data = state(client, game)
    assert data["hands"][0]["points"] == 37 and not data["hands"][0]["doubled"]
    row = client.get(f"/g/{game}").get_data(as_text=True).split('id="hand-1"')[1].split("</tr>")[0]
    assert "×2" not in row


def test_an_oklahoma_game_with_classic_rules_still_asks_for_the_upcard(client: FlaskClient) -> None:
    game = new_oklahoma(client, "classic")
    assert state(client, game)["rules"]["oklahoma"] is True
    assert hand(client, game, "3D", k=4, d=10).status_code == 422


def test_a_game_to_150(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    for upcard, d in (("KH", 61), ("KD", 61)):
        assert hand(client, game, upcard, k=1, d=d).status_code == 302
    assert not state(client, game)["finished"]  # 120 of 150
    assert hand(client, game, "QC", k=1, d=31).status_code == 302
    data = state(client, game)
    assert data["finished"] and data["totals"] == [150, 0]
    assert data["settlement"]["finals"][0] == (150 + 100 + 3 * 25) * 2  # double_all


def test_dead_hands_need_no_upcard(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    response = client.post(
        f"/g/{game}/hands",
        data={"outcome": "dead", "version": str(state(client, game)["version"])},
    )
    assert response.status_code == 302


def test_api_with_the_upcard(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "oklahoma", "players": ["Ann", "Bob"]}
    ).get_json()
    game, secret = created["id"], created["edit_secret"]
    assert state(client, game)["rules"]["target"] == 150
    headers = {"X-Edit-Secret": secret}
    url = f"/api/v1/games/{game}/hands"
    missing = client.post(
        url,
        json={"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 9},
        headers=headers,
    )
    assert missing.status_code == 422 and missing.get_json()["errors"][0]["where"] == "upcard"
    over = client.post(
        url,
        json={
            "outcome": "knock",
            "knocker": 0,
            "knocker_deadwood": 5,
            "defender_deadwood": 9,
            "upcard": "3♥",
        },
        headers=headers,
    )
    assert over.status_code == 422
    assert over.get_json()["errors"] == [
        {
            "where": "knocker_deadwood",
            "message": "a knock needs 3 or less (the upcard is 3♥), this hand has 5",
        }
    ]
    spade = client.post(
        url,
        json={
            "outcome": "knock",
            "knocker": 1,
            "knocker_deadwood": 2,
            "defender_deadwood": 9,
            "upcard": "5s",
        },
        headers=headers,
    )
    assert spade.status_code == 201
    assert spade.get_json()["totals"] == [0, 14]
    body = state(client, game)
    assert body["hands"][0]["inputs"]["upcard"] == "5S"
    assert body["hands"][0]["points"] == 14 and body["hands"][0]["doubled"]
    assert body["totals"] == [0, 14]


def test_cards_with_the_upcard(client: FlaskClient) -> None:
    """Card entry: the upcard is checked against the hands and sets the limit."""
    created = client.post(
        "/api/v1/games", json={"variant": "oklahoma", "players": ["Ann", "Bob"]}
    ).get_json()
    response = client.post(
        f"/api/v1/games/{created['id']}/hands",
        json={
            "upcard": "2C",
            "knocker": {"seat": 0, "cards": "AS 2S 3S 4H 5H 6H 7D 8D 9D 3C"},
            "defender": {"cards": "TC JC QC KC 8H 8C 8S 5D 7S TH"},
        },
        headers={"X-Edit-Secret": created["edit_secret"]},
    )
    assert response.status_code == 422
    assert "2" in response.get_json()["errors"][0]["message"]


# -- printing ----------------------------------------------------------------------------


def test_the_printed_sheet_shows_each_upcard_and_the_doubling(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    # Ann gins on a spade upcard against 12: (12 + 25) × 2 = 74. Bob knocks 3 under a
    # 5♥ upcard (limit 5) against 9: 9 − 3 = 6, not doubled.
    assert hand(client, game, "7S", "gin", 0, None, 12).status_code == 302
    assert hand(client, game, "5H", "knock", 1, 3, 9).status_code == 302
    response = client.get(f"/g/{game}/sheet.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    lines = pdf_lines(response.data)
    assert lines[1].startswith("Oklahoma gin · rules: Oklahoma")
    assert lines[2].startswith("Target 150 · knock limit from the upcard")
    first = next(line for line in lines if line.startswith("1 "))
    second = next(line for line in lines if line.startswith("2 "))
    assert first.startswith("1 +74 74 ■ 0 gin ×2 ♠ · upcard 7♠"), first
    assert second.startswith("2 74 +6 6 ■ knock · upcard 5♥"), second
    assert "Σ 74 1 ■ 6 1 ■ Hand points and boxes" in lines


def test_the_blank_oklahoma_pad_prints_its_rules(client: FlaskClient) -> None:
    response = client.get(
        "/pads/pad.pdf?game=oklahoma&rows=12&preset=oklahoma&player1=Ann&player2=Bob"
    )
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    lines = pdf_lines(response.data)
    assert lines[0] == "Gin rummy · score pad · Oklahoma"
    assert lines[1].startswith("Target 150 · knock limit from the upcard · gin 25")
    assert "Players: Ann · Bob Date:" in lines
    numbers = [line for line in lines if line.isdigit()]
    assert numbers == [str(n) for n in range(1, 13)]  # the twelve rows asked for


def test_a_mistyped_upcard_is_refused_at_its_field_and_a_good_one_stored_plainly(
    client: FlaskClient,
) -> None:
    """The quick form's upcard used to be free text that only the engine read: a typo
    ("7X") was a 500 page, two cards ("7H 8H") were saved as the upcard, and "10♥" was
    stored as typed. It is read like the card form's upcard now."""
    game = new_oklahoma(client)
    typo = hand(client, game, "7X", k=3, d=20)
    assert typo.status_code == 422
    page = unescape(typo.get_data(as_text=True))
    assert "'7X' is not a card" in page and 'value="7X"' in page
    two = hand(client, game, "7H 8H", k=3, d=20)
    assert two.status_code == 422
    assert "The upcard is one card." in two.get_data(as_text=True)
    assert state(client, game)["hands"] == []
    assert hand(client, game, "10♥", k=3, d=20).status_code == 302
    assert state(client, game)["hands"][0]["inputs"]["upcard"] == "TH"
