"""A phone keeps its games: what a browser was given to change lasts when the browser
is closed (every cookie without an expiry dropped, as a phone does), the page right
after making a game, a group or a night says so in one line with its link; and a hand
entered twice is asked about before it counts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.browser.conftest import OUTPUT
from tests.browser.helpers import LANGUAGES

pytestmark = pytest.mark.browser


@pytest.fixture
def app(app: Flask) -> Flask:
    """The app as it runs: a repeated hand within a minute is asked about. The served
    app's own setting (``live_url`` serves the worker's app, not one built apart); the
    conftest's ``app`` puts it back after the test."""
    app.config["REPEAT_WINDOW"] = timedelta(minutes=1)
    return app


def reopened(browser: Any, context: Any, width: int = 390) -> Any:
    """The browser closed and opened again: only the cookies with an expiry are kept."""
    lasting = [cookie for cookie in context.cookies() if cookie["expires"] > 0]
    context.close()
    again = browser.new_context(viewport={"width": width, "height": 844},
                                device_scale_factor=1, locale="en-GB")
    again.add_cookies(lasting)
    return again


def shot(page: Any, name: str) -> None:
    folder = OUTPUT / "test_rights"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_a_phone_keeps_its_game_group_and_night(browser: Any, live_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=1, locale="en-GB")
    page = context.new_page()
    page.goto(live_url + "/games/new")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bob")
    page.get_by_role("button", name="Start the game").click()
    notice = page.locator(".kept-here")
    expect(notice).to_contain_text(
        "This phone keeps score in this game, also after the browser is closed.")
    game_url = page.url
    link = page.locator("#kept-url").input_value()
    assert link.startswith(game_url + "?key=")
    expect(notice.get_by_role("button", name="Copy")).to_be_visible()
    notice.locator("summary").click()
    expect(notice.locator("img")).to_be_visible()
    # The QR code is drawn once its picture has come (wait for it, not a fixed time).
    page.wait_for_function("document.querySelector('.kept-here img').naturalWidth > 0")
    shot(page, "1-game-made")

    page.goto(live_url + "/groups/new")
    page.fill("input[name=name]", "Friday")
    page.fill("textarea[name=players]", "Ann\nBob")
    page.get_by_role("button", name="Create the group").click()
    expect(page.locator(".kept-here")).to_contain_text("This phone keeps this group's score")
    group_url = page.url

    page.goto(live_url + "/nights/new")
    page.fill("textarea[name=entrants]", "Ann\nBob\nCy\nDi")
    page.get_by_role("button", name="Start the night").click()
    expect(page.locator(".kept-here")).to_contain_text("This phone runs the night")
    night_url = page.url

    session = [c for c in context.cookies() if c["name"] == "session"]
    assert len(session) == 1 and session[0]["expires"] > 0

    again = reopened(browser, context)
    try:
        page = again.new_page()
        page.goto(game_url)
        expect(page.get_by_role("button", name="Save", exact=True)).to_be_visible()
        expect(page.locator("body")).not_to_contain_text("You are watching this game.")
        expect(page.locator(".kept-here")).to_have_count(0)  # said once
        page.goto(live_url + "/")
        game_path = game_url.removeprefix(live_url)
        expect(page.locator(f"ul.games a[href='{game_path}']")).to_contain_text("Ann")
        page.goto(group_url)
        expect(page.locator("a[href='#settings']")).to_have_count(1)
        page.goto(night_url)
        assert page.url == night_url  # the organiser's page, not the board
        expect(page.locator("#organiser-url")).to_have_count(1)
        shot(page, "2-night-after-restart")
    finally:
        again.close()


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
@pytest.mark.parametrize("width", [390, 360])
def test_the_notice_fits_a_phone(browser: Any, live_url: str, language: str,
                                 width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800},
                                  device_scale_factor=1, locale=LANGUAGES[language],
                                  extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        page.goto(live_url + "/games/new")
        page.fill("input[name=player1]", "Анна-Мария Александровна")
        page.fill("input[name=player2]", "Bob")
        page.locator("form button.primary[type=submit]").click()
        notice = page.locator(".kept-here")
        expect(notice).to_be_visible()
        notice.locator("summary").click()
        shot(page, f"notice-{language}-{width}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in ("#kept-url", ".kept-here button", ".kept-here img"):
            for box in page.evaluate(
                    "s => [...document.querySelectorAll(s)].map(e => {"
                    "const r = e.getBoundingClientRect(); return [r.left, r.right]; })",
                    selector):
                assert box[0] >= 0 and box[1] <= width, (selector, box)
    finally:
        context.close()


@pytest.mark.parametrize("workers", ["allow", "block"])
def test_a_hand_entered_twice_is_asked_about(browser: Any, live_url: str,
                                             workers: str) -> None:
    """With the service worker the form is sent as a page; without it (a plain http
    address) the page's script sends it, and "Save it again" still says what it means."""
    context = browser.new_context(viewport={"width": 360, "height": 800},
                                  device_scale_factor=1, locale="en-GB",
                                  service_workers=workers)
    try:
        page = context.new_page()
        page.goto(live_url + "/games/new")
        page.fill("input[name=player1]", "Ann")
        page.fill("input[name=player2]", "Bob")
        page.get_by_role("button", name="Start the game").click()
        for hand in (1, 2):
            page.locator("input[name=outcome][value=knock]").check()
            page.locator("input[name=knocker][value='0']").check()
            page.fill("input[name=knocker_deadwood]", "3")
            page.fill("input[name=defender_deadwood]", "12")
            page.get_by_role("button", name="Save", exact=True).click()
            if hand == 1:
                expect(page.locator("#hand-1")).to_have_count(1)
        question = page.locator(".repeat-question")
        expect(question).to_contain_text("Same as hand 1 — save it again?")
        expect(page.locator("#hand-2")).to_have_count(0)
        expect(page.locator("input[name=defender_deadwood]")).to_have_value("12")
        shot(page, f"3-asked-{workers}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        question.get_by_role("button", name="Save it again").click()
        expect(page.locator("#hand-2")).to_have_count(1)
        expect(page.locator(".repeat-question")).to_have_count(0)
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "fa"])
def test_restoring_into_a_taken_place_asks_first(browser: Any, live_url: str,
                                                 language: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800},
                                  device_scale_factor=1, locale=LANGUAGES[language],
                                  extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        page.goto(live_url + "/games/new")
        page.fill("input[name=player1]", "Ann")
        page.fill("input[name=player2]", "Bob")
        page.locator("form button.primary[type=submit]").click()
        for hand, (k, d) in enumerate(((3, 12), (2, 20)), 1):
            page.locator("input[name=outcome][value=knock]").check()
            page.locator("input[name=knocker][value='0']").check()
            page.fill("input[name=knocker_deadwood]", str(k))
            page.fill("input[name=defender_deadwood]", str(d))
            page.locator("form.quick button.primary").click()
            expect(page.locator(f"#hand-{hand}")).to_have_count(1)
        sheet = page.url.split("#")[0]
        page.goto(sheet + "/hands/1/delete")
        page.locator("form button.danger").click()
        page.locator("form.restore button").click()
        expect(page.locator("h1")).to_have_count(1)
        words = {"en": "Hand 1 comes back as number 1, where another stands now: the one "
                       "numbered 1 becomes number 2.",
                 "fa": "دست 1 به جای شمارهٔ 1 برمی‌گردد که اکنون جای دیگری است: شمارهٔ 1 "
                       "می‌شود شمارهٔ 2."}
        expect(page.locator(".error-summary")).to_have_text(words[language])
        shot(page, f"4-restore-{language}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.locator("button[name=confirm][value=move]").click()
        expect(page.locator("#hand-2")).to_have_count(1)
        assert page.url.startswith(sheet)
    finally:
        context.close()


def test_a_pin_keeps_score_on_one_phone_until_the_pin_changes(browser: Any,
                                                              live_url: str) -> None:
    maker = browser.new_context(viewport={"width": 360, "height": 800},
                                device_scale_factor=1, locale="ru-RU",
                                extra_http_headers={"Accept-Language": "ru"})
    other = browser.new_context(viewport={"width": 360, "height": 800},
                                device_scale_factor=1, locale="ru-RU",
                                extra_http_headers={"Accept-Language": "ru"})
    try:
        page = maker.new_page()
        page.goto(live_url + "/games/new")
        page.fill("input[name=player1]", "Аня")
        page.fill("input[name=player2]", "Боря")
        page.fill("input[name=pin]", "4321")
        page.locator("form button.primary[type=submit]").click()
        sheet = page.url
        phone = other.new_page()
        phone.goto(sheet + "/unlock")
        phone.fill("input[name=pin]", "4321")
        phone.locator("form button.primary").click()
        expect(phone.locator("form.quick")).to_have_count(1)
        phone.locator("details").last.locator("summary").click()  # share, other phones
        expect(phone.locator("body")).to_contain_text(
            "Этот телефон ведёт счёт по PIN-коду.")
        expect(phone.locator("a[href$='/share/edit']")).to_have_count(0)
        expect(phone.locator("form[action$='/pin']")).to_have_count(0)
        shot(phone, "5-pin-phone-ru")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        assert phone.goto(sheet + "/share/edit").status == 403

        page.goto(sheet)
        page.locator("details").last.locator("summary").click()
        page.fill("input#pin", "8765")
        page.locator("form[action$='/pin'] button").click()
        phone.goto(sheet)
        expect(phone.locator("form.quick")).to_have_count(0)
        expect(phone.locator("a[href$='/unlock']")).to_have_count(1)
    finally:
        maker.close()
        other.close()
