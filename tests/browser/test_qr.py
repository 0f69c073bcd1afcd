"""Joining by QR code (issue 11 §2), the installed app's service worker, and the screen
wake lock (§4), on a phone at 390×844. The QR codes are read back from the screen with a
real decoder (Debian's zbarimg)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from scorekeeper import lan
from tests.browser.conftest import phone_page
from tests.live import serve

pytestmark = [pytest.mark.browser, pytest.mark.once]

ZBARIMG = shutil.which("zbarimg")


def decode(page: Any, selector: str, path: Path) -> str:
    """What a phone's camera reads from the QR code on screen."""
    if ZBARIMG is None:
        pytest.fail("zbarimg is missing: `make test` installs Debian's zbar-tools")
    page.locator(selector).scroll_into_view_if_needed()
    page.locator(selector).screenshot(path=str(path))
    done = subprocess.run(
        [ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


def new_game(app: Flask) -> dict[str, Any]:
    created = app.test_client().post(
        "/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]}
    )
    game: dict[str, Any] = created.get_json()
    return game


def test_the_share_section_shows_the_watch_link_and_on_a_tap_the_edit_link(
    app: Flask, live_url: str, phone: Any, tmp_path: Path
) -> None:
    game = new_game(app)
    page = phone
    page.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")
    page.get_by_text("Share and other phones").click()
    watch = f"{live_url}/g/{game['id']}"
    assert page.locator("#watch-url").input_value() == watch
    assert decode(page, "#watch-qr", tmp_path / "watch.png") == watch
    assert page.locator("#edit-qr").count() == 0  # not on the sheet
    phone.shot("share")

    page.get_by_role("link", name="Show the edit QR code").click()
    edit = f"{live_url}/g/{game['id']}?key={game['edit_secret']}"
    assert page.locator("#edit-url").input_value() == edit
    assert decode(page, "#edit-qr", tmp_path / "edit.png") == edit
    phone.shot("edit-qr")

    # The watch link's code opens the game read-only on another phone.
    other = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    try:
        watcher = other.new_page()
        watcher.goto(watch)
        expect(watcher.locator("form[data-offline-queue]")).to_have_count(0)
        watcher.get_by_text("Show this game to another phone").click()
        assert decode(watcher, "#watch-qr", tmp_path / "watcher.png") == watch
    finally:
        other.close()


@pytest.mark.parametrize("addresses", [["192.168.1.23"], None], ids=["given", "machine"])
def test_the_home_page_shows_the_server_url_for_other_phones(
    make_app: Any, phone: Any, tmp_path: Path, addresses: list[str] | None
) -> None:
    config: dict[str, Any] = {"LISTEN_HOST": "0.0.0.0", "LISTEN_PORT": "5000"}
    if addresses is not None:
        config["LAN_ADDRESSES"] = addresses
    expected = [f"http://{a}:5000/" for a in (addresses or lan.machine_addresses())]
    if not expected:
        pytest.skip("this machine has no network address other than loopback")
    app = make_app(**config)
    with serve(app) as url:
        phone.goto(url + "/")
        expect(phone.get_by_role("heading", name="Open on another phone")).to_be_visible()
        assert phone.locator("#join a.url").all_inner_texts() == expected
        for index, want in enumerate(expected):
            image = f"#join figure:nth-of-type({index + 1}) img"
            assert decode(phone, image, tmp_path / f"{index}.png") == want
        phone.shot("home-join")


def test_the_app_installs_a_service_worker_for_the_whole_site(
    app: Flask, live_url: str, phone: Any
) -> None:
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    game = new_game(app)
    phone.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")
    phone.goto(live_url + "/")
    for _ in range(100):
        scope = phone.evaluate(
            "navigator.serviceWorker.getRegistration().then(r => r && r.active ? r.scope : null)"
        )
        if scope:
            break
        phone.wait_for_timeout(100)
    assert scope == live_url + "/"
    manifest = phone.locator("link[rel=manifest]").get_attribute("href")
    assert manifest == "/manifest.webmanifest?lang=en"
    phone.goto(f"{live_url}/g/{game['id']}")
    expect(phone.locator("#wakelock")).to_be_visible()
    assert errors == []  # no script error, nothing the Content-Security-Policy refused


def test_the_screen_can_be_kept_on_while_the_game_is_open(
    app: Flask, live_url: str, phone: Any
) -> None:
    game = new_game(app)
    page = phone
    page.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")
    toggle = page.get_by_role("button", name="Keep the screen on")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    held = page.locator("#wakelock")
    expect(held).to_have_attribute("aria-pressed", "true")
    expect(held).to_have_text("Screen stays on")
    # The choice holds from one page to the next (every Save loads the sheet again).
    page.reload()
    expect(held).to_have_attribute("aria-pressed", "true")
    phone.shot("wake-lock-on")
    held.click()
    expect(held).to_have_attribute("aria-pressed", "false")
    expect(held).to_have_text("Keep the screen on")

    # The game ends while the page is open (the live sheet brings the finished sheet in,
    # with its marker): the lock goes and so does the toggle.
    held.click()
    expect(held).to_have_attribute("aria-pressed", "true")
    page.evaluate(
        "document.querySelector('#sheet').insertAdjacentHTML('afterend',"
        " '<span data-game-finished hidden></span>')"
    )
    expect(held).to_be_hidden()
    expect(held).to_have_attribute("aria-pressed", "false")


def test_no_wake_lock_toggle_once_the_game_is_over(app: Flask, live_url: str, phone: Any) -> None:
    game = new_game(app)
    client = app.test_client()
    for _ in range(3):  # classic: Ann's gin against 30 three times ends the game
        client.post(
            f"/api/v1/games/{game['id']}/hands",
            json={"outcome": "gin", "knocker": 0, "defender_deadwood": 30},
            headers={"X-Edit-Secret": game["edit_secret"]},
        )
    phone.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")
    expect(phone.locator("#settlement")).to_be_visible()
    assert phone.locator("#wakelock").count() == 0


def test_no_wake_lock_toggle_where_the_browser_has_none(
    app: Flask, live_url: str, phone: Any
) -> None:
    game = new_game(app)
    phone.context.add_init_script("delete Navigator.prototype.wakeLock;")
    phone.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")
    expect(phone.locator("form[data-offline-queue]")).to_be_visible()
    phone.wait_for_load_state("load")
    expect(phone.locator("#wakelock")).to_be_hidden()


# A phone with a share sheet: navigator.share records what it was given.
SHARE_SHEET = """Object.defineProperty(Navigator.prototype, "share", {configurable: true,
  value(data) { (window.shared = window.shared || []).push(data); return Promise.resolve(); }});"""
NO_SHARE_SHEET = "delete Navigator.prototype.share;"


def test_copy_and_share_beside_the_links(
    app: Flask, live_url: str, phone: Any, browser: Any, request: pytest.FixtureRequest
) -> None:
    """The game's links: "Share" opens the phone's share sheet with the link, "Copy" puts
    it on the clipboard and "Copied" is said in a live region. A phone without a share
    sheet (the group's page, in Persian at 360 px) has "Copy" alone. Without JavaScript
    the links are bare read-only fields."""
    game = new_game(app)
    sheet = f"{live_url}/g/{game['id']}?key={game['edit_secret']}"
    html = app.test_client().get(sheet.removeprefix(live_url), follow_redirects=True).get_data(
        as_text=True)
    assert re.findall(r'<p class="share-link".*?</p>', html, re.S) and not re.findall(
        r'<p class="share-link"[^>]*>(?:(?!</p>).)*<button', html, re.S)

    page = phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_url)
    page.add_init_script(SHARE_SHEET)
    page.goto(sheet)
    page.get_by_text("Share and other phones").click()
    watch = page.locator(".share-link", has=page.locator("#watch-url"))
    expect(watch.get_by_role("button")).to_have_text(["Share", "Copy"])
    watch.get_by_role("button", name="Share").click()
    # The page's title, each name isolated (U+2068…U+2069) as in every title.
    title = "\u2068Ann\u2069 · \u2068Bob\u2069 · Scorekeeper"
    assert page.evaluate("window.shared") == [{"title": title,
                                                "url": f"{live_url}/g/{game['id']}"}]
    edit = page.locator(".share-link", has=page.locator("#edit-url"))
    edit.get_by_role("button", name="Copy").click()
    status = edit.get_by_role("status")
    expect(status).to_have_text("Copied")
    expect(status).to_have_attribute("aria-live", "polite")
    assert page.evaluate("navigator.clipboard.readText()") == sheet
    page.shot("share-buttons")

    group = app.test_client().post(
        "/api/v1/groups", json={"name": "Club", "players": ["Ann", "Bob"]}).get_json()
    with phone_page(browser, request, width=360) as persian:
        persian.context.add_cookies([{"name": "lang", "value": "fa", "url": live_url}])
        persian.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_url)
        persian.add_init_script(NO_SHARE_SHEET)
        persian.goto(live_url + group["edit_url"].removeprefix("http://localhost"))
        persian.get_by_text("اشتراک و گوشی‌های دیگر").click()
        watch = persian.locator(".share-link", has=persian.locator("#watch-url"))
        expect(watch.get_by_role("button")).to_have_text(["کپی"])
        watch.get_by_role("button").click()
        expect(watch.get_by_role("status")).to_have_text("کپی شد")
        copied = persian.evaluate("navigator.clipboard.readText()")
        assert copied == f"{live_url}/groups/{group['id']}"
        assert persian.evaluate("document.documentElement.scrollWidth") <= 360
        persian.shot("group-fa")
