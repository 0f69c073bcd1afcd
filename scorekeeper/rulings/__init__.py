"""Rulings: a settled dispute kept under an unguessable link, read-only and printable,
exactly as it was decided (``/rulings/<id>``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("rulings", __name__)


@bp.app_template_global()
def rulings_of(game: Any) -> list[Any]:
    """The rulings kept about a game's hands, oldest first, for its sheet (whoever sees
    the game sees their links)."""
    from ..db import get_session
    from ..services.rulings import kept_about

    return kept_about(get_session(), [game.id]).get(game.id, [])


from . import views  # noqa: E402,F401 - the routes register themselves on bp
