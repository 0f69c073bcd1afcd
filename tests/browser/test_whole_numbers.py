"""A number is never cut over two lines: on a 360 px phone in English, Persian and Russian,
at the reader's usual text size and at 200 %, every run of digits (Latin or Persian, with
its sign and separators) on the pages that show scores and money is drawn on one line.
Read from Chromium's boxes of each run (a Range over its characters), not from the
markup. Screenshots: test-output/browser/whole-numbers/."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.helpers import (
    LANGUAGES,
    NIGHT_NAMES,
    OPEN_DETAILS_JS,
    api,
    night,
    picture,
    text_size,
)
from tests.layout import KINDS, NAMES, PLAYERS, hands

pytestmark = [pytest.mark.browser, pytest.mark.once]

# Every run of digits whose boxes lie on more than one line: a box whose middle is
# outside the first box's top and bottom starts another line. A run is a number with its
# sign and the separators inside it ("−1 250,50", "+21", "۱۰۰").
SPLIT_NUMBERS_JS = r"""() => {
  const digit = "[0-9\u06F0-\u06F9\u0660-\u0669]";
  const run = new RegExp(`[+\u2212-]?${digit}+(?:[.,\u066B\u066C\u00A0\u202F]${digit}+)*`, "g");
  const split = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element.checkVisibility() || element.closest("script, style, svg, option")) continue;
    for (const found of node.data.matchAll(run)) {
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
      const [first] = boxes;
      if (boxes.some((r) => (r.top + r.bottom) / 2 < first.top
                            || (r.top + r.bottom) / 2 > first.bottom)) {
        split.push(`${found[0]} in ${element.tagName.toLowerCase()}.${element.className}`
                   + ` '${element.textContent.trim().slice(0, 40)}'`);
      }
    }
  }
  return split;
}"""

# Long names in each language: a name and its number glued by a no-break space are one
# word, which a narrow column used to cut through the number.
LONG = {"en": ("Alexandra Montgomery-Smythe", "Bartholomew Fitzgerald", "Cid"),
        "ru": ("Александра Владимировна", "Святослав Игоревич", "Светлана"),
        "fa": ("سارا محمدی‌نژاد", "علیرضا حسین‌زاده", "مریم")}


def play(live_url: str, game: dict[str, Any], played: list[dict[str, Any]]) -> None:
    for hand in played:
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])


def pages(live_url: str, language: str) -> Iterator[tuple[str, str]]:
    """(name, path) of the pages that show numbers: the sheet, table mode (every view)
    and a hand of a game of every kind, games with long names, a group with a stake and
    a finished game, a player's page, a club night's organiser page and its board."""
    for kind in KINDS:
        players = list(NAMES[language][: PLAYERS.get(kind, 2)])
        game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
        play(live_url, game, hands(kind))
        base = f"/g/{game['id']}"
        yield f"{kind}-sheet", base
        yield f"{kind}-hand", f"{base}/hands/1"
        for view in ("upright", "turned", "split"):
            yield f"{kind}-table-{view}", f"{base}/table?view={view}"
    for kind in ("gin", "three_hand"):
        players = list(LONG[language][: PLAYERS.get(kind, 2)])
        game = api(f"{live_url}/api/v1/games", {"variant": kind, "players": players})
        play(live_url, game, hands(kind))
        yield f"long-{kind}-sheet", f"/g/{game['id']}"
        yield f"long-{kind}-table", f"/g/{game['id']}/table"
    players = list(LONG[language][:2])
    group = api(f"{live_url}/api/v1/groups", {"name": "Friday", "players": players,
                                              "stake": "0.25", "currency": "EUR"})
    game = api(f"{live_url}/api/v1/games", {"players": players, "group": group["id"],
                                            "rules": "classic"}, group["edit_secret"])
    # The first player goes gin twice against 31 (31 + 20 each): 102 to 0, the game is over.
    play(live_url, game, [{"outcome": "gin", "knocker": 0, "defender_deadwood": 31}] * 2)
    yield "finished-sheet", f"/g/{game['id']}"
    yield "group", f"/groups/{group['id']}"
    yield "player", f"/groups/{group['id']}/players/{urllib.parse.quote(players[0])}"
    made, _first = night(live_url, NIGHT_NAMES)
    yield "organiser", made["organiser_url"].removeprefix(live_url)
    yield "board", made["board_url"].removeprefix(live_url)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_number_is_cut_over_two_lines(live_url: str, narrow: Any, language: str) -> None:
    page = narrow(language)
    cut: dict[str, list[str]] = {}
    points = 16
    text_size(page, points)
    for name, path in pages(live_url, language):
        # Each page is opened once at the size the last one ended at and looked at in
        # both sizes: a new text size lays the open page out again (the board sizes
        # itself as it loads, board.js: it is loaded again).
        page.goto(live_url + path)
        page.evaluate(OPEN_DETAILS_JS)
        for turn in (0, 1):
            if turn:
                points = 48 - points
                text_size(page, points)
                if name == "board":
                    page.reload()
            if found := page.evaluate(SPLIT_NUMBERS_JS):
                cut[f"{name} at {points * 100 // 16} %"] = found[:5]
                picture(page, "whole-numbers", f"{language}-{name}-{points}")
                text_size(page, points)  # a picture of the whole page sets it back
    assert cut == {}


def test_the_check_finds_a_number_cut(live_url: str, narrow: Any) -> None:
    """The check above, on a box three digits wide: an eight-digit number in plain text
    (Latin or Persian digits) is cut, as a long word is, and found; marked as a number
    (the app's stylesheet) it stays whole."""
    page = narrow("fa")
    page.goto(live_url + "/")
    page.evaluate("""() => {  // styled through the DOM: the pages allow no inline style
      for (const [text, marked] of [["−12345678", false], ["۱۲۳۴۵۶۷۸", false],
                                    ["−12345678", true]]) {
        const box = document.createElement("p");
        box.style.width = "3ch";
        const number = document.createElement("span");
        if (marked) number.className = "num";
        number.textContent = text;
        box.append(number);
        document.querySelector("main").append(box);
      }
    }""")
    assert page.evaluate(SPLIT_NUMBERS_JS) == ["−12345678 in span. '−12345678'",
                                               "۱۲۳۴۵۶۷۸ in span. '۱۲۳۴۵۶۷۸'"]
