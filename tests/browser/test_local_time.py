"""The history's times in the phone's own clock: the server only knows UTC, so it
writes UTC (what a page without JavaScript keeps), and the phone shows its own time.

A phone in Tehran (UTC+3:30 all year) reading the history in Russian: an entry saved
at 06:40 UTC reads «1 дек. 2026 г., 10:10». The expected text is worked out here from
the entry's UTC time, not read from the page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

pytestmark = [pytest.mark.browser, pytest.mark.once]

TEHRAN = timedelta(hours=3, minutes=30)
RU_MONTHS = ("янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.",
             "окт.", "нояб.", "дек.")


def test_history_times_are_in_the_phones_clock_and_language(
    browser: Any, client: FlaskClient, live_url: str
) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    added = client.post(f"/api/v1/games/{created['id']}/hands", json={"outcome": "dead"},
                        headers={"X-Edit-Secret": created["edit_secret"]})
    assert added.status_code == 201
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU",
                                  timezone_id="Asia/Tehran")
    try:
        page = context.new_page()
        page.goto(f"{live_url}/g/{created['id']}/history")
        times = page.locator("time[data-local]")
        assert times.count() == 2  # the game's creation and its first hand
        for i in range(2):
            stamp = times.nth(i).get_attribute("datetime")
            assert stamp is not None
            utc = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
            here = utc + TEHRAN
            expected = f"{here.day} {RU_MONTHS[here.month - 1]} {here.year} г., {here:%H:%M}"
            assert times.nth(i).inner_text() == expected
            assert times.nth(i).get_attribute("title") == f"{utc:%Y-%m-%d %H:%M} UTC"
    finally:
        context.close()
