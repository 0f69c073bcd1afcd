"""The pages' scripts load and run: static/app.js and every module of static/app/ it
imports are fetched and each starts its part of the page, and none of the main pages
meets a script error or anything the Content-Security-Policy refuses. A module that is
missing, misnamed in an import, not valid JavaScript or not served as JavaScript fails
here, where the pages themselves would carry on without it."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.browser.helpers import api_hand, new_game, night_pages, pages
from tests.layout import KINDS

pytestmark = [pytest.mark.browser]

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
# The entry module and the modules it imports, as the browser asks for them.
MODULES = sorted(
    f"/static/{p.relative_to(STATIC).as_posix()}"
    for p in [STATIC / "app.js", *(STATIC / "app").rglob("*.js")]
)


def errors_on(page: Any) -> list[str]:
    """The script errors and console errors ``page`` meets from now on (a failed load,
    a refusal by the Content-Security-Policy), each with the address it was at."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    return errors


def test_every_module_loads_and_starts_its_part_of_the_sheet(
    app: Flask, live_url: str, phone: Any
) -> None:
    game = new_game(app.test_client())
    assert api_hand(app.test_client(), game, outcome="dead").status_code == 201
    errors = errors_on(phone)
    fetched: dict[str, int] = {}
    phone.on("response", lambda r: fetched.setdefault(urllib.parse.urlsplit(r.url).path,
                                                      r.status))
    phone.goto(f"{live_url}/g/{game['id']}?key={game['edit_secret']}")

    assert len(MODULES) > 5
    assert {path: fetched.get(path) for path in MODULES} == dict.fromkeys(MODULES, 200)
    # The hands kept offline: the hand form is taken over.
    expect(phone.locator("form[data-offline-queue]").first).to_have_attribute(
        "data-queue-ready", "1")
    # The wake lock: its button shows.
    expect(phone.get_by_role("button", name="Keep the screen on")).to_be_visible()
    # The network status: the live sheet finding no server shows the marker.
    phone.evaluate("document.dispatchEvent(new CustomEvent('scorekeeper:unreachable'))")
    expect(phone.locator("#netstatus .offline-marker")).to_have_text(
        re.compile(r"^offline — as of \d\d:\d\d$"))
    # The service worker: registered for the whole site.
    scope = None
    for _ in range(100):
        scope = phone.evaluate(
            "navigator.serviceWorker.getRegistration().then((r) => r && r.active ? r.scope : null)")
        if scope:
            break
        phone.wait_for_timeout(100)
    assert scope == f"{live_url}/"
    # Local times: the history's are written again in the phone's clock.
    phone.goto(f"{live_url}/g/{game['id']}/history")
    times = phone.locator("time[data-local]")
    expect(times).to_have_count(2)  # the game made, the hand
    for i in range(2):
        expect(times.nth(i)).to_have_attribute("data-shown", times.nth(i).get_attribute(
            "datetime") or "?")
    assert errors == []


def test_the_main_pages_run_their_scripts_without_an_error(
    live_url: str, phone: Any
) -> None:
    """The pages of a gin game (the sheet with its picker, forms, live sheet and share
    buttons; table mode), the home and new-game pages, the checkers, a group's pages
    and a club night's, with its board."""
    errors = errors_on(phone)
    others = tuple(f"{kind}-" for kind in KINDS if kind != "gin")
    visited = []
    for name, path in [*pages(live_url, "en"), *night_pages(live_url, "en")]:
        if name.startswith(others):
            continue
        phone.goto(live_url + path)
        visited.append(name)
    assert {"home", "gin-sheet", "gin-cards", "gin-table", "check", "group",
            "night-board"} <= set(visited)
    assert errors == []
