"""The tap picker: cards typed in one hand are shown as taken in the others — within the
same pack only (partnership gin's two tables each play with their own pack)."""

from __future__ import annotations

import io
import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_page
from tests.test_i18n import compile_catalogs

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
