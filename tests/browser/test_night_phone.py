"""The organiser runs a club night from a 360 px phone: every night page (the new night,
the organiser's page, the board, a table's result) fits the screen with nothing past its
edge and no name broken inside a word, in English, Persian and Russian, with long names,
in a round that holds a table in every state — playing, over and waiting for its
confirmation, confirmed, corrected, forfeited, carried into the next round — and a bye.
Read from the rendered page; screenshots: test-output/browser/night-phone/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import (
    LANGUAGES,
    LONG_NAMES,
    OPEN_DETAILS_JS,
    PROBLEMS_JS,
    SPLIT_WORDS_JS,
    api,
    picture,
)

pytestmark = [pytest.mark.browser, pytest.mark.once]

def knock(live_url: str, game: str, secret: str, points: int) -> None:
    """The first seat knocks 1 against ``points`` + 1 (classic: ``points`` to them)."""
    api(f"{live_url}/api/v1/games/{game}/hands",
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1,
         "defender_deadwood": points + 1}, secret)


def fits(page: Any, name: str) -> None:
    page.evaluate(OPEN_DETAILS_JS)
    assert page.evaluate(PROBLEMS_JS) == [], name
    assert page.evaluate(SPLIT_WORDS_JS, "main bdi") == [], name  # every name whole
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_organiser_runs_a_round_of_every_state_from_a_360_px_phone(
    live_url: str, screen: Any, language: str
) -> None:
    made = api(f"{live_url}/api/v1/nights", {"players": LONG_NAMES[language], "variant": "gin",
                                             "rules": "classic", "format": "round_robin"})
    secret, night = made["organiser_secret"], f"{live_url}/n/{made['id']}"
    first = api(f"{live_url}/api/v1/nights/{made['id']}/rounds", None, secret)
    games = [table["game"] for table in first["tables"]]
    assert len(games) == 4 and len(first["byes"]) == 1
    # Table 1 played out (120 – 0) and confirmed, then corrected; table 2 forfeited;
    # table 3 over and waiting; table 4 one hand in.
    for game, hands in zip(games, (2, 0, 2, 1), strict=True):
        for _ in range(hands):
            knock(live_url, game, secret, 60)
    api(f"{live_url}/api/v1/games/{games[0]}/confirm", None, secret)
    page = screen(language)
    page.goto(made["organiser_url"])
    fits(page, "new round")
    page.goto(f"{night}/rounds/1/tables/1/result")
    fits(page, "result")
    page.fill("#c-points_a", "100")
    page.fill("#c-reason", "A card miscounted")
    page.locator("form:has(#c-reason) button[type=submit]").click()
    page.goto(f"{night}/rounds/1/tables/2/result")
    page.locator("#f-side-0").check()
    page.fill("#f-reason", "Gone home")
    page.locator("form:has(#f-reason) button[type=submit]").click()
    page.goto(night)
    states = page.evaluate("""() => [...document.querySelectorAll('.night-tables tbody tr')]
        .map((tr) => tr.dataset.state)""")
    assert states == ["confirmed", "confirmed", "finished", "playing"]
    picture(page, "night-phone", f"organiser-{language}")
    fits(page, "organiser")
    # The next round, tables 3 and 4 carried into it.
    page.locator("button[name=carry]").click()
    page.goto(night)
    picture(page, "night-phone", f"organiser-carried-{language}")
    fits(page, "organiser, a round later")
    for name, path in (("board", f"{night}/board"), ("new night", f"{live_url}/nights/new")):
        page.goto(path)
        picture(page, "night-phone", f"{name.replace(' ', '-')}-{language}")
        fits(page, name)
