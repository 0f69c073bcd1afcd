"""A dropped connection loses nothing: the app installs and keeps its last sheets;
a hand saved offline is kept on the phone, shown as "waiting to send (n)", and sent
exactly once when the network returns; a hand the server refuses meanwhile is shown
with the server's own message and can be sent again, corrected or discarded.

The tests whose hands reach the server run on PostgreSQL too; those that only show what
the phone keeps or shows (one language of two, every kind of game, pages from the
phone's copy) are marked ``once``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.helpers import api_hand, hands, new_game, shot
from tests.live import serve

pytestmark = pytest.mark.browser
ONCE = pytest.mark.once

# The markers as the phone shows them, per language (the Persian from the catalog).
TEXTS = {
    "en": {"waiting": "waiting to send ({n})", "offline": "offline — as of {time}"},
    "fa": {"waiting": "در انتظار ارسال ({n})", "offline": "آفلاین — وضعیت ساعت {time}"},
}
SUMMARY = (
    "Outcome: Knock · Who went out: Ann · Knocker's deadwood: 3 · "
    "Defender's deadwood after layoffs: 20"
)
CONFLICT = (
    "Another phone changed this game while you were entering this hand, so it was not saved. "
    "Check the sheet; if your hand is still missing, press Save again."
)


@pytest.fixture
def context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone's browser (UTC clock, so "as of HH:MM" can be checked to the minute)."""
    locale = getattr(request, "param", "en")
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        locale="fa-IR" if locale == "fa" else "en-GB",
        timezone_id="UTC",
        service_workers="allow",
    )
    yield ctx
    ctx.close()


def open_as_editor(context: Any, live_url: str, game: dict[str, Any]) -> Any:
    """Open the edit link, wait until the service worker controls the page, and load
    the sheet once more so that the worker keeps a copy of it."""
    page = context.new_page()
    page.goto(live_url + f"/g/{game['id']}?key={game['edit_secret']}")
    wait_for_worker(page)
    page.reload()
    expect(page.locator("form[data-offline-queue]")).to_be_visible()
    return page


def wait_for_worker(page: Any) -> None:
    """Until the service worker controls the page (``wait_for_function`` would need
    ``eval``, which the Content-Security-Policy forbids)."""
    for _ in range(100):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    pytest.fail("the service worker never took control of the page")


def opened_then_dropped(app: Flask, open_page: Any) -> tuple[Any, str, int]:
    """Serve ``app``, open a page with ``open_page(url)``, then stop serving: the phone
    still thinks it is online, but the Wi-Fi dropped. (The page, the URL, its port.)"""
    server = serve(app)
    url = server.__enter__()
    try:
        page = open_page(url)
    finally:
        server.__exit__(None, None, None)
    return page, url, int(url.rsplit(":", 1)[1])


def fill_knock(page: Any, knocker: int, k: int, d: int) -> None:
    page.locator("input[name=outcome][value=knock]").check()
    page.locator(f"input[name=knocker][value='{knocker}']").check()
    page.fill("input[name=knocker_deadwood]", str(k))
    page.fill("input[name=defender_deadwood]", str(d))
    page.locator("form[data-offline-queue] button[type=submit]").click()


def as_of(page: Any) -> str:
    """The time the page on screen was drawn, HH:MM in the phone's (UTC) clock."""
    stamp = page.locator("#netstatus").get_attribute("data-rendered")
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).strftime("%H:%M")


