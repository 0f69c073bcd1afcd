"""The history's times in the phone's own clock, language and calendar.

The page's script writes each ``<time data-local>`` in the phone's zone and remembers
the zone in the ``tz`` cookie, so that the server writes the next page (and prints) in
it too, in the same words. Every entry here is dated 19 March 2024, 21:00 UTC, worked
out by hand: in Tehran (UTC+3:30) 00:30 on 20 March, which is Nowruz, 1 Farvardin 1403
(Persian reads the Solar Hijri calendar, with the Latin digits the app writes); in
Moscow (UTC+3) midnight on 20 March.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.browser.conftest import phone_page
from tests.helpers import date_everything

pytestmark = [pytest.mark.browser, pytest.mark.once]

MOMENT = datetime(2024, 3, 19, 21, 0, tzinfo=UTC)


PHONES = [
    ("fa-IR", "Asia/Tehran", "1 فروردین 1403، 0:30"),
    ("ru-RU", "Europe/Moscow", "20 мар. 2024 г., 00:00"),
    ("en-GB", "Europe/Moscow", "Mar 20, 2024, 12:00 AM"),  # English pages write US English
]


def test_history_times_are_in_the_phones_clock_language_and_calendar(
    browser: Any, client: FlaskClient, app: Flask, live_url: str,
    request: pytest.FixtureRequest,
) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    added = client.post(f"/api/v1/games/{created['id']}/hands", json={"outcome": "dead"},
                        headers={"X-Edit-Secret": created["edit_secret"]})
    assert added.status_code == 201
    date_everything(app, MOMENT)
    history = f"{live_url}/g/{created['id']}/history"
    for locale, zone, expected in PHONES:
        with phone_page(browser, request, locale=locale, timezone_id=zone) as page:
            page.goto(history)
            times = page.locator("time[data-local]")
            assert times.all_inner_texts() == [expected, expected]  # creation, first hand
            for i in range(2):
                assert times.nth(i).get_attribute("title") == "2024-03-19 21:00 UTC"
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.shot(locale)
            # The page remembered the phone's zone: the server now writes the same words.
            assert {c["name"]: c["value"] for c in page.context.cookies()}["tz"] == zone
            served = page.request.get(history, headers={"Accept-Language": locale}).text()
            assert served.count(f">{expected}</time>") == 2, locale
