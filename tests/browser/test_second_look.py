"""A phone at 360 px on the table's Wi-Fi: a page over plain HTTP says what it cannot do,
hands kept on the phone stand on the sheet and count for what comes next, and a card
hand kept offline ends on the sheet."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM
from tests.browser.helpers import hands, new_game, shot
from tests.live import serve

pytestmark = [pytest.mark.browser, pytest.mark.once]

# The table's Wi-Fi address of the server, as a phone opens it: not this machine's own
# name, so the browser treats plain HTTP there as insecure (127.0.0.1 would be secure).
# A name without a dot, as a home network names a computer: the app answers to it
# unconfigured (a dotted name would need SCOREKEEPER_HOSTS).
TABLE_HOST = "scoretable"

INSECURE = {
    "en": (
        "This page is not on HTTPS: no “Keep the screen on”, no offline copies, "
        "no installing. Serving over HTTPS"
    ),
    "fa": (
        "این صفحه روی HTTPS نیست: «صفحه روشن بماند»، نسخهٔ آفلاین و نصب برنامه "
        "در کار نیست. راه‌اندازی روی HTTPS"
    ),
    "ru": (
        "Страница открыта не по HTTPS: нет кнопки «Не гасить экран», копий страниц "
        "без сети и установки. Как включить HTTPS"
    ),
}


@pytest.fixture(scope="module")
def table_browser(browser: Any) -> Iterator[Any]:
    """A Chromium that finds ``scoretable`` at this machine, like a phone finding the
    server at its Wi-Fi address."""
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            f"--host-resolver-rules=MAP {TABLE_HOST} 127.0.0.1",
            "--no-first-run",
        ],
    )
    yield chromium
    chromium.close()


def phone_in(browser: Any, language: str, **extra: Any) -> Any:
    return browser.new_context(
        viewport={"width": 360, "height": 780},
        device_scale_factor=1,
        locale={"fa": "fa-IR", "ru": "ru-RU"}.get(language, "en-GB"),
        extra_http_headers={"Accept-Language": language},
        timezone_id="UTC",
        **extra,
    )


# --- plain HTTP ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fa", "ru"])
def test_over_plain_http_the_sheet_says_what_is_missing_where_the_screen_button_was(
    app: Flask, table_browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    game = new_game(app.test_client(), "classic")
    with serve(app) as url:
        port = url.rsplit(":", 1)[1]
        context = phone_in(table_browser, language)
        try:
            page = context.new_page()
            page.goto(f"http://{TABLE_HOST}:{port}/g/{game['id']}?key={game['edit_secret']}")
            assert page.evaluate("window.isSecureContext") is False
            note = page.locator("#netstatus #insecure-note")
            expect(note).to_be_visible()
            assert " ".join(note.inner_text().split()) == INSECURE[language]
            expect(page.locator("#wakelock")).to_be_hidden()
            # The note stands where the button would, above the sheet.
            assert note.bounding_box()["y"] < page.locator("#sheet").bounding_box()["y"]
            link = note.locator("a")
            assert link.get_attribute("href") == "/help/https"
            shot(page, request, "insecure")
            link.click()
            expect(page.locator("main h1")).to_have_count(1)
            expect(page.locator("main pre").first).to_contain_text("proxy_set_header Host $host;")
            expect(page.locator("main")).to_contain_text(
                "SCOREKEEPER_PROXIES=1 SCOREKEEPER_SECURE_COOKIES=1 scorekeeper serve"
            )
            shot(page, request, "https-help")
        finally:
            context.close()


def test_over_https_or_on_the_servers_own_machine_nothing_is_said(
    app: Flask, live_url: str, browser: Any
) -> None:
    game = new_game(app.test_client(), "classic")
    context = phone_in(browser, "en")
    try:
        page = context.new_page()
        page.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")
        assert page.evaluate("window.isSecureContext") is True
        expect(page.locator("#wakelock")).to_be_visible()
        expect(page.locator("#insecure-note")).to_be_hidden()
    finally:
        context.close()


# --- hands kept on the phone ------------------------------------------------------------

PENDING = {
    "en": {"hand": "Hand", "waiting": "waiting to send", "saved": "Hand 1 saved.",
           "note": "The totals do not count the hands waiting to send yet."},
    "fa": {"hand": "دست", "waiting": "در انتظار ارسال", "saved": "دست 1 ذخیره شد.",
           "note": "جمع‌ها هنوز دست‌های در انتظار ارسال را حساب نمی‌کنند."},
}


def knock(page: Any, knocker: int, k: int, d: int) -> None:
    page.locator("input[name=outcome][value=knock]").check()
    page.locator(f"input[name=knocker][value='{knocker}']").check()
    page.fill("input[name=knocker_deadwood]", str(k))
    page.fill("input[name=defender_deadwood]", str(d))
    page.locator("form[data-offline-queue] button[type=submit]").click()


def pending_rows(page: Any) -> list[list[str]]:
    rows = page.locator("#sheet tbody tr.pending")
    return [
        [" ".join(cell.split()) for cell in row.locator("td").all_inner_texts()]
        for row in rows.all()
    ]


@pytest.mark.parametrize("language", ["en", "fa"])
def test_hands_kept_offline_stand_on_the_sheet_and_count_for_the_next_hand_and_dealer(
    app: Flask, browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    """Classic rules, winner deals; Ann deals first. Hand 1 (saved): Ann knocks 3 against
    20, so Ann deals hand 2. Offline, hand 2: Ann knocks 8 and Bob has 5, an undercut:
    Bob wins and deals hand 3. Hand 3: dead, Bob deals again."""
    words = PENDING[language]
    client = app.test_client()
    game = new_game(client, "classic")
    with serve(app) as url:
        context = phone_in(browser, language, service_workers="block")
        try:
            page = context.new_page()
            page.goto(f"{url}/g/{game['id']}?key={game['edit_secret']}")
            knock(page, 0, 3, 20)
            expect(page.locator("main > .flash")).to_have_text(words["saved"])
            expect(page.locator("#next-dealer")).to_have_text("Ann")

            context.set_offline(True)
            knock(page, 0, 8, 5)
            expect(page.locator("#netstatus .waiting-marker")).to_be_visible()
            expect(page.locator("main > .flash")).to_have_count(0)  # not "Hand 1 saved."
            rows = pending_rows(page)
            assert [r[0] for r in rows] == ["2"]
            assert rows[0][1].startswith(words["waiting"])
            expect(page.locator("#enter")).to_have_text(f"{words['hand']} 3")
            expect(page.locator("#next-dealer")).to_have_text("Bob")
            expect(page.locator("#pending-note")).to_have_text(words["note"])
            # Ann's 17 from hand 1 is the last total the sheet knows.
            assert page.locator("#hand-1 td").nth(1).inner_text().split() == ["+17", "▮", "17"]
            shot(page, request, "one-kept")

            page.locator("input[name=outcome][value=dead]").check()
            page.locator("form[data-offline-queue] button[type=submit]").click()
            expect(page.locator("#sheet tbody tr.pending")).to_have_count(2)
            assert [r[0] for r in pending_rows(page)] == ["2", "3"]
            expect(page.locator("#enter")).to_have_text(f"{words['hand']} 4")
            expect(page.locator("#next-dealer")).to_have_text("Bob")
            assert hands(client, game["id"]) == [hands(client, game["id"])[0]]
            shot(page, request, "two-kept")

            context.set_offline(False)  # both are sent, in order, and the sheet is the server's
            expect(page.locator("#hand-3")).to_be_visible(timeout=15_000)
            expect(page.locator("#sheet tbody tr.pending")).to_have_count(0)
            expect(page.locator("#pending-note")).to_be_hidden()
            expect(page.locator("#enter")).to_have_text(f"{words['hand']} 4")
            expect(page.locator("#next-dealer")).to_have_text("Bob")
            assert [h["outcome"] for h in hands(client, game["id"])] == ["knock", "knock", "dead"]
            shot(page, request, "sent")
        finally:
            context.close()


# --- a card hand kept offline ends on the sheet -------------------------------------------


@pytest.mark.parametrize("language", ["en"])
def test_a_card_hand_kept_offline_over_plain_http_ends_on_the_sheet(
    app: Flask, table_browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    """Classic rules: Bob goes gin; Ann is left with 5♦ 7♠ 10♥ = 22, so Bob scores 22 and
    the gin bonus of 20: 42."""
    client = app.test_client()
    game = new_game(client, "classic")
    with serve(app) as url:
        base = f"http://{TABLE_HOST}:{url.rsplit(':', 1)[1]}"
        context = phone_in(table_browser, language)
        try:
            page = context.new_page()
            page.goto(f"{base}/g/{game['id']}?key={game['edit_secret']}")
            page.goto(f"{base}/g/{game['id']}/hands/new")
            assert page.evaluate("window.isSecureContext") is False
            context.set_offline(True)
            page.locator("input[name=knocker][value='1']").check()
            page.fill("[name=knocker_cards]", "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D")
            page.fill("[name=defender_cards]", "TC JC QC KC 8H 8C 8S 5D 7S TH")
            page.locator("form[data-offline-queue] button[type=submit]").click()
            expect(page.locator(".kept-note")).to_be_visible()
            shot(page, request, "card-kept-offline")
            assert hands(client, game["id"]) == []
            context.set_offline(False)
            expect(page.locator("#hand-1")).to_be_visible(timeout=15_000)
            assert page.locator("#hand-1 td").nth(2).inner_text().split()[:2] == ["+42", "▮"]
            assert page.url.split("#")[0] == f"{base}/g/{game['id']}"
            for _ in range(50):
                if len(hands(client, game["id"])) == 1:
                    break
                page.wait_for_timeout(100)
            assert [h["mode"] for h in hands(client, game["id"])] == ["cards"]
            shot(page, request, "card-sent")
        finally:
            context.close()
