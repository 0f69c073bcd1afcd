"""Games: the score sheet, hand entry, corrections and history."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)

# The view modules register their routes on ``bp`` when the app factory imports them
# (the variants build on this package's forms, and the views on the variants).


@bp.app_template_global()
def card_text(code: str) -> object:
    """A stored card code (``TD``) shown as a card chip."""
    from ..hands.fields import show_html
    from ..scoring import Card

    return show_html(Card.parse(code))
