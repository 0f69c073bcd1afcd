"""Table mode (/g/<id>/table): a tablet or phone in the middle of the table shows the
totals, who deals, what each still needs and the last hand in large type; it turns for
the far side, splits into a half for each side, keeps the screen on and follows the
other phones' saves. Read from what Chromium drew, in English, Russian and Persian, at a
tablet's size and at a phone's."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGES, PROBLEMS_JS

pytestmark = pytest.mark.browser

SOON = 2000  # ms: from another phone's save to the table's screen

# Classic rules (gin 20, undercut 10, target 100, the winner deals next), worked by hand:
#  1. Ann (seat 0) knocks with 3 against 24: Ann +21; Ann deals next.
#  2. Bob goes gin against 31: 31 + 20 = Bob +51; Bob deals.
#  3. A dead hand: Bob deals again.
#  4. Bob knocks with 8 against Ann's 6: undercut, 8 − 6 + 10 = Ann +12; Ann deals.
# Totals Ann 33, Bob 51; still needed Ann 67, Bob 49.
HANDS = [
    {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
    {"outcome": "gin", "knocker": 1, "defender_deadwood": 31},
    {"outcome": "dead"},
    {"outcome": "knock", "knocker": 1, "knocker_deadwood": 8, "defender_deadwood": 6},
]
NAMES = {"en": ("Ann", "Bob"), "ru": ("Анна", "Борис"), "fa": ("مریم", "علی")}
UNDERCUT = {"en": "undercut", "ru": "подрез", "fa": "از زیر بریدن"}
TURN = {"en": "Turn for the far side", "fa": "چرخش برای آن سوی میز"}
SPLIT = {"en": "Split: a half for each side", "fa": "دو نیمه، هر نیمه رو به یک طرف"}
SIZES = {"phone": (390, 844), "narrow": (360, 740), "tablet": (820, 1180)}


def call(url: str, body: dict[str, Any], secret: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["X-Edit-Secret"] = secret
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def game_of(live_url: str, names: tuple[str, ...], hands: list[dict[str, Any]]) -> Any:
    game = call(f"{live_url}/api/v1/games",
                {"players": list(names), "rules": "classic", "dealer": 0})
    for hand in hands:
        call(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    return game


def page_for(browser: Any, language: str, size: str, **options: Any) -> Any:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=1, locale=LANGUAGES[language], **options)
    return context.new_page()


# For each side on screen: its name, its total, what it still needs and its line of the
# last hand, each with the box Chromium drew it in.
SIDES_JS = """(board) => [...board.querySelectorAll('.side')].map((side) => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {text: el.textContent.trim(), top: r.top, bottom: r.bottom, left: r.left,
            right: r.right, size: parseFloat(getComputedStyle(el).fontSize)}; };
  const r = side.getBoundingClientRect();
  return {box: {top: r.top, bottom: r.bottom, left: r.left, right: r.right},
          name: box(side.querySelector('.side-name strong')),
          role: box(side.querySelector('.role')),
          total: box(side.querySelector('.total')),
          needs: box(side.querySelector('.side-needs .num')),
          last: box(side.querySelector('.side-last .num'))};
})"""

ROOT_SIZE_JS = "parseFloat(getComputedStyle(document.documentElement).fontSize)"


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5
            and inner["top"] >= outer["top"] - 0.5 and inner["bottom"] <= outer["bottom"] + 0.5)


@pytest.mark.once  # what the board draws; the numbers are the HTTP tests' on both databases
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_board_shows_each_side_with_its_own_numbers(
    live_url: str, browser: Any, language: str, size: str
) -> None:
    names = NAMES[language]
    game = game_of(live_url, names, HANDS)
    page = page_for(browser, language, size)
    try:
        page.goto(f"{live_url}/g/{game['id']}/table")
        folder = OUTPUT / "table-mode"
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{language}-{size}.png"), full_page=True)
        sides = page.evaluate(SIDES_JS, page.locator(".board").element_handle())
        shown = {
            s["name"]["text"]: (s["total"]["text"], s["needs"]["text"],
                                s["last"] and s["last"]["text"], s["role"] is not None)
            for s in sides
        }
        # Ann: 33, needs 67, +12 in hand 4, deals next; Bob: 51, needs 49, nothing in hand 4.
        assert shown == {names[0]: ("33", "67", "+12", True), names[1]: ("51", "49", None, False)}
        for side in sides:  # every number drawn inside its own side's box, with its name
            for part in ("name", "total", "needs"):
                assert inside(side[part], side["box"]), (part, side)
        # A total is three times the reader's text on a tablet, twice it on a phone
        # (whose board fits its screen: tests/browser/test_table_phone.py).
        root = page.evaluate(ROOT_SIZE_JS)
        times = 3 if size == "tablet" else 2
        assert all(side["total"]["size"] >= times * root for side in sides)
        expect(page.locator(".last-hand")).to_contain_text(UNDERCUT[language])
        assert page.evaluate(PROBLEMS_JS) == []
        width = SIZES[size][0]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    finally:
        page.context.close()


@pytest.mark.once  # where the board draws each side
@pytest.mark.parametrize("language", ["en", "fa"])
def test_turned_and_split_face_the_far_side(live_url: str, browser: Any, language: str) -> None:
    game = game_of(live_url, NAMES[language], HANDS)
    page = page_for(browser, language, "tablet")
    folder = OUTPUT / "table-mode"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(f"{live_url}/g/{game['id']}/table")
        upright = page.evaluate(SIDES_JS, page.locator(".board").element_handle())
        assert all(s["name"]["bottom"] <= s["total"]["top"] + 0.5 for s in upright)
        page.get_by_role("link", name=TURN[language]).click()
        expect(page.locator(".board.turned")).to_have_count(1)
        page.screenshot(path=str(folder / f"{language}-turned.png"), full_page=True)
        turned = page.evaluate(SIDES_JS, page.locator(".board").element_handle())
        # Upside down: each name is drawn below its total.
        assert all(s["name"]["top"] >= s["total"]["bottom"] - 0.5 for s in turned)
        page.get_by_role("link", name=SPLIT[language]).click()
        expect(page.locator(".board")).to_have_count(2)
        page.screenshot(path=str(folder / f"{language}-split.png"), full_page=False)
        far, near = page.locator(".board").element_handles()
        far_sides, near_sides = page.evaluate(SIDES_JS, far), page.evaluate(SIDES_JS, near)
        assert all(s["name"]["top"] >= s["total"]["bottom"] - 0.5 for s in far_sides)
        assert all(s["name"]["bottom"] <= s["total"]["top"] + 0.5 for s in near_sides)
        # Both halves on the tablet's screen at once, the far one above.
        height = SIZES["tablet"][1]
        assert max(s["box"]["bottom"] for s in near_sides) <= height
        near_top = min(s["box"]["top"] for s in near_sides)
        assert max(s["box"]["bottom"] for s in far_sides) <= near_top
    finally:
        page.context.close()


def test_the_board_follows_another_phones_save(live_url: str, browser: Any) -> None:
    game = game_of(live_url, NAMES["en"], HANDS)
    page = page_for(browser, "en", "tablet")
    try:
        page.goto(f"{live_url}/g/{game['id']}/table?view=split")
        page.evaluate("window.notReloaded = true")
        # 5. Bob (dealing) is knocked on: Ann knocks with 2 against 30, Ann +28: 61, needs 39.
        call(f"{live_url}/api/v1/games/{game['id']}/hands",
             {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 30},
             game["edit_secret"])
        near = page.locator(".board").nth(1)
        expect(near.locator("#side-0 .total")).to_have_text("61", timeout=SOON)
        expect(near.locator("#side-0 .side-needs .num")).to_have_text("39")
        expect(near.locator("#side-0 .side-last .num")).to_have_text("+28")
        expect(near.locator(".last-hand")).to_contain_text("Hand 5")
        expect(page.locator(".board").first.locator("#far-side-0 .total")).to_have_text("61")
        assert page.evaluate("window.notReloaded === true")
    finally:
        page.context.close()


@pytest.mark.once  # which links the board shows to whom: the session's, not the database's
def test_entering_a_hand_is_one_tap_for_an_editor_only(live_url: str, browser: Any) -> None:
    game = game_of(live_url, NAMES["en"], HANDS)
    editor = page_for(browser, "en", "phone")
    watcher = page_for(browser, "en", "phone")
    try:
        editor.goto(game["edit_url"])
        editor.get_by_role("link", name="Table mode").click()
        editor.get_by_role("link", name="Enter hand 5").click()
        expect(editor.locator("#enter")).to_be_in_viewport()
        assert editor.url == f"{live_url}/g/{game['id']}#enter"
        watcher.goto(f"{live_url}/g/{game['id']}")  # the watch link
        watcher.get_by_role("link", name="Table mode").click()
        expect(watcher.locator(".total").first).to_have_text("33")
        expect(watcher.get_by_role("link", name="Enter hand 5")).to_have_count(0)
    finally:
        editor.context.close()
        watcher.context.close()


# A stand-in for the Screen Wake Lock API that records what the page asked of it.
FAKE_WAKE_LOCK = """
window.lockRequests = [];
Object.defineProperty(navigator, 'wakeLock', {value: {request: (type) => {
  window.lockRequests.push(type);
  const sentinel = new EventTarget();
  sentinel.release = () => Promise.resolve();
  return Promise.resolve(sentinel);
}}});
"""


@pytest.mark.once  # the page's own script
def test_the_screen_is_kept_on_without_a_tap(live_url: str, browser: Any) -> None:
    game = game_of(live_url, NAMES["en"], HANDS)
    page = page_for(browser, "en", "tablet")
    try:
        page.add_init_script(FAKE_WAKE_LOCK)
        page.goto(f"{live_url}/g/{game['id']}/table")
        expect(page.locator("#wakelock")).to_have_attribute("aria-pressed", "true")
        assert page.evaluate("window.lockRequests") == ["screen"]
        page.goto(f"{live_url}/g/{game['id']}")  # the sheet waits for a tap
        expect(page.locator("#wakelock")).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("window.lockRequests") == []
    finally:
        page.context.close()
