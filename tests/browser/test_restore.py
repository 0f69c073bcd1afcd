"""Undo is not the end of a hand: "Hand 2 undone — Restore" brings it back, cards and
all, on a phone with CSRF on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_undo_then_restore_a_card_hand(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter it with cards (checked)").click()
    page.locator("input[name=knocker][value='1']").check()
    page.fill("[name=knocker_cards]", "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D")
    page.fill("[name=defender_cards]", "TC JC QC KC 8H 8C 8S 5D 7S TH")
    page.get_by_role("button", name="Check and save").click()
    expect(page.locator("body")).to_contain_text("Hand 1 saved")
    page.get_by_role("button", name="Undo hand 1").click()
    restore = page.locator("form.restore")
    expect(restore).to_have_text("Hand 1 undone — Restore")
    phone.shot("1-undone")
    restore.get_by_role("button", name="Restore").click()
    expect(page.locator(".flash")).to_have_text("Hand 1 restored.")
    expect(page.locator("form.restore")).to_have_count(0)
    phone.shot("2-restored")
    page.locator("#hand-1 a").first.click()
    expect(page.locator("body")).to_contain_text("10♥")  # the cards came back too
    # The history says it in words, with the cards by their symbols (and each name
    # isolated), and fits the phone.
    page.goto(page.url.split("/hands/")[0] + "/history")
    expect(page.locator("li .change").first).to_have_text(
        "Hand 1 restored: \u2068Bob\u2069 went gin: A♠ 2♠ 3♠ 4♠ 4♥ 5♥ 6♥ 7♦ 8♦ 9♦; "
        "\u2068Ann\u2069 held 10♣ J♣ Q♣ K♣ 8♥ 8♣ 8♠ 5♦ 7♠ 10♥."
    )
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone.shot("3-history")
