"""The board across the room uses the screen's height: with a field that fits, its print
grows until the tables or the standings fill their part of a 1920×1080 screen, nothing
past its edge, the scores at least as large as the names; at the night's end it says
so and shows the podium. Read from the rendered page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import LANGUAGES, api, picture

pytestmark = [pytest.mark.browser, pytest.mark.once]

SIZES_JS = """() => {
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  const sizes = (selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.checkVisibility()).map(size);
  const bottoms = [...document.querySelectorAll('.board-main section > div')]
    .map((el) => el.lastElementChild.getBoundingClientRect().bottom);
  return {
    names: sizes('.night-standings tbody th, .board-pair'),
    scores: sizes('.night-standings tbody td, .board-score'),
    bottom: Math.max(...bottoms),
    wide: document.documentElement.scrollWidth,
    tall: document.documentElement.scrollHeight,
  };
}"""


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_board_fills_the_screen_and_ends_with_the_podium(
    live_url: str, screen: Any, language: str
) -> None:
    made = api(f"{live_url}/api/v1/nights", {"players": ["Ann", "Bob", "Cy", "Di"],
                                             "variant": "gin", "rules": "classic",
                                             "format": "swiss", "rounds": 1})
    secret = made["organiser_secret"]
    first = api(f"{live_url}/api/v1/nights/{made['id']}/rounds", None, secret)
    page = screen(language, 1920, 1080)
    page.goto(made["board_url"])
    seen = page.evaluate(SIZES_JS)
    # board.css starts the print at 1.6 % of the width (30.72 px here); four players fit
    # at a larger size, and the parts reach down past three quarters of the screen.
    assert min(seen["names"]) > 31 and seen["bottom"] > 0.75 * 1080, seen
    assert min(seen["scores"]) >= max(seen["names"]) - 0.01, seen
    assert seen["wide"] <= 1920 and seen["tall"] <= 1080, seen
    picture(page, "night-board", f"playing-{language}", full=False)
    # Both tables played out and confirmed: the one round is the night.
    for table in first["tables"]:
        for knock in (60, 50):
            api(f"{live_url}/api/v1/games/{table['game']}/hands",
                {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1,
                 "defender_deadwood": knock + 1}, secret)
        api(f"{live_url}/api/v1/games/{table['game']}/confirm", None, secret)
    # The board open all along follows by itself (live.js), and shows the podium.
    page.locator("[data-night-over]").wait_for(state="visible", timeout=10_000)
    assert page.locator(".board-round").inner_text() == {
        "en": "The night is over", "ru": "Вечер окончен", "fa": "شب به پایان رسید"}[language]
    places = page.locator(".podium-places li .place").all_inner_texts()
    assert places == ["1", "1", "3", "3"]  # two winners level on everything, two losers
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    picture(page, "night-board", f"over-{language}", full=False)


SOON = 2000  # ms: from the save's answer to the board on the wall


def test_the_board_follows_a_hand_and_a_confirmation_from_another_phone(
    live_url: str, screen: Any
) -> None:
    """The board open on one screen moves within 2 s of a table's save answered on
    another phone, and of its result's confirmation."""
    from playwright.sync_api import expect

    made = api(f"{live_url}/api/v1/nights", {"players": ["Ann", "Bob"], "variant": "gin",
                                             "rules": "classic", "format": "round_robin"})
    secret = made["organiser_secret"]
    (table,) = api(f"{live_url}/api/v1/nights/{made['id']}/rounds", None, secret)["tables"]
    board = screen("en", 1920, 1080)
    board.goto(made["board_url"])
    row = board.locator("#bt-1-1")
    expect(row.locator(".board-state")).to_have_text("no hand entered yet")
    # Ann knocks 1 against 26: 25 to her (classic).
    api(f"{live_url}/api/v1/games/{table['game']}/hands",
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 26},
        secret)
    expect(row.locator(".board-score")).to_have_text("25 : 0", timeout=SOON)
    expect(row.locator(".board-state")).to_have_text("playing, 1 hand", timeout=SOON)
    for knock in (60, 20):  # 25 + 60 + 20 = 105: past the target of 100
        api(f"{live_url}/api/v1/games/{table['game']}/hands",
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1,
             "defender_deadwood": knock + 1}, secret)
    expect(row.locator(".board-state")).to_have_text(
        "finished, waiting for confirmation", timeout=SOON)
    api(f"{live_url}/api/v1/games/{table['game']}/confirm", None, secret)
    expect(board.locator(".night-standings tr[data-player=Ann] .points")).to_have_text(
        "2", timeout=SOON)
