"""Nothing typed is lost: a hand being entered (totals or cards, a new hand or a
correction) is kept on the phone while it is typed and comes back after a reload, a
language switch, a refused save and a lost race; the saved hand's draft goes. A refused
form starts with a summary of its errors that takes the focus, each a link to its field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.browser.helpers import api_hand

pytestmark = pytest.mark.browser

CONFLICT = "Another phone changed this game while you were entering this hand"


def open_game(
    client: Any, page: Any, live_url: str, variant: str, players: list[str]
) -> dict[str, Any]:
    made = client.post("/api/v1/games", json={"variant": variant, "players": players})
    assert made.status_code == 201
    game: dict[str, Any] = made.get_json()
    page.goto(live_url + f"/g/{game['id']}?key={game['edit_secret']}")
    return game


def drafts(page: Any) -> list[str]:
    """The drafts kept on the phone (their keys: game, hand, way of entry)."""
    keys: list[str] = page.evaluate(
        "Object.keys(localStorage).filter((k) => k.startsWith('sk-draft:')).sort()")
    return [k.removeprefix("sk-draft:") for k in keys]


def switch(page: Any, lang: str) -> None:
    page.locator(f".lang button[value={lang}]").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def test_a_gin_hand_being_typed_survives_reload_language_refusal_and_a_lost_race(
    app: Flask, live_url: str, phone: Any
) -> None:
    client = app.test_client()
    page = phone
    game = open_game(client, page, live_url, "gin", ["Ann", "Bob"])
    sheet = f"/g/{game['id']}"

    def typed(k: str, d: str) -> None:
        expect(page.locator("input[name=outcome][value=knock]")).to_be_checked()
        expect(page.locator("input[name=knocker][value='0']")).to_be_checked()
        expect(page.locator("input[name=knocker_deadwood]")).to_have_value(k)
        expect(page.locator("input[name=defender_deadwood]")).to_have_value(d)

    page.locator("input[name=outcome][value=knock]").check()
    page.locator("input[name=knocker][value='0']").check()
    page.fill("input[name=knocker_deadwood]", "14")
    page.fill("input[name=defender_deadwood]", "30")
    page.reload()  # pull to refresh
    typed("14", "30")
    expect(page.locator(".draft-note")).to_contain_text("What you typed before is back")
    switch(page, "ru")
    typed("14", "30")

    # A knock with 14 is refused; the language switch goes back to the form, not a 405.
    page.locator("form.quick button[type=submit]").click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    expect(summary.locator("a")).to_have_attribute("href", "#knocker_deadwood")
    switch(page, "en")
    expect(page).to_have_url(re.compile(re.escape(sheet) + "#enter$"))
    typed("14", "30")

    # Another phone saves a hand first: this one is refused, and still here.
    page.fill("input[name=knocker_deadwood]", "5")
    assert api_hand(client, game, outcome="gin", knocker=1, defender_deadwood=10).status_code == 201
    page.locator("form.quick button[type=submit]").click()
    expect(summary).to_contain_text(CONFLICT)
    typed("5", "30")
    page.goto(live_url + sheet)
    typed("5", "30")

    # Saved: its draft goes, and the next hand's form is empty after a reload.
    page.locator("form.quick button[type=submit]").click()
    expect(page.locator("#hand-2")).to_be_visible()
    page.reload()
    expect(page.locator("input[name=knocker_deadwood]")).to_have_value("")
    expect(page.locator(".draft-note")).to_have_count(0)
    assert drafts(page) == []

    # Cards, tapped and typed, on the card page.
    page.goto(live_url + sheet + "/hands/new")
    page.locator("input[name=knocker][value='1']").check()
    page.locator("[name=knocker_cards]").focus()
    for card in ("7H", "8H", "9H"):
        page.locator(f"button[data-card='{card}']").click()
    page.fill("[name=defender_cards]", "2C 3C")
    page.reload()
    expect(page.locator("[name=knocker_cards]")).to_have_value("7H 8H 9H")
    expect(page.locator("[name=defender_cards]")).to_have_value("2C 3C")
    expect(page.locator("input[name=knocker][value='1']")).to_be_checked()
    switch(page, "fa")
    expect(page.locator("[name=knocker_cards]")).to_have_value("7H 8H 9H")
    # "Clear" empties the form and forgets the draft.
    page.locator(".draft-note button").click()
    expect(page.locator("[name=knocker_cards]")).to_have_value("")
    assert drafts(page) == []
    switch(page, "en")

    # Correcting hand 2: the correction being typed is kept too, and goes once saved.
    page.goto(live_url + sheet + "/hands/2/edit")
    page.fill("input[name=defender_deadwood]", "25")
    page.reload()
    expect(page.locator("input[name=defender_deadwood]")).to_have_value("25")
    assert drafts(page) == [f"{game['id']}:2:quick"]
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".flash")).to_contain_text("Hand 2 corrected")
    assert drafts(page) == []


@pytest.mark.once
def test_remi_entry_keeps_its_draft_and_a_refusal_shows_its_summary_first(
    app: Flask, live_url: str, phone: Any
) -> None:
    client = app.test_client()
    page = phone
    game = open_game(client, page, live_url, "remi", ["Ann", "Bob", "Cid"])
    # Totals typed, then a reload.
    page.locator("input[name=went_out][value='0']").check()
    page.fill("input[name=players-0-plus]", "50")
    page.fill("input[name=players-2-minus]", "60")
    page.reload()
    expect(page.locator("input[name=went_out][value='0']")).to_be_checked()
    expect(page.locator("input[name=players-0-plus]")).to_have_value("50")
    expect(page.locator("input[name=players-2-minus]")).to_have_value("60")

    # Cards, refused at Cid's hand far down the page: the summary is on the first screen.
    page.goto(live_url + f"/g/{game['id']}/hands/new")
    page.fill("[name=players-0-table]", "2H 3H 4H\nKC KD KS")
    page.fill("[name=players-1-hand]", "QC JD JC 6C 5C 4C 3C")
    page.fill("[name=players-2-hand]", "ZZ 9D 9C 9H AS 2C 3D")
    page.locator("input[name=went_out][value='0']").check()
    page.fill("[name=final_discard]", "AD")
    page.get_by_role("button", name="Check and save").click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    top = summary.evaluate("(s) => s.getBoundingClientRect().top")
    assert top >= 0 and top < page.viewport_size["height"]
    link = summary.locator("a[href='#players-2-hand']")
    expect(link).to_contain_text("Cid: Cards in hand")
    phone.shot("refused")
    link.click()
    field = page.locator("#players-2-hand")
    expect(field).to_be_focused()
    rect = field.evaluate("(f) => f.getBoundingClientRect().toJSON()")
    assert rect["top"] >= 0 and rect["bottom"] <= page.viewport_size["height"]
    # The language switch after the refusal: the form again, with what was typed.
    switch(page, "ru")
    expect(page).to_have_url(re.compile(f"/g/{game['id']}/hands/new$"))
    expect(page.locator("[name=players-2-hand]")).to_have_value("ZZ 9D 9C 9H AS 2C 3D")
    expect(page.locator("[name=players-0-table]")).to_have_value("2H 3H 4H\nKC KD KS")
    expect(page.locator("input[name=went_out][value='0']")).to_be_checked()
