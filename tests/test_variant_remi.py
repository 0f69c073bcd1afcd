"""Indonesian Remi games (RULES.md §7–§8): the pages (card and quick mode), the JSON API,
dealer rotation, the end of the game, corrections."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from helpers import (
    field_messages,
    new_remi,
    pdf_text,
    post_remi_cards,
    post_remi_quick,
    remi_card_form,
    remi_quick_form,
    remi_quick_scores,
    state,
    version_of,
)

from scorekeeper.variants.window import SHEET_PAGE, Window
from tests.examples import SECTION_8

FOUR = ("Ann", "Bob", "Cy", "Dee")


# --- helpers ---------------------------------------------------------------------------


def api_game(client: FlaskClient, players: tuple[str, ...] = FOUR, **body: Any) -> dict[str, Any]:
    """A Remi game started through the API."""
    response = client.post(
        "/api/v1/games", json={"variant": "remi", "players": list(players), **body}
    )
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def field_errors(page: str, field_id: str) -> list[str]:
    """The error messages shown in the field block of ``field_id``."""
    start = page.find(f'id="{field_id}"')
    assert start != -1, field_id
    block_start = max(page.rfind('<div class="field', 0, start), page.rfind("<fieldset", 0, start))
    end = page.find('<div class="field', start)
    end = min(x for x in (end, page.find("<fieldset", start), len(page)) if x != -1)
    return [
        html.unescape(m) for m in re.findall(r'class="error"[^>]*>([^<]*)<', page[block_start:end])
    ]


def text(page: str) -> str:
    """The page's text: tags dropped, entities decoded, names' invisible isolates
    (U+2068, U+2069) dropped, spaces collapsed."""
    seen = html.unescape(re.sub(r"<[^>]+>", "", page))
    return " ".join(seen.replace("\u2068", "").replace("\u2069", "").split())


def api_deal(
    client: FlaskClient, game: dict[str, Any], body: dict[str, Any], key: str | None = None
) -> Any:
    headers = {"X-Edit-Secret": game["edit_secret"]}
    if key:
        headers["Idempotency-Key"] = key
    return client.post(f"/api/v1/games/{game['id']}/hands", json=body, headers=headers)


def api_cards(deal: dict[str, Any]) -> dict[str, Any]:
    return {
        "went_out": deal["went_out"],
        "final_discard": deal.get("final_discard"),
        "players": [{"table": p["table"], "hand": p["hand"]} for p in deal["players"]],
    }


def with_player(deal: dict[str, Any], seat: int, **changes: Any) -> dict[str, Any]:
    players = [dict(p) for p in deal["players"]]
    players[seat].update(changes)
    return {**deal, "players": players}


# --- RULES.md §8 through the pages -------------------------------------------------------


def test_section_8_deal_with_cards(client: FlaskClient) -> None:
    game_id = new_remi(client)
    response = post_remi_cards(client, game_id, SECTION_8)
    assert response.status_code == 302, field_messages(response.get_data(as_text=True))
    data = state(client, game_id)
    assert data["totals"] == [200, -10, 15, -60]  # +200 closer, seed's −10, +15, strict −60
    deal = data["hands"][0]
    assert deal["scores"] == [200, -10, 15, -60]
    assert deal["dealer"] == 0 and deal["went_out"] == 0 and deal["mode"] == "cards"
    assert deal["players"][0]["closing_bonus"] == 150
    assert deal["players"][3]["void_sets"] == [["QS", "QH", "QD"]]
    assert data["next_dealer"] == 3  # Dee has the lowest total
    assert data["finished"] is False and data["target"] == 500

    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "+200" in sheet and "−10" in sheet and "−60" in sheet  # negative totals shown
    hand = client.get(f"/g/{game_id}/hands/1").get_data(as_text=True)
    assert "Ann went out discarding A♦: 10 × 15 = +150." in text(hand)
    assert "Dee has no sequence, so the set Q♠ Q♥ Q♦ does not count." in text(hand)
    assert "Dee has the lowest total, −60, and deals next." in text(hand)


def test_section_8_lenient(client: FlaskClient) -> None:
    game_id = new_remi(client, lenient="y")
    assert state(client, game_id)["rules"]["sets_need_sequence"] is False
    assert post_remi_cards(client, game_id, SECTION_8).status_code == 302
    assert state(client, game_id)["totals"] == [200, -10, 15, 0]
    assert "sets always count" in client.get(f"/g/{game_id}").get_data(as_text=True)


def test_seed_002_hand_two_players(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob"))
    deal = {
        "went_out": None,
        "players": [
            {"table": ["7S 8S 9S"], "hand": "2D 3D 4D KH"},
            {"table": [], "hand": "Q♣ J♦ J♣ 6♣ 5♣ 4♣ 3♣"},
        ],
    }
    assert post_remi_cards(client, game_id, deal).status_code == 302
    data = state(client, game_id)
    assert data["totals"] == [20, -10]
    assert data["next_dealer"] == 1


def test_two_player_game_shows_two_blocks(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob"))
    page = client.get(f"/g/{game_id}/hands/new").get_data(as_text=True)
    assert 'name="players-1-hand"' in page and 'name="players-2-hand"' not in page
    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert 'name="players-1-plus"' in sheet and 'name="players-2-plus"' not in sheet


# --- refused combinations, at the right field, typed text kept ------------------------


@pytest.mark.parametrize(
    ("combination", "message"),
    [
        ("AS 2S 3S", "aces are never in a sequence"),
        ("QS KS AS", "aces are never in a sequence"),
        ("10S JS QS", "numerals and pictures never mix"),
        ("9S 10S JS", "numerals and pictures never mix"),
    ],
)
def test_invalid_sequences_refused_at_the_players_table(
    client: FlaskClient, combination: str, message: str
) -> None:
    game_id = new_remi(client)
    deal = with_player(SECTION_8, 2, table=[combination], hand="9D 9C 9H")
    response = post_remi_cards(client, game_id, deal)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert any(message in e for e in field_errors(page, "players-2-table")), field_messages(page)
    assert not field_errors(page, "players-1-table")
    assert combination in page  # typed text kept
    assert state(client, game_id)["hands"] == []


def test_went_out_with_a_card_left_refused_at_hand(client: FlaskClient) -> None:
    game_id = new_remi(client)
    deal = with_player(SECTION_8, 0, hand="2H 3H 4H 5H KC KD 7S")
    deal = with_player(deal, 2, table=["8S 9S 10S"], hand="9D 9C 9H AS")
    response = post_remi_cards(client, game_id, deal)
    assert response.status_code == 422
    errors = field_errors(response.get_data(as_text=True), "players-0-hand")
    assert any("Ann went out" in e for e in errors)


def test_card_held_twice_and_missing_discard(client: FlaskClient) -> None:
    game_id = new_remi(client)
    deal = with_player({**SECTION_8, "final_discard": ""}, 1, hand="QC JD JC 6C 5C 4C 2H")
    response = post_remi_cards(client, game_id, deal)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert any("held by Ann and Bob" in e for e in field_errors(page, "players-1-hand"))
    assert any("name the final discard" in e for e in field_errors(page, "final_discard"))


def test_six_cards_refused_at_that_players_hand(client: FlaskClient) -> None:
    # 7 are dealt; a player left with 6 cannot be right (RULES §7).
    game_id = new_remi(client)
    deal = with_player(SECTION_8, 2, hand="9D 9C AS")
    response = post_remi_cards(client, game_id, deal)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_errors(page, "players-2-hand") == [
        "Cy holds at least 7 cards at the end of a deal (table and hand); cards entered: 6"
    ]
    assert "9D 9C AS" in page  # typed text kept
    data = {"version": str(version_of(client, game_id)), **remi_card_form(deal)}
    russian = client.post(
        f"/g/{game_id}/hands/new", data=data, headers={"Accept-Language": "ru"}
    ).get_data(as_text=True)
    assert field_errors(russian, "players-2-hand") == [
        "У Cy в конце раздачи не меньше 7 карт (на столе и в руке); введено карт: 6"
    ]
    assert state(client, game_id)["hands"] == []


def test_api_six_cards_refused_at_that_player(client: FlaskClient) -> None:
    game = api_game(client)
    body = with_player(api_cards(SECTION_8), 0, hand="2H 3H 4H KC KD KS")
    response = api_deal(client, game, body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "where": "players[0].hand",
            "message": "Ann went out, so they hold at least 7 cards besides the final "
            "discard (table and hand); cards entered: 6",
        }
    ]
    assert state(client, game["id"])["hands"] == []


def test_discard_without_anyone_going_out_refused(client: FlaskClient) -> None:
    game_id = new_remi(client)
    response = post_remi_cards(client, game_id, {**SECTION_8, "went_out": None})
    assert response.status_code == 422
    errors = field_errors(response.get_data(as_text=True), "final_discard")
    assert any("Only the player who went out" in e for e in errors)


def test_a_set_without_a_sequence_counts_nothing(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob"))
    deal = {
        "went_out": None,
        "players": [
            {"table": ["KS KH KD"], "hand": "2C 5D 9H AC"},  # set on the table, no sequence
            {"table": ["KC QC JC"], "hand": "2S 2H 2D 3S"},  # picture sequence: the 2s count
        ],
    }
    assert post_remi_cards(client, game_id, deal).status_code == 302
    data = state(client, game_id)
    assert data["totals"] == [-30 - 30, 30 + 15 - 5]
    assert data["hands"][0]["players"][0]["void_sets"] == [["KS", "KH", "KD"]]


# --- quick mode --------------------------------------------------------------------------


def test_quick_deal(client: FlaskClient) -> None:
    game_id = new_remi(client)
    data = remi_quick_form([(50, 0), (20, 30), (30, 15), (0, 60)], went_out=0, discard=15)
    response = post_remi_quick(client, game_id, data)
    assert response.status_code == 302
    game = state(client, game_id)
    assert game["totals"] == [200, -10, 15, -60]
    assert game["hands"][0]["inputs"] == {
        "mode": "quick",
        "went_out": 0,
        "players": [
            {"plus": 50, "minus": 0, "discard_value": 15},
            {"plus": 20, "minus": 30, "discard_value": None},
            {"plus": 30, "minus": 15, "discard_value": None},
            {"plus": 0, "minus": 60, "discard_value": None},
        ],
    }
    hand = text(client.get(f"/g/{game_id}/hands/1").get_data(as_text=True))
    assert "Went out: 10 × 15 = +150, 200 in all." in hand


def test_quick_errors_at_the_players_fields(client: FlaskClient) -> None:
    game_id = new_remi(client)
    data = remi_quick_form([(50, 5), (10, 30), (30, 15), (0, 60)], went_out=0)
    del data["players-2-plus"]
    data["players-3-minus"] = "abc"
    response = post_remi_quick(client, game_id, data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_errors(page, "players-2-plus") == []  # a blank plus is 0
    assert field_errors(page, "players-3-minus")
    assert field_errors(page, "discard_value-0") == ["Choose what the final discard was."]
    assert 'value="abc"' in page and 'value="10"' in page  # typed values kept
    # With those fixed, the engine's own checks land at the right player too.
    data = remi_quick_form([(50, 5), (10, 30), (30, 15), (0, 60)], went_out=0, discard=10)
    page = post_remi_quick(client, game_id, data).get_data(as_text=True)
    assert any("every card in a combination" in e for e in field_errors(page, "players-0-minus"))
    assert any("plus is 0 or 15+" in e for e in field_errors(page, "players-1-plus"))
    assert state(client, game_id)["hands"] == []


def test_quick_blanks_are_zero(client: FlaskClient) -> None:
    # The player who went out has no minus; a blank is 0.
    game_id = new_remi(client)
    data = remi_quick_form([(50, 0), (20, 30), (30, 15), (0, 60)], went_out=0, discard=15)
    del data["players-0-minus"], data["players-3-plus"]
    response = post_remi_quick(client, game_id, data)
    assert response.status_code == 302, field_messages(response.get_data(as_text=True))
    game = state(client, game_id)
    assert game["totals"] == [200, -10, 15, -60]
    assert [(p["plus"], p["minus"]) for p in game["hands"][0]["inputs"]["players"]] == [
        (50, 0),
        (20, 30),
        (30, 15),
        (0, 60),
    ]


def test_quick_one_mistake_one_message(client: FlaskClient) -> None:
    # Ann went out with 50 in combinations, typed into her minus: one message, there.
    game_id = new_remi(client)
    data = remi_quick_form([(0, 50), (20, 30), (30, 15), (0, 60)], went_out=0, discard=15)
    del data["players-0-plus"], data["players-3-plus"]
    page = post_remi_quick(client, game_id, data).get_data(as_text=True)
    assert field_messages(page) == ["a player who went out has every card in a combination"]
    assert field_errors(page, "players-0-minus") == field_messages(page)
    assert state(client, game_id)["hands"] == []


def test_quick_everything_blank_is_one_message(client: FlaskClient) -> None:
    game_id = new_remi(client)
    page = post_remi_quick(client, game_id, {"went_out": "none"}).get_data(as_text=True)
    assert field_messages(page) == ["Enter the players' plus and minus (a blank is 0)."]
    assert field_errors(page, "players-0-plus") == field_messages(page)
    assert state(client, game_id)["hands"] == []


def test_api_quick_plus_or_minus_left_out_is_zero(client: FlaskClient) -> None:
    game = api_game(client, ("Ann", "Bob"))
    body = {"went_out": 0, "discard_value": 5, "players": [{"plus": 35}, {"minus": 20}]}
    response = api_deal(client, game, body)
    assert response.status_code == 201, response.get_json()
    assert state(client, game["id"])["totals"] == [35 + 50, -20]


def test_quick_needs_who_went_out(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob"))
    data = remi_quick_form([(20, 0), (0, 20)])
    del data["went_out"]
    page = post_remi_quick(client, game_id, data).get_data(as_text=True)
    assert "Choose who went out, or that the stock ran out." in text(page)


def test_quick_discard_ignored_when_the_stock_ran_out(client: FlaskClient) -> None:
    # A radio once tapped cannot be cleared without JavaScript: the value is ignored.
    game_id = new_remi(client, ("Ann", "Bob"))
    response = post_remi_quick(client, game_id, remi_quick_form([(20, 0), (0, 20)], None, 5))
    assert response.status_code == 302
    data = state(client, game_id)
    assert data["totals"] == [20, -20] and data["hands"][0]["went_out"] is None
    assert data["hands"][0]["inputs"]["players"][0]["discard_value"] is None


# --- dealers, the end, corrections --------------------------------------------------------


def test_four_players_dealer_rotation_and_tie_rule(client: FlaskClient) -> None:
    game_id = new_remi(client)
    remi_quick_scores(client, game_id, 20, -10, -10, 0)  # Bob and Cy tie at −10: Bob is left of Ann
    remi_quick_scores(client, game_id, -30, 20, 20, -10)  # Ann and Dee tie at −10: Dee, after Bob
    remi_quick_scores(client, game_id, 0, 0, 0, 0)  # still tied; Dee dealt, so Ann (Dee last)
    remi_quick_scores(client, game_id, 0, 0, 0, -20)  # Dee alone is lowest
    data = state(client, game_id)
    assert [h["dealer"] for h in data["hands"]] == [0, 1, 3, 0]
    assert data["totals"] == [-10, 10, 10, -30]
    assert data["next_dealer"] == 3
    hand = text(client.get(f"/g/{game_id}/hands/2").get_data(as_text=True))
    assert "Ann, Dee tie for the lowest total, −10; Dee sits nearest the left of Bob" in hand
    sheet = text(client.get(f"/g/{game_id}").get_data(as_text=True))
    assert "Dee has the lowest total, −30, and deals next." in sheet


def test_first_dealer_chosen_at_creation(client: FlaskClient) -> None:
    game_id = new_remi(client, dealer=2)
    remi_quick_scores(client, game_id, 0, 0, 0, 0)
    data = state(client, game_id)
    assert data["hands"][0]["dealer"] == 2
    assert data["next_dealer"] == 3  # everyone at 0: the player left of Cy


def test_game_ends_at_the_target(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob", "Cy"), target="250")
    assert (
        post_remi_quick(
            client, game_id, remi_quick_form([(50, 0), (0, 20), (15, 0)], 0, 15)
        ).status_code
        == 302
    )
    assert state(client, game_id)["finished"] is False
    remi_quick_scores(client, game_id, 60, 0, 0, went_out=0)  # Ann 200 + 110
    data = state(client, game_id)
    assert data["totals"] == [310, -20, 15]
    assert data["finished"] is True and data["winners"] == [0] and data["next_dealer"] is None
    sheet = text(client.get(f"/g/{game_id}").get_data(as_text=True))
    assert "Ann wins with 310." in sheet and "Ann reached the target of 250." in sheet
    assert 'name="players-0-plus"' not in sheet  # no more deals
    refused = post_remi_quick(client, game_id, remi_quick_form([(15, 0), (0, 0), (0, 0)]))
    assert refused.status_code == 409
    assert len(state(client, game_id)["hands"]) == 2


def test_game_ends_after_n_deals_with_shared_win(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob"), deals="2")
    sheet = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "2 deals" in sheet and "Deals left" in sheet
    remi_quick_scores(client, game_id, 20, -20)
    assert state(client, game_id)["deals_left"] == 1
    remi_quick_scores(client, game_id, -20, 20)
    data = state(client, game_id)
    assert data["finished"] is True and data["winners"] == [0, 1] and data["totals"] == [0, 0]
    sheet = text(client.get(f"/g/{game_id}").get_data(as_text=True))
    assert "Ann, Bob share the win with 0." in sheet and "All 2 deals are played." in sheet


def test_correction_recomputes_everything_after(client: FlaskClient) -> None:
    game_id = new_remi(client)
    response = post_remi_quick(
        client, game_id, remi_quick_form([(50, 0), (20, 30), (30, 15), (0, 60)], 0, 5)
    )
    assert response.status_code == 302
    remi_quick_scores(client, game_id, 0, 0, 0, 0)
    assert state(client, game_id)["totals"] == [100, -10, 15, -60]
    # Deal 1 re-entered with its cards: Ann's discard was the A♦ (+150, not +50).
    response = post_remi_cards(client, game_id, SECTION_8, number=1)
    assert response.status_code == 302, field_messages(response.get_data(as_text=True))
    data = state(client, game_id)
    assert data["totals"] == [200, -10, 15, -60]
    assert [h["dealer"] for h in data["hands"]] == [0, 3]
    # The correction form of a card deal comes prefilled with its cards.
    page = client.get(f"/g/{game_id}/hands/1/edit").get_data(as_text=True)
    assert "2H 3H 4H 5H KC KD KS" in page and 'value="AD"' in page


def test_correction_that_ends_the_game_earlier(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob"), target="300")
    remi_quick_scores(client, game_id, 20, -20)
    remi_quick_scores(client, game_id, 20, -20)
    remi_quick_scores(client, game_id, 20, -20)
    edit = {
        "version": str(version_of(client, game_id)),
        **remi_quick_form([(30, 0), (0, 20)], 0, 15),
    }
    response = client.post(f"/g/{game_id}/hands/1/edit", data=edit)  # Ann +180
    assert response.status_code == 302
    data = state(client, game_id)  # 180, then 200 is short, then 220 ... still short of 300
    assert data["totals"] == [220, -60] and not data["finished"]
    edit = {
        "version": str(version_of(client, game_id)),
        **remi_quick_form([(50, 0), (0, 20)], 0, 15),
    }
    client.post(f"/g/{game_id}/hands/2/edit", data=edit)  # deal 2 now +200: 380, game over
    data = state(client, game_id)
    assert data["finished"] is True and data["totals"] == [380, -40]
    assert [h["after_end"] for h in data["hands"]] == [False, False, True]
    sheet = client.get(f"/g/{game_id}")
    assert sheet.status_code == 200 and "not counted" in sheet.get_data(as_text=True)
    assert client.get(f"/g/{game_id}/hands/3").status_code == 200


def test_rematch_lowest_total_deals_first(client: FlaskClient) -> None:
    game_id = new_remi(client, ("Ann", "Bob", "Cy"), deals="1")
    remi_quick_scores(client, game_id, 20, -20, -20)
    response = client.post(f"/g/{game_id}/rematch")
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    new = state(client, new_id)
    assert new["setup"] == {"dealer": 1} and new["variant"] == "remi"
    assert new["rules"]["deals"] == 1


def test_gin_preset_chosen_by_mistake_is_refused_at_the_field(client: FlaskClient) -> None:
    data = {"variant": "remi", "preset": "classic", "dealer": "0", "player1": "A", "player2": "B"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert "is not played with these rules" in response.get_data(as_text=True)


def test_the_usual_rules_of_remi_are_its_preset(client: FlaskClient) -> None:
    game_id = new_remi(client, preset="")
    assert state(client, game_id)["rules"]["target"] == 500


def test_five_players_refused(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/games", json={"variant": "remi", "players": ["A", "B", "C", "D", "E"]}
    )
    assert response.status_code == 422


# --- the JSON API ------------------------------------------------------------------------


def test_api_section_8_cards(client: FlaskClient) -> None:
    game = api_game(client)
    response = api_deal(client, game, api_cards(SECTION_8), key="deal-1")
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["totals"] == [200, -10, 15, -60] and body["hand"] == 1
    deal = state(client, game["id"])["hands"][0]
    assert deal["players"][2]["combinations"] == [
        ["7S", "8S", "9S"],
        ["9H", "9D", "9C"],
    ]
    again = api_deal(client, game, api_cards(SECTION_8), key="deal-1")
    assert again.status_code == 200 and again.get_json()["hand"] == 1
    assert len(state(client, game["id"])["hands"]) == 1


def test_api_lenient_and_quick(client: FlaskClient) -> None:
    game = api_game(client, rules={"preset": "remi", "sets_need_sequence": False, "deals": 2})
    assert api_deal(client, game, api_cards(SECTION_8)).get_json()["totals"] == [200, -10, 15, 0]
    quick = {
        "went_out": 1,
        "final_discard": "KH",
        "players": [
            {"plus": 0, "minus": 30},
            {"plus": 45, "minus": 0},
            {"plus": 15, "minus": 5},
            {"plus": 0, "minus": 0},
        ],
    }
    body = api_deal(client, game, quick).get_json()
    deal = state(client, game["id"])["hands"][1]
    assert deal["scores"] == [-30, 145, 10, 0]
    assert deal["inputs"]["players"][1]["discard_value"] == 10
    assert body["finished"] is True and body["winners"] == [0]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (with_player(api_cards(SECTION_8), 2, table=[["QS", "KS", "AS"]]), "players[2].table[0]"),
        (with_player(api_cards(SECTION_8), 1, hand="QC JD JC 6C 5C 4C ZZ"), "players[1].hand"),
        ({**api_cards(SECTION_8), "final_discard": None}, "final_discard"),
        ({**api_cards(SECTION_8), "went_out": 7}, "went_out"),
        ({**api_cards(SECTION_8), "players": api_cards(SECTION_8)["players"][:3]}, "players"),
        ({"went_out": None, "players": [{"plus": 10, "minus": 0}] * 4}, "players[0].plus"),
        ({"went_out": 0, "players": [{"plus": 20, "minus": 0}] * 4}, "discard_value"),
        ({"went_out": None, "players": [{"plus": "x", "minus": 0}] * 4}, "players[0].plus"),
        ({"mode": "other", "players": [{}] * 4}, "mode"),
    ],
)
def test_api_errors(client: FlaskClient, body: dict[str, Any], where: str) -> None:
    game = api_game(client)
    response = api_deal(client, game, body)
    assert response.status_code == 422
    assert where in [e["where"] for e in response.get_json()["errors"]], response.get_json()
    assert state(client, game["id"])["hands"] == []


# --- print ------------------------------------------------------------------------------


def render(app: Any, template: str, **context: Any) -> bytes:
    from scorekeeper.printing.render import render_pdf

    with app.test_request_context():
        data: bytes = render_pdf(template, paper="A4", **context)
    return data


def test_the_printed_sheet_holds_names_deal_scores_and_finals(
    app: Any, client: FlaskClient
) -> None:
    from scorekeeper.db import get_session
    from scorekeeper.models import Game
    from scorekeeper.variants import VARIANTS

    game_id = new_remi(client, ("Anastasia", "Bob", "Cy", "Dee"), deals="2")
    assert post_remi_cards(client, game_id, SECTION_8).status_code == 302
    remi_quick_scores(client, game_id, 20, 15, -5, 0, went_out=0)  # Ann +70
    variant = VARIANTS["remi"]
    with app.test_request_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        sheet = variant.sheet(game)
        window = Window.of(len(game.hands), None, size=SHEET_PAGE)
    text = pdf_text(render(app, variant.pdf_template, game=game, sheet=sheet, appendix=True,
                           window=window))
    for name in ("Anastasia", "Bob", "Cy", "Dee"):
        assert name in text
    assert "Indonesian Remi" in text and "2 deals" in text
    for points in ("+200", "−10", "+15", "−60", "+70"):
        assert points in text, points
    for final in ("270", "5", "10", "−60"):
        assert re.search(rf"(?<![\d+]){final}\b", text), final
    assert "Anastasia wins with 270." in text
    assert "Deals entered with cards" in text and "Final discard" in text


def test_the_blank_pad_has_four_columns_and_the_rows_asked_for(app: Any) -> None:
    import io

    from pypdf import PdfReader

    from scorekeeper.scoring import PRESETS
    from scorekeeper.variants import VARIANTS

    data = render(
        app,
        VARIANTS["remi"].pad_template,
        rules=PRESETS["remi"],
        preset_name="Remi",
        players=["Ann", "Bob", ""],
        rows=30,
    )
    text = pdf_text(data)
    assert "Indonesian Remi" in text and "Ann" in text and "Bob" in text
    assert "Target 500" in text and "30" in text and "Final" in text
    assert len(re.findall(r"\bTotal\b", text)) == 4
    assert len(PdfReader(io.BytesIO(data)).pages) == 1


def test_the_sheet_pdf_route_prints_remi(client: FlaskClient) -> None:
    game_id = new_remi(client)
    assert post_remi_cards(client, game_id, SECTION_8).status_code == 302
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 200
    assert "+200" in pdf_text(response.data)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"players": "x"},
        {"players": [1, 2, 3, 4]},
        {"went_out": True, "players": [{"plus": 0, "minus": 0}] * 4},
        {"went_out": "0", "players": [{"plus": 0, "minus": 0}] * 4},
        {"players": [{"table": "7S 8S 9S", "hand": []}] * 4},
        {"players": [{"table": [5], "hand": 7}] * 4},
        {"players": [{"table": [], "hand": []}] * 4},
        {"went_out": 0, "final_discard": ["AD"], "players": [{"hand": "2S"}] * 4},
        {"went_out": None, "discard_value": 5, "players": [{"plus": 0, "minus": 0}] * 4},
        {"went_out": 0, "discard_value": 7, "players": [{"plus": 15, "minus": 0}] * 4},
        {"players": [{"plus": 10**30, "minus": -5}] * 4},
    ],
)
def test_api_odd_bodies_are_refused_not_crashed(client: FlaskClient, body: dict[str, Any]) -> None:
    game = api_game(client)
    response = api_deal(client, game, body)
    assert response.status_code == 422, response.get_json()
    assert state(client, game["id"])["hands"] == []


@pytest.mark.parametrize(
    "data",
    [
        {"went_out": "9"},
        {"went_out": "abc", "discard_value": "7"},
        {"went_out": "0", "players-0-plus": "99999999999999999999", "players-0-minus": "-5"},
        {"went_out": "none", "players-9-plus": "5"},
    ],
)
def test_odd_quick_forms_are_refused_not_crashed(client: FlaskClient, data: dict[str, str]) -> None:
    game_id = new_remi(client, ("Ann", "Bob"))
    assert post_remi_quick(client, game_id, data).status_code == 422
    cards = {"went_out": data["went_out"], "players-0-table": "\n\n;", "players-0-hand": "ZZ"}
    assert post_cards_raw(client, game_id, cards).status_code == 422
    assert state(client, game_id)["hands"] == []


def post_cards_raw(client: FlaskClient, game_id: str, data: dict[str, str]) -> Any:
    return client.post(
        f"/g/{game_id}/hands/new", data={"version": str(version_of(client, game_id)), **data}
    )
