"""The group forms take a stake's currency with the same check as the new-game form
and the API: a code that is no currency (ISO 4217) is refused at the currency field,
with what was typed kept, and nothing is stored (SQLite and PostgreSQL)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from helpers import errors_at, value_of

ZZZ = "ZZZ is not a currency code (ISO 4217), like EUR."


def textarea_of(html: str, field_id: str) -> str:
    found = re.search(rf'<textarea[^>]*id="{field_id}"[^>]*>(.*?)</textarea>', html, re.S)
    assert found, field_id
    return found.group(1).strip()


def group(client: FlaskClient) -> str:
    created = client.post("/groups/new", data={
        "name": "Tuesdays", "players": "Ann\nBob", "stake": "0.01", "currency": "EUR"})
    assert created.status_code == 302
    return str(created.headers["Location"].rsplit("/", 1)[1])



@pytest.mark.parametrize("typed", ["ZZZ", "zzz"])
def test_a_new_group_refuses_a_made_up_currency(client: FlaskClient, typed: str) -> None:
    page = client.post("/groups/new", data={
        "name": "Tuesdays", "players": "Ann\nBob", "stake": "0.02", "currency": typed})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert errors_at(html, "currency") == [ZZZ]
    assert errors_at(html, "stake") == []
    assert (value_of(html, "name"), textarea_of(html, "players"), value_of(html, "stake"),
            value_of(html, "currency")) == ("Tuesdays", "Ann\nBob", "0.02", typed)


def test_the_group_settings_refuse_a_made_up_currency(client: FlaskClient) -> None:
    group_id = group(client)
    page = client.post(f"/groups/{group_id}/settings", data={
        "settings-name": "Thursdays", "settings-players": "Ann\nBob\nCid",
        "settings-stake": "0.05", "settings-currency": "ZZZ"})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert errors_at(html, "settings-currency") == [ZZZ]
    assert errors_at(html, "settings-stake") == []
    # The form is open again with everything typed, so nothing needs typing twice.
    assert re.search(r'<details id="settings" open>', html)
    assert (value_of(html, "settings-name"), textarea_of(html, "settings-players"),
            value_of(html, "settings-stake"), value_of(html, "settings-currency")) == (
        "Thursdays", "Ann\nBob\nCid", "0.05", "ZZZ")
    # Nothing changed.
    data = client.get(f"/api/v1/groups/{group_id}").get_json()
    assert (data["name"], data["players"], data["stake"], data["currency"]) == (
        "Tuesdays", ["Ann", "Bob"], "0.01", "EUR")
    # A real currency goes through, in any case.
    saved = client.post(f"/groups/{group_id}/settings", data={
        "settings-name": "Thursdays", "settings-players": "Ann\nBob",
        "settings-stake": "5", "settings-currency": "jpy"})
    assert saved.status_code == 302
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert '<details id="settings">' in page  # closed
    data = client.get(f"/api/v1/groups/{group_id}").get_json()
    assert (data["name"], data["stake"], data["currency"]) == ("Thursdays", "5", "JPY")


@pytest.mark.parametrize("form", ["/games/new", "/groups/new", "settings"])
def test_every_form_with_a_stake_says_the_same_of_a_currency(
    client: FlaskClient, form: str
) -> None:
    """One check: the same words for the same mistakes, wherever the stake is typed."""
    prefix = "settings-" if form == "settings" else ""
    url = f"/groups/{group(client)}/settings" if form == "settings" else form
    base = {"variant": "gin", "player1": "Ann", "player2": "Bob", "dealer": "0",
            "name": "Tuesdays", "players": "Ann\nBob"}
    said = {}
    for typed in ("ZZZ", "", "EU", "E1R"):
        data = {f"{prefix}{key}": value for key, value in base.items()}
        data.update({f"{prefix}stake": "0.01", f"{prefix}currency": typed})
        page = client.post(url, data=data)
        assert page.status_code == 422, (typed, page.status_code)
        said[typed] = errors_at(page.get_data(as_text=True), f"{prefix}currency")
    assert said == {
        "ZZZ": [ZZZ],
        "": ["A stake needs its currency: a code of three letters, like EUR."],
        "EU": ["EU is not a currency code (ISO 4217), like EUR."],
        "E1R": ["E1R is not a currency code (ISO 4217), like EUR."],
    }
