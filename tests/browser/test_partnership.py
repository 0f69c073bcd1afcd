"""Partnership gin on a phone (RULES.md §6): Ann & Cid v Bob & Dan, two tables a deal,
opponents changing every deal; the worked example of tests/test_variant_partnership.py
ends Ann & Cid 275, Bob & Dan 70, margin 205."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.examples import PARTNERSHIP_DEALS, TableHand

pytestmark = [pytest.mark.browser, pytest.mark.once]


def save_deal(page: Any, deal: tuple[TableHand, TableHand], number: int) -> None:
    """Enter deal ``number``'s two hands and wait until the sheet says it is saved (the
    first page sends the form itself before the service worker takes over, so the click
    alone does not wait for the server)."""
    for prefix, (outcome, knocker, k, d) in zip("ab", deal, strict=True):
        page.locator(f"input[name={prefix}-outcome][value={outcome}]").check()
        if knocker is not None:
            page.locator(f"input[name={prefix}-knocker][value='{knocker}']").check()
        if k is not None:
            page.fill(f"input[name={prefix}-knocker_deadwood]", str(k))
        if d is not None:
            page.fill(f"input[name={prefix}-defender_deadwood]", str(d))
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".flash")).to_contain_text(f"Deal {number} saved")


def test_a_partnership_game_on_a_phone(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "partnership")
    for i, name in enumerate(("Ann", "Bob", "Cid", "Dan"), start=1):
        page.fill(f"input[name=player{i}]", name)
    page.select_option("select[name=preset]", "partnership")
    page.get_by_role("button", name="Start the game").click()
    assert "Partnership gin" in page.locator(".variant-name").inner_text()
    assert page.locator("thead th").all_inner_texts()[1:3] == ["Ann & Cid", "Bob & Dan"]
    assert "Ann v Bob" in page.locator("#next-pairing").inner_text()
    phone.shot("1-first-deal")

    save_deal(page, PARTNERSHIP_DEALS[0], 1)
    assert "Ann v Dan" in page.locator("#next-pairing").inner_text()
    for number, deal in enumerate(PARTNERSHIP_DEALS[1:4], start=2):
        save_deal(page, deal, number)
    assert page.locator("tfoot td .num").all_inner_texts() == ["55", "20"]
    width = page.evaluate("document.querySelector('#sheet').getBoundingClientRect().right")
    assert width <= 390
    phone.shot("2-four-deals")

    # Deal 5 with cards at table 1: Ann goes gin against Bob's 30.
    page.get_by_role("link", name="Enter it with cards (checked)").click()
    expect(page.locator("body")).to_contain_text("Table 1: Ann v Bob")
    page.locator("input[name=a-knocker][value='0']").check()
    page.fill("[name=a-knocker_cards]", "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D")
    page.fill("[name=a-defender_cards]", "TC JC QC 8C 8H 9S 8S 5D 7S TH")
    page.locator("input[name=b-knocker][value='dead']").check()
    phone.shot("3-card-mode")
    page.get_by_role("button", name="Check and save").click()
    expect(page.locator("body")).to_contain_text("Deal 5 saved")
    # 8♥8♣8♠ meld; 10♣ J♣ Q♣ meld; left 9♠ 5♦ 7♠ 10♥ = 31 → Ann 31 + 25 = 56 → 111.
    assert page.locator("tfoot td .num").all_inner_texts() == ["111", "20"]

    save_deal(page, (("knock", 1, 1, 15), ("dead", None, None, None)), 6)  # Dan +14
    save_deal(page, (("knock", 0, 1, 15), ("knock", 0, 1, 2)), 7)  # Ann 14 + Cid 1 → 126
    settlement = page.locator("#settlement")
    assert "Ann & Cid win the game" in settlement.inner_text()
    # 126 + 100 + 3 boxes × 25 = 301; Bob & Dan 34 + 3 × 25 = 109.
    assert settlement.locator(".final").all_inner_texts() == ["301", "109"]
    assert page.get_by_role("button", name="Save", exact=True).count() == 0
    phone.shot("4-finished")


def test_one_table_with_cards_the_other_quick_on_a_phone(live_url: str, phone: Any) -> None:
    # One deal, two ways: table 1 tapped in card by card, table 2 typed in a few taps.
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "partnership")
    for i, name in enumerate(("Ann", "Bob", "Cid", "Dan"), start=1):
        page.fill(f"input[name=player{i}]", name)
    page.select_option("select[name=preset]", "partnership")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter it with cards (checked)").click()
    page.locator("input[name=a-knocker][value='1']").check()
    page.fill("[name=a-knocker_cards]", "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D")
    page.fill("[name=a-defender_cards]", "TC JC QC KC 8H 8C 8S 5D 7S TH")
    page.locator("input[name=b-knocker][value='0']").check()
    page.fill("input[name=b-knocker_deadwood]", "4")
    page.fill("input[name=b-defender_deadwood]", "14")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    # (A full-page screenshot here resizes the window and swallows the next click.)
    page.get_by_role("button", name="Check and save").click()
    expect(page.locator(".flash")).to_have_text("Deal 1 saved.")
    assert page.locator("tfoot td .num").all_inner_texts() == ["0", "37"]
    phone.shot("2-saved")
