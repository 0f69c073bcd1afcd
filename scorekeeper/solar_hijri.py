"""The Solar Hijri (Persian) calendar: the dates a Persian reader reads.

The year starts at the March equinox (1 Farvardin, Nowruz); the first six months have
31 days, the next five 30, Esfand 29, or 30 in a leap year. Leap years follow the
33-year arithmetic rule (a year is leap when ``(25 × year + 11) mod 33 < 8``), the rule
browsers' ``Intl.DateTimeFormat`` applies for the ``persian`` calendar up to 1502 (March
2124; later the astronomical calendar leaves the rule now and then), so a date the
server prints is the date the page shows. Babel has no Persian calendar, and the
arithmetic is a few lines, so it is written here rather than taken from a package.

>>> from datetime import date
>>> to_solar_hijri(date(2024, 3, 20))
SolarHijri(year=1403, month=1, day=1)
>>> to_solar_hijri(date(2025, 3, 20))
SolarHijri(year=1403, month=12, day=30)
>>> from_solar_hijri(SolarHijri(1404, 1, 1))
datetime.date(2025, 3, 21)
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

MONTHS = ("فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور",
          "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند")

# 1 Farvardin of year 1 as a proleptic Gregorian ordinal (``date.toordinal``):
# 19 March 622 (Julian calendar).
_EPOCH = 226895
# Days in the year before each month's first day.
_BEFORE = (0, 31, 62, 93, 124, 155, 186, 216, 246, 276, 306, 336)


class SolarHijri(NamedTuple):
    """A day of the Solar Hijri calendar: ``month`` 1 (Farvardin) to 12 (Esfand)."""

    year: int
    month: int
    day: int


def is_leap(year: int) -> bool:
    """Whether Esfand of ``year`` has 30 days.

    >>> [y for y in range(1399, 1412) if is_leap(y)]
    [1399, 1403, 1408]
    """
    return (25 * year + 11) % 33 < 8


def _new_year(year: int) -> int:
    """The ordinal of 1 Farvardin of ``year``: 365 days a year and the leap days before."""
    return _EPOCH + 365 * (year - 1) + (8 * year + 21) // 33


def to_solar_hijri(day: date) -> SolarHijri:
    """``day`` (Gregorian) in the Solar Hijri calendar."""
    since = day.toordinal() - _EPOCH
    year = 1 + (33 * since + 3) // 12053
    in_year = day.toordinal() - _new_year(year)
    if in_year < 0:  # the estimate can run a year ahead just before Nowruz
        year -= 1
        in_year = day.toordinal() - _new_year(year)
    month = in_year // 31 if in_year < 186 else (in_year - 6) // 30
    return SolarHijri(year, month + 1, in_year - _BEFORE[month] + 1)


def from_solar_hijri(day: SolarHijri) -> date:
    """The Gregorian date of a Solar Hijri ``day``."""
    return date.fromordinal(_new_year(day.year) + _BEFORE[day.month - 1] + day.day - 1)
