"""Groups of regular players: their games, standings, head-to-head, stakes and payments."""

from __future__ import annotations

import re
from decimal import Decimal

from babel import Locale
from babel.numbers import format_currency, format_decimal
from flask import Blueprint
from flask_babel import get_locale

from ..scoring.stakes import minor_unit

bp = Blueprint("groups", __name__)

# The views register their routes on ``bp`` when the app factory imports them.

# Where a letter of a currency's code touches a digit ("IRR500"): CLDR puts a space there.
CODE_BESIDE_DIGIT = re.compile(r"(?<=[^\W\d])(?=\d)|(?<=\d)(?=[^\W\d])")


@bp.app_template_filter("money")
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


def typed_amount(amount: Decimal, currency: str | None) -> str:
    """An amount as a player of the page's language would type it into a form: the
    currency's minor unit, the language's decimal mark, no grouping (``1,63`` on a
    Russian page; ``parse_stake`` reads a comma or a point)."""
    places = minor_unit(currency)
    return format_decimal(amount, "0." + "0" * places if places else "0",
                          locale=get_locale() or Locale("en"), numbering_system="latn")
