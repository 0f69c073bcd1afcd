"""House rules at the table, at 360 px in English, Persian and Russian: pick a preset,
open its card, settle an undercut on /check, keep the ruling, open it on another phone
(its link read from the QR code on screen) and tap through to the undercut rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGE_NAMES, decode, no_sideways_scroll, small_phone

pytestmark = [pytest.mark.browser]

UNDERCUT = {"en": "Undercut", "fa": "از زیر بریدن", "ru": "Подрез"}
VERDICT = {"en": "Defender scores 26", "fa": "\u2068حریف\u2069 26 امتیاز می‌گیرد",
           "ru": "Соперник получает 26"}
# RULES.md §8 example 7: the defender lays off and undercuts (Russian: 1 + 25).
KNOCKER = "KS KH KD 5S 6S 7S 9C TC JC JD"
DEFENDER = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"


# The ruling is kept in the database: in English on both; the other languages change
# only what the pages say, which no database changes (the SQLite pass only).
@pytest.mark.parametrize("lang", [pytest.param(lang, marks=[] if lang == "en" else pytest.mark.once)
                                  for lang in LANGUAGE_NAMES])
def test_a_table_agrees_its_rules_and_keeps_an_undercut_ruling(
    browser: Any, live_url: str, lang: str, tmp_path: Path
) -> None:
    shots = OUTPUT / f"rule_cards_{lang}"
    shots.mkdir(parents=True, exist_ok=True)
    context, page = small_phone(browser, "en")
    page.goto(f"{live_url}/games/new")
    page.get_by_role("button", name=LANGUAGE_NAMES[lang]).click()
    # The new-game form links the cards next to the preset choice.
    with context.expect_page() as opened:
        page.locator("a[href='/rules']").first.click()
    cards = opened.value
    cards.wait_for_load_state()
    cards.locator("a[href='/rules/russian']").click()
    expect(cards.locator("section#undercut h2")).to_have_text(UNDERCUT[lang])
    expect(cards.locator("#undercut [data-setting='undercut_bonus']")).to_have_attribute(
        "data-value", "25")
    no_sideways_scroll(cards)
    cards.screenshot(path=str(shots / "card.png"), full_page=False)

    page.goto(f"{live_url}/check")
    page.select_option("#preset", "russian")
    page.fill("#knocker_cards", KNOCKER)
    page.fill("#defender_cards", DEFENDER)
    page.locator("form.check-form button[type=submit]").click()
    expect(page.locator("#result .verdict strong")).to_have_text(VERDICT[lang])
    page.locator("#keep-ruling").click()
    expect(page.locator(".ruling-verdict .verdict strong")).to_have_text(VERDICT[lang])
    url = page.locator("#ruling-url").input_value()
    assert url.startswith(f"{live_url}/rulings/")
    assert decode(page, "#ruling-qr", tmp_path / "ruling-qr.png") == url
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "ruling.png"), full_page=True)
    context.close()

    # The other player's phone: no cookie, his own language from the browser.
    other_context, other = small_phone(browser, lang)
    other.goto(url)
    expect(other.locator(".ruling-verdict .verdict strong")).to_have_text(VERDICT[lang])
    other.locator("#rule-link").click()
    other.wait_for_url(f"{live_url}/rules/russian#undercut")
    expect(other.locator("section#undercut h2")).to_have_text(UNDERCUT[lang])
    expect(other.locator("section#undercut")).to_be_in_viewport()
    other.screenshot(path=str(shots / "undercut-rule.png"), full_page=False)
    other_context.close()
