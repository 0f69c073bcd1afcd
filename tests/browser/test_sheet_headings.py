"""A sheet's column headings at twice the reader's text size on a 360 px phone: a
player's name heading a column breaks between its words, never inside one
("Marg-aret"); a sheet too wide for the screen scrolls inside its own frame and the page
stays as wide as the screen. Every kind of game, long names in English, Persian and
Russian. Read from Chromium's boxes of each word; screenshots:
test-output/browser/sheet-headings/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import (
    LANGUAGES,
    LONG_NAMES,
    SPLIT_WORDS_JS,
    WIDTH,
    api,
    picture,
    text_size,
)
from tests.layout import KINDS, PLAYERS, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_name_heading_a_column_is_cut_inside_a_word(
    live_url: str, narrow: Any, language: str
) -> None:
    page = narrow(language)
    found = {}
    for kind in KINDS:
        players = LONG_NAMES[language][: PLAYERS.get(kind, 2)]
        game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
        for hand in hands(kind):
            api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
        text_size(page, 32)  # again: a screenshot of the whole page sets it back
        page.goto(f"{live_url}/g/{game['id']}")
        split = page.evaluate(SPLIT_WORDS_JS)
        width = page.evaluate("document.documentElement.scrollWidth")
        picture(page, "sheet-headings", f"{language}-{kind}")
        if split or width > WIDTH:
            found[kind] = (split, width)
    assert found == {}
