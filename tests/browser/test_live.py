"""Two phones at one table: a change made on one shows on the other within 2 seconds,
without a reload, and never at the cost of what the other phone is typing."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone_page

pytestmark = pytest.mark.browser

SOON = 2000  # ms: the promise, from the save's answer to the other screen

KNOCK = {"outcome": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 20}
# Per kind of game: players, one hand as the API takes it, and the first score its row
# shows, worked out by hand.
KINDS: dict[str, tuple[list[str], dict[str, Any], str]] = {
    # knock 5 against 20: the knocker scores 15
    "gin": (["Ann", "Bob"], KNOCK, "+15"),
    # upcard 10♦: knock limit 10, not a spade, so not doubled: 15
    "oklahoma": (["Ann", "Bob"], {**KNOCK, "upcard": "TD"}, "+15"),
    "hollywood": (["Ann", "Bob"], KNOCK, "+15"),
    # the box (Ann) knocks 5 against the captain's 20
    "three_hand": (["Ann", "Bob", "Cid"], {**KNOCK, "knocker": "box"}, "+15"),
    # Ann +15 against Bob, Cid +7 (3 against 10) against Dan: the team nets 22
    "partnership": (
        ["Ann", "Bob", "Cid", "Dan"],
        {"tables": [KNOCK, {**KNOCK, "knocker_deadwood": 3, "defender_deadwood": 10}]},
        "+22",
    ),
    # Ann goes out with 20 in combinations, discarding a 5-point card: 20 + 10 × 5 = 70
    "remi": (
        ["Ann", "Bob", "Cid"],
        {
            "went_out": 0,
            "discard_value": 5,
            "players": [
                {"plus": 20, "minus": 0},
                {"plus": 15, "minus": 35},
                {"plus": 0, "minus": 10},
            ],
        },
        "+70",
    ),
}


def call(url: str, body: dict[str, Any] | None = None, **headers: str) -> Any:
    """The API, as another phone (or a script at the table) would use it."""
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def create(live_url: str, variant: str, players: list[str], rules: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"variant": variant, "players": players}
    if rules is not None:
        body["rules"] = rules
    created: dict[str, Any] = call(live_url + "/api/v1/games", body)
    return created


def save(live_url: str, game: dict[str, Any], hand: dict[str, Any]) -> float:
    """Save a hand through the API; the moment the answer came back."""
    url = f"{live_url}/api/v1/games/{game['id']}/hands"
    call(url, hand, **{"X-Edit-Secret": game["edit_secret"]})
    return time.monotonic()


@pytest.fixture
def other_phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A second phone at the table: its own browser context (own cookies)."""
    with phone_page(browser, request) as page:
        yield page


def opened(page: Any, url: str) -> None:
    """Open ``url`` and mark the document, so that a reload would show."""
    page.goto(url)
    page.evaluate("window.notReloaded = true")


def not_reloaded(page: Any) -> bool:
    return bool(page.evaluate("window.notReloaded === true"))


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_saved_hand_shows_on_the_watching_phone(live_url: str, phone: Any, kind: str) -> None:
    players, hand, first_score = KINDS[kind]
    game = create(live_url, kind, players)
    opened(phone, f"{live_url}/g/{game['id']}")  # the watch link
    expect(phone.locator("#hand-1")).to_have_count(0)
    saved = save(live_url, game, hand)
    expect(phone.locator("#hand-1 .num").first).to_have_text(first_score, timeout=SOON)
    assert time.monotonic() - saved < SOON / 1000
    assert not_reloaded(phone)
    phone.shot(f"{kind}-after")