KEPT_JS = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("hands", {keyPath: "token"})
    .createIndex("game", "game");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const all = open.result.transaction("hands").objectStore("hands").getAll();
    all.onsuccess = () => { open.result.close(); resolve(all.result.map((h) => h.state)); };
  };
})"""


def kept_on_the_phone(page: Any) -> list[str]:
    """The state of every hand the phone keeps ("waiting", "refused"), from its store."""
    for _ in range(50):
        try:
            states: list[str] = page.evaluate(KEPT_JS)
            return states
        except Exception as error:  # the page reloaded under the question: ask again
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            page.wait_for_timeout(100)
    pytest.fail("the page never stopped reloading")


def until_nothing_is_kept(page: Any, seconds: float = 10) -> None:
    """Wait until the phone keeps no hand: every hand it kept was answered "saved" and
    forgotten (a hand refused stays, as "refused"; one never forgotten stays too)."""
    for _ in range(int(seconds * 10)):
        if kept_on_the_phone(page) == []:
            return
        page.wait_for_timeout(100)
    pytest.fail(f"the phone still keeps hands: {kept_on_the_phone(page)}")


def hand_posts(page: Any, game: dict[str, Any]) -> list[str]:
    """Every POST of a hand the page sends from now on (reloads included)."""
    sent: list[str] = []
    action = f"/g/{game['id']}/hands"

    def seen(request: Any) -> None:
        if request.method == "POST" and request.url.split("?")[0].endswith(action):
            sent.append(request.url)

    page.on("request", seen)
    return sent


@pytest.mark.parametrize("context", ["en", pytest.param("fa", marks=ONCE)], indirect=True)
def test_a_hand_saved_offline_is_sent_once_when_back_online(
    app: Flask, live_url: str, context: Any, request: pytest.FixtureRequest
) -> None:
    lang = request.node.callspec.params["context"]
    client = app.test_client()
    game = new_game(client)
    page = open_as_editor(context, live_url, game)
    sent = hand_posts(page, game)

    context.set_offline(True)
    fill_knock(page, 0, 3, 20)  # Ann knocks 3 against 20: 17
    waiting = page.locator("#netstatus .waiting-marker")
    expect(waiting).to_have_text(TEXTS[lang]["waiting"].format(n=1))
    assert kept_on_the_phone(page) == ["waiting"]
    offline = page.locator("#netstatus .offline-marker")
    expect(offline).to_have_text(TEXTS[lang]["offline"].format(time=as_of(page)))
    assert hands(client, game["id"]) == []  # nothing reached the server
    # The form is ready for the next hand, with a token of its own.
    assert page.locator("input[name=knocker_deadwood]").input_value() == ""
    shot(page, request, "waiting")

    context.set_offline(False)  # the page sends it, then reloads with the new sheet
    expect(page.locator("#hand-1")).to_be_visible(timeout=10_000)
    until_nothing_is_kept(page)  # answered "saved": forgotten at once
    assert len(sent) == 1
    expect(waiting).to_be_hidden()
    expect(offline).to_be_hidden()
    assert hands(client, game["id"]) == [
        {
            "mode": "quick",
            "outcome": "knock",
            "knocker": 0,
            "knocker_deadwood": 3,
            "defender_deadwood": 20,
            "upcard": None,
        }
    ]
    assert page.locator("#hand-1 td").nth(1).inner_text().split() == ["+17", "▮", "17"]
    shot(page, request, "sent")

    page.reload()  # nothing is left to send: still exactly one hand, sent once
    expect(page.locator("#hand-1")).to_be_visible()
    expect(waiting).to_be_hidden()
    assert kept_on_the_phone(page) == []
    assert len(sent) == 1
    assert len(hands(client, game["id"])) == 1


def test_a_hand_whose_connection_drops_on_the_way_is_kept_by_the_service_worker(
    app: Flask, context: Any, request: pytest.FixtureRequest
) -> None:
    """The phone still thinks it is online, but the server cannot be reached: the form is
    sent as usual and the service worker keeps it."""
    client = app.test_client()
    game = new_game(client)
    page, _url, port = opened_then_dropped(app, lambda url: open_as_editor(context, url, game))

    fill_knock(page, 0, 3, 20)
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    assert page.locator("body").get_attribute("data-served") == "cache"
    expect(page.locator("#netstatus .waiting-list li")).to_have_text([SUMMARY])
    # The old copy of the page carried the kept hand's token: the next hand gets its own.
    kept_token = page.evaluate(
        "new Promise(r => { const q = indexedDB.open('scorekeeper', 1); q.onsuccess = () =>"
        " { const g = q.result.transaction('hands').objectStore('hands').getAllKeys();"
        " g.onsuccess = () => r(g.result); }; })"
    )
    assert len(kept_token) == 1
    assert page.locator("input[name=token]").input_value() not in kept_token
    shot(page, request, "kept-by-worker")
    assert hands(client, game["id"]) == []

    with serve(app, port=port):  # back: the page tries again by itself
        sent = hand_posts(page, game)
        expect(page.locator("#hand-1")).to_be_visible(timeout=15_000)
        until_nothing_is_kept(page)
        expect(page.locator("#netstatus .waiting-marker")).to_be_hidden()
        assert [h["knocker_deadwood"] for h in hands(client, game["id"])] == [3]
        page.reload()
        assert kept_on_the_phone(page) == []
        assert len(sent) == 1
        assert len(hands(client, game["id"])) == 1


def test_two_hands_saved_offline_arrive_in_order(app: Flask, live_url: str, context: Any) -> None:
    client = app.test_client()
    game = new_game(client)
    page = open_as_editor(context, live_url, game)
    context.set_offline(True)
    fill_knock(page, 0, 3, 20)
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    fill_knock(page, 1, 2, 12)
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (2)")
    context.set_offline(False)
    expect(page.locator("#hand-2")).to_be_visible(timeout=10_000)
    until_nothing_is_kept(page)
    got = hands(client, game["id"])
    assert [(h["knocker"], h["knocker_deadwood"], h["defender_deadwood"]) for h in got] == [
        (0, 3, 20),
        (1, 2, 12),
    ]


def test_a_hand_refused_after_another_phone_changed_the_game_is_kept(
    app: Flask, live_url: str, context: Any, request: pytest.FixtureRequest
) -> None:
    client = app.test_client()
    game = new_game(client)
    page = open_as_editor(context, live_url, game)
    context.set_offline(True)
    fill_knock(page, 0, 3, 20)
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")

    # Meanwhile the other phone at the table saves a hand: Bob goes gin against 10.
    other = api_hand(client, game, outcome="gin", knocker=1, defender_deadwood=10)
    assert other.status_code == 201

    context.set_offline(False)
    kept = page.locator("#netstatus .kept-hand")
    expect(kept).to_have_count(1, timeout=10_000)
    expect(kept.locator(".kept-problems li")).to_have_text([CONFLICT])
    expect(kept.locator(".kept-what")).to_have_text(SUMMARY)
    assert kept_on_the_phone(page) == ["refused"]
    buttons = kept.locator("button:visible")
    expect(buttons).to_have_text(["Send it again", "Correct it", "Discard it"])
    expect(page.locator("#netstatus .waiting-marker")).to_be_hidden()
    expect(page.locator("#hand-1")).to_be_visible()  # the other phone's hand, reloaded
    assert len(hands(client, game["id"])) == 1
    shot(page, request, "refused")

    # Correct it: the form comes back filled with the kept hand.
    kept.get_by_role("button", name="Correct it").click()
    expect(page.locator("input[name=knocker_deadwood]")).to_have_value("3")
    expect(page.locator("input[name=defender_deadwood]")).to_have_value("20")
    expect(page.locator("input[name=outcome][value=knock]")).to_be_checked()
    expect(page.locator("input[name=knocker][value='0']")).to_be_checked()

    # The player looks at the sheet, decides Bob's deadwood was 25, and saves: hand 2, once.
    page.fill("input[name=defender_deadwood]", "25")
    page.locator("form[data-offline-queue] button[type=submit]").click()
    expect(page.locator("#hand-2")).to_be_visible(timeout=10_000)
    expect(page.locator("#netstatus .kept-hand")).to_have_count(0)
    until_nothing_is_kept(page)
    got = hands(client, game["id"])
    assert [(h["outcome"], h["knocker"], h.get("defender_deadwood")) for h in got] == [
        ("gin", 1, 10),
        ("knock", 0, 25),
    ]
    page.reload()
    expect(page.locator("#netstatus .kept-hand")).to_have_count(0)
    assert len(hands(client, game["id"])) == 2


def test_a_refused_hand_sent_again_goes_in_once(app: Flask, live_url: str, context: Any) -> None:
    client = app.test_client()
    game = new_game(client)
    page = open_as_editor(context, live_url, game)
    context.set_offline(True)
    fill_knock(page, 0, 3, 20)
    api_hand(client, game, outcome="gin", knocker=1, defender_deadwood=10)
    context.set_offline(False)
    kept = page.locator("#netstatus .kept-hand")
    expect(kept).to_have_count(1, timeout=10_000)
    kept.get_by_role("button", name="Send it again").click()
    expect(page.locator("#hand-2")).to_be_visible(timeout=10_000)
    expect(kept).to_have_count(0)
    until_nothing_is_kept(page)
    got = hands(client, game["id"])
    assert [(h["outcome"], h["knocker"]) for h in got] == [("gin", 1), ("knock", 0)]
    page.reload()
    assert len(hands(client, game["id"])) == 2


@ONCE  # what the phone keeps: the game over is the HTTP tests' on both databases
def test_a_refused_hand_can_be_discarded(app: Flask, live_url: str, context: Any) -> None:
    client = app.test_client()
    game = new_game(client, {"preset": "russian", "target": 50})
    page = open_as_editor(context, live_url, game)
    context.set_offline(True)
    fill_knock(page, 0, 3, 20)
    # Meanwhile the game is ended from the other phone: Ann's gin against 40 (25 + 40).
    ended = api_hand(client, game, outcome="gin", knocker=0, defender_deadwood=40)
    assert ended.status_code == 201
    context.set_offline(False)
    kept = page.locator("#netstatus .kept-hand")
    expect(kept).to_have_count(1, timeout=10_000)
    expect(kept.locator(".kept-problems li")).to_have_text([CONFLICT])
    # Sent again for the sheet as it is now, the server's answer is that the game is over;
    # there is no form to correct it in any more.
    kept.get_by_role("button", name="Send it again").click()
    expect(kept.locator(".kept-problems li")).to_have_text(
        ["The game is over: no more hands. Corrections still work."]
    )
    expect(kept.locator("button:visible")).to_have_text(["Send it again", "Discard it"])
    page.once("dialog", lambda dialog: dialog.accept())
    kept.get_by_role("button", name="Discard it").click()
    expect(kept).to_have_count(0)
    assert kept_on_the_phone(page) == []
    page.reload()
    expect(page.locator("#netstatus .kept-hand")).to_have_count(0)
    assert len(hands(client, game["id"])) == 1


@ONCE  # the refusal is the HTTP tests' on both databases
def test_an_invalid_hand_kept_offline_shows_the_field_and_its_error(
    app: Flask, live_url: str, context: Any
) -> None:
    client = app.test_client()
    game = new_game(client)
    page = open_as_editor(context, live_url, game)
    context.set_offline(True)
    fill_knock(page, 0, 14, 20)  # a knock with 14: over the knock limit (10)
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    context.set_offline(False)
    kept = page.locator("#netstatus .kept-hand")
    expect(kept).to_have_count(1, timeout=10_000)
    expect(kept.locator(".kept-problems li")).to_have_text(
        ["Knocker's deadwood: a knock needs 10 or less, this hand has 14"]
    )
    expect(kept.locator(".kept-what")).to_have_text(
        "Outcome: Knock · Who went out: Ann · Knocker's deadwood: 14 · "
        "Defender's deadwood after layoffs: 20"
    )
    assert hands(client, game["id"]) == []


@ONCE  # pages from the phone's copy
@pytest.mark.parametrize("context", ["en", "fa"], indirect=True)
def test_offline_a_game_seen_before_shows_its_last_sheet(
    app: Flask, live_url: str, context: Any, request: pytest.FixtureRequest
) -> None:
    lang = request.node.callspec.params["context"]
    client = app.test_client()
    game = new_game(client)
    api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)
    page = open_as_editor(context, live_url, game)
    expect(page.locator("#netstatus .offline-marker")).to_be_hidden()
    seen = as_of(page)

    context.set_offline(True)
    page.reload()
    assert page.locator("body").get_attribute("data-served") == "cache"
    expect(page.locator("#netstatus .offline-marker")).to_have_text(
        TEXTS[lang]["offline"].format(time=seen)
    )
    assert page.locator("#hand-1 td").nth(1).inner_text().split() == ["+17", "▮", "17"]
    shot(page, request, "offline")


@ONCE  # the page's own markers; the live sheet between phones runs on both
def test_a_copy_from_the_cache_is_current_again_once_the_live_sheet_answers(
    app: Flask, live_url: str, context: Any
) -> None:
    """The network comes back while the player is typing a hand on the cached copy (so
    the page does not reload itself): the live sheet brings another phone's hand in, the
    typed hand stays, and "offline — as of" goes, since the sheet is the game as it is.
    (It happens by itself when the service worker still finds no network for a moment
    after the page does: the page loads the cached copy although the phone is online.)"""
    client = app.test_client()
    game = new_game(client)
    api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)
    page = open_as_editor(context, live_url, game)

    context.set_offline(True)
    page.reload()
    assert page.locator("body").get_attribute("data-served") == "cache"
    offline = page.locator("#netstatus .offline-marker")
    expect(offline).to_be_visible()
    page.fill("input[name=knocker_deadwood]", "5")  # typing: the page must not reload
    # Bob knocks 2 against 12 on another phone: 10 to Bob.
    api_hand(client, game, outcome="knock", knocker=1, knocker_deadwood=2, defender_deadwood=12)

    context.set_offline(False)
    expect(page.locator("#hand-2")).to_be_visible(timeout=10_000)
    expect(offline).to_be_hidden()
    assert page.locator("body").get_attribute("data-served") == "network"
    assert page.locator("input[name=knocker_deadwood]").input_value() == "5"
    assert page.locator("#hand-2 td").nth(2).inner_text().split() == ["+10", "▮", "10"]


def _knock(prefix: str = "") -> dict[str, str]:
    return {
        f"{prefix}outcome": "knock",
        f"{prefix}knocker": "0",
        f"{prefix}knocker_deadwood": "3",
        f"{prefix}defender_deadwood": "20",
    }


# One quick hand per kind of game: the form's radio values and numbers by field name.
KINDS: dict[str, tuple[list[str], dict[str, str]]] = {
    "gin": (["Ann", "Bob"], _knock()),
    "oklahoma": (["Ann", "Bob"], {"upcard": "7H", **_knock()}),
    "hollywood": (["Ann", "Bob"], _knock()),
    "three_hand": (["Ann", "Bob", "Cy"], _knock()),
    "partnership": (["Ann", "Bob", "Cy", "Dee"], {**_knock("a-"), "b-outcome": "dead"}),
    "remi": (
        ["Ann", "Bob"],
        {
            "went_out": "none",
            "players-0-plus": "0",
            "players-0-minus": "20",
            "players-1-plus": "15",
            "players-1-minus": "5",
        },
    ),
}


@ONCE  # every kind's form on the phone; the hands' saving is the HTTP tests' on both
@pytest.mark.parametrize("variant", list(KINDS))
def test_every_kind_of_game_keeps_a_hand_saved_offline(
    app: Flask, live_url: str, context: Any, variant: str
) -> None:
    players, fields = KINDS[variant]
    client = app.test_client()
    created = client.post("/api/v1/games", json={"variant": variant, "players": players})
    assert created.status_code == 201
    game = created.get_json()
    page = open_as_editor(context, live_url, game)
    context.set_offline(True)
    form = page.locator("form[data-offline-queue]")
    for name, value in fields.items():
        field = form.locator(f"[name='{name}']")
        if field.first.get_attribute("type") == "radio":
            form.locator(f"input[name='{name}'][value='{value}']").check()
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    context.set_offline(False)
    expect(page.locator("#hand-1")).to_be_visible(timeout=10_000)
    expect(page.locator("#netstatus .waiting-marker")).to_be_hidden()
    expect(page.locator("#netstatus .kept-hand")).to_have_count(0)
    until_nothing_is_kept(page)
    assert len(hands(client, game["id"])) == 1


@ONCE  # pages from the phone's copy
def test_offline_the_history_and_a_hands_page_seen_before_still_open(
    app: Flask, live_url: str, context: Any, request: pytest.FixtureRequest
) -> None:
    """A dispute about a hand can be settled without a network: on a watching phone the
    hand's page (its explanation) and the history seen before come from the phone's
    copy, marked "offline — as of HH:MM". (A phone that may change the game keeps only
    its sheet: its other pages are sent no-store.)"""
    client = app.test_client()
    game = new_game(client)
    api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)
    page = context.new_page()
    page.goto(f"{live_url}/g/{game['id']}")  # the watch link
    wait_for_worker(page)
    urls = [f"{live_url}/g/{game['id']}/history", f"{live_url}/g/{game['id']}/hands/1"]
    seen: dict[str, tuple[str, str]] = {}
    for url in urls:
        page.goto(url)
        assert page.locator("body").get_attribute("data-served") == "network"
        expect(page.locator("#netstatus .offline-marker")).to_be_hidden()
        seen[url] = (page.locator("[data-live-region]").inner_text(), as_of(page))
    assert "17" in seen[urls[1]][0]  # the knock's points (20 − 3) in the hand's explanation

    context.set_offline(True)
    for url in urls:
        # A page of its own for each: a copy from the cache reloads itself when the
        # browser says it is online again, which could cut the next visit short.
        page = context.new_page()
        page.goto(url)
        assert page.locator("body").get_attribute("data-served") == "cache"
        expect(page.locator("[data-live-region]")).to_have_text(seen[url][0], use_inner_text=True)
        expect(page.locator("#netstatus .offline-marker")).to_have_text(
            TEXTS["en"]["offline"].format(time=seen[url][1])
        )
    shot(page, request, "hand-offline")
    # A page never seen before is not made up: the browser's own error.
    with pytest.raises(Exception, match=r"ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        page.goto(f"{live_url}/g/{game['id']}/hands/2")


@pytest.fixture
def plain_http(browser: Any) -> Iterator[Any]:
    """A phone on the table's Wi-Fi opening ``http://192.168.x.y:5000``: browsers give a
    page over plain HTTP from another machine no service worker, so none is let in."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        locale="en-GB",
        timezone_id="UTC",
        service_workers="block",
    )
    yield ctx
    ctx.close()


