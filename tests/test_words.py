"""Words a speaker would use: English says "they" of a player, Russian never makes a verb
agree with a player whose gender the app cannot know."""

from __future__ import annotations

import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from tests.helpers import compile_catalogs, new_game, new_partnership
from tests.helpers import start_night as start

CATALOGS = Path(__file__).resolve().parents[1] / "scorekeeper" / "translations"
ISOLATES = re.compile("[\u2066-\u2069]")


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> None:
    compile_catalogs()


@cache
def catalog(lang: str) -> Catalog:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po)


def texts(value: object) -> list[str]:
    return list(value) if isinstance(value, tuple) else [str(value)]


def seen(client: FlaskClient, url: str, lang: str) -> str:
    """What a reader sees of a page: no tags, entities decoded, no isolates."""
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == 200, url
    return ISOLATES.sub("", unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True))))


def test_no_english_message_calls_a_player_he_or_his() -> None:
    male = re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE)
    found = [text for message in catalog("ru") if message.id
             for text in texts(message.id) if male.search(text)]
    assert found == []


def test_the_rule_cards_say_their_of_a_player(client: FlaskClient) -> None:
    remi = seen(client, "/rules/remi", "en")
    assert "A player who can arrange all their cards but one shows them" in remi
    assert "They add 10 times the value of that discard." in remi
    classic = seen(client, "/rules/classic", "en")
    assert "a player may knock when their deadwood after the discard is 10 or less" in classic
    assert not re.search(r"\b(he|his|him)\b", remi + classic)


# A player's name in a Russian message, and a past-tense verb right after it
# ("Татьяна пришёл", "Ann постучал(а)"): the verb would guess the player's gender.
PLAYER = r"(\{(player|name|payer|box)\}|%\((player|name|payer|box)\)s)"
AGREEING = re.compile(PLAYER + r"\s+(\w+(л|ла|лся|лась)|\w+\(а\))(?!\w)")


def test_no_russian_verb_agrees_with_a_player() -> None:
    found = [text for message in catalog("ru") if message.id
             for text in texts(message.string) if AGREEING.search(text) or "(а)" in text]
    assert found == []
    # The check sees the sentences it is for.
    assert AGREEING.search("%(name)s пришёл с опозданием.")
    assert AGREEING.search("{player} постучал(а), сухостой {points}")
    assert not AGREEING.search("{player}: стук, сухостой {points}")


def test_a_late_arrival_in_the_russian_history_has_no_gender(client: FlaskClient) -> None:
    night_id = start(client)
    response = client.post(f"/n/{night_id}/arrive", data={"player": "Татьяна Волкова"})
    assert response.status_code == 302
    history = seen(client, f"/n/{night_id}/history", "ru")
    assert "Татьяна Волкова присоединяется к вечеру с опозданием." in history
    assert "пришёл" not in history
    english = seen(client, f"/n/{night_id}/history", "en")
    assert "Татьяна Волкова arrived late." in english


def test_a_payment_in_russian_names_payer_and_payee_without_a_verb(
    client: FlaskClient,
) -> None:
    response = client.post("/groups/new", data={
        "name": "Пятница", "players": "Татьяна Волкова\nБорис", "stake": "0.01",
        "currency": "EUR"})
    group_id = response.headers["Location"].rsplit("/", 1)[-1]
    response = client.post(f"/groups/{group_id}/payments", data={
        "payment-payer": "Татьяна Волкова", "payment-payee": "Борис",
        "payment-amount": "2.50", "payment-paid_on": "2026-12-01"})
    assert response.status_code == 302, response.get_data(as_text=True)
    page = seen(client, f"/groups/{group_id}", "ru")
    assert "Татьяна Волкова → Борис: 2,50" in page
    assert not re.search(r"Волкова\s+заплатил", page)  # "Кто заплатил" asks, it guesses nothing
    assert "Татьяна Волкова paid Борис" in seen(client, f"/groups/{group_id}", "en")


HINT_BIG_GIN = "10 cards (11 for big gin), e.g. 7H 8H 9H or 10♦ q♠"
HINT = "10 cards, e.g. 7H 8H 9H or 10♦ q♠"


@pytest.mark.parametrize(("preset", "hint"), [("classic", HINT), ("russian", HINT),
                                              ("modern", HINT_BIG_GIN)])
def test_the_card_hint_names_big_gin_only_where_it_is_played(
    client: FlaskClient, preset: str, hint: str
) -> None:
    game_id = new_game(client, preset)
    page = seen(client, f"/g/{game_id}/hands/new?mode=cards", "en")
    assert hint in page
    assert ("big gin" in page) == (preset == "modern")


def test_the_card_hint_of_partnership_and_of_the_checker(client: FlaskClient) -> None:
    partnership = seen(client, f"/g/{new_partnership(client)}/hands/new?mode=cards", "en")
    assert partnership.count(HINT) == 2 and HINT_BIG_GIN not in partnership  # two tables
    checker = seen(client, "/check", "en")  # the classic rules, chosen first
    assert HINT in checker and HINT_BIG_GIN not in checker
    modern = client.post("/check", data={"preset": "modern", "knocker_cards": "7H"},
                         headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert HINT_BIG_GIN in unescape(modern)
    russian = seen(client, f"/g/{new_game(client, 'classic')}/hands/new?mode=cards", "ru")
    assert "10 карт, например 7H 8H 9H или 10♦ q♠" in russian and "джин" not in russian
