"""Groups of regular players: their games, standings, head-to-head, stakes and payments."""

from __future__ import annotations

from decimal import Decimal

from babel import Locale
from babel.numbers import format_decimal
from flask import Blueprint
from flask_babel import get_locale

from ..scoring.stakes import minor_unit

bp = Blueprint("groups", __name__)

# The views register their routes on ``bp`` when the app factory imports them.

def typed_amount(amount: Decimal, currency: str | None) -> str:
    """An amount as a player of the page's language would type it into a form: the
    currency's minor unit, the language's decimal mark, no grouping (``1,63`` on a
    Russian page; ``parse_stake`` reads a comma or a point)."""
    places = minor_unit(currency)
    return format_decimal(amount, "0." + "0" * places if places else "0",
                          locale=get_locale() or Locale("en"), numbering_system="latn")
