"""A group's first screen and a player's page on a 360 px phone in English, Persian
and Russian: nothing wider than the screen, the rating beside every name."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from tests.browser.helpers import LANGUAGES, api
from tests.browser.test_narrow import WIDTH, narrow, russian_group, shot  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.once]


def finish_a_game(live_url: str, group: dict[str, Any]) -> None:
    """Two of the group play a game to its end (Святослав knocks twice for 120)."""
    game = api(f"{live_url}/api/v1/games", {"players": ["Святослав", "Дмитрий"],
                                            "group": group["id"]}, group["edit_secret"])
    for _ in range(2):
        api(f"{live_url}/api/v1/games/{game['id']}/hands",
            {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 62},
            game["edit_secret"])


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_group_and_a_players_page_fit_360_px(
    live_url: str, narrow: Any, language: str  # noqa: F811 - the fixture
) -> None:
    group = russian_group(live_url)
    finish_a_game(live_url, group)
    page = narrow(language)
    page.goto(group["edit_url"])
    assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    assert page.locator("table.standings td.rating").count() == 4
    assert page.evaluate(BROKEN_NAMES_JS) == []
    assert page.locator("section.last-night li").count() == 2
    shot(page, f"group-first-screen-{language}")
    player = urllib.parse.quote("Святослав")
    page.goto(f"{live_url}/groups/{group['id']}/players/{player}")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    assert page.locator("dd.rating").count() == 1
    shot(page, f"player-{language}")


# The names in the standings whose letters run over more than one line.
BROKEN_NAMES_JS = """() => [...document.querySelectorAll("table.standings tbody th")]
  .filter((th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size > 1;
  }).map((th) => th.textContent.trim())"""
