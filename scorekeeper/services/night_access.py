"""Who runs a night: whoever holds its organiser's secret (its link). The browser's
signed session remembers the nights it may run, as it does games it may edit."""

from __future__ import annotations

import hmac

from flask import abort, session

from ..db import get_session
from ..models import Game, Night
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


def require_organiser(night: Night) -> None:
    """Refuse (403) a change from a browser that does not run the night."""
    if not can_organise(night):
        abort(403)


def grant(night: Night) -> None:
    """Remember that this browser runs ``night``."""
    held = session.get(KEY, [])
    kept = [str(i) for i in held if i != night.id] if isinstance(held, list) else []
    session[KEY] = [night.id, *kept][:REMEMBERED]
