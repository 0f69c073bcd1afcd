"""Table mode on a phone: every side's total (each of Hollywood's three) and what it
still needs are on the screen without scrolling, in every view (upright, turned, split),
held upright (360×740) or on its side (740×360), in English, Persian and Russian, at the
reader's text size and at twice it. Read from the boxes Chromium drew against the
window. Screenshots: test-output/browser/table-phone/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import LANGUAGES, api, picture, text_size
from tests.layout import NAMES, PLAYERS, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]

# Every total and every "still needed" figure of the board(s) outside the window.
OFF_SCREEN_JS = """() => {
  const off = [];
  const shown = [...document.querySelectorAll(".board .total, .board .side-needs .num")];
  for (const figure of shown) {
    const r = figure.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5
        || r.right > innerWidth + 0.5) {
      off.push(`${figure.closest(".board").className} ${figure.textContent.trim()}`);
    }
  }
  return {off, totals: document.querySelectorAll(".board .total").length,
          needs: document.querySelectorAll(".board .side-needs .num").length};
}"""

KINDS = ("gin", "oklahoma", "hollywood", "three_hand", "partnership", "remi")
# The sides each kind's board shows: players, or partnership's two teams.
SIDES = {"gin": 2, "oklahoma": 2, "hollywood": 2, "three_hand": 3, "partnership": 2, "remi": 4}
# The totals each side has: Hollywood's three games are open from the first hand and
# none has closed after the sample's four hands, so each player has a total in each.
COLUMNS = {kind: 3 if kind == "hollywood" else 1 for kind in KINDS}
# What each total still needs, beside it: Remi's board shows its totals alone, with no
# "still needed" (games/table_views.py).
NEEDS = {kind: kind != "remi" for kind in KINDS}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_total_and_need_is_on_a_phones_screen(
    live_url: str, screen: Any, language: str
) -> None:
    games = {}
    for kind in KINDS:
        players = list(NAMES[language][: PLAYERS.get(kind, 2)])
        game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
        for hand in hands(kind):
            api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
        games[kind] = game["id"]
    off_screen = {}
    for width, height in ((360, 740), (740, 360)):
        page = screen(language, width, height)
        for points in (16, 32):
            text_size(page, points)
            for kind, game_id in games.items():
                for view in ("upright", "turned", "split"):
                    page.goto(f"{live_url}/g/{game_id}/table?view={view}")
                    found = page.evaluate(OFF_SCREEN_JS)
                    copies = 2 if view == "split" else 1
                    assert found["totals"] == copies * SIDES[kind] * COLUMNS[kind]
                    assert found["needs"] == found["totals"] * NEEDS[kind]
                    if found["off"]:
                        name = f"{kind}-{view}-{width}x{height}-{points}"
                        off_screen[name] = found["off"]
                        picture(page, "table-phone", f"{language}-{name}", full=False)
    assert off_screen == {}
