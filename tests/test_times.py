"""Dates and times as the reader reads them: in the zone the ``tz`` cookie names (UTC,
named, without it), in the page's language, in Persian in the Solar Hijri calendar; on
pages and in prints.

Every expected text is worked out by hand. The moment used throughout is 19 March 2024,
21:00 UTC: in Tehran (UTC+3:30) it is already 00:30 on 20 March, which is Nowruz,
1 Farvardin 1403, while in UTC it is still 29 Esfand 1402; in Moscow (UTC+3) 00:00 on
20 March.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime, timedelta
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.solar_hijri import SolarHijri, from_solar_hijri, is_leap, to_solar_hijri
from tests.helpers import date_everything
from tests.layout import pdf_pages

MOMENT = datetime(2024, 3, 19, 21, 0, tzinfo=UTC)
STAMP = "2024-03-19T21:00:00Z"
HAND = {"rules": "russian", "knocker": {"cards": "KS KH KD 5S 6S 7S 9C TC JC JD"},
        "defender": {"cards": "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"}}


@pytest.mark.once
@pytest.mark.parametrize(("gregorian", "persian"), [
    (date(2024, 3, 20), SolarHijri(1403, 1, 1)),     # Nowruz 1403
    (date(2025, 3, 21), SolarHijri(1404, 1, 1)),     # Nowruz 1404
    (date(2025, 3, 20), SolarHijri(1403, 12, 30)),   # 1403 is a leap year: 30 Esfand
    (date(2024, 1, 1), SolarHijri(1402, 10, 11)),    # 11 Dey
    (date(2024, 3, 19), SolarHijri(1402, 12, 29)),   # 1402 is not: 29 Esfand is its last
    (date(2026, 12, 1), SolarHijri(1405, 9, 10)),    # 255 days after Nowruz 1405: 10 Azar
    (date(1979, 2, 11), SolarHijri(1357, 11, 22)),   # 22 Bahman 1357
])
def test_solar_hijri_known_days(gregorian: date, persian: SolarHijri) -> None:
    assert to_solar_hijri(gregorian) == persian
    assert from_solar_hijri(persian) == gregorian


def month_length(year: int, month: int) -> int:
    """Six months of 31 days, five of 30, Esfand 29 or in a leap year 30."""
    return 31 if month <= 6 else 30 if month <= 11 or is_leap(year) else 29


@pytest.mark.once
@given(st.dates(date(1900, 1, 1), date(2120, 12, 31)))
def test_solar_hijri_walks_day_by_day(day: date) -> None:
    """The next Gregorian day is the next Solar Hijri day, by the months' lengths; and
    every day converts back to itself."""
    today, tomorrow = to_solar_hijri(day), to_solar_hijri(day + timedelta(days=1))
    if today.day < month_length(today.year, today.month):
        assert tomorrow == today._replace(day=today.day + 1)
    elif today.month < 12:
        assert tomorrow == SolarHijri(today.year, today.month + 1, 1)
    else:
        assert tomorrow == SolarHijri(today.year + 1, 1, 1)
    assert from_solar_hijri(today) == day


@pytest.mark.once
def test_leap_years_of_the_33_year_rule() -> None:
    """1403 is leap and 1404 is not (the 2820-year rule some converters use gets
    these two the wrong way round); a cycle has eight leap years."""
    assert (is_leap(1399), is_leap(1403), is_leap(1404), is_leap(1408)) == (True, True, False, True)
    assert sum(is_leap(y) for y in range(1400, 1433)) == 8


def times_on(client: FlaskClient, url: str, lang: str, zone: str | None) -> list[str]:
    """The text of each ``<time>`` on the page, as the server writes it."""
    client.delete_cookie("tz")
    if zone is not None:
        client.set_cookie("tz", zone)
    html = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
    return [unescape(t) for t in re.findall(r"<time [^>]*>([^<]*)</time>", html)]


def test_history_and_ruling_in_the_readers_zone_and_calendar(client: FlaskClient,
                                                             app: Flask) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    client.post(f"/api/v1/games/{created['id']}/hands", json={"outcome": "dead"},
                headers={"X-Edit-Secret": created["edit_secret"]})
    ruling = client.post("/api/v1/rulings", json=HAND).get_json()["id"]
    date_everything(app, MOMENT)
    history = f"/g/{created['id']}/history"
    cases = [
        ("en", None, "Mar 19, 2024, 9:00 PM UTC"),
        ("en", "Mars/Olympus_Mons", "Mar 19, 2024, 9:00 PM UTC"),  # no such zone
        ("en", "Asia/Tehran", "Mar 20, 2024, 12:30 AM"),
        ("fa", None, "29 اسفند 1402، 21:00 UTC"),
        ("fa", "Asia/Tehran", "1 فروردین 1403، 0:30"),
        ("ru", "Europe/Moscow", "20 мар. 2024 г., 00:00"),
        ("ru", "Asia/Tehran", "20 мар. 2024 г., 00:30"),
    ]
    for lang, zone, expected in cases:
        assert times_on(client, history, lang, zone) == [expected, expected], (lang, zone)
        assert times_on(client, f"/rulings/{ruling}", lang, zone) == [expected], (lang, zone)
    page = client.get(history).get_data(as_text=True)
    assert page.count(f'<time datetime="{STAMP}" data-local title="2024-03-19 21:00 UTC">') == 2
    client.set_cookie("tz", "Asia/Tehran")
    html = client.get(f"/rulings/{ruling}", headers={"Accept-Language": "fa"}).text
    assert "رأی در 1 فروردین 1403، 0:30 با کد" in re.sub(r"<[^>]+>", "", html)


_LATIN_RUN = re.compile(r"[0-9A-Za-z:.]+|[^0-9A-Za-z:.]+")


def read_rtl(visual: str) -> str:
    """A word of a right-to-left line as the eye reads it: its glyphs come left to
    right, so its runs are read from the right, the letters of a Persian run too, the
    digits of a number as they stand ("،1403" reads "1403،")."""
    runs = _LATIN_RUN.findall(visual)
    return "".join(run if run[0].isascii() else run[::-1] for run in reversed(runs))


def printed(data: bytes, lang: str) -> str:
    """The PDF's lines as the eye reads them, from the words' boxes (pdftotext -bbox):
    in Persian from the right."""
    lines = []
    for page in pdf_pages(data):
        for line in page.lines:
            words = [unicodedata.normalize("NFKC", w.text) for w in
                     sorted(line, key=lambda w: -w.x1 if lang == "fa" else w.x0)]
            lines.append(" ".join(read_rtl(w) if lang == "fa" else w for w in words))
    return "\n".join(lines)


def test_prints_are_dated_in_the_readers_zone_and_calendar(client: FlaskClient,
                                                           app: Flask) -> None:
    """A print has no script: the server dates it by the cookie, else in UTC."""
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob"]}).get_json()
    ruling = client.post("/api/v1/rulings", json=HAND).get_json()["id"]
    date_everything(app, MOMENT)
    sheet = f"/g/{created['id']}/sheet.pdf"

    def read(url: str, lang: str) -> str:
        return printed(client.get(url, headers={"Accept-Language": lang}).data, lang)

    assert "29 اسفند 1402" in read(sheet, "fa")
    assert "19 марта 2024 г." in read(sheet, "ru")
    assert "Decided Mar 19, 2024, 9:00 PM UTC by" in read(f"/rulings/{ruling}.pdf", "en")
    client.set_cookie("tz", "Asia/Tehran")
    assert "1 فروردین 1403" in read(sheet, "fa") and "اسفند" not in read(sheet, "fa")
    assert "March 20, 2024" in read(sheet, "en")
    assert "رأی در 1 فروردین 1403، 0:30 با کد" in read(f"/rulings/{ruling}.pdf", "fa")


def test_lists_date_games_and_payments_in_the_readers_calendar(client: FlaskClient,
                                                               app: Flask) -> None:
    """The home page's and a group's games by their day in the reader's zone; a payment
    by the day it was paid, which no zone moves."""
    group = client.post("/api/v1/groups", json={
        "name": "Friday", "players": ["Ann", "Bob"], "stake": "0.01", "currency": "EUR"},
    ).get_json()
    game = client.post("/api/v1/games", json={"players": ["Ann", "Bob"], "group": group["id"]},
                       headers={"X-Edit-Secret": group["edit_secret"]})
    assert game.status_code == 201
    for link in (group["edit_url"], game.get_json()["edit_url"]):
        client.get(link)  # this browser may now edit them, and lists them at home
    assert client.post(f"/groups/{group['id']}/payments", data={
        "payment-payer": "Bob", "payment-payee": "Ann", "payment-amount": "1.00",
        "payment-paid_on": "2026-12-01"}).status_code == 302
    date_everything(app, MOMENT)
    assert times_on(client, "/", "fa", "Asia/Tehran") == ["1 فروردین 1403"]
    assert times_on(client, "/", "en", None) == ["Mar 19, 2024"]
    assert times_on(client, f"/groups/{group['id']}", "fa", "Asia/Tehran") == [
        "10 آذر 1405", "1 فروردین 1403"]
    assert times_on(client, f"/groups/{group['id']}", "ru", "America/New_York") == [
        "1 дек. 2026 г.", "19 мар. 2024 г."]
