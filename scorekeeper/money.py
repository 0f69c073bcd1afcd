"""Money as the forms and the API take it (scoring/stakes.py): a stake goes with a real currency
(ISO 4217, as Babel lists them), and a payment's amount fits its currency.

The engine (``scoring/stakes.py``) works the amounts out; this module knows which codes
are currencies and which one a reader likely pays in.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.numbers import (
    format_currency,
    format_decimal,
    get_territory_currencies,
    list_currencies,
)
from flask import Flask, has_request_context, request
from flask_babel import get_locale
from flask_babel import gettext as _
from wtforms import Field

from .scoring.stakes import StakeError, minor_unit, parse_currency, parse_stake

MAX_AMOUNT = Decimal("1000000")


@cache
def currencies() -> frozenset[str]:
    """Every ISO 4217 code Babel knows."""
    return frozenset(list_currencies())


def currency_code(text: object) -> str:
    """A currency's code from its text, upper-cased; ``StakeError`` if it is blank or
    not a currency.

    >>> currency_code(" jpy ")
    'JPY'
    """
    if not str(text or "").strip():
        raise StakeError("a stake needs its currency, like EUR")
    code = parse_currency(text)
    if code not in currencies():
        raise StakeError(f"{code} is not a currency code (ISO 4217), like EUR")
    return code


def currency_problem(text: object) -> str | None:
    """What is wrong with a form's currency for a stake, in the reader's language;
    ``None`` if it is a currency."""
    code = str(text or "").strip().upper()
    if not code:
        return str(_("A stake needs its currency: a code of three letters, like EUR."))
    try:
        currency_code(code)
    except StakeError:
        return str(_("%(code)s is not a currency code (ISO 4217), like EUR.", code=code))
    return None


def read_stake(stake: Field, currency: Field) -> tuple[str | None, str | None] | None:
    """A form's stake and currency as stored (both ``None`` when no stake is typed), or
    ``None`` with what is wrong said at its field: the new-game form and the group
    forms read their money with this one check."""
    stake_text = (stake.data or "").strip()
    if not stake_text:
        return None, None
    try:
        amount = parse_stake(stake_text)
    except StakeError:
        stake.errors = [_("A stake is a number more than 0 with at most 6 decimals, like 0.01.")]
        return None
    problem = currency_problem(currency.data)
    if problem is not None:
        currency.errors = [problem]
        return None
    return str(amount), currency_code(currency.data)


def amount_problem(error: AmountError) -> str:
    """A payment's amount's problem, in the reader's language."""
    if error.reason == "decimals":
        return str(_("Too many decimals: %(currency)s has %(decimals)s after the point.",
                     currency=error.currency, decimals=minor_unit(error.currency)))
    if error.reason == "large":
        return str(_("An amount is at most %(limit)s.", limit=MAX_AMOUNT))
    return str(_("An amount is a number more than 0, like 2.50."))


class AmountError(StakeError):
    """A payment's amount that cannot be taken; ``reason`` is ``"number"``,
    ``"decimals"`` or ``"large"``."""

    def __init__(self, reason: str, message: str, currency: str | None = None) -> None:
        super().__init__(message)
        self.reason, self.currency = reason, currency


def parse_amount(text: object, currency: str | None) -> Decimal:
    """A payment's amount: exact, more than 0, at most ``MAX_AMOUNT``, no finer than the
    currency's minor unit.

    >>> parse_amount("2,50", "EUR")
    Decimal('2.50')
    >>> parse_amount("0.001", "EUR")
    Traceback (most recent call last):
    ...
    scorekeeper.money.AmountError: EUR has 2 decimals
    """
    try:
        amount = Decimal(str(text).strip().replace(",", "."))
    except InvalidOperation:
        raise AmountError("number", "an amount is a number, like 2.50") from None
    if not amount.is_finite() or amount <= 0:
        raise AmountError("number", "an amount is more than 0")
    if amount > MAX_AMOUNT:
        raise AmountError("large", f"an amount is at most {MAX_AMOUNT}")
    if amount.as_tuple().exponent < -minor_unit(currency):  # type: ignore[operator]
        raise AmountError(
            "decimals", f"{currency} has {minor_unit(currency)} decimals", currency)
    return amount


def local_currency(language: str) -> str | None:
    """The currency of the reader's country: the first country named in the browser's
    languages (``en-GB`` → GBP), else the country ``language`` is most spoken in
    (``fa`` → IRR)."""
    tags = [tag for tag, _q in request.accept_languages] if has_request_context() else []
    for tag in [*tags, get_global("likely_subtags").get(language, "")]:
        try:
            territory = Locale.parse(tag.replace("-", "_")).territory
        except (ValueError, UnknownLocaleError):
            continue
        if territory:
            found = get_territory_currencies(territory)
            if found:
                return str(found[0])
    return None


# Where a letter of a currency's code touches a digit ("IRR500"): CLDR puts a space there.
CODE_BESIDE_DIGIT = re.compile(r"(?<=[^\W\d])(?=\d)|(?<=\d)(?=[^\W\d])")


def money(amount: object, currency: str | None = None, *, signed: bool = False) -> str:
    """An exact amount with its currency, written the way the page's language writes
    money (CLDR, through Babel): ``€2.64`` in English, ``2,64 €`` in Russian, ``‎€ 2.64``
    in Persian; ``+`` in front of a gain when ``signed``, and a debt with the minus sign
    (U+2212) as every other number of the app: ``−91,00 €``, never ``-91,00 €``.

    Never rounded: a stake of 0.005 € a point is shown as it is (payments and balances
    come here rounded already, scoring/stakes.py); at least the currency's minor unit is shown
    (``1.50``, but ``500`` rials). Latin digits in every language, as everywhere else in
    the app; an alphabetic code is kept apart from the digits (``IRR 500``)."""
    value = Decimal(str(amount))
    sign = "\u2212" if value < 0 else "+" if signed and value > 0 else ""
    value = abs(value)
    locale = get_locale() or Locale("en")
    places = minor_unit(currency)
    digits = "." + "0" * places if places else ""
    if currency:
        pattern = re.sub(r"\.0+", digits, locale.currency_formats["standard"].pattern)
        text = format_currency(value, currency, pattern, locale=locale, currency_digits=False,
                               decimal_quantization=False, numbering_system="latn")
        text = CODE_BESIDE_DIGIT.sub("\u00a0", text)
    else:
        text = format_decimal(value, "#,##0" + digits, locale=locale,
                              decimal_quantization=False, numbering_system="latn")
    return sign + text


def init_app(app: Flask) -> None:
    """The template filter ``money``: every page and print that shows an amount."""
    app.add_template_filter(money, "money")
