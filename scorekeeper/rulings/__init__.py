"""Rulings: a settled dispute kept under an unguessable link, read-only and printable,
exactly as it was decided (``/rulings/<id>``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from ..services import page_parts

bp = Blueprint("rulings", __name__)


def kept_on_sheet(game: Any, **_page: Any) -> str:
    """The rulings kept about a game's hands, oldest first, as a part of its sheet
    (whoever sees the game sees their links)."""
    from flask import render_template

    from ..db import get_session
    from ..services.rulings import kept_about

    kept = kept_about(get_session(), [game.id]).get(game.id, [])
    return render_template("rulings/_game_rulings.html", kept=kept, game=game)


bp.record_once(lambda state: page_parts.add(state.app, page_parts.GAME_SHEET, kept_on_sheet))

from . import views  # noqa: E402,F401 - the routes register themselves on bp
