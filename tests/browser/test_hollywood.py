"""A Hollywood match on a phone (RULES.md §8): A +20, B +15, A +30, A +40, B +35, A +25,
A +10, A +30 → game 1 A 315 B 100, game 2 A 305 B 60, game 3 B shut out."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.once]

EXAMPLE = [(0, 20), (1, 15), (0, 30), (0, 40), (1, 35), (0, 25), (0, 10), (0, 30)]


def win(page: Any, number: int, seat: int, points: int) -> None:
    """Hand ``number``: a knock 1 against ``points`` + 1, exactly ``points`` for ``seat``;
    waits for the sheet to come back with the hand saved."""
    page.locator("input[name=outcome][value=knock]").check()
    page.locator(f"input[name=knocker][value='{seat}']").check()
    page.fill("input[name=knocker_deadwood]", "1")
    page.fill("input[name=defender_deadwood]", str(points + 1))
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".flash")).to_contain_text(f"Hand {number} saved")


def test_a_hollywood_match_on_a_phone(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "hollywood")
    page.fill("input[name=player1]", "Anastasia")
    page.fill("input[name=player2]", "Bob")
    page.select_option("select[name=preset]", "russian")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".variant-name")).to_contain_text("Hollywood gin")
    expect(page.locator("thead th.game")).to_have_text(["Game 1", "Game 2", "Game 3"])

    for number, (seat, points) in enumerate(EXAMPLE[:5], start=1):
        win(page, number, seat, points)
    assert page.locator("#hand-5").get_attribute("data-columns") == "1 2"
    assert page.locator("#hand-5 td.in").count() == 4
    sums = page.locator("tfoot tr.sums td .num")
    expect(sums).to_have_text(["90", "50", "70", "35", "40", "0"])
    phone.shot("1-mid-match")

    for number, (seat, points) in enumerate(EXAMPLE[5:], start=6):
        win(page, number, seat, points)
    finals = page.locator("tfoot tr.finals td .final")
    expect(finals).to_have_text(["315", "100", "305", "60", "510", "0"])
    assert "The match is over" in page.locator("#settlement").inner_text()
    assert page.get_by_role("button", name="Save", exact=True).count() == 0
    # Nothing sticks out of the phone's width: the three games fit side by side.
    width = page.evaluate("document.querySelector('#sheet').getBoundingClientRect().right")
    assert width <= 390
    page.locator("#settlement-3 summary").click()
    assert "shutout" in page.locator("#settlement-3").inner_text()
    phone.shot("2-match-over")


def test_hollywood_with_a_fourth_game(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "hollywood")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.locator("summary").filter(has_text="Change the rules").click()
    page.locator("input[name=hollywood_fourth]").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("thead th.game")).to_have_count(4)
    for number, (seat, points) in enumerate(EXAMPLE[:7], start=1):
        win(page, number, seat, points)
    assert page.locator("#hand-7").get_attribute("data-columns") == "2 3 4"
    width = page.evaluate("document.querySelector('#sheet').getBoundingClientRect().right")
    assert width <= 390
    phone.shot("four-games")
