"""Who may change a game: whoever holds its edit secret (link) or its PIN.

No accounts: the browser's signed session remembers the games it may edit and the
games it has seen (the home page lists only those).
"""

from __future__ import annotations

import hmac

from flask import abort, session
from werkzeug.security import check_password_hash, generate_password_hash

from ..models import Game

REMEMBERED = 30
PIN_ATTEMPTS = 10  # then the PIN stops working and only the edit link opens the game


def can_edit(game: Game) -> bool:
    """Whether this browser may change ``game``."""
    return game.id in session.get("edit", [])


def require_edit(game: Game) -> None:
    """Refuse (403) a change from a browser that only watches."""
    if not can_edit(game):
        abort(403)


def secret_matches(game: Game, secret: str | None) -> bool:
    """Constant-time check of an edit secret."""
    return bool(secret) and hmac.compare_digest(str(secret), game.edit_secret)


def grant_edit(game: Game, *, via_pin: bool = False) -> None:
    """Remember that this browser may edit ``game`` (and how, for the history)."""
    session["edit"] = _front(session.get("edit", []), game.id)
    if via_pin:
        session["pin"] = _front(session.get("pin", []), game.id)
    remember(game)


def editor_label(game_id: str) -> str:
    """How this browser got to edit the game, as the history records it."""
    return "PIN" if game_id in session.get("pin", []) else "edit link"


def remember(game: Game) -> None:
    """Put ``game`` at the top of this browser's recent games."""
    session["seen"] = _front(session.get("seen", []), game.id)


def remembered() -> list[str]:
    """Ids of the games this browser created or opened, newest first."""
    seen = session.get("seen", [])
    return [str(i) for i in seen] if isinstance(seen, list) else []


def set_pin(game: Game, pin: str) -> None:
    """Set (or replace) the PIN and forget earlier wrong guesses."""
    game.pin_hash = generate_password_hash(pin)
    game.pin_failures = 0


def try_pin(game: Game, pin: str) -> bool:
    """Check a PIN; wrong guesses count, and enough of them switch the PIN off."""
    if game.pin_hash is None or game.pin_failures >= PIN_ATTEMPTS:
        return False
    if check_password_hash(game.pin_hash, pin):
        game.pin_failures = 0
        return True
    game.pin_failures += 1
    return False


def _front(ids: object, game_id: str) -> list[str]:
    kept = [str(i) for i in ids if i != game_id] if isinstance(ids, list) else []
    return [game_id, *kept][:REMEMBERED]
