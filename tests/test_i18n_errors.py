"""The engine's error messages in the player's language, at the field they are about.

The engine raises ``Message`` strings: the English sentence, carrying its template and
values. Pages word them through the Persian and Russian catalogs (cards by their
symbols); the JSON API keeps answering the English sentence.
"""

from __future__ import annotations

import html
import pickle
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.i18n import render_message
from scorekeeper.scoring import CardError, HandError, RulesError, parse_cards, rules_from_spec
from scorekeeper.scoring.explain import Message, joined
from scorekeeper.scoring.remi_combinations import RemiError, combination_problem
from scorekeeper.scoring.rules import PRESETS
from scorekeeper.scoring.settle import score_quick_hand, settle_gin_hand
from tests.helpers import new_game

LRI, PDI = "\u2066", "\u2069"

# A classic hand: the knocker holds 7♥ (and knocks with 5), the defender 10 cards.
KNOCKER = "2S 3S 4S 7H 7D 7C 9D TD JD 5C"
DEFENDER = "KH KS KC 4H 5H 6H AD 2H 3C 3D"

REMI_DEAL = {
    "rules": "strict",
    "players-0-player_name": "A",
    "players-0-hand": "2♥ 3♥ 4♥ 5♥ K♣ K♦ K♠",
    "players-1-player_name": "B",
    "players-1-hand": "QC JD JC 6C 5C 4C 3C",
    "players-2-player_name": "C",
    "players-2-table": "7S 8S AS",  # aces are never in a sequence
    "players-2-hand": "9d 9c 9h",
    "went_out": "0",
    "final_discard": "AD",
}


def headers(lang: str | None) -> dict[str, str]:
    return {"Accept-Language": lang} if lang else {}


def field_block(page: str, name: str) -> str:
    """The ``.field`` block of one form field: label, control and its errors."""
    start = page.index(f'<label for="{name}"')
    return page[page.rindex('<div class="field', 0, start) : page.index("</div>", start)]


def check(client: FlaskClient, lang: str | None, **cards: str) -> str:
    data = {"preset": "classic", "knocker_cards": KNOCKER, "defender_cards": DEFENDER, **cards}
    response = client.post("/check", data=data, headers=headers(lang))
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def knock_over_the_limit(client: FlaskClient, lang: str | None) -> str:
    """A quick knock with 14 deadwood (classic limit 10) on a game sheet."""
    game = new_game(client)
    version = client.get(f"/api/v1/games/{game}").get_json()["version"]
    data = {
        "outcome": "knock",
        "knocker": "0",
        "knocker_deadwood": "14",
        "defender_deadwood": "20",
        "version": version,
    }
    response = client.post(f"/g/{game}/hands", data=data, headers=headers(lang))
    assert response.status_code == 422
    assert client.get(f"/api/v1/games/{game}").get_json()["hands"] == []
    return html.unescape(response.get_data(as_text=True))


def remi_check(client: FlaskClient, lang: str | None) -> str:
    response = client.post("/remi/check", data=REMI_DEAL, headers=headers(lang))
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


# --- the pages, in each language ---------------------------------------------------------

WORDS: dict[str | None, dict[str, str]] = {
    None: {
        "bad card": "'1X' is not a card",
        "in both hands": "7♥ is in both hands",
        "knock": "a knock needs 10 or less, this hand has 14",
        "remi": "aces are never in a sequence (7♠ 8♠ A♠)",
    },
    "fa": {
        "bad card": "'1X' کارت نیست",
        "in both hands": f"{LRI}7♥{PDI} در هر دو دست هست",
        "knock": "ضربه جفت‌نشدهٔ 10 یا کمتر می‌خواهد، این دست 14 دارد",
        "remi": f"آس هرگز در دنباله نمی‌آید ({LRI}7♠ 8♠ A♠{PDI})",
    },
    "ru": {
        "bad card": "'1X' — не карта",
        "in both hands": "7♥ есть в обеих руках",
        "knock": "для стука нужно 10 или меньше, а в этой руке 14",
        "remi": "тузы никогда не входят в стрит (7♠ 8♠ A♠)",
    },
}
LANGS = list(WORDS)


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_card_on_the_checker(client: FlaskClient, lang: str | None) -> None:
    page = check(client, lang, knocker_cards=KNOCKER.replace("5C", "1X"))
    block = field_block(page, "knocker_cards")
    assert "has-error" in block
    assert WORDS[lang]["bad card"] in block, block


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_in_both_hands(client: FlaskClient, lang: str | None) -> None:
    page = check(client, lang, defender_cards=DEFENDER.replace("KH", "7H"))
    assert WORDS[lang]["in both hands"] in field_block(page, "defender_cards")


@pytest.mark.parametrize("lang", LANGS)
def test_a_knock_over_the_limit_on_a_game_sheet(client: FlaskClient, lang: str | None) -> None:
    page = knock_over_the_limit(client, lang)
    block = field_block(page, "knocker_deadwood")
    assert WORDS[lang]["knock"] in block, block
    assert 'value="14"' in block  # what was typed comes back


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_remi_combination(client: FlaskClient, lang: str | None) -> None:
    page = remi_check(client, lang)
    assert WORDS[lang]["remi"] in field_block(page, "players-2-table")


