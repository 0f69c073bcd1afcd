"""Money at the table: a stake goes with a real currency (ISO 4217), offered in the
group's or the reader's currency, and a payment says what is wrong with its amount."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask.testing import FlaskClient
from helpers import errors_at, value_of


def new_game(client: FlaskClient, **money: str) -> Any:
    return client.post("/games/new", data={
        "variant": "gin", "player1": "Ann", "player2": "Bob", "dealer": "0", **money})


def test_a_stake_without_a_currency_is_refused_at_the_currency(client: FlaskClient) -> None:
    page = new_game(client, stake="0.05", currency="")
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert errors_at(html, "currency") == [
        "A stake needs its currency: a code of three letters, like EUR."]
    assert value_of(html, "stake") == "0.05"


def test_a_made_up_currency_is_refused(client: FlaskClient) -> None:
    page = new_game(client, stake="0.05", currency="ZZZ")
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert errors_at(html, "currency") == ["ZZZ is not a currency code (ISO 4217), like EUR."]
    assert value_of(html, "currency") == "ZZZ"


def test_a_real_currency_is_taken_in_any_case(client: FlaskClient) -> None:
    page = new_game(client, stake="0.05", currency="jpy")
    assert page.status_code == 302
    game_id = page.headers["Location"].split("/g/")[1].split("/")[0].split("?")[0]
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert (game["stake"], game["currency"]) == ("0.05", "JPY")


def test_the_form_offers_the_readers_currency_first(client: FlaskClient) -> None:
    page = client.get("/games/new", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert value_of(page.get_data(as_text=True), "currency") == "RUB"
    page = client.get("/games/new", headers={"Accept-Language": "en-GB"})
    assert value_of(page.get_data(as_text=True), "currency") == "GBP"
    page = client.get("/games/new", headers={"Accept-Language": "fa"})
    assert value_of(page.get_data(as_text=True), "currency") == "IRR"


def test_the_form_offers_the_groups_currency_first(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={
        "name": "Friday", "players": ["Ann", "Bob"], "stake": "1", "currency": "JPY"}).get_json()
    client.get(group["edit_url"])
    page = client.get(f"/games/new?group={group['id']}",
                      headers={"Accept-Language": "ru-RU"})
    assert value_of(page.get_data(as_text=True), "currency") == "JPY"


def test_the_api_refuses_a_stake_without_a_currency(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={
        "variant": "gin", "players": ["Ann", "Bob"], "stake": "0.05"})
    assert game.status_code == 422
    assert game.get_json() == {"errors": [
        {"where": "currency", "message": "a stake needs its currency, like EUR"}]}
    group = client.post("/api/v1/groups", json={
        "name": "Friday", "players": ["Ann", "Bob"], "stake": "0.05", "currency": "ZZZ"})
    assert group.status_code == 422
    assert group.get_json() == {"errors": [
        {"where": "currency", "message": "ZZZ is not a currency code (ISO 4217), like EUR"}]}


def payment(client: FlaskClient, amount: str, paid_on: date) -> str:
    group = client.post("/api/v1/groups", json={
        "name": "Friday", "players": ["Ann", "Bob"], "stake": "0.01", "currency": "EUR"})
    body = group.get_json()
    client.get(body["edit_url"])
    page = client.post(f"/groups/{body['id']}/payments", data={
        "payment-payer": "Ann", "payment-payee": "Bob", "payment-amount": amount,
        "payment-paid_on": paid_on.isoformat()})
    assert page.status_code == 422
    return page.get_data(as_text=True)


def test_a_payment_in_thousandths_of_a_euro_says_so(client: FlaskClient) -> None:
    html = payment(client, "0.001", date.today())
    assert errors_at(html, "payment-amount") == [
        "Too many decimals: EUR has 2 after the point."]


def test_a_payment_too_large_names_the_limit(client: FlaskClient) -> None:
    html = payment(client, "99999999999999999999", date.today())
    assert errors_at(html, "payment-amount") == ["An amount is at most 1000000."]


def test_a_payment_dated_in_the_future_is_refused(client: FlaskClient) -> None:
    html = payment(client, "2.50", date.today() + timedelta(days=2))
    assert errors_at(html, "payment-paid_on") == ["A payment is dated today or before."]
