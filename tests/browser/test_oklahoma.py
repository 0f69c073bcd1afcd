"""An Oklahoma game on a phone: the upcard sets each hand's knock limit, a spade doubles."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.once]


def save(page: Any, upcard: str, outcome: str, knocker: int, k: int | None, d: int) -> None:
    """Fill the quick form and save; waits for the page that comes back."""
    page.fill("input[name=upcard]", upcard)
    page.locator(f"input[name=outcome][value={outcome}]").check()
    page.locator(f"input[name=knocker][value='{knocker}']").check()
    if k is not None:
        page.fill("input[name=knocker_deadwood]", str(k))
    page.fill("input[name=defender_deadwood]", str(d))
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()


def test_an_oklahoma_game_on_a_phone(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "oklahoma")
    page.select_option("select[name=preset]", "oklahoma")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".variant-name")).to_contain_text("Oklahoma gin")
    expect(page.locator(".rules-summary")).to_contain_text("Target 150")

    # A 5♥ upcard: a knock with 6 is refused, the limit shown at the field.
    save(page, "5H", "knock", 0, 6, 20)
    error = page.locator(".has-error .error").first.inner_text()
    assert "a knock needs 5 or less (the upcard is 5♥)" in error
    assert page.locator("input[name=upcard]").input_value() == "5H"
    phone.shot("1-over-the-limit")

    save(page, "5H", "knock", 0, 5, 20)  # Ann +15
    save(page, "8S", "gin", 1, None, 20)  # Bob (20 + 25) × 2 = 90
    row = page.locator("#hand-2").inner_text()
    assert "♠ ×2" in row and "+90" in row and "knock ≤ 8" in row
    expect(page.locator("tfoot td .num")).to_have_text(["15", "90"])
    phone.shot("2-spade-doubled")
