"""A group's payment corrected and its settling up recorded, on a 360 px phone, in
Russian (decimal comma, the minus sign), then looked at in Persian and English.

The group is ``test_groups``' Friday: Ann −0.08, Bob −1.63, Cid +1.71. The payment form
starts as settle up's first payment (Bob pays Cid 1,63); recorded and corrected to
1,00, it leaves Bob −0,63 and Cid +0,71; recording the settling up then squares
everybody. Screenshots: test-output/browser/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_page
from tests.browser.helpers import violations
from tests.helpers import compile_catalogs, pdf_text

pytestmark = pytest.mark.browser

WIDTH = 360


def fits(page: Any) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= WIDTH, f"the page is {width}px wide"


def balance(page: Any, name: str) -> Any:
    return page.locator(f"table.balances tr[data-player={name}] td.balance")


def test_a_payment_is_corrected_and_the_settling_up_recorded_at_360px(
    browser: Any, request: pytest.FixtureRequest, live_url: str, friday: dict[str, Any]
) -> None:
    compile_catalogs()
    edit_path = friday["group"]["edit_url"].split("/groups/", 1)[1]
    # axe-core's script comes in past the app's Content-Security-Policy.
    with phone_page(browser, request, width=WIDTH, height=780, bypass_csp=True) as page:
        page.goto(live_url + "/groups/" + edit_path)
        page.get_by_role("button", name="Русский").click()
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        form = page.locator("form.payment")
        expect(form.locator("input[name=payment-amount]")).to_have_value("1,63")
        form.locator("button[type=submit]").click()
        expect(balance(page, "Bob")).to_have_text("0,00\u00a0€")
        expect(balance(page, "Ann")).to_have_text("\u22120,08\u00a0€")

        page.locator("ul.payment-history a.correct").click()
        expect(page.locator("h1")).to_have_text("Исправить платёж")
        page.locator("input[name=payment-amount]").fill("1,00")
        fits(page)
        page.shot("1-correct-ru")
        assert violations(page) == []
        page.locator("form.payment button[type=submit]").click()
        # Bob −1,63 + 1,00 = −0,63; Cid +1,71 − 1,00 = +0,71.
        expect(balance(page, "Bob")).to_have_text("\u22120,63\u00a0€")
        expect(balance(page, "Cid")).to_have_text("+0,71\u00a0€")
        expect(page.locator("div.settle-up li")).to_have_text(
            ["Bob платит Cid 0,63\u00a0€", "Ann платит Cid 0,08\u00a0€"])
        # The minus sign sits before the digits, inside its cell, on one line.
        cell = balance(page, "Bob")
        assert cell.evaluate("e => e.getClientRects().length") == 1
        box, row = cell.bounding_box(), page.locator("table.balances").bounding_box()
        assert box["x"] + box["width"] <= row["x"] + row["width"] + 0.5
        fits(page)
        page.locator("#money").scroll_into_view_if_needed()
        page.shot("2-corrected-ru")
        # Printed from the browser, the balances keep their minus sign.
        printed = " ".join(pdf_text(page.pdf(format="A4")).split())
        # (the PDF's text puts a space after the sign where the glyphs leave a gap)
        assert re.search("Bob \u2212 ?0,63 € Cid \\+0,71 €", printed), printed
        assert re.search("Ann \u2212 ?0,08 €", printed), printed
        assert not re.search(r"-\s?0,(63|08)", printed)

        for lang, button, bob in (("fa", "فارسی", "\u2212\u200e€\u00a00.63"),
                                  ("en", "English", "\u2212€0.63")):
            page.get_by_role("button", name=button).click()
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(balance(page, "Bob")).to_have_text(bob)
            # Read left to right in either direction: the sign left of the digits.
            sign = balance(page, "Bob").evaluate(
                """e => { const r = document.createRange(); const t = e.firstChild;
                          r.setStart(t, 0); r.setEnd(t, 1); const s = r.getBoundingClientRect();
                          r.setStart(t, t.length - 1); r.setEnd(t, t.length);
                          return [s.left, r.getBoundingClientRect().left]; }""")
            assert sign[0] < sign[1], lang
            fits(page)
            page.locator("#money").scroll_into_view_if_needed()
            page.shot(f"3-corrected-{lang}")

        page.locator("form.settle button").click()
        expect(page.locator("p.settle-up")).to_have_text("Everybody is square.")
        for name in ("Ann", "Bob", "Cid"):
            expect(balance(page, name)).to_have_text("€0.00")
        expect(page.locator("ul.payment-history li")).to_have_count(3)
        expect(page.locator("form.settle")).to_have_count(0)
        fits(page)
        page.shot("4-settled-en")
        page.get_by_role("link", name="History of the payments").click()
        expect(page.locator("ol.history > li")).to_have_count(3)
        expect(page.locator("ol.history > li").first).to_have_attribute("data-action", "settle")
        page.get_by_role("button", name="فارسی").click()
        expect(page.locator("ol.history > li")).to_have_count(3)
        fits(page)
        page.shot("5-history-fa")
        assert violations(page) == []