def open_unguarded(context: Any, live_url: str, game: dict[str, Any]) -> Any:
    """Open the edit link on a phone with no service worker."""
    page = context.new_page()
    page.goto(live_url + f"/g/{game['id']}?key={game['edit_secret']}")
    expect(page.locator("form[data-offline-queue]")).to_be_visible()
    controller = "navigator.serviceWorker ? navigator.serviceWorker.controller : null"
    assert page.evaluate(controller) is None
    return page


def test_without_a_service_worker_a_hand_whose_connection_drops_is_kept_by_the_page(
    app: Flask, plain_http: Any, request: pytest.FixtureRequest
) -> None:
    """The phone still thinks it is online, the server cannot be reached, and no service
    worker is there to catch the form: the page sent it itself, and keeps it."""
    client = app.test_client()
    game = new_game(client)
    page, url, port = opened_then_dropped(app, lambda url: open_unguarded(plain_http, url, game))

    fill_knock(page, 0, 3, 20)
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    expect(page.locator("#netstatus .waiting-list li")).to_have_text([SUMMARY])
    # Still the sheet, not the browser's error page; the form is ready for the next hand.
    assert page.url == url + f"/g/{game['id']}"
    assert page.locator("input[name=knocker_deadwood]").input_value() == ""
    shot(page, request, "kept-by-page")
    assert hands(client, game["id"]) == []

    with serve(app, port=port):  # back: the page tries again by itself
        sent = hand_posts(page, game)
        expect(page.locator("#hand-1")).to_be_visible(timeout=15_000)
        until_nothing_is_kept(page)
        expect(page.locator("#netstatus .waiting-marker")).to_be_hidden()
        assert [(h["knocker"], h["knocker_deadwood"], h["defender_deadwood"])
                for h in hands(client, game["id"])] == [(0, 3, 20)]
        page.reload()
        assert kept_on_the_phone(page) == []
        assert len(sent) == 1
        assert len(hands(client, game["id"])) == 1


