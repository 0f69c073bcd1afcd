"""Dates and times as the reader reads them: in the reader's time zone, in the page's
language, and on Persian pages and prints in the Solar Hijri calendar.

The server learns the reader's zone from the ``tz`` cookie static/app/times.js sets
from the browser's own (``Intl.DateTimeFormat().resolvedOptions().timeZone``); without
it a time is written in UTC and says so ("13:30 UTC"). On a page a time is a
``<time datetime="…Z" data-local>`` that the same module writes again in the browser's
zone with ``Intl.DateTimeFormat``, in the same styles (a medium date, a short time), so
a page reads the same before and after its script. A print has no script: the cookie dates it.

Digits are Latin in every language, as everywhere else in the app.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import format_date, format_time, get_datetime_format
from flask import Flask, has_request_context, request
from flask_babel import get_locale
from markupsafe import Markup

from .solar_hijri import MONTHS, to_solar_hijri

ZONE_COOKIE = "tz"


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def reader_zone() -> tzinfo | None:
    """The reader's time zone from the ``tz`` cookie; ``None`` without a known one."""
    name = request.cookies.get(ZONE_COOKIE, "") if has_request_context() else ""
    return ZoneInfo(name) if name in _zones() else None


def _locale() -> str:
    return str(get_locale() or "en")


def _in_zone(moment: datetime, zone: tzinfo | None) -> datetime:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # stored as UTC
    return aware.astimezone(zone or UTC)


def date_text(day: date, style: str = "medium", locale: str = "en") -> str:
    """A calendar day in ``locale``'s words: Solar Hijri in Persian, Gregorian otherwise.

    >>> date_text(date(2024, 1, 1), locale="fa")
    '11 دی 1402'
    >>> date_text(date(2024, 1, 1), "long", locale="ru")
    '1 января 2024 г.'
    """
    if locale == "fa":
        persian = to_solar_hijri(day)
        return f"{persian.day} {MONTHS[persian.month - 1]} {persian.year}"
    return _as_browsers_write(format_date(day, style, locale=locale))


def _as_browsers_write(text: str) -> str:
    """Babel's text with the plain spaces and no direction marks, as Chromium's ``Intl``
    writes the same date ("1:30 PM", "2026 г.", "16 آذر 1405، 13:30")."""
    return text.replace("\u202f", " ").replace("\u200f", "")


def moment_text(moment: datetime, zone: tzinfo | None = None, locale: str = "en") -> str:
    """A date and time in ``zone`` (``None``: in UTC, which the text names).

    >>> moment_text(datetime(2024, 3, 20, 9, 0, tzinfo=UTC), ZoneInfo("Asia/Tehran"), "fa")
    '1 فروردین 1403، 12:30'
    >>> moment_text(datetime(2026, 12, 7, 13, 30, tzinfo=UTC), None, "en")
    'Dec 7, 2026, 1:30 PM UTC'
    """
    local = _in_zone(moment, zone)
    day = date_text(local.date(), "medium", locale)
    clock = format_time(local.time(), "short", locale=locale)
    text = _as_browsers_write(str(get_datetime_format("medium", locale=locale)).format(clock, day))
    return text if zone else f"{text} UTC"


def _utc_stamp(moment: datetime) -> str:
    return _in_zone(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def time_tag(value: datetime) -> Markup:
    """Template filter: a date and time for the reader, which the page's script writes
    again in the browser's zone; its title keeps the UTC time."""
    utc = _in_zone(value, UTC)
    return Markup('<time datetime="{}" data-local title="{}">{}</time>').format(
        _utc_stamp(value), f"{utc:%Y-%m-%d %H:%M} UTC",
        moment_text(value, reader_zone(), _locale()))


def day_tag(value: date, style: str = "medium") -> Markup:
    """Template filter: the day of a moment (a ``datetime``: in the reader's zone, and
    the page's script writes it again in the browser's) or a calendar day (a ``date``,
    such as a payment's, the same everywhere)."""
    if isinstance(value, datetime):
        text = date_text(_in_zone(value, reader_zone()).date(), style, _locale())
        return Markup('<time datetime="{}" data-local="{}">{}</time>').format(
            _utc_stamp(value), style, text)
    return Markup('<time datetime="{}">{}</time>').format(
        value.isoformat(), date_text(value, style, _locale()))


def rendered_at() -> str:
    """When this page was drawn (UTC, ISO 8601): an offline copy says how old it is."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def init_app(app: Flask) -> None:
    """The template filters ``moment`` and ``day``, the global ``rendered_at()``."""
    app.add_template_filter(time_tag, "moment")
    app.add_template_filter(day_tag, "day")
    app.add_template_global(rendered_at, "rendered_at")
