"""The score sheet at phone size in Persian (right to left) and in Russian: the language
is picked with the switcher on the page, a russian-preset game is played to its end
(RULES.md §8: Ann 278, Bob 125), and screenshots go to test-output/browser/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.helpers import compile_catalogs

pytestmark = [pytest.mark.browser, pytest.mark.once]

# The words the switcher, the sheet and the settlement show in each language.
WORDS = {
    "fa": {"switch": "فارسی", "wins": "Ann برندهٔ بازی است", "hand": "دست 1 ذخیره شد"},
    "ru": {"switch": "Русский", "wins": "Ann выигрывает партию", "hand": "Раздача 1 сохранена"},
}


def save_quick(page: Any, outcome: str, knocker: int, k: int | None, d: int, hand: int) -> None:
    """Enter hand number ``hand`` in quick mode and wait until the sheet shows it."""
    form = page.locator("form.quick")
    form.locator(f"input[name=outcome][value={outcome}]").check()
    form.locator(f"input[name=knocker][value='{knocker}']").check()
    if k is not None:
        form.locator("input[name=knocker_deadwood]").fill(str(k))
    form.locator("input[name=defender_deadwood]").fill(str(d))
    form.locator("button[type=submit]").click()
    expect(page.locator(f"#hand-{hand}")).to_have_count(1)


def overlapping(page: Any, selector: str) -> list[str]:
    """Pairs of elements matching ``selector`` whose boxes overlap (text on text)."""
    found: list[str] = page.evaluate(
        """(selector) => {
            const boxes = [...document.querySelectorAll(selector)]
              .filter((el) => el.offsetParent !== null)
              .map((el) => [el, el.getBoundingClientRect()]);
            const out = [];
            for (let i = 0; i < boxes.length; i++) {
              for (let j = i + 1; j < boxes.length; j++) {
                const [a, ra] = boxes[i], [b, rb] = boxes[j];
                if (a.contains(b) || b.contains(a)) continue;
                const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
                const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
                if (w > 1 && h > 1) out.push(a.textContent.trim() + " / " + b.textContent.trim());
              }
            }
            return out;
        }""",
        selector,
    )
    return found


@pytest.mark.parametrize("lang", ["fa", "ru"])
def test_the_score_sheet_at_phone_size(live_url: str, phone: Any, lang: str) -> None:
    compile_catalogs()
    words = WORDS[lang]
    page = phone
    page.goto(live_url + "/")
    page.locator("form.lang").get_by_role("button", name=words["switch"]).click()
    html = page.locator("html")
    assert html.get_attribute("lang") == lang
    assert html.get_attribute("dir") == ("rtl" if lang == "fa" else "ltr")

    page.goto(live_url + "/games/new")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.select_option("select[name=preset]", "russian")
    phone.shot(f"{lang}-1-new-game")
    page.locator("main form button[type=submit]").last.click()

    save_quick(page, "knock", 0, 1, 16, 1)  # Ann 15
    expect(page.locator("body")).to_contain_text(words["hand"])
    save_quick(page, "gin", 1, None, 22, 2)  # Bob 22 + 25 = 47
    save_quick(page, "gin", 0, None, 30, 3)  # Ann 55
    phone.shot(f"{lang}-2-mid-game")
    save_quick(page, "knock", 1, 2, 30, 4)  # Bob 28
    save_quick(page, "knock", 0, 1, 34, 5)  # Ann 33 → 103, game over

    settlement = page.locator("#settlement")
    assert words["wins"] in re.sub("[\u2066-\u2069]", "", settlement.inner_text())
    assert settlement.locator(".final").all_inner_texts() == ["278", "125"]
    assert not overlapping(page, "table td, table th, #settlement .final, .top *")
    # Nothing wider than the phone: no sideways scrolling in either direction.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.shot(f"{lang}-3-finished")

    page.locator("#hand-2 a").first.click()  # the hand page with its steps
    phone.shot(f"{lang}-4-hand")