def test_a_correction_and_an_undo_show_on_the_other_phone(
    live_url: str, phone: Any, other_phone: Any
) -> None:
    game = create(live_url, "gin", ["Ann", "Bob"])
    keeper, watcher = other_phone, phone
    keeper.goto(game["edit_url"])
    opened(watcher, f"{live_url}/g/{game['id']}")
    history = watcher.context.new_page()
    opened(history, f"{live_url}/g/{game['id']}/history")

    # The keeper enters hand 1 on the sheet: Ann knocks 5 against 20.
    keeper.locator("input[name=outcome][value=knock]").check()
    keeper.locator("input[name=knocker][value='0']").check()
    keeper.fill("input[name=knocker_deadwood]", "5")
    keeper.fill("input[name=defender_deadwood]", "20")
    keeper.get_by_role("button", name="Save", exact=True).click()
    expect(keeper.locator("#hand-1")).to_have_count(1)
    expect(watcher.locator("#hand-1 .num").first).to_have_text("+15", timeout=SOON)
    expect(history.locator(".history li").first).to_contain_text(
        "Hand 1 added: \u2068Ann\u2069 knocked with 5; \u2068Bob\u2069's deadwood 20.",  # isolated
        timeout=SOON,
    )

    # A correction: Bob had 30, so Ann scores 25.
    keeper.goto(f"{live_url}/g/{game['id']}/hands/1/edit")
    keeper.fill("input[name=defender_deadwood]", "30")
    keeper.get_by_role("button", name="Save the correction").click()
    expect(keeper.locator("#hand-1 .num").first).to_have_text("+25")
    expect(watcher.locator("#hand-1 .num").first).to_have_text("+25", timeout=SOON)
    expect(watcher.locator("#hand-1")).to_have_class("live-new")
    watcher.shot("1-corrected")

    # The undo: the sheet is empty again on both phones; the page of hand 1 says why.
    hand = watcher.context.new_page()
    opened(hand, f"{live_url}/g/{game['id']}/hands/1")
    keeper.get_by_role("button", name="Undo hand 1").click()
    expect(keeper.locator("#hand-1")).to_have_count(0)
    expect(watcher.locator("#hand-1")).to_have_count(0, timeout=SOON)
    expect(watcher.locator("#sheet tbody td")).to_have_text("No hands yet.")
    expect(history.locator(".history li").first).to_contain_text("Hand 1 undone", timeout=SOON)
    expect(hand.locator("main > [data-live-notice]")).to_have_text(
        "The sheet changed on another phone: hand 1 undone.", timeout=SOON
    )
    assert not_reloaded(watcher) and not_reloaded(history) and not_reloaded(hand)


def test_the_end_of_the_game_shows_and_the_form_goes(
    live_url: str, phone: Any, other_phone: Any
) -> None:
    game = create(live_url, "gin", ["Ann", "Bob"], {"preset": "classic", "target": 10})
    phone.goto(game["edit_url"])  # this phone could enter hands too
    phone.evaluate("window.notReloaded = true")
    expect(phone.locator("form.quick")).to_have_count(1)
    save(live_url, game, KNOCK)  # Ann 15 of 10: game over
    expect(phone.locator("#settlement")).to_have_count(1, timeout=SOON)
    expect(phone.locator("form.quick")).to_have_count(0)
    expect(phone.get_by_role("button", name="Rematch")).to_be_visible()
    assert not_reloaded(phone)


