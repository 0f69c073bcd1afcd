"""A slip is caught before it counts: a hand that repeats the one just saved is saved
only once the player says so, on the page (the form comes back with the question and
a button, keeping what was typed) and in the API (409 unless ``X-Confirm: repeat``);
restoring a hand into a place other hands hold now says which move, and asks."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.hands.repeat import same_hand
from scorekeeper.models import Change, Hand, now_utc
from tests.examples import SECTION_8
from tests.helpers import (
    enter_partnership,
    new_game,
    new_hollywood,
    new_oklahoma,
    new_partnership,
    new_remi,
    new_three_hand,
    partnership_form,
    post_remi_cards,
    post_remi_quick,
    quick,
    quick_three_hand,
    remi_quick_form,
    state,
    value_of,
    version_of,
)

QUESTION = "Same as {what} {number} — save it again?"


@pytest.fixture
def app(make_app: Any) -> Flask:
    """The app as it runs: a repeat within a minute is asked about."""
    application: Flask = make_app(REPEAT_WINDOW=timedelta(minutes=1))
    return application


def hands_of(client: FlaskClient, game: str) -> int:
    return len(state(client, game)["hands"])


def asked(page: str) -> list[str]:
    """The repeat questions on the page, as the eye reads them."""
    return [html.unescape(q) for q in
            re.findall(r'class="error-summary repeat-question".*?<p class="error">(.*?)</p>',
                       page, re.S)]


def saved_long_ago(app: Flask, game: str) -> None:
    """Make the game's hands as if saved two minutes ago."""
    with app.extensions["scorekeeper.db"]() as db:
        for hand in db.scalars(select(Hand).where(Hand.game_id == game)):
            hand.updated_at = now_utc() - timedelta(minutes=2)
        db.commit()


# --- what repeats, per kind ----------------------------------------------------------


KNOCK = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 12, "upcard": None}
CARDS = {"mode": "cards", "knocker": 0, "knocker_cards": ["KS", "KH", "KD", "5S"],
         "knocker_melds": None, "defender_cards": ["8S", "9S"], "defender_melds": None,
         "layoffs": None, "upcard": None}
REMI = {"mode": "quick", "went_out": 1, "players": [
    {"plus": 0, "minus": 30, "discard_value": None},
    {"plus": 25, "minus": 0, "discard_value": 5}]}
REMI_CARDS = {"mode": "cards", "went_out": None, "players": [
    {"table": [["2H", "3H", "4H"], ["7S", "7D", "7C"]], "hand": ["KD", "QS"],
     "final_discard": None},
    {"table": [], "hand": ["AS", "5D"], "final_discard": None}]}


@pytest.mark.parametrize(("first", "second", "repeats"), [
    (KNOCK, dict(KNOCK), True),
    (KNOCK, {**KNOCK, "knocker": 1}, False),
    (KNOCK, {**KNOCK, "knocker_deadwood": 4}, False),
    (KNOCK, {**KNOCK, "outcome": "gin", "knocker_deadwood": 0}, False),
    (KNOCK, {**KNOCK, "upcard": "7S"}, False),  # Oklahoma: another deal's upcard
    ({**KNOCK, "upcard": "7S"}, {**KNOCK, "upcard": "7S"}, True),
    ({"mode": "quick", "outcome": "dead", "knocker": None, "knocker_deadwood": None,
      "defender_deadwood": None, "upcard": None},
     {"mode": "quick", "outcome": "dead", "knocker": None, "knocker_deadwood": None,
      "defender_deadwood": None, "upcard": None}, True),
    (CARDS, {**CARDS, "knocker_cards": ["5S", "KD", "KH", "KS"]}, True),  # any order
    (CARDS, {**CARDS, "knocker_cards": ["KS", "KH", "KD", "6S"]}, False),
    (CARDS, {**CARDS, "knocker": 1}, False),
    (CARDS, KNOCK, False),  # by totals never repeats by cards
    ({"mode": "deal", "tables": [KNOCK, CARDS]}, {"mode": "deal", "tables": [KNOCK, CARDS]},
     True),
    ({"mode": "deal", "tables": [KNOCK, CARDS]},
     {"mode": "deal", "tables": [KNOCK, {**CARDS, "knocker": 1}]}, False),
    (REMI, {**REMI}, True),
    (REMI, {**REMI, "went_out": 0}, False),
    (REMI, {**REMI, "players": [REMI["players"][0],
                                {"plus": 25, "minus": 0, "discard_value": 6}]}, False),
    (REMI_CARDS, {**REMI_CARDS, "players": [
        {"table": [["7D", "7S", "7C"], ["2H", "3H", "4H"]], "hand": ["QS", "KD"],
         "final_discard": None}, REMI_CARDS["players"][1]]}, True),
    (REMI_CARDS, {**REMI_CARDS, "players": [
        REMI_CARDS["players"][0], {"table": [], "hand": ["AS", "6D"],
                                   "final_discard": None}]}, False),
])
def test_what_repeats(first: dict[str, Any], second: dict[str, Any], repeats: bool) -> None:
    assert same_hand(first, second) is repeats
    assert same_hand(second, first) is repeats


