"""Games: the score sheet, hand entry, corrections and history."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import admin_views, sheet_views, views  # noqa: E402,F401 - routes register on bp


@bp.app_template_global()
def card_text(code: str) -> object:
    """A stored card code (``TD``) shown as a card chip."""
    from ..handforms import show_html
    from ..scoring import Card

    return show_html(Card.parse(code))
