"""Three-hand gin on a phone (RULES.md §8): X box, Y captain, Z out; Y knocks 4 v 20,
Y gins v 30, X undercuts Y's 7 with 5, a dead hand → X 12, Y 71, Z 0; X in the box,
Z captain, Y sitting out."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.once]


def save(
    page: Any,
    number: int,
    outcome: str,
    who: str | None = None,
    k: int | None = None,
    d: int | None = None,
) -> None:
    """Quick entry of hand ``number``; ``who`` is the label of the player who went out
    ("Y (captain)"). Waits until the sheet says it is saved: the first page sends the form
    itself before the service worker takes over, so the click alone does not wait."""
    page.locator(f"input[name=outcome][value={outcome}]").check()
    if who is not None:
        page.get_by_label(who, exact=True).check()
    if k is not None:
        page.fill("input[name=knocker_deadwood]", str(k))
    if d is not None:
        page.fill("input[name=defender_deadwood]", str(d))
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".flash")).to_contain_text(f"Hand {number} saved")


def next_roles(page: Any) -> list[str]:
    return [page.locator(f"#next-roles .next-{r}").inner_text() for r in ("box", "captain", "out")]


def test_the_rules_example_on_a_phone(live_url: str, phone: Any) -> None:
    page = phone
    page.goto(live_url + "/games/new")
    page.select_option("select[name=variant]", "three_hand")
    page.fill("input[name=player1]", "X")
    page.fill("input[name=player2]", "Y")
    page.fill("input[name=player3]", "Z")
    page.select_option("select[name=preset]", "three_hand")
    page.locator("input[name=dealer][value='0']").check()
    phone.shot("1-new-game")
    page.get_by_role("button", name="Start the game").click()
    assert "Three-hand gin" in page.locator(".variant-name").inner_text()
    assert next_roles(page) == ["X", "Y", "Z"]
    assert page.locator("input[name=knocker]").count() == 2  # never the sitter
    phone.shot("2-first-hand")

    save(page, 1, "knock", "Y (captain)", 4, 20)
    assert next_roles(page) == ["Y", "Z", "X"]
    save(page, 2, "gin", "Y (box)", None, 30)
    assert next_roles(page) == ["Y", "X", "Z"]
    save(page, 3, "knock", "Y (box)", 7, 5)
    assert next_roles(page) == ["X", "Z", "Y"]
    save(page, 4, "dead")
    assert next_roles(page) == ["X", "Z", "Y"]
    totals = page.locator("tfoot td .num").all_inner_texts()
    assert totals == ["12", "71", "0"]
    width = page.evaluate("document.querySelector('#sheet').getBoundingClientRect().right")
    assert width <= 390
    phone.shot("3-after-the-example")

    # Correct hand 1: it was the box (X) who knocked 4 against Y's 20.
    page.locator("#hand-1 a").first.click()
    page.get_by_role("link", name="Correct").click()
    page.get_by_label("X (box)", exact=True).check()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("body")).to_contain_text("Hand 1 corrected")
    assert page.locator("tfoot td .num").all_inner_texts() == ["71", "12", "0"]
    assert next_roles(page) == ["Y", "Z", "X"]
    phone.shot("4-corrected")
