"""The tap picker: cards typed in one hand are shown as taken in the others — within the
same pack only (partnership gin's two tables each play with their own pack)."""

from __future__ import annotations

import io
import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_page
from tests.helpers import compile_catalogs

pytestmark = [pytest.mark.browser, pytest.mark.once]


def create(live_url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(live_url + "/api/v1/games", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        created: dict[str, Any] = json.load(response)
    return created


def test_each_table_has_its_own_pack(live_url: str, phone: Any) -> None:
    game = create(live_url, {"variant": "partnership", "players": ["Ann", "Bob", "Cid", "Dan"]})
    page = phone
    page.goto(game["edit_url"])
    page.goto(f"{live_url}/g/{game['id']}/hands/new")
    page.locator("[name='a-knocker_cards']").fill("7H 8H")
    page.locator("[name='a-defender_cards']").focus()
    expect(page.locator("button[data-card='7H']")).to_have_class("red taken")
    page.locator("[name='b-knocker_cards']").focus()
    expect(page.locator("button[data-card='7H']")).not_to_have_class("red taken")
    phone.shot("second-table")


# Each hand box on the page: its box, its heading's letters (a Range round the legend's
# text) and the row its top border is drawn on, found in a one-pixel column of a
# screenshot 12 px in from the box's left edge (the heading stands at the right in
# Persian): the darkest row of the box's top 40 px, the border being darker than the page
# and the box alike.
BOXES_JS = """() => [...document.querySelectorAll("fieldset.hand-entry > legend")].map((legend) => {
  const range = document.createRange();
  range.selectNodeContents(legend);
  const t = range.getBoundingClientRect(), b = legend.parentElement.getBoundingClientRect();
  return {text: [t.left, t.top, t.right, t.bottom], box: [b.left, b.top, b.right, b.bottom]};
})"""


def border_row(page: Any, box: list[float]) -> float:
    """The y of the darkest row in the top 40 px of ``box`` (its top border)."""
    from PIL import Image

    top = box[1] - 4 + page.evaluate("window.scrollY")
    shot = page.screenshot(full_page=True, clip={"x": box[0] + 12, "y": top, "width": 1,
                                                 "height": 44})
    column = Image.open(io.BytesIO(shot)).convert("L")
    darkest = min(range(column.height), key=lambda y: column.getpixel((0, y)))
    return box[1] - 4 + darkest


def test_the_hand_headings_stand_whole_inside_their_boxes(
    live_url: str, browser: Any, request: pytest.FixtureRequest
) -> None:
    """«ضربه‌زننده» (the knocker) on /check in Persian at 360 px: its letters lie inside
    its box, under the box's top border, none of them crossed by it."""
    compile_catalogs()
    with phone_page(browser, request, width=360) as page:
        page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_url}])
        page.goto(f"{live_url}/check")
        boxes = page.evaluate(BOXES_JS)
        assert page.locator("fieldset.hand-entry > legend").all_inner_texts() == [
            "ضربه‌زننده", "حریف"]
        for found in boxes:
            text, box = found["text"], found["box"]
            assert box[0] < text[0] < text[2] < box[2], found
            assert border_row(page, box) + 1 <= text[1] < text[3] < box[3], found
        page.shot("check-fa")


def test_the_upcard_is_tapped_and_a_taken_card_cannot_be(live_url: str, phone: Any) -> None:
    """Oklahoma's upcard is picked like the hands, on the sheet and on the card entry; it
    may be a card of either hand (both players saw it, either may have taken it). A card
    in another hand is taken: disabled, a tap changes nothing — on the gin card entry,
    /check, the Remi card entry (another player's table counts too) and /remi/check."""
    page = phone
    game = create(live_url, {"variant": "oklahoma", "players": ["Ann", "Bob"]})
    page.goto(game["edit_url"])
    upcard = page.locator("input[name=upcard]")
    picker = page.locator("[data-picker]")
    expect(picker).to_be_visible()
    picker.locator("button[data-card='7S']").click()
    expect(upcard).to_have_value("7S")
    expect(picker.locator("button[data-card='7S']")).to_have_attribute("aria-pressed", "true")

    page.goto(f"{live_url}/g/{game['id']}/hands/new")
    page.locator("[name=knocker][value='0']").check()
    page.locator("[name=knocker_cards]").fill("AS 2S 3S 7H 7D 7C JC QC KC 5D")
    page.locator("[name=defender_cards]").fill("4H 5H 6H 8S 8H 8D TD JD QD 9C")
    page.locator("[name=upcard]").focus()
    for code in ("9C", "7H"):  # in a hand, and free to be the upcard
        expect(picker.locator(f"button[data-card='{code}']")).to_be_enabled()
    picker.locator("button[data-card='9C']").click()
    expect(page.locator("[name=upcard]")).to_have_value("9C")
    page.locator("[name=defender_cards]").focus()
    expect(picker.locator("button[data-card='7H']")).to_be_disabled()
    expect(picker.locator("button[data-card='9C']")).to_have_attribute("aria-pressed", "true")
    with page.expect_navigation():
        page.get_by_role("button", name="Check and save").click()
    # The knocker's 5 against the defender's 9♣, the upcard: 4 (the limit is 9).
    expect(page.locator("tfoot td .num")).to_have_text(["4", "0"])

    def refused(field: str, filled: str, other: str, code: str) -> None:
        page.locator(f"[name='{field}']").fill(filled)
        page.locator(f"[name='{other}']").focus()
        button = picker.locator(f"button[data-card='{code}']")
        expect(button).to_be_disabled()
        expect(button).to_have_class(re.compile(r"\btaken\b"))
        button.click(force=True)  # a tap on it
        expect(page.locator(f"[name='{other}']")).to_have_value("")
        expect(button).to_have_attribute("aria-pressed", "false")

    page.goto(f"{live_url}/check")
    refused("knocker_cards", "7H 8H", "defender_cards", "7H")

    remi = create(live_url, {"variant": "remi", "players": ["Ann", "Bob", "Cid"]})
    page.goto(remi["edit_url"])
    page.goto(f"{live_url}/g/{remi['id']}/hands/new")
    refused("players-0-hand", "7H 8H", "players-1-table", "8H")
    refused("players-1-table", "9S 9H 9D", "players-2-hand", "9D")
    phone.shot("remi-entry")

    page.goto(f"{live_url}/remi/check")
    refused("players-0-table", "2C 3C 4C", "players-1-hand", "3C")