@pytest.mark.once  # what the page keeps; the refused save is the HTTP tests' on both databases
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_half_filled_form_keeps_what_was_typed(live_url: str, phone: Any, lang: str) -> None:
    game = create(live_url, "gin", ["Ann", "Bob"])
    phone.context.add_cookies([{"name": "lang", "value": lang, "url": live_url}])
    phone.goto(game["edit_url"])
    phone.evaluate("window.notReloaded = true")
    phone.locator("input[name=outcome][value=knock]").check()
    phone.locator("input[name=knocker][value='1']").check()
    phone.fill("input[name=knocker_deadwood]", "7")
    version = phone.locator("form.quick input[name=version]").input_value()

    save(live_url, game, KNOCK)  # another phone saves Ann's knock meanwhile
    expect(phone.locator("#hand-1 .num").first).to_have_text("+15", timeout=SOON)
    notice = phone.locator("form.quick [data-live-notice]")
    expected = {
        "en": "The sheet changed on another phone: hand 1 added. "
        "What you typed is kept; check the sheet before you save.",
        "fa": "برگه در گوشی دیگری تغییر کرد: دست 1 اضافه شد. "
        "آنچه نوشته‌اید سر جایش مانده است؛ پیش از ذخیره، برگه را نگاه کنید.",
    }
    expect(notice).to_have_text(expected[lang])
    # The notice sits just above Save; the typed values and the old version stay.
    assert phone.locator("form.quick [data-live-notice] + button[type=submit]").count() == 1
    assert phone.locator("input[name=knocker][value='1']").is_checked()
    assert phone.locator("input[name=knocker_deadwood]").input_value() == "7"
    assert phone.locator("form.quick input[name=version]").input_value() == version
    assert not_reloaded(phone)
    phone.shot(f"{lang}-live-notice")

    if lang == "en":
        # Save is still checked against the sheet the player saw: refused, input kept,
        # and the second Save (now drawn from the new sheet) goes through.
        phone.fill("input[name=defender_deadwood]", "12")
        phone.get_by_role("button", name="Save", exact=True).click()
        expect(phone.locator("form.quick .error")).to_contain_text("Another phone changed")
        assert phone.locator("input[name=knocker_deadwood]").input_value() == "7"
        phone.get_by_role("button", name="Save", exact=True).click()
        expect(phone.locator("#hand-2 td:nth-child(3) .num").first).to_have_text("+5")