@ONCE  # the refusal is the HTTP tests' on both databases
def test_without_a_service_worker_a_mistake_is_shown_at_its_field_and_a_hand_saved_once(
    app: Flask, live_url: str, plain_http: Any
) -> None:
    """Sent by the page, a hand the server refuses comes back the usual way: the form with
    the server's message at the field and what was typed still in it."""
    client = app.test_client()
    game = new_game(client)  # Russian rules: a knock needs 10 or less
    page = open_unguarded(plain_http, live_url, game)
    fill_knock(page, 0, 14, 20)
    field = page.locator(".field", has=page.locator("input[name=knocker_deadwood]"))
    expect(field.locator(".error")).to_have_text("a knock needs 10 or less, this hand has 14")
    assert page.locator("input[name=knocker_deadwood]").input_value() == "14"
    assert page.locator("input[name=defender_deadwood]").input_value() == "20"
    assert hands(client, game["id"]) == []

    page.fill("input[name=knocker_deadwood]", "3")
    page.locator("form[data-offline-queue] button[type=submit]").click()
    expect(page.locator("#hand-1")).to_be_visible(timeout=10_000)
    expect(page.locator(".flash")).to_have_text("Hand 1 saved.")
    # Ann knocks 3 against 20: 17 points and the box.
    assert page.locator("#hand-1 td").nth(1).inner_text().split() == ["+17", "▮", "17"]
    expect(page.locator("#netstatus .waiting-marker")).to_be_hidden()
    assert [h["knocker_deadwood"] for h in hands(client, game["id"])] == [3]


