"""A club night in the browser: the new-night form, the organiser's page and the board
at 360 px in English, Persian and Russian (nothing wider than the screen, no controls
overlapping), and the board on a 1920x1080 screen: standings text at least 28 px, read
from the rendered page, and pages turned when the field does not fit. Screenshots:
test-output/browser/nights/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import (
    LANGUAGES,
    NIGHT_NAMES,
    OPEN_DETAILS_JS,
    PROBLEMS_JS,
    api,
    night,
    picture,
)

pytestmark = [pytest.mark.browser, pytest.mark.once]

@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_night_pages_fit_a_narrow_phone(live_url: str, screen: Any, language: str) -> None:
    made, first = night(live_url, NIGHT_NAMES)
    # One table played a hand, so the board and the organiser show a running score.
    api(f"{live_url}/api/v1/games/{first['tables'][0]['game']}/hands",
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 1, "defender_deadwood": 31},
        made["organiser_secret"])
    page = screen(language)
    for name, path in (("new", "/nights/new"), ("organiser", made["organiser_url"]),
                       ("board", made["board_url"])):
        page.goto(path if path.startswith("http") else live_url + path)
        page.evaluate(OPEN_DETAILS_JS)
        assert page.evaluate(PROBLEMS_JS) == [], name
        picture(page, "nights", f"{name}-{language}")
    # The organiser's page shows the running score of table 1: 30 to 0.
    page.goto(made["organiser_url"])
    assert "30" in page.locator("#table-1-1").inner_text()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_board_reads_from_across_the_room(live_url: str, screen: Any, language: str) -> None:
    made, _first = night(live_url, [f"Player {n:02d}" for n in range(1, 41)])
    page = screen(language, 1920, 1080)
    page.goto(made["board_url"])
    sizes = page.evaluate("""() => [...document.querySelectorAll(
        '.night-standings tbody th, .night-standings tbody td')]
        .filter((el) => el.checkVisibility())
        .map((el) => parseFloat(getComputedStyle(el).fontSize))""")
    assert sizes and min(sizes) >= 28
    # Forty players do not fit one screen: the board shows a page of them and says so.
    shown = page.locator(".night-standings tbody tr:visible").count()
    assert 0 < shown < 40
    assert page.locator("[data-page-note]").inner_text() != ""
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    picture(page, "nights", f"board-1920-{language}", full=False)
