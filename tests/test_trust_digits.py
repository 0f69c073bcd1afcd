"""A number typed with a Persian, Arabic or Devanagari keyboard is the number it reads
as: a PIN typed ۱۲۳۴ opens a game whose PIN is 1234, deadwood ۱۲ is 12, a stake ۰٫۵ is
0.5, an amount ٢٫٥٠ is 2.50, a Remi deal's plus ۳۵ is 35; a refused form shows the
digits back as they were typed."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import (
    new_game,
    new_remi,
    post_remi_quick,
    quick,
    remi_quick_form,
    state,
    value_of,
)


def test_a_pin_typed_in_persian_digits_opens_the_game(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, pin="۱۲۳۴")
    phone = app.test_client()
    assert phone.post(f"/g/{game}/unlock", data={"pin": "١٢٣٥"}).status_code == 422
    assert phone.post(f"/g/{game}/unlock", data={"pin": "1234"}).status_code == 302
    other = app.test_client()
    assert other.post(f"/g/{game}/unlock", data={"pin": "۱۲۳۴"}).status_code == 302
    # Now the other phone may enter a hand: Ann knocks 3 against 12 (classic): 9.
    assert quick(other, game, "knock", 0, 3, 12).status_code == 302
    assert state(other, game)["totals"] == [9, 0]


def test_deadwood_and_a_stake_in_other_scripts(client: FlaskClient) -> None:
    game = new_game(client, stake="۰٫۵", currency="EUR")
    # Bob knocks with ४ (Devanagari 4) against ۱۲ (Persian 12): 8 points to Bob.
    assert quick(client, game, "knock", 1, "४", "۱۲").status_code == 302  # type: ignore[arg-type]
    seen = client.get(f"/api/v1/games/{game}").get_json()
    assert seen["totals"] == [0, 8]
    assert seen["stake"] == "0.5"


def test_a_refused_number_is_shown_back_as_typed(client: FlaskClient) -> None:
    game = new_game(client)
    # A knock needs 10 or less (classic): ۱۴ is 14, refused at its field.
    response = quick(client, game, "knock", 0, "۱۴", "۲۰")  # type: ignore[arg-type]
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert value_of(page, "knocker_deadwood") == "۱۴"
    block = re.search(
        r'<div class="field has-error"[^>]*>\s*<label for="knocker_deadwood".*?</div>', page, re.S)
    assert block is not None
    assert "10 or less" in block.group(0)


def test_a_payment_typed_in_arabic_digits(client: FlaskClient) -> None:
    made = client.post("/groups/new", data={"name": "Club", "players": "Ann\nBob",
                                            "currency": "EUR"})
    assert made.status_code == 302, made.get_data(as_text=True)
    group = made.headers["Location"].rsplit("/", 1)[1]
    paid = client.post(f"/groups/{group}/payments", data={
        "payment-payer": "Ann", "payment-payee": "Bob", "payment-amount": "٢٫٥٠",
        "payment-paid_on": "2026-01-02"})
    assert paid.status_code == 302, paid.get_data(as_text=True)
    (payment,) = client.get(f"/api/v1/groups/{group}").get_json()["payments"]
    assert payment["amount"] == "2.50"


def test_a_remi_deal_in_persian_digits(client: FlaskClient) -> None:
    game = new_remi(client, ("Ann", "Bob"))
    data = remi_quick_form([(0, 0), (0, 0)])
    data.update({"players-0-plus": "۳۵", "players-1-minus": "۲۰"})
    response = post_remi_quick(client, game, data)
    assert response.status_code == 302, response.get_data(as_text=True)
    assert state(client, game)["totals"] == [35, -20]
