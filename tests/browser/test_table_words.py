"""A phone at 360 px: the choices that name a player say the names typed above them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_page

pytestmark = [pytest.mark.browser, pytest.mark.once]


@pytest.fixture
def small_phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A 360 px phone in English; ``small_phone.shot(name)`` saves a screenshot."""
    with phone_page(browser, request, width=360, height=780,
                    extra_http_headers={"Accept-Language": "en"}) as page:
        yield page


def test_the_first_dealer_choices_follow_the_names_as_they_are_typed(
    small_phone: Any, live_url: str
) -> None:
    page = small_phone
    page.goto(f"{live_url}/games/new")
    dealer = page.locator("fieldset", has_text="First dealer")
    expect(dealer.locator("label.choice").nth(0)).to_have_text("Player 1")
    page.fill("#player1", "Ann")
    page.fill("#player2", "Bob")
    expect(dealer.locator("label.choice").nth(0)).to_have_text("Ann")
    expect(dealer.locator("label.choice").nth(1)).to_have_text("Bob")
    page.select_option("#variant", "three_hand")
    page.fill("#player3", "Cid")
    expect(dealer.locator("label.choice").nth(2)).to_have_text("Cid")
    expect(page.locator("#captain option[value='2']")).to_have_text("Cid")
    page.fill("#player1", "")
    expect(dealer.locator("label.choice").nth(0)).to_have_text("Player 1")
    page.shot("first-dealer")


def test_who_went_out_follows_the_names_typed_in_the_remi_checker(
    small_phone: Any, live_url: str
) -> None:
    page = small_phone
    page.goto(f"{live_url}/remi/check")
    went_out = page.locator("fieldset", has_text="Who went out?")
    expect(went_out.locator("label.choice").nth(0)).to_have_text("Player 1")
    page.fill("#players-0-player_name", "Ann")
    expect(went_out.locator("label.choice").nth(0)).to_have_text("Ann")
    expect(went_out.locator("label.choice").nth(1)).to_have_text("Player 2")
    page.shot("who-went-out")
