"""Club nights: several tables, one evening, one board. An organiser starts a night
with the players present and a format; each round's tables play ordinary games; the
other player confirms each result; the board on the wall follows every save."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from ..services import page_parts

bp = Blueprint("nights", __name__)

# The view modules register their routes on ``bp`` when the app factory imports them.


def confirm_box(game: Any, editable: bool) -> str:
    """The "Confirm this result" part of a game's sheet when the game is a club night's
    table (its round and number, its result and whether it is confirmed or corrected);
    of any other game, nothing but the template's blank lines."""
    from flask import render_template

    from ..db import get_session
    from ..models import Night
    from ..services import nights as service

    db = get_session()
    table = service.table_by_game(db, game.id)
    night = db.get(Night, table.night_id) if table is not None else None
    at = None if table is None or night is None else {
        "night": night, "table": table, "result": service.progress_of(game).result,
        "correction": service.corrections(night).get((table.round, table.number))}
    return render_template("nights/_game_confirm.html", at=at, game=game, editable=editable)


bp.record_once(lambda state: page_parts.add(state.app, page_parts.GAME_SHEET, confirm_box))


@bp.app_template_filter()
def signed_number(value: int) -> str:
    """A difference with its sign: +12, −5 (the minus sign), 0."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"