def test_a_meld_problem_in_russian(client: FlaskClient) -> None:
    page = check(client, "ru", knocker_melds="QS KS AS")
    block = field_block(page, "knocker_melds")
    assert "Q♠ K♠ A♠ — не последовательность: туз бывает только младшим" in block, block


def test_a_layoff_of_a_card_not_held_in_persian(client: FlaskClient) -> None:
    page = check(client, "fa", layoffs="QS>1")
    block = field_block(page, "layoffs")
    assert f"{LRI}Q♠{PDI} در دست حریف نیست" in block, block
    assert "is not in" not in block


def test_no_english_engine_message_left_on_a_persian_page(client: FlaskClient) -> None:
    page = check(client, "fa", knocker_cards="2S 3S")
    assert "must hold" not in page
    assert "ضربه‌زننده باید 10 کارت داشته باشد (11 پیش از دورانداختن)، نه 2" in page


# --- the API stays English ----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fa", "ru"])
def test_the_api_answers_in_english(client: FlaskClient, lang: str) -> None:
    body = {
        "rules": "classic",
        "knocker": {"cards": KNOCKER.replace("5C", "1X")},
        "defender": {"cards": DEFENDER.replace("KH", "7H")},
    }
    response = client.post("/api/v1/gin/settle", json=body, headers=headers(lang))
    assert response.status_code == 422
    messages = {e["where"]: e["message"] for e in response.get_json()["errors"]}
    assert messages["knocker.cards"] == "'1X' is not a card"

    body = {
        "rules": "classic",
        "knocker": {"cards": KNOCKER},
        "defender": {"cards": DEFENDER.replace("KH", "7H")},
    }
    response = client.post("/api/v1/gin/settle", json=body, headers=headers(lang))
    messages = {e["where"]: e["message"] for e in response.get_json()["errors"]}
    assert messages["defender.cards"] == "7♥ is in both hands"

    players: list[dict[str, Any]] = [
        {"name": "A", "hand": "2♥ 3♥ 4♥ 5♥ K♣ K♦ K♠", "went_out": True, "final_discard": "A♦"},
        {"name": "C", "table": [["7S", "8S", "AS"]], "hand": "9D 9C 9H"},
    ]
    response = client.post(
        "/api/v1/remi/settle", json={"rules": "remi", "players": players}, headers=headers(lang)
    )
    assert response.status_code == 422
    found = [e["message"] for e in response.get_json()["errors"]]
    assert "aces are never in a sequence (7♠ 8♠ A♠)" in found, found


# --- the engine's structured messages ----------------------------------------------------


def test_messages_are_the_english_strings_with_their_steps() -> None:
    with pytest.raises(CardError) as card_error:
        parse_cards("7H 1X")
    assert card_error.value.problems == ["'1X' is not a card"]
    step = card_error.value.steps[0]
    assert step is not None and step.template == "{text} is not a card"

    with pytest.raises(HandError) as hand_error:
        score_quick_hand(PRESETS["classic"], "knock", 14, 20)
    problem = hand_error.value.problems[0]
    assert problem.message == "a knock needs 10 or less, this hand has 14"
    assert problem.step is not None and dict(problem.step.params) == {"limit": 10, "deadwood": 14}

    with pytest.raises(HandError) as both:
        settle_gin_hand(PRESETS["classic"], KNOCKER, DEFENDER.replace("KH", "7H"))
    card = [p.step for p in both.value.problems if p.step and "card" in p.step.params]
    assert card and str(card[0].params["card"]) == "7H"  # a Card, shown as a symbol

    with pytest.raises(RulesError) as rules_error:
        rules_from_spec({"preset": "classic", "target": "x", "colour": 1})
    assert [where for where, _ in rules_error.value.steps] == ["target", "colour"]
    assert all(step is not None for _, step in rules_error.value.steps)

    problem_text = combination_problem(parse_cards("QS KS AS"))
    assert problem_text == "aces are never in a sequence (Q♠ K♠ A♠)"
    error = RemiError([("players.0.table.0", problem_text)])
    assert error.steps[0][1] is not None


def test_a_message_survives_pickling_and_plain_strings_stay_plain() -> None:
    message = Message("{card} is in both hands", card=parse_cards("7H")[0])
    again = pickle.loads(pickle.dumps(message))
    assert again == message and again.step == message.step
    assert render_message("already worded") == "already worded"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (None, "only one player can go out; Ann and Bob and Cy are marked"),
        ("ru", "выйти может только один игрок; отмечены Ann и Bob и Cy"),
        ("fa", "\u2068\u2068\u2068Ann\u2069 و \u2068Bob\u2069\u2069 و \u2068Cy\u2069\u2069"),
    ],
)
def test_nested_messages_are_worded_too(app: Flask, lang: str | None, expected: str) -> None:
    message = Message(
        "only one player can go out; {players} are marked", players=joined(["Ann", "Bob", "Cy"])
    )
    with app.test_request_context("/", headers=headers(lang)):
        assert expected in render_message(message)
