"""A whole two-player game on a phone, as a table would play it (RULES.md §8, russian):
Ann wins 15, 55, 33 and Bob 47, 28 → Ann 278, Bob 125, margin 153."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def save_quick(
    page: Any, outcome: str, knocker: int, k: int | None, d: int, *, hand: int | None = None
) -> None:
    """Enter a hand in quick mode; with ``hand``, wait until the sheet shows it saved (the
    first page sends the form itself before the service worker takes over, so the click
    alone does not wait for the server)."""
    page.locator(f"input[name=outcome][value={outcome}]").check()
    page.locator(f"input[name=knocker][value='{knocker}']").check()
    if k is not None:
        page.fill("input[name=knocker_deadwood]", str(k))
    page.fill("input[name=defender_deadwood]", str(d))
    page.get_by_role("button", name="Save", exact=True).click()
    if hand is not None:
        expect(page.locator(f"#hand-{hand}")).to_have_count(1)


def test_a_whole_game_on_a_phone(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/")
    page.get_by_role("link", name="New game").click()
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.select_option("select[name=preset]", "russian")
    phone.shot("1-new-game")
    page.get_by_role("button", name="Start the game").click()
    assert page.locator("h1").inner_text().startswith("Ann")

    # Hand 1, quick mode: Ann knocks 1 against 10 ... then it turns out Bob had 16.
    save_quick(page, "knock", 0, 1, 10, hand=1)
    expect(page.locator("body")).to_contain_text("Hand 1 saved")
    phone.shot("2-first-hand")

    # Hand 2 with cards: Bob goes gin, Ann is left with 5♦ 7♠ 10♥ = 22 → 22 + 25 = 47.
    page.get_by_role("link", name="Enter it with cards (checked)").click()
    page.locator("input[name=knocker][value='1']").check()
    page.fill("[name=knocker_cards]", "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D")
    page.fill("[name=defender_cards]", "TC JC QC KC 8H 8C 8S 5D 7S TH")
    phone.shot("3-card-mode")
    page.get_by_role("button", name="Check and save").click()
    expect(page.locator("body")).to_contain_text("Hand 2 saved")

    # Correct hand 1: Bob's deadwood was 16, so Ann scores 15.
    page.locator("#hand-1 a").first.click()
    page.get_by_role("link", name="Correct").click()
    page.fill("input[name=defender_deadwood]", "16")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("body")).to_contain_text("Hand 1 corrected")

    save_quick(page, "gin", 0, None, 30, hand=3)  # Ann 55
    save_quick(page, "knock", 1, 2, 30, hand=4)  # Bob 28
    phone.shot("4-mid-game")
    save_quick(page, "knock", 0, 1, 34, hand=5)  # Ann 33 → 103, game over

    settlement = page.locator("#settlement")
    assert "Ann wins the game" in settlement.inner_text()
    assert settlement.locator(".final").all_inner_texts() == ["278", "125"]
    assert settlement.locator(".margin").inner_text() == "153"
    assert page.get_by_role("button", name="Save", exact=True).count() == 0
    phone.shot("5-finished")


def test_bad_entry_keeps_what_was_typed(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.get_by_role("button", name="Start the game").click()
    save_quick(page, "knock", 0, 14, 20)
    # Wait for the server's answer: the fields must still hold what was typed after it.
    refusal = page.locator(".error", has_text="a knock needs 10 or less, this hand has 14")
    expect(refusal).to_have_count(1)
    assert page.locator("input[name=knocker_deadwood]").input_value() == "14"
    assert page.locator("input[name=defender_deadwood]").input_value() == "20"
    assert page.locator("#hand-1").count() == 0  # nothing was saved
    phone.shot("knock-over-limit")
