"""A group page at phone size, in English and in Persian (right to left): the group is
made through its form, a game is started from it, the hand-made group's standings,
balances and chart show, and nothing scrolls sideways. Screenshots: test-output/browser/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.helpers import compile_catalogs

pytestmark = pytest.mark.browser


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide"


def test_a_group_is_made_and_a_game_started_from_it(phone: Any, live_url: str) -> None:
    phone.goto(live_url)
    phone.get_by_role("link", name="New group of regular players").click()
    phone.get_by_label("Name of the group").fill("Friday")
    phone.get_by_label("Players (one per line)").fill("Ann\nBob\nCid")
    phone.get_by_label("Stake per point (optional, e.g. 0.01)").fill("0.01")
    phone.get_by_label("Currency (e.g. EUR)").fill("ZZZ")
    phone.get_by_role("button", name="Create the group").click()
    refused_currency(phone, "#currency")
    phone.get_by_label("Currency (e.g. EUR)").fill("EUR")
    phone.get_by_role("button", name="Create the group").click()
    expect(phone.locator("h1")).to_have_text("Friday")
    expect(phone.locator("p.stake")).to_have_text("Stake: €0.01 per point")
    phone.shot("1-new-group")
    form = phone.locator("form.start")
    form.locator("select[name=variant]").select_option("gin")
    form.get_by_label("Bob").check()
    form.get_by_label("Cid").check()
    form.get_by_role("button", name="Start a game").click()
    expect(phone.locator("input[name=player1]")).to_have_value("Bob")
    expect(phone.locator("input[name=player2]")).to_have_value("Cid")
    expect(phone.locator("input[name=stake]")).to_have_value("0.01")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("p.variant-name a")).to_have_text("Friday")
    phone.locator("p.variant-name a").click()
    expect(phone.locator("ul.group-games li")).to_have_count(1)
    no_sideways_scroll(phone)
    phone.shot("2-group-with-a-game")
    # The group's own form refuses a made-up currency the same way, open again.
    phone.locator("#settings summary").click()
    phone.locator("#settings-stake").fill("0.02")
    phone.locator("#settings-currency").fill("ZZZ")
    phone.get_by_role("button", name="Save the group").click()
    refused_currency(phone, "#settings-currency")
    expect(phone.locator("#settings-stake")).to_have_value("0.02")
    # The refusal opens at the form's summary of problems, which links to the field, ...
    summary = phone.locator("#settings [data-error-summary]")
    expect(summary).to_be_focused()
    assert 0 <= summary.bounding_box()["y"] < 844
    expect(summary.locator("a[href='#settings-currency']")).to_contain_text(
        "ZZZ is not a currency code (ISO 4217), like EUR.")
    no_sideways_scroll(phone)
    phone.shot("3-settings-refused")
    # ... a saved form at the top of the page, where the group's stake shows.
    phone.locator("#settings-currency").fill("EUR")
    phone.get_by_role("button", name="Save the group").click()
    expect(phone.locator("p.stake")).to_have_text("Stake: €0.02 per point")
    expect(phone.locator("p.flash").first).to_have_text("Group saved.")
    assert phone.evaluate("window.scrollY") == 0


def refused_currency(page: Any, field: str) -> None:
    """The currency typed is still there, and the message shows just under it."""
    box = page.locator(field)
    expect(box).to_have_value("ZZZ")
    error = page.locator(f"div.field:has({field}) p.error")
    expect(error).to_have_text("ZZZ is not a currency code (ISO 4217), like EUR.")
    expect(error).to_be_visible()
    below, above = error.bounding_box(), box.bounding_box()
    assert below and above and above["y"] + above["height"] <= below["y"] < above["y"] + 80


@pytest.mark.once  # what the page shows of a group the HTTP tests check on both
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_group_page_in_english_and_persian(
    phone: Any,
    live_url: str,
    app: Flask,
    friday: dict[str, Any],
    lang: str,
) -> None:
    compile_catalogs()
    edit_path = friday["group"]["edit_url"].split("/groups/", 1)[1]
    phone.goto(live_url + "/groups/" + edit_path)  # as the group's editor
    if lang == "fa":
        phone.get_by_role("button", name="فارسی").click()
        expect(phone.locator("html")).to_have_attribute("dir", "rtl")
    bob = phone.locator("table.standings tr[data-player=Bob]")
    expect(bob.locator("td.wins")).to_have_text("2")
    # Money as each language writes it (CLDR): "+€1.71"; in Persian the sign, a
    # left-to-right mark, the euro sign, a no-break space, the amount.
    gain = "+€1.71" if lang == "en" else "+\u200e€\u00a01.71"
    cell = phone.locator("table.balances tr[data-player=Cid] td.balance")
    assert cell.inner_text() == gain
    svg = phone.locator("figure.chart:not(.h2h) svg")
    expect(svg).to_have_count(1)
    expect(svg.locator("polyline")).to_have_count(3)
    expect(phone.locator("figure.h2h svg rect")).to_have_count(3)
    settle = phone.locator("div.settle-up li")
    expect(settle).to_have_count(2)
    if lang == "en":
        expect(settle.first).to_have_text("Bob pays Cid €1.63")
    else:
        assert re.search("Bob.*Cid.*\u200e€\u00a01\\.63", settle.first.inner_text())
    expect(phone.locator("form.payment")).to_have_count(1)
    no_sideways_scroll(phone)
    phone.shot(f"group-{lang}")
    phone.locator("table.standings tr[data-player=Bob] a").click()
    expect(phone.locator("h1")).to_have_text("Bob")
    expect(phone.locator("dd.gins")).to_have_text("2")
    expect(phone.locator("dd.won-as-captain")).to_have_text("1")
    no_sideways_scroll(phone)
    phone.shot(f"player-{lang}")
