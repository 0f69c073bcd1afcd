"""Who runs a night: whoever holds its organiser's secret (its link). The browser's
signed session remembers the nights it may run, as it does games it may edit."""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from flask import abort, session

from ..db import get_session
from ..models import Game, Night
from .access import can_edit
from .nights import table_by_game

KEY = "night_edit"
REMEMBERED = 10


def secret_matches(night: Night, secret: str | None) -> bool:
    """Constant-time check of the organiser's secret."""
    return bool(secret) and hmac.compare_digest(
        str(secret).encode(), night.organiser_secret.encode()
    )


def organises_table(game: Game, secret: str | None) -> bool:
    """Whether ``secret`` is the organiser's secret of the night ``game`` is a table of
    (the organiser's secret is accepted wherever a table's own is)."""
    if not secret:
        return False
    db = get_session()
    table = table_by_game(db, game.id)
    if table is None:
        return False
    night = db.get(Night, table.night_id)
    return night is not None and secret_matches(night, secret)


def can_organise(night: Night) -> bool:
    """Whether this browser runs ``night``."""
    held = session.get(KEY, [])
    return isinstance(held, list) and night.id in held


def keeps_score_of(game: Game) -> bool:
    """Whether this browser may change ``game``: it holds the game's own right, or it
    runs the night the game is a table of."""
    if can_edit(game):
        return True
    db = get_session()
    table = table_by_game(db, game.id)
    night = db.get(Night, table.night_id) if table is not None else None
    return night is not None and can_organise(night)


def require_organiser(night: Night) -> None:
    """Refuse (403) a change from a browser that does not run the night."""
    if not can_organise(night):
        abort(403)


def grant_while_room(nights: Sequence[Night]) -> list[Night]:
    """Let this browser run the first of ``nights`` while it has room for them
    (``REMEMBERED``), never at the cost of a night it runs already (an import: every
    organiser's link is on its page all the same); returns those it runs."""
    held = session.get(KEY, [])
    held = held if isinstance(held, list) else []
    new = [night for night in nights if night.id not in held]
    granted = new[:max(REMEMBERED - len(held), 0)]
    for night in reversed(granted):
        grant(night)
    return [night for night in nights if night.id in held or night in granted]


def grant(night: Night) -> None:
    """Remember that this browser runs ``night``."""
    held = session.get(KEY, [])
    kept = [str(i) for i in held if i != night.id] if isinstance(held, list) else []
    session[KEY] = [night.id, *kept][:REMEMBERED]
