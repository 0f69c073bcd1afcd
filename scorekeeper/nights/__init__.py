"""Club nights: several tables, one evening, one board. An organiser starts a night
with the players present and a format; each round's tables play ordinary games; the
other player confirms each result; the board on the wall follows every save."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("nights", __name__)

# The view modules register their routes on ``bp`` when the app factory imports them.


@bp.app_template_global()
def night_table_of(game: Any) -> Any:
    """The night's table a game is played at, with its night and state, for the
    "Confirm this result" part of the game's page (``None``: not a night's game)."""
    from ..db import get_session
    from ..models import Night
    from ..services import nights as service

    db = get_session()
    table = service.table_by_game(db, game.id)
    if table is None:
        return None
    night = db.get(Night, table.night_id)
    if night is None:
        return None
    return {"night": night, "table": table,
            "result": service.progress_of(game).result,
            "correction": service.corrections(night).get((table.round, table.number))}


@bp.app_template_filter()
def signed_number(value: int) -> str:
    """A difference with its sign: +12, −5 (the minus sign), 0."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"