def test_without_a_service_worker_a_card_hand_whose_connection_drops_is_kept_and_sent(
    app: Flask, plain_http: Any, request: pytest.FixtureRequest
) -> None:
    """The card-entry page keeps the hand, says so, and goes to the sheet (which sends it)
    once the server answers again, rather than to the browser's error page."""
    client = app.test_client()
    game = new_game(client)

    def card_page(url: str) -> Any:
        page = open_unguarded(plain_http, url, game)
        page.goto(url + f"/g/{game['id']}/hands/new")
        expect(page.locator("form[data-offline-queue]")).to_be_visible()
        return page

    page, url, port = opened_then_dropped(app, card_page)

    # Bob goes gin; Ann is left with 5♦ 7♠ 10♥ = 22, so Bob scores 22 + 25 = 47.
    page.locator("input[name=knocker][value='1']").check()
    page.fill("[name=knocker_cards]", "AS 2S 3S 4S 4H 5H 6H 7D 8D 9D")
    page.fill("[name=defender_cards]", "TC JC QC KC 8H 8C 8S 5D 7S TH")
    page.get_by_role("button", name="Check and save").click()
    expect(page.locator(".kept-note")).to_have_text(
        "The server cannot be reached; the hand is still kept on this phone."
    )
    assert page.url == url + f"/g/{game['id']}/hands/new"
    shot(page, request, "card-kept")
    assert hands(client, game["id"]) == []

    with serve(app, port=port):  # back: the page goes to the sheet, which sends it
        expect(page.locator("#hand-1")).to_be_visible(timeout=15_000)
        assert page.locator("#hand-1 td").nth(2).inner_text().split()[:2] == ["+47", "▮"]
        until_nothing_is_kept(page)
        got = hands(client, game["id"])
        assert [(h["mode"], h["knocker"]) for h in got] == [("cards", 1)]
        page.reload()
        assert len(hands(client, game["id"])) == 1


