"""A group's first screen and a player's page on a 360 px phone in English, Persian
and Russian: nothing wider than the screen, the rating beside every name."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from tests.browser.helpers import LANGUAGES, WIDTH, api, picture, russian_group

pytestmark = [pytest.mark.browser, pytest.mark.once]


# Святослав knocks with 6 (3♥4♥5♥ 7♣7♦7♠ 9♣9♦9♥, 6♥ kept: a gin laid otherwise) against
# Дмитрий's 59: the hand entered with cards brings its section onto his page.
CARDS = {"knocker": {"seat": 0, "cards": "3H 4H 5H 6H 7C 7D 7S 9C 9D 9H",
                     "melds": ["3H 4H 5H", "7C 7D 7S", "9C 9D 9H"]},
         "defender": {"cards": "2C 4D 6C 8D TC QD KC AS 3S 5D"}}


def finish_a_game(live_url: str, group: dict[str, Any]) -> None:
    """Two of the group play a game to its end (Святослав knocks for 53, with cards,
    and for 60)."""
    game = api(f"{live_url}/api/v1/games", {"players": ["Святослав", "Дмитрий"],
                                            "group": group["id"]}, group["edit_secret"])
    for hand in (CARDS, {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2,
                         "defender_deadwood": 62}):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_group_and_a_players_page_fit_360_px(
    live_url: str, narrow: Any, language: str
) -> None:
    group = russian_group(live_url)
    for _ in range(2):  # two games: his rating and win rate are drawn
        finish_a_game(live_url, group)
    page = narrow(language)
    page.goto(group["edit_url"])
    assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    assert page.locator("table.standings td.rating").count() == 4
    assert page.evaluate(BROKEN_NAMES_JS) == []
    assert page.locator("section.last-night li").count() == 2
    picture(page, "narrow", f"group-first-screen-{language}")
    player = urllib.parse.quote("Святослав")
    page.goto(f"{live_url}/groups/{group['id']}/players/{player}")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    assert page.locator("dd.rating").count() == 1
    # Every figure with what it counts under it, the cards' section among them, and none
    # of it wider than the screen.
    assert page.locator("dd.gin-missed").count() == 1
    assert page.locator("figure.chart figcaption.what").count() == 2
    assert page.evaluate(UNDEFINED_JS) == []
    assert page.evaluate(WIDER_JS) == []
    assert page.locator("table.head-to-head tbody th").count() == 1
    # «Дмитрий» whole beside his figures
    assert page.evaluate(BROKEN_NAMES_JS, "table.head-to-head tbody th") == []
    picture(page, "narrow", f"player-{language}")


# The figures on a player's page whose definition is missing or empty.
UNDEFINED_JS = """() => [...document.querySelectorAll("dl.figures .figure")]
  .filter((f) => !(f.querySelector(".what")?.textContent.trim()))
  .map((f) => f.dataset.term)"""

# What a player's page shows past the right edge of a 360 px screen, or its left edge.
WIDER_JS = """() => [...document.querySelectorAll("main *")]
  .filter((e) => { const r = e.getBoundingClientRect();
                   return r.width && (r.right > 360.5 || r.left < -0.5); })
  .map((e) => e.tagName + "." + e.className)"""


# The names in the standings whose letters run over more than one line.
BROKEN_NAMES_JS = """(rows = "table.standings tbody th") => [
    ...document.querySelectorAll(rows)]
  .filter((th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size > 1;
  }).map((th) => th.textContent.trim())"""