# --- on the page ---------------------------------------------------------------------


def test_a_gin_hand_twice_is_asked_about_and_keeps_what_was_typed(
        app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    assert quick(client, game, "knock", 0, 3, 12).status_code == 302
    again = quick(client, game, "knock", 0, 3, 12, token="t2")
    page = again.get_data(as_text=True)
    assert again.status_code == 409
    assert asked(page) == [QUESTION.format(what="hand", number=1)]
    assert '<button type="submit" name="confirm" value="repeat">Save it again</button>' in page
    assert value_of(page, "knocker_deadwood") == "3"
    assert value_of(page, "defender_deadwood") == "12"
    assert '<input checked id="knocker-0" name="knocker" type="radio" value="0">' in page
    assert hands_of(client, game) == 1
    confirmed = quick(client, game, "knock", 0, 3, 12, token="t2", confirm="repeat")
    assert confirmed.status_code == 302
    assert [h["inputs"]["knocker_deadwood"] for h in state(client, game)["hands"]] == [3, 3]
    with app.extensions["scorekeeper.db"]() as db:
        actions = db.scalars(select(Change.action).where(Change.game_id == game)).all()
    assert actions == ["create", "add", "add"]


def test_another_hand_or_one_a_minute_later_is_not_asked_about(
        app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    assert quick(client, game, "knock", 0, 3, 12).status_code == 302
    assert quick(client, game, "knock", 0, 3, 13).status_code == 302
    saved_long_ago(app, game)
    assert quick(client, game, "knock", 0, 3, 13).status_code == 302
    assert hands_of(client, game) == 3


def test_the_same_form_sent_again_is_answered_not_asked(client: FlaskClient) -> None:
    """The form that saved hand 1, sent again (its answer was lost), names hand 1."""
    game = new_game(client)
    version = version_of(client, game)
    form = {"outcome": "knock", "knocker": "0", "knocker_deadwood": "3",
            "defender_deadwood": "12", "version": str(version), "token": "once"}
    assert client.post(f"/g/{game}/hands", data=form).status_code == 302
    again = client.post(f"/g/{game}/hands", data=form)
    assert (again.status_code, again.headers["Location"]) == (302, f"/g/{game}#hand-1")
    assert hands_of(client, game) == 1


def test_an_oklahoma_hand_with_another_upcard_is_another_deal(client: FlaskClient) -> None:
    game = new_oklahoma(client)
    assert quick(client, game, "knock", 0, 3, 12, upcard="9H").status_code == 302
    assert quick(client, game, "knock", 0, 3, 12, upcard="8H").status_code == 302
    again = quick(client, game, "knock", 0, 3, 12, upcard="8H")
    assert again.status_code == 409
    assert asked(again.get_data(as_text=True)) == [QUESTION.format(what="hand", number=2)]


def test_hollywood_and_three_hand_ask_too(client: FlaskClient) -> None:
    hollywood = new_hollywood(client)
    assert quick(client, hollywood, "gin", 1, 0, 20).status_code == 302
    again = quick(client, hollywood, "gin", 1, 0, 20)
    assert asked(again.get_data(as_text=True)) == [QUESTION.format(what="hand", number=1)]
    three = new_three_hand(client)
    assert quick_three_hand(client, three, "knock", 1, 4, 20).status_code == 302
    again = quick_three_hand(client, three, "knock", 1, 4, 20)
    assert again.status_code == 409
    assert asked(again.get_data(as_text=True)) == [QUESTION.format(what="hand", number=1)]
    assert quick_three_hand(client, three, "knock", 0, 4, 20).status_code == 302


def test_a_partnership_deal_twice_is_asked_about(client: FlaskClient) -> None:
    game = new_partnership(client)
    deal = (("knock", 0, 3, 12), ("gin", 1, 0, 20))
    assert enter_partnership(client, game, deal).status_code == 302
    again = enter_partnership(client, game, deal)
    assert again.status_code == 409
    assert asked(again.get_data(as_text=True)) == [QUESTION.format(what="deal", number=1)]
    form = {**partnership_form(client, game, deal), "confirm": "repeat"}
    assert client.post(f"/g/{game}/hands", data=form).status_code == 302
    assert enter_partnership(client, game, (("knock", 0, 3, 12), ("gin", 0, 0, 20))
                             ).status_code == 302
    assert hands_of(client, game) == 3


def test_a_remi_deal_twice_is_asked_about(client: FlaskClient) -> None:
    game = new_remi(client, players=("Ann", "Bob"))
    deal = remi_quick_form([(0, 30), (25, 0)], went_out=1, discard=5)
    assert post_remi_quick(client, game, deal).status_code == 302
    again = post_remi_quick(client, game, deal)
    assert again.status_code == 409
    assert asked(again.get_data(as_text=True)) == [QUESTION.format(what="deal", number=1)]
    assert post_remi_quick(client, game, {**deal, "confirm": "repeat"}).status_code == 302
    assert hands_of(client, game) == 2


def test_the_card_pages_ask_too(client: FlaskClient) -> None:
    game = new_game(client)
    form = {"knocker": "0", "knocker_cards": "KS KH KD 5S 6S 7S 9C TC JC JD",
            "defender_cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"}
    first = client.post(f"/g/{game}/hands/new", data={**form, "version": "0", "token": "c1"})
    assert first.status_code == 302, first.get_data(as_text=True)
    again = client.post(f"/g/{game}/hands/new", data={**form, "version": "1", "token": "c2"})
    page = again.get_data(as_text=True)
    assert again.status_code == 409
    assert asked(page) == [QUESTION.format(what="hand", number=1)]
    assert "KS KH KD 5S 6S 7S 9C TC JC JD" in page
    confirmed = client.post(f"/g/{game}/hands/new",
                            data={**form, "version": "1", "token": "c2", "confirm": "repeat"})
    assert confirmed.status_code == 302
    remi = new_remi(client)
    assert post_remi_cards(client, remi, SECTION_8).status_code == 302
    again = post_remi_cards(client, remi, SECTION_8)
    assert again.status_code == 409
    assert asked(again.get_data(as_text=True)) == [QUESTION.format(what="deal", number=1)]


# --- in the API ----------------------------------------------------------------------


def test_the_api_refuses_a_repeat_unless_confirmed(client: FlaskClient) -> None:
    made = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    url = f"/api/v1/games/{made['id']}/hands"
    hand = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 12}
    secret = {"X-Edit-Secret": made["edit_secret"]}
    first = client.post(url, json=hand, headers={**secret, "Idempotency-Key": "a"})
    assert first.status_code == 201
    # A retry of that request is a retry, not a repeat.
    assert client.post(url, json=hand, headers={**secret, "Idempotency-Key": "a"}
                       ).status_code == 200
    refused = client.post(url, json=hand, headers={**secret, "Idempotency-Key": "b"})
    assert refused.status_code == 409
    assert refused.get_json() == {"errors": [{
        "where": "hand",
        "message": "the same as hand 1, saved less than a minute ago: nothing was saved. "
                   "To save it all the same, send it again with the header X-Confirm: repeat",
    }]}
    assert hands_of(client, made["id"]) == 1
    confirmed = client.post(url, json=hand,
                            headers={**secret, "Idempotency-Key": "b", "X-Confirm": "repeat"})
    assert (confirmed.status_code, confirmed.get_json()["hand"]) == (201, 2)
    assert confirmed.get_json()["totals"] == [18, 0]


def test_the_openapi_document_says_how_to_confirm(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    parameters = document["paths"]["/games/{game_id}/hands"]["post"]["parameters"]
    confirm = [p for p in parameters if p["name"] == "X-Confirm"]
    assert len(confirm) == 1
    assert confirm[0]["in"] == "header"
    assert confirm[0]["schema"] == {"type": "string", "enum": ["repeat"]}


# --- restoring into a taken place ----------------------------------------------------


def restore_form(client: FlaskClient, game: str) -> tuple[str, str]:
    """The newest Restore form of the game's history: its action and version."""
    page = client.get(f"/g/{game}/history").get_data(as_text=True)
    found = re.search(r'<form method="post" class="restore" action="([^"]+)">.*?'
                      r'name="version" value="(\d+)"', page, re.S)
    assert found, page
    return found.group(1), found.group(2)


def test_restoring_into_a_taken_place_says_what_moves_and_asks(client: FlaskClient) -> None:
    game = new_game(client)
    for k, d in ((3, 12), (2, 20), (5, 9), (1, 30)):
        assert quick(client, game, "knock", 0, k, d).status_code == 302
    version = version_of(client, game)
    deleted = client.post(f"/g/{game}/hands/2/delete", data={"version": str(version)})
    assert deleted.status_code == 302
    action, version_text = restore_form(client, game)
    asking = client.post(action, data={"version": version_text})
    page = html.unescape(asking.get_data(as_text=True))
    assert asking.status_code == 409
    assert ("Hand 2 comes back as number 2, where others stand now: those numbered 2 to 3 "
            "become 3 to 4.") in page
    assert hands_of(client, game) == 3  # nothing moved yet
    confirmed = client.post(action, data={"version": version_text, "confirm": "move"})
    assert (confirmed.status_code, confirmed.headers["Location"]) == (302, f"/g/{game}#hand-2")
    assert [h["inputs"]["defender_deadwood"] for h in state(client, game)["hands"]] == [
        12, 20, 9, 30]


def test_one_hand_moving_is_said_in_the_singular(client: FlaskClient) -> None:
    game = new_game(client)
    for k, d in ((3, 12), (2, 20)):
        assert quick(client, game, "knock", 0, k, d).status_code == 302
    version = version_of(client, game)
    assert client.post(f"/g/{game}/hands/2/delete", data={"version": str(version)}
                       ).status_code == 302
    assert quick(client, game, "knock", 1, 4, 15).status_code == 302  # takes number 2
    action, version_text = restore_form(client, game)
    page = html.unescape(client.post(action, data={"version": version_text}).get_data(
        as_text=True))
    assert ("Hand 2 comes back as number 2, where another stands now: the one numbered 2 "
            "becomes number 3.") in page


def test_restoring_the_last_place_or_an_undone_hand_asks_nothing(client: FlaskClient) -> None:
    game = new_game(client)
    for k, d in ((3, 12), (2, 20)):
        assert quick(client, game, "knock", 0, k, d).status_code == 302
    assert client.post(f"/g/{game}/undo", data={"version": str(version_of(client, game))}
                       ).status_code == 302
    action, version_text = restore_form(client, game)
    assert client.post(action, data={"version": version_text}).status_code == 302
    version = version_of(client, game)
    assert client.post(f"/g/{game}/hands/2/delete", data={"version": str(version)}
                       ).status_code == 302
    action, version_text = restore_form(client, game)
    assert client.post(action, data={"version": version_text}).status_code == 302
    assert hands_of(client, game) == 2


def test_two_phones_entering_one_hand_are_asked_and_can_still_add_it(
        app: Flask, client: FlaskClient) -> None:
    """The second phone's form was drawn before the first saved: it is asked about the
    repeat (not told the sheet changed), and its "Save it again" adds the hand."""
    made = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    game = made["id"]
    first, second = app.test_client(), app.test_client()
    for phone in (first, second):
        assert phone.get(f"/g/{game}?key={made['edit_secret']}").status_code == 302
    drawn = version_of(client, game)
    form = {"outcome": "knock", "knocker": "0", "knocker_deadwood": "3",
            "defender_deadwood": "12", "version": str(drawn)}
    assert first.post(f"/g/{game}/hands", data={**form, "token": "a"}).status_code == 302
    asking = second.post(f"/g/{game}/hands", data={**form, "token": "b"})
    assert asking.status_code == 409
    page = asking.get_data(as_text=True)
    assert asked(page) == [QUESTION.format(what="hand", number=1)]
    assert value_of(page, "version") == str(drawn + 1)
    confirmed = second.post(f"/g/{game}/hands", data={**form, "token": "b",
                                                      "version": str(drawn + 1),
                                                      "confirm": "repeat"})
    assert confirmed.status_code == 302
    assert hands_of(client, game) == 2
