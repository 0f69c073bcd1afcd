"""The dispute settler page ``/check``: one hand typed in, scored step by step."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.hands.fields import GinCardsForm
from scorekeeper.scoring.errors import HandError, Problem
from tests.examples import EXAMPLE_7, EXAMPLES

URL = "/check"



def check(client: FlaskClient, knocker: str, defender: str, preset: str = "classic",
          **extra: str) -> tuple[int, str]:
    data = {"preset": preset, "knocker_cards": knocker, "defender_cards": defender, **extra}
    response = client.post(URL, data=data)
    return response.status_code, html.unescape(response.get_data(as_text=True))


def field_block(page: str, name: str) -> str:
    """The ``.field`` block of one form field (its label, control, hint and errors)."""
    match = re.search(
        rf'<div class="field[^"]*">\s*<label for="{name}".*?</div>', page, re.DOTALL
    )
    assert match, f"no field {name}"
    return match.group(0)


def textarea_text(page: str, name: str) -> str:
    match = re.search(rf'<textarea[^>]*name="{name}"[^>]*>(.*?)</textarea>', page, re.DOTALL)
    assert match, f"no textarea {name}"
    return match.group(1).strip()


def test_empty_form(client: FlaskClient) -> None:
    response = client.get(URL)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Settle a dispute" in page
    for name in ("knocker_cards", "knocker_melds", "defender_cards", "defender_melds",
                 "layoffs", "upcard", "preset"):
        assert f'name="{name}"' in page
    assert "<script src=" in page and "picker.js" in page
    assert re.search(r"<div class=\"picker-box\" data-picker hidden>", page)
    assert page.count("data-card=") == 52
    assert "style=" not in page and "<script>" not in page  # the CSP forbids both


@pytest.mark.parametrize("preset", ["classic", "russian"])
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_rules_examples_on_the_page(client: FlaskClient, name: str, preset: str) -> None:
    knocker, defender, _outcome, winner, classic, russian = EXAMPLES[name]
    status, page = check(client, knocker, defender, preset)
    assert status == 200
    points = classic if preset == "classic" else russian
    who = "Knocker" if winner == "knocker" else "Defender"
    assert f"{who} scores {points}" in page
    assert '<ol class="explanation">' in page
    assert textarea_text(page, "knocker_cards") == knocker  # typed text kept


def test_example_7_shows_layoffs_onto_numbered_melds(client: FlaskClient) -> None:
    status, page = check(client, EXAMPLE_7[0], EXAMPLE_7[1])
    assert status == 200
    result = page[page.index('id="result"'):]
    # Melds are numbered 1..n in an ordered list; the spade run is shown first.
    text = re.sub(r"<[^>]+>|\s+", "", result)  # the words and cards without the markup
    assert "8♠9♠ontomeld1:5♠6♠7♠" in text, text
    assert "8♣7♣ontomeld2:9♣10♣J♣" in text
    assert "Defender scores 11" in result


def test_declared_melds_and_layoffs_with_page_numbering(client: FlaskClient) -> None:
    status, page = check(
        client, EXAMPLE_7[0], EXAMPLE_7[1],
        knocker_melds="KS KH KD\n5S 6S 7S\n9C TC JC", layoffs="8S>2 9♠ on 2",
        defender_melds="2S 2H 2D 2C",
    )
    assert status == 200
    assert "Knocker scores 14" in page  # 7♣ 8♣ kept: 24 − 10
    assert textarea_text(page, "layoffs") == "8S>2 9♠ on 2"


def test_melds_separated_by_semicolons_or_bars(client: FlaskClient) -> None:
    status, page = check(
        client, EXAMPLE_7[0], EXAMPLE_7[1], knocker_melds="KS KH KD; 5S 6S 7S | 9C TC JC",
        layoffs="8s>2, 9s>2, 8c>3, 7c>3", defender_melds="2s 2h 2d 2c",
    )
    assert status == 200
    assert "Defender scores 11" in page


def test_bad_card_is_shown_at_the_field_and_text_kept(client: FlaskClient) -> None:
    status, page = check(client, "KS KH KD 5S 6S 7S 9C TC JC ZZ", EXAMPLE_7[1])
    assert status == 200
    block = field_block(page, "knocker_cards")
    assert "'ZZ' is not a card" in block and 'class="error"' in block
    assert textarea_text(page, "knocker_cards") == "KS KH KD 5S 6S 7S 9C TC JC ZZ"
    assert textarea_text(page, "defender_cards") == EXAMPLE_7[1]
    assert 'id="result"' not in page


def test_card_in_both_hands_is_shown_at_the_defender(client: FlaskClient) -> None:
    status, page = check(client, EXAMPLE_7[0], EXAMPLE_7[1].replace("8D", "JD"))
    assert status == 200
    assert "J♦ is in both hands" in field_block(page, "defender_cards")
    assert 'id="result"' not in page


def test_knock_over_the_limit_is_shown_at_the_knocker(client: FlaskClient) -> None:
    status, page = check(client, "2S 3S 4S 7H 7D 7C 9D TD 5C KC", "KH KS AD 4H 5H 6H QS QH QC 5D")
    assert status == 200
    assert "a knock needs 10 or less" in field_block(page, "knocker_cards")


def test_wrong_layoff_is_shown_at_the_layoffs(client: FlaskClient) -> None:
    status, page = check(client, EXAMPLE_7[0], EXAMPLE_7[1],
                         knocker_melds="KS KH KD; 5S 6S 7S; 9C TC JC", layoffs="8S>1")
    assert status == 200
    assert "8♠" in field_block(page, "layoffs")


@pytest.mark.parametrize("layoffs", ["8S", "8S>x", "8S>0", "ZZ>2", ">2"])
def test_badly_written_layoffs(client: FlaskClient, layoffs: str) -> None:
    status, page = check(client, EXAMPLE_7[0], EXAMPLE_7[1], layoffs=layoffs)
    assert status == 200
    assert 'class="error"' in field_block(page, "layoffs")
    assert textarea_text(page, "layoffs") == layoffs


def test_bad_meld_card_names_the_meld(client: FlaskClient) -> None:
    status, page = check(client, EXAMPLE_7[0], EXAMPLE_7[1], knocker_melds="KS KH KD; 5S 6S XX")
    assert status == 200
    assert "Meld 2: 'XX' is not a card" in field_block(page, "knocker_melds")


def test_missing_hand_and_huge_text(client: FlaskClient) -> None:
    status, page = check(client, "", "AS " * 1000)
    assert status == 200
    assert "Enter the knocker's cards." in field_block(page, "knocker_cards")
    assert "too long" in field_block(page, "defender_cards")


def test_rule_overrides(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["4 knock 6 vs 6"]
    _, page = check(client, knocker, defender, tie_is_undercut="no")
    assert "Nobody scores" in page
    _, page = check(client, knocker, defender, undercut_bonus="15")
    assert "Defender scores 15" in page
    _, page = check(client, knocker, defender, knock_limit="5")
    assert "a knock needs 5 or less" in field_block(page, "knocker_cards")


def test_bad_override_is_shown_at_its_field(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["4 knock 6 vs 6"]
    status, page = check(client, knocker, defender, knock_limit="11", gin_bonus="lots")
    assert status == 200
    assert 'class="error"' in field_block(page, "knock_limit")
    assert 'class="error"' in field_block(page, "gin_bonus")
    assert "<details class=\"overrides\" open>" in page


def test_oklahoma_upcard(client: FlaskClient) -> None:
    knocker, defender, *_ = EXAMPLES["1 knock 5 vs 9"]  # knocks with 5
    _, page = check(client, knocker, defender, "oklahoma", upcard="3H")
    assert "a knock needs 3 or less" in field_block(page, "knocker_cards")
    _, page = check(client, knocker, defender, "oklahoma", upcard="8♠")
    assert "Knocker scores 8" in page  # 4, doubled by the spade upcard
    _, page = check(client, knocker, defender, "oklahoma", upcard="8H 9H")
    assert "The upcard is one card." in field_block(page, "upcard")


def test_unknown_preset_is_refused(client: FlaskClient) -> None:
    status, page = check(client, EXAMPLE_7[0], EXAMPLE_7[1], "bogus")
    assert status == 200
    assert "Not a valid choice" in field_block(page, "preset")


def test_csrf_is_enforced(make_app: Any) -> None:
    app: Flask = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get(URL).get_data(as_text=True)
    data = {"preset": "classic", "knocker_cards": EXAMPLE_7[0], "defender_cards": EXAMPLE_7[1]}
    refused = client.post(URL, data=data)
    assert refused.status_code == 400
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, page
    accepted = client.post(URL, data={**data, "csrf_token": token.group(1)})
    assert accepted.status_code == 200
    assert "Defender scores 11" in accepted.get_data(as_text=True)


def test_show_problems_puts_each_problem_at_its_field(app: Flask) -> None:
    with app.test_request_context(method="POST", data={}):
        form = GinCardsForm()
        form.validate()
        form.show_problems(HandError([
            Problem("defender.layoffs", "no such meld"),
            Problem("knocker.melds[1]", "not a run"),
            Problem("upcard", "not the upcard"),
            Problem("somewhere", "elsewhere"),
        ]))
        assert "no such meld" in form.layoffs.errors
        assert "not a run" in form.knocker_melds.errors
        assert "not the upcard" in form.upcard.errors
        assert form.form_errors == ["elsewhere"]


def test_engine_kwargs(app: Flask) -> None:
    data = {"knocker_cards": EXAMPLE_7[0], "defender_cards": EXAMPLE_7[1],
            "knocker_melds": "KS KH KD | 5S 6S 7S", "layoffs": "8s > 2", "upcard": "10♦"}
    with app.test_request_context(method="POST", data=data):
        form = GinCardsForm()
        assert form.validate(), form.errors
        kwargs = form.engine_kwargs()
        assert [str(c) for c in kwargs["knocker_cards"]][:3] == ["KS", "KH", "KD"]
        assert [[str(c) for c in m] for m in kwargs["knocker_melds"]] == [
            ["KS", "KH", "KD"], ["5S", "6S", "7S"]]
        assert kwargs["defender_melds"] is None
        assert [(str(lo.card), lo.meld) for lo in kwargs["layoffs"]] == [("8S", 1)]
        assert str(kwargs["upcard"]) == "TD"
