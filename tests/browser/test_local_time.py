"""The history's times in the phone's own clock, language and calendar.

The page's script writes each ``<time data-local>`` in the phone's zone and remembers
the zone in the ``tz`` cookie, so that the server writes the next page (and prints) in
it too, in the same words. Every entry here is dated 19 March 2024, 21:00 UTC, worked
out by hand: in Tehran (UTC+3:30) 00:30 on 20 March, which is Nowruz, 1 Farvardin 1403
(Persian reads the Solar Hijri calendar, with the Latin digits the app writes); in
Moscow (UTC+3) midnight on 20 March. The server's Solar Hijri days are Chromium's.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.solar_hijri import to_solar_hijri
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
            if locale == "fa-IR":
                assert persian_days(page, DAYS) == [tuple(to_solar_hijri(d)) for d in DAYS]


# Every day of 1403 and 1404 (1403 is leap), and the week about each Nowruz for sixty
# years: where a year's length shows.
DAYS = sorted({date(2024, 3, 1) + timedelta(days=n) for n in range(800)}
              | {date(year, 3, 17) + timedelta(days=n)
                 for year in range(2000, 2061) for n in range(7)})


def persian_days(page: Any, days: list[date]) -> list[tuple[int, int, int]]:
    """Chromium's Solar Hijri year, month and day of each of ``days``: the server's
    calendar must be the page's."""
    found = page.evaluate("""(days) => {
      var format = new Intl.DateTimeFormat("fa-u-ca-persian-nu-latn",
        { timeZone: "UTC", year: "numeric", month: "numeric", day: "numeric" });
      return days.map(function (day) {
        var parts = {};
        format.formatToParts(new Date(day + "T12:00:00Z")).forEach(function (p) {
          parts[p.type] = Number(p.value);
        });
        return [parts.year, parts.month, parts.day];
      });
    }""", [d.isoformat() for d in days])
    return [tuple(day) for day in found]