@pytest.mark.once  # the page's timers; the server only answers 304
def test_polling_stops_while_hidden_and_backs_off_on_errors(live_url: str, phone: Any) -> None:
    """On the page's own clock (Playwright's, moved by hand), so that each second is
    exact and none is waited for: one poll a second, none while the tab is hidden, one
    at once on return, after failed answers 1, 2, 4, 8, 16 s between tries, then half a
    minute at most, and with no answer at all 4 s at most."""
    game = create(live_url, "gin", ["Ann", "Bob"])
    noon = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    phone.clock.install(time=noon)
    # What the page does, seen from inside it: each poll it starts (the time on its clock)
    # and each next try it sets (after the answer, or the lack of one, is in). The
    # browser's own visibility and network events are kept from the page: the test plays
    # them, so that nothing but the page's clock starts a poll.
    phone.add_init_script(
        """
        window.polls = [];
        window.tries = [];
        var fetch0 = window.fetch, setTimeout0 = window.setTimeout;
        window.fetch = function (input) {
          if (String(input).endsWith("/live")) window.polls.push(Date.now());
          return fetch0.apply(this, arguments);
        };
        window.setTimeout = function (callback, ms) {
          if (callback && callback.name === "poll") window.tries.push(ms);
          return setTimeout0.apply(this, arguments);
        };
        ["visibilitychange", "online", "offline"].forEach(function (type) {
          window.addEventListener(type, function (event) {
            if (event.isTrusted) event.stopImmediatePropagation();
          }, true);
        });
        """
    )
    phone.clock.pause_at(noon + timedelta(seconds=1))  # from here the time moves by hand
    phone.goto(f"{live_url}/g/{game['id']}")

    def page() -> tuple[list[int], int, int]:
        """The polls so far, how many next tries were set, and the time on the clock."""
        return tuple(phone.evaluate("[window.polls, window.tries.length, Date.now()]"))

    def one_poll_after(ms: int) -> None:
        """``ms`` on the page's clock bring exactly one poll, at the last of them, and the
        test goes on once the page has set its next try (it does so when the answer, or
        the lack of one, is in)."""
        before, tries, _ = page()
        if ms > 1:
            quiet(ms - 1)
        phone.clock.run_for(1)
        for _ in range(500):
            polls, set_, now = page()
            if set_ > tries:
                break
            phone.wait_for_timeout(10)
        assert polls[:-1] == before and now - 1 <= polls[-1] <= now
        assert set_ == tries + 1

    def quiet(ms: int) -> None:
        """``ms`` on the page's clock bring no poll."""
        before = page()[0]
        phone.clock.run_for(ms)  # a poll the clock started is on the list when this returns
        assert page()[0] == before

    for _ in range(3):
        one_poll_after(1000)

    phone.evaluate(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    quiet(10_000)
    phone.evaluate(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    one_poll_after(1)  # at once on return
    one_poll_after(1000)  # and every second again

    # Failing answers: the next try after 1 s, then 2, 4, 8, 16 s, then at most 30 s.
    phone.route("**/live", lambda route: route.fulfill(status=503, body=""))
    for seconds in (1, 2, 4, 8, 16, 30, 30):
        one_poll_after(seconds * 1000)
    # An answer again: one a second.
    phone.unroute("**/live")
    one_poll_after(30_000)
    one_poll_after(1000)

    # No answer at all (the Wi-Fi gone while the phone thinks it is online): that costs
    # the server nothing, so the tries back off only to 4 s and the sheet comes back
    # within seconds of the network: 1, 2, 4, 4, 4 s, then one a second once answered.
    phone.route("**/live", lambda route: route.abort("connectionrefused"))
    for seconds in (1, 2, 4, 4, 4):
        one_poll_after(seconds * 1000)
    phone.unroute("**/live")
    one_poll_after(4000)
    one_poll_after(1000)


@pytest.mark.once  # the page's own marker and clock; the server only answers 304
def test_an_answer_with_nothing_new_moves_the_as_of_time(
    live_url: str, browser: Any, request: pytest.FixtureRequest
) -> None:
    """A watching phone whose server answered "not modified" for half an hour is as of
    the last answer, not the first: with the server gone at 10:00 the sheet says "as of
    10:00"; back, then answered at 10:30 with nothing new, gone again, "as of 10:30".
    The page's clock (Playwright's) is moved on half an hour; no hand is played, so no
    change of the sheet moves the time instead."""
    game = create(live_url, "gin", ["Ann", "Bob"])
    with phone_page(browser, request, timezone_id="UTC", service_workers="block") as page:
        page.clock.install(time=datetime(2026, 12, 7, 10, 0, tzinfo=UTC))
        offline = page.locator("#netstatus .offline-marker")
        live = f"{live_url}/g/{game['id']}/live"

        def not_modified() -> Any:
            return page.expect_response(lambda r: r.url == live and r.status == 304)

        with not_modified():
            page.goto(f"{live_url}/g/{game['id']}")  # the watch link
        page.route("**/live", lambda route: route.abort("connectionrefused"))
        expect(offline).to_have_text("offline — as of 10:00")
        page.unroute("**/live")
        with not_modified():
            pass  # answered again (after backing off), nothing new
        expect(offline).to_be_hidden()

        with not_modified():  # the next poll, half an hour on
            page.clock.set_system_time(datetime(2026, 12, 7, 10, 30, tzinfo=UTC))
        page.route("**/live", lambda route: route.abort("connectionrefused"))
        expect(offline).to_have_text("offline — as of 10:30")
        assert page.locator("#hand-1").count() == 0
        page.shot("as-of-after-not-modified")


def test_an_untouched_form_follows_the_sheet(live_url: str, phone: Any) -> None:
    game = create(live_url, "gin", ["Ann", "Bob"])
    phone.goto(game["edit_url"])
    phone.evaluate("window.notReloaded = true")
    expect(phone.locator("#enter")).to_have_text("Hand 1")
    save(live_url, game, KNOCK)  # another phone saves hand 1; nothing typed here
    expect(phone.locator("#enter")).to_have_text("Hand 2", timeout=SOON)
    assert phone.locator("form.quick input[name=version]").input_value() == "1"
    assert phone.locator("form.quick [data-live-notice]").count() == 0
    expect(phone.get_by_role("button", name="Undo hand 1")).to_be_visible()
    # So this phone's next hand saves at once: Bob knocks 7 against 12, +5.
    phone.locator("input[name=outcome][value=knock]").check()
    phone.locator("input[name=knocker][value='1']").check()
    phone.fill("input[name=knocker_deadwood]", "7")
    phone.fill("input[name=defender_deadwood]", "12")
    phone.get_by_role("button", name="Save", exact=True).click()
    expect(phone.locator("#hand-2 td:nth-child(3) .num").first).to_have_text("+5")
    expect(phone.locator("p.flash").first).to_have_text("Hand 2 saved.")