@ONCE  # the page's own marker
def test_a_watching_phone_whose_server_is_gone_says_its_sheet_is_as_of_the_last_answer(
    app: Flask, plain_http: Any, request: pytest.FixtureRequest
) -> None:
    """The phone still thinks it is online, but the live sheet gets no answer: the sheet
    says "offline — as of" the last time the server answered, and stops saying it once
    the server answers again (with what changed meanwhile)."""
    client = app.test_client()
    game = new_game(client)

    def watch(url: str) -> Any:
        page = plain_http.new_page()
        page.goto(url + f"/g/{game['id']}")  # the watch link: no key
        expect(page.locator("#netstatus")).to_be_attached()
        page.wait_for_timeout(1500)  # a live poll answered: the page is as of now
        return page

    page, _url, port = opened_then_dropped(app, watch)
    offline = page.locator("#netstatus .offline-marker")
    expect(offline).to_have_text(TEXTS["en"]["offline"].format(time=as_of(page)), timeout=5_000)
    last_answer = datetime.strptime(
        page.locator("#netstatus").get_attribute("data-rendered"), "%Y-%m-%dT%H:%M:%SZ"
    ).replace(tzinfo=UTC)
    assert 0 <= (datetime.now(UTC) - last_answer).total_seconds() < 10
    shot(page, request, "unreachable")
    # Meanwhile Ann knocks 3 against 20 at the table: 17.
    api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)

    with serve(app, port=port):  # the next poll (after backing off) finds it again
        expect(page.locator("#hand-1")).to_be_visible(timeout=20_000)
        expect(offline).to_be_hidden()
        assert page.locator("#hand-1 td").nth(1).inner_text().split() == ["+17", "▮", "17"]


