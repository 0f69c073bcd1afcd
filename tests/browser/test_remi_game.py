"""An Indonesian Remi game on a phone (RULES.md §8): four players, the worked deal
entered with cards, then a quick deal; totals, dealers and negative totals on the sheet."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.once]


def test_a_remi_deal_with_cards_on_a_phone(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "remi")
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee"), start=1):
        page.fill(f"input[name=player{seat}]", name)
    page.select_option("select[name=preset]", "remi")
    page.get_by_role("button", name="Start the game").click()
    assert page.locator("h1").inner_text() == "Ann · Bob · Cy · Dee"
    phone.shot("1-empty-sheet")

    # RULES.md §8: Ann goes out discarding A♦; Cy has 7-8-9♠ down; Dee has no sequence.
    page.get_by_role("link", name="Enter it with cards (checked)").click()
    page.fill("[name=players-0-hand]", "2H 3H 4H 5H KC KD KS")
    page.fill("[name=players-1-hand]", "QC JD JC 6C 5C 4C 3C")
    page.fill("[name=players-2-table]", "7S 8S 9S")
    page.fill("[name=players-2-hand]", "9D 9C 9H AS")
    page.fill("[name=players-3-hand]", "QS QH QD 2S 6H 8D AH")
    page.locator("input[name=went_out][value='0']").check()
    page.fill("[name=final_discard]", "AD")
    phone.shot("2-card-entry")
    page.get_by_role("button", name="Check and save").click()
    expect(page.locator("body")).to_contain_text("Deal 1 saved")

    row = page.locator("#hand-1 td")
    assert row.nth(1).inner_text().split() == ["+200", "✓", "D", "200"]
    assert row.nth(2).inner_text().split() == ["−10", "−10"]
    assert row.nth(3).inner_text().split() == ["+15", "15"]
    assert row.nth(4).inner_text().split() == ["−60", "−60"]
    assert "Dee" in page.locator(".status").inner_text()  # lowest total deals next
    phone.shot("3-after-deal-1")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the sheet is {width}px wide on a 390px phone"

    # Deal 2 in quick mode: the stock runs out.
    page.locator("input[name=went_out][value='none']").check()
    for seat, (plus, minus) in enumerate(((0, 20), (15, 5), (0, 0), (30, 10))):
        page.fill(f"input[name=players-{seat}-plus]", str(plus))
        page.fill(f"input[name=players-{seat}-minus]", str(minus))
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("body")).to_contain_text("Deal 2 saved")
    totals = page.locator("#sheet tfoot td").all_inner_texts()
    assert [t.split()[0] for t in totals] == ["180", "0", "15", "−40"]
    phone.shot("4-after-deal-2")

    page.locator("#hand-1 a").first.click()
    page.wait_for_load_state()
    # The name is isolated in its step (U+2068…U+2069).
    expect(page.locator("main")).to_contain_text("\u2068Ann\u2069 went out discarding A♦")
    phone.shot("5-deal-1")
