"""Remi entry mistakes on a phone: a player with 6 cards (7 are dealt) is
refused at his hand; in quick mode a blank is 0 and one mistake gives one message."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.once]


def start(page: Any, live_url: str, players: tuple[str, ...]) -> None:
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "remi")
    for seat, name in enumerate(players, start=1):
        page.fill(f"input[name=player{seat}]", name)
    page.select_option("select[name=preset]", "remi")
    page.get_by_role("button", name="Start the game").click()


def test_six_cards_refused_at_that_players_hand(live_url: str, phone: Any) -> None:
    page = phone
    start(page, live_url, ("Ann", "Bob"))
    page.get_by_role("link", name="Enter it with cards (checked)").click()
    page.fill("[name=players-0-hand]", "2H 3H 4H 5H KC KD KS")
    page.fill("[name=players-1-hand]", "QC JD JC 6C 5C 4C")  # one card short
    page.locator("input[name=went_out][value='0']").check()
    page.fill("[name=final_discard]", "AD")
    page.get_by_role("button", name="Check and save").click()
    field = page.locator(".field", has=page.locator("#players-1-hand"))
    expect(field.locator(".error")).to_have_text(
        ["Bob holds at least 7 cards at the end of a deal (table and hand); cards entered: 6"]
    )
    assert page.locator(".error").count() == 1
    assert page.input_value("#players-1-hand") == "QC JD JC 6C 5C 4C"  # kept
    phone.shot("six-cards")


def test_quick_blanks_are_zero_and_one_mistake_one_message(live_url: str, phone: Any) -> None:
    page = phone
    start(page, live_url, ("Ann", "Bob", "Cy"))
    page.locator("input[name=went_out][value='0']").check()
    page.locator("input[name=discard_value][value='15']").check()
    page.fill("input[name=players-0-minus]", "50")  # Ann's 50 typed into her minus
    page.fill("input[name=players-1-plus]", "20")
    page.fill("input[name=players-1-minus]", "30")
    page.fill("input[name=players-2-minus]", "60")  # Cy's plus left blank: 0
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".error")).to_have_text(
        ["a player who went out has every card in a combination"]
    )
    phone.shot("one-message")
    page.fill("input[name=players-0-minus]", "")  # blank: 0
    page.fill("input[name=players-0-plus]", "50")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".flash")).to_have_text("Deal 1 saved.")
    totals = page.locator("#sheet tfoot td").all_inner_texts()
    assert [t.split()[0] for t in totals] == ["200", "−10", "−60"]