def test_a_hand_whose_answer_was_lost_is_sent_again_and_counted_once(
    app: Flask, live_url: str, plain_http: Any, request: pytest.FixtureRequest
) -> None:
    """The hand reached the server and was saved, but its answer never came back (the
    Wi-Fi dropped on the way back): the phone keeps it, sends it again with the same
    token, and the server, which knows the token, answers "saved" though the sheet has
    moved on since the form was drawn. One hand on the sheet, nothing left on the
    phone, two sends in all."""
    client = app.test_client()
    game = new_game(client)
    page = open_unguarded(plain_http, live_url, game)
    sends: list[str] = []

    def answer_lost_once(route: Any) -> None:
        sends.append(route.request.url)
        if len(sends) == 1:
            route.fetch(max_redirects=0)  # the server saves it...
            route.abort("connectionreset")  # ...and the answer is lost
        else:
            route.continue_()

    page.route(f"**/g/{game['id']}/hands", answer_lost_once)
    fill_knock(page, 0, 3, 20)
    waiting = page.locator("#netstatus .waiting-marker")
    expect(waiting).to_have_text("waiting to send (1)")
    expect(page.locator("#netstatus .waiting-list li")).to_have_text([SUMMARY])
    assert [h["knocker_deadwood"] for h in hands(client, game["id"])] == [3]  # it is in
    shot(page, request, "answer-lost")

    # The phone tries again when it sees the network come back (or within 5 s).
    page.context.set_offline(True)
    page.context.set_offline(False)
    until_nothing_is_kept(page)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(waiting).to_be_hidden()
    expect(page.locator("#netstatus .kept-hand")).to_have_count(0)
    assert len(sends) == 2
    assert hands(client, game["id"]) == [
        {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 20, "upcard": None}
    ]
    assert page.locator("#hand-1 td").nth(1).inner_text().split() == ["+17", "▮", "17"]
    assert page.locator("#hand-2").count() == 0


@ONCE  # the page's own marker
def test_offline_as_of_is_the_last_answer_after_the_server_answers_again(
    app: Flask, browser: Any
) -> None:
    """The phone's clock is held, in Moscow (UTC+3): the watching phone's last answer
    came at 10:00 UTC, so with the server gone it says "as of 13:00"; the server answers
    again at 10:07 UTC (with a hand played meanwhile) and the marker goes; gone once more,
    the sheet is as of that answer, 13:07, not of the first one."""
    client = app.test_client()
    game = new_game(client)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB",
                              timezone_id="Europe/Moscow", service_workers="block")
    try:
        page = ctx.new_page()
        page.clock.set_fixed_time(datetime(2026, 12, 6, 10, 0, tzinfo=UTC))

        def watch(url: str) -> Any:
            page.goto(url + f"/g/{game['id']}")
            expect(page.locator("#netstatus")).to_be_attached()
            page.wait_for_timeout(1500)  # a live poll answered at 10:00
            return page

        page, _url, port = opened_then_dropped(app, watch)
        offline = page.locator("#netstatus .offline-marker")
        expect(offline).to_have_text("offline — as of 13:00", timeout=5_000)
        api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3,
                 defender_deadwood=20)

        page.clock.set_fixed_time(datetime(2026, 12, 6, 10, 7, tzinfo=UTC))
        with serve(app, port=port):
            expect(page.locator("#hand-1")).to_be_visible(timeout=20_000)
            expect(offline).to_be_hidden()
            page.wait_for_timeout(1500)  # answered again, nothing new
            expect(offline).to_be_hidden()
        expect(offline).to_have_text("offline — as of 13:07", timeout=20_000)
    finally:
        ctx.close()


CACHED_JS = """() => caches.keys().then((names) => Promise.all(names.map((name) =>
  caches.open(name).then((cache) => cache.keys()).then((requests) =>
    [name, requests.map((r) => new URL(r.url).pathname + new URL(r.url).search)])))
)"""


@ONCE  # what the phone keeps
def test_the_service_worker_keeps_the_pages_and_files_but_never_the_api_or_the_live_sheet(
    app: Flask, live_url: str, context: Any
) -> None:
    """Used online, the phone opens the game's JSON and a hand's page, asks the live
    sheet (the page does it by itself) and saves a hand (a POST): its caches then hold
    the app's files and the sheet, no JSON, no live answer, no POST's answer, and not
    the hand's page, sent no-store to a phone that may change the game; offline, the
    JSON is not there to open, the sheet is."""
    client = app.test_client()
    game = new_game(client)
    api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)
    page = open_as_editor(context, live_url, game)
    base = f"/g/{game['id']}"
    with page.expect_response(lambda r: r.url.endswith(f"{base}/live"), timeout=15_000):
        pass  # the live sheet answered
    fill_knock(page, 1, 2, 12)  # saved online: the POST's answer sends the page back
    expect(page.locator("#hand-2")).to_be_visible(timeout=10_000)
    page.goto(live_url + f"/api/v1/games/{game['id']}")
    page.goto(live_url + f"{base}/live?version=0")
    page.goto(live_url + f"{base}/hands/1")

    kept = dict(page.evaluate(CACHED_JS))
    assets = json.loads(re.search(r"^const ASSETS = (\[.*\]);$",
                                  client.get("/sw.js").get_data(as_text=True), re.MULTILINE)[1])
    [(static_name, static)] = [(k, v) for k, v in kept.items() if k.startswith("sk-static-")]
    assert sorted(static) == sorted(assets)
    assert kept["sk-pages-v2"] == [base]
    assert set(kept) == {static_name, "sk-pages-v2"}

    context.set_offline(True)
    page.goto(live_url + base)
    expect(page.locator("#hand-2")).to_be_visible()
    assert page.locator("body").get_attribute("data-served") == "cache"
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(live_url + f"/api/v1/games/{game['id']}")


