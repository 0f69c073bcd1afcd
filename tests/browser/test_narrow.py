"""A 360 px phone in English, Persian and Russian: the card picker keeps each suit in two
rows, the group page's period shows its whole choice, table headings break between words
only, and a Russian three-hand sheet with long names does not scroll sideways.
Screenshots: test-output/browser/narrow/."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import LANGUAGES, SPLIT_WORDS_JS, WIDTH, api, picture, russian_group
from tests.layout import hands

pytestmark = [pytest.mark.browser, pytest.mark.once]

# The distinct tops of each suit's buttons, and their smallest width and height.
SUIT_ROWS_JS = """() => [...document.querySelectorAll(".picker-suit")].map((suit) => {
  const boxes = [...suit.querySelectorAll("button")].map((b) => b.getBoundingClientRect());
  return {rows: new Set(boxes.map((r) => Math.round(r.top))).size,
          width: Math.min(...boxes.map((r) => r.width)),
          height: Math.min(...boxes.map((r) => r.height))};
})"""


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_each_suit_of_the_picker_takes_two_rows(
    live_url: str, narrow: Any, language: str
) -> None:
    """Wherever cards are entered one by one — the checkers of gin and Remi, a game's
    card-by-card entry (gin, partnership's two tables, Remi): thirteen cards in two rows,
    every card a target of 24 px or more (WCAG 2.2)."""
    page = narrow(language)
    players = ["Ann", "Bob", "Cid", "Dan"]
    gin = api(f"{live_url}/api/v1/games", {"variant": "gin", "players": players[:2]})
    four = api(f"{live_url}/api/v1/games", {"variant": "partnership", "players": players})
    remi = api(f"{live_url}/api/v1/games", {"variant": "remi", "players": players})
    for name, path, edit_url in (
        ("check", "/check", None),
        ("remi-check", "/remi/check", None),
        ("gin-cards", f"/g/{gin['id']}/hands/new", gin["edit_url"]),
        ("partnership-cards", f"/g/{four['id']}/hands/new", four["edit_url"]),
        ("remi-cards", f"/g/{remi['id']}/hands/new", remi["edit_url"]),
    ):
        if edit_url:
            page.goto(edit_url)
        page.goto(live_url + path)
        expect(page.locator("[data-picker]")).to_be_visible()
        suits = page.evaluate(SUIT_ROWS_JS)
        assert len(suits) == 4
        picture(page, "narrow", f"picker-{name}-{language}")
        for suit in suits:
            assert suit["rows"] <= 2, f"{name}: a suit takes {suit['rows']} rows"
            assert suit["width"] >= 24 and suit["height"] >= 24, f"{name}: {suit}"


# The options of a select that its box cuts short (every option, or the chosen one): a
# copy of the select holding that option alone and as wide as it needs (width: auto) is
# wider than the select.
CUT_OPTIONS_JS = """([select, every]) => {
  const width = select.getBoundingClientRect().width;
  const cut = [];
  for (const option of every ? select.options : [select.selectedOptions[0]]) {
    const copy = select.cloneNode(false);
    copy.removeAttribute("id");
    copy.style.width = "auto";
    copy.append(new Option(option.text));
    select.after(copy);
    const needed = copy.getBoundingClientRect().width;
    copy.remove();
    if (needed > width + 0.5) {
      cut.push(`${option.text}: ${Math.round(needed)} px in ${Math.round(width)}`);
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_choice_of_the_group_filters_shows_whole(
    live_url: str, narrow: Any, language: str
) -> None:
    """The period («За всё время», «Последние 12 месяцев») and the kind of game («Индонезийское
    Реми») on the group's page and on a player's: every choice shows in full in its
    select; so does what every other select there shows (the payer and payee of the
    editor's payment form)."""
    group = russian_group(live_url)
    page = narrow(language)
    page.goto(group["edit_url"])
    player = urllib.parse.quote("Александра")
    for where, path in (("group", f"/groups/{group['id']}"),
                        ("player", f"/groups/{group['id']}/players/{player}")):
        page.goto(live_url + path)
        selects = page.locator("select")
        assert selects.count() >= 2
        cut = {}
        for i in range(selects.count()):
            select = selects.nth(i)
            name = select.get_attribute("name")
            found = page.evaluate(CUT_OPTIONS_JS, [select.element_handle(),
                                                     name in ("period", "kind", "variant")])
            if found:
                cut[name] = found
        picture(page, "narrow", f"{where}-{language}")
        assert cut == {}, where


def test_russian_headings_break_between_words_only(live_url: str, narrow: Any) -> None:
    """A group of long names and one of its players at 360 px in Russian: no word of a
    heading («Партии», «Побед», «Разница», a player's name) is cut over two lines.
    (Every kind of page test_layout opens is checked the same way there, in Russian at
    360 px, while it has the page open.)"""
    page = narrow("ru")
    group = russian_group(live_url)["id"]
    player = urllib.parse.quote("Александра")
    long_names = [("long-names-group", f"/groups/{group}"),
                  ("long-names-player", f"/groups/{group}/players/{player}")]
    split = {}
    for name, path in long_names:
        page.goto(live_url + path)
        found = page.evaluate(SPLIT_WORDS_JS)
        if found:
            split[name] = found
            picture(page, "narrow", f"split-{name}-ru")
    assert split == {}, json.dumps(split, ensure_ascii=False)


def test_a_russian_three_hand_sheet_with_long_names_fits(live_url: str, narrow: Any) -> None:
    """Александра, Борислав and Святослав at three-hand gin, four hands played: neither
    the page nor the sheet is wider than the 360 px screen, and the names heading the
    columns are whole."""
    game = api(f"{live_url}/api/v1/games", {
        "variant": "three_hand", "players": ["Александра", "Борислав", "Святослав"]})
    for hand in hands("three_hand"):
        api(f"{live_url}/api/v1/games/{game['id']}/hands", hand, game["edit_secret"])
    page = narrow("ru")
    for edit in (False, True):
        if edit:
            page.goto(game["edit_url"])  # the editor's sheet has the hand's form under it
        page.goto(f"{live_url}/g/{game['id']}")
        picture(page, "narrow", f"three-hand-ru{'-edit' if edit else ''}")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
        assert page.locator("#sheet").evaluate("(t) => t.getBoundingClientRect().right") <= WIDTH
        assert page.evaluate(SPLIT_WORDS_JS) == []
