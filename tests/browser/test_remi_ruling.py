"""A Remi dispute at 360 px in English, Persian and Russian: /remi/check settles
RULES.md §8's deal, "Keep this ruling" keeps it, and the kept ruling's step about the
set that does not count is one tap from the rule on the Remi card."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGE_NAMES, no_sideways_scroll, small_phone

pytestmark = [pytest.mark.browser]

SETS = {"en": "Sets, sequence first", "fa": "سری‌ها، اول ردیف",
        "ru": "Сеты: сначала последовательность"}
# RULES.md §8: Ann goes out on A♦, Bob holds seed 002's hand, Dan's queens do not count.
DEAL = {
    "players-0-player_name": "Ann", "players-0-hand": "2H 3H 4H 5H KC KD KS",
    "players-1-player_name": "Bob", "players-1-hand": "QC JD JC 6C 5C 4C 3C",
    "players-2-player_name": "Dan", "players-2-hand": "QS QH QD 2S 6H 8D AH",
    "final_discard": "AD",
}
SCORES = "Ann +200 · Bob −10 · Dan −60"


# The ruling is kept in the database: in English on both; the other languages change
# only what the pages say, which no database changes (the SQLite pass only).
@pytest.mark.parametrize("lang", [pytest.param(lang, marks=[] if lang == "en" else pytest.mark.once)
                                  for lang in LANGUAGE_NAMES])
def test_a_remi_deal_kept_as_a_ruling_cites_its_rules(
    browser: Any, live_url: str, lang: str
) -> None:
    shots = OUTPUT / f"remi_ruling_{lang}"
    shots.mkdir(parents=True, exist_ok=True)
    context, page = small_phone(browser, lang)
    page.goto(f"{live_url}/remi/check")
    page.locator("details.remi-more summary").first.click()  # the third player
    for field, value in DEAL.items():
        page.fill(f"#{field}", value)
    page.check("#went_out-0")
    page.locator("form.remi-form button[type=submit]").click()
    expect(page.locator("#result .remi-scores")).to_be_visible()
    sets = page.locator("#result ol.explanation a.rule-ref[href='/rules/remi#sets']")
    expect(sets).to_have_count(2)  # Ann's kings, Dan's queens that do not count
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "check.png"), full_page=True)

    page.locator("#keep-ruling").click()
    page.wait_for_url(re.compile(f"{re.escape(live_url)}/rulings/[\\w-]+$"))
    expect(page.locator(".ruling-verdict .verdict strong")).to_have_text(SCORES)
    expect(page.locator(".ruling-hands .side")).to_have_count(3)
    expect(page.locator("ol.explanation li")).to_have_count(11)
    expect(page.locator("ol.explanation li a.rule-ref")).to_have_count(11)  # one a step
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "ruling.png"), full_page=True)

    page.locator("ol.explanation li", has_text="Q♠").first.locator("a.rule-ref").click()
    page.wait_for_url(f"{live_url}/rules/remi#sets")
    expect(page.locator("section#sets h2")).to_have_text(SETS[lang])
    expect(page.locator("section#sets")).to_be_in_viewport()
    page.screenshot(path=str(shots / "sets-rule.png"), full_page=False)
    context.close()