CACHED_TEXTS_JS = """() => caches.keys().then((names) => Promise.all(names.map((name) =>
  caches.open(name).then((cache) => cache.keys().then((requests) => Promise.all(
    requests.map((r) => cache.match(r).then((response) => response.text()).then((text) =>
      [name, r.url, text])))))))).then((lists) => lists.flat())"""


@ONCE  # what the phone keeps
def test_an_editors_phone_keeps_no_edit_secret_and_still_takes_a_hand_offline(
    app: Flask, live_url: str, context: Any, request: pytest.FixtureRequest
) -> None:
    """The phone that keeps score opens the edit link, the history, a hand's page, the
    card-by-card form and the page that shows the edit link: nothing its service worker
    keeps holds the game's edit secret (not a page, not an address), and it keeps only
    the sheet and the card form, the pages a hand is typed on. Offline, the sheet still
    opens from that copy and takes a hand, sent exactly once when the network is back;
    the edit link's page is not there to open."""
    client = app.test_client()
    game = new_game(client)
    api_hand(client, game, outcome="knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)
    secret = game["edit_secret"]
    page = open_as_editor(context, live_url, game)
    base = f"/g/{game['id']}"
    for path in (f"{base}/history", f"{base}/hands/1", f"{base}/hands/new"):
        page.goto(live_url + path)
        assert page.locator("body").get_attribute("data-served") == "network"
    page.goto(live_url + base)

    def kept_pages() -> list[str]:
        kept = page.evaluate(CACHED_TEXTS_JS)
        assert [(name, url) for name, url, text in kept if secret in url + text] == []
        return sorted(url.removeprefix(live_url) for name, url, _text in kept
                      if name.startswith("sk-pages-"))

    assert kept_pages() == [base, f"{base}/hands/new"]
    page.goto(f"{live_url}{base}/share/edit")
    assert page.locator("#edit-url").input_value() == f"{live_url}{base}?key={secret}"
    page.goto(live_url + base)
    assert kept_pages() == [base, f"{base}/hands/new"]

    sent = hand_posts(page, game)
    context.set_offline(True)
    page.reload()
    assert page.locator("body").get_attribute("data-served") == "cache"
    fill_knock(page, 1, 2, 12)  # Bob knocks 2 against 12: 10
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    shot(page, request, "editor-offline")
    with pytest.raises(PlaywrightError, match=r"ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        context.new_page().goto(f"{live_url}{base}/share/edit")

    context.set_offline(False)
    expect(page.locator("#hand-2")).to_be_visible(timeout=10_000)
    until_nothing_is_kept(page)
    assert [(h["knocker"], h["knocker_deadwood"], h["defender_deadwood"])
            for h in hands(client, game["id"])] == [(0, 3, 20), (1, 2, 12)]
    assert len(sent) == 1


ATTACK = """<!doctype html><html><body>
<form method="post" action="{action}">
  <input name="outcome" value="gin"><input name="knocker" value="1">
  <input name="defender_deadwood" value="99"><input name="token" value="evil-token">
  <input name="csrf_token" value="forged"><button type="submit">Win a prize</button>
</form></body></html>"""


@ONCE  # what the phone keeps
def test_a_form_on_another_site_posting_a_hand_is_never_kept(
    app: Flask, context: Any, request: pytest.FixtureRequest
) -> None:
    """With the server out of reach, another site's form that posts a hand to the game
    is dropped by the service worker: only the app's own pages put hands in the queue
    (where "Correct it" would fill the other site's values into this phone's form). The
    phone's own hand, posted the same way right after, is still kept."""
    client = app.test_client()
    game = new_game(client)
    page, url, _port = opened_then_dropped(app, lambda url: open_as_editor(context, url, game))
    elsewhere = context.new_page()
    elsewhere.route("http://elsewhere.test/**", lambda route: route.fulfill(
        content_type="text/html", body=ATTACK.format(action=f"{url}/g/{game['id']}/hands")))
    elsewhere.goto("http://elsewhere.test/prize")
    with pytest.raises(PlaywrightError), elsewhere.expect_navigation(timeout=10_000):
        elsewhere.click("button")
    assert kept_on_the_phone(page) == []

    fill_knock(page, 0, 3, 20)  # the phone's own form still keeps its hand
    expect(page.locator("#netstatus .waiting-marker")).to_have_text("waiting to send (1)")
    assert kept_on_the_phone(page) == ["waiting"]
    shot(page, request, "only-own-hand-kept")
