"""Groups of regular players: their games, standings, head-to-head, stakes and payments."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("groups", __name__)

# The views register their routes on ``bp`` when the app factory imports them.

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "RUB": "₽", "JPY": "¥", "IRR": "﷼"}


@bp.app_template_filter("money")
def money(amount: object, currency: str | None = None, *, signed: bool = False) -> str:
    """An exact amount with its currency, as a player says it: ``2.64 €``, ``+1.53 €``."""
    from decimal import Decimal

    from ..scoring.stakes import round_money

    value = round_money(Decimal(str(amount)), currency)
    text = f"{value:+}" if signed and value else str(value)
    unit = SYMBOLS.get(currency or "", currency or "")
    return f"{text} {unit}".strip()
