"""Who may change a game: whoever holds its edit secret (link) or its PIN.

No accounts: the browser's signed session remembers the games it may edit and the
games it has seen (the home page lists only those). A group of regular players is
guarded the same way, remembered under its own keys.
"""

from __future__ import annotations

import hmac

from flask import abort, session
from werkzeug.security import check_password_hash, generate_password_hash

from ..models import Game, GameData, Group

Guarded = Game | Group
REMEMBERED = 30
PIN_ATTEMPTS = 10  # then the PIN stops working and only the edit link opens the game


def _key(what: Guarded, name: str) -> str:
    """The session list ``name`` (edit, pin, seen) of games, or of groups."""
    return f"group_{name}" if isinstance(what, Group) else name


def can_edit(game: Guarded) -> bool:
    """Whether this browser may change ``game`` (or the group)."""
    return game.id in session.get(_key(game, "edit"), [])


def require_edit(game: Guarded) -> None:
    """Refuse (403) a change from a browser that only watches."""
    if not can_edit(game):
        abort(403)


def secret_matches(game: Guarded | GameData, secret: str | None) -> bool:
    """Constant-time check of an edit secret."""
    return bool(secret) and hmac.compare_digest(str(secret).encode(), game.edit_secret.encode())


def grant_edit(game: Guarded, *, via_pin: bool = False) -> None:
    """Remember that this browser may edit ``game`` (and how, for the history)."""
    session[_key(game, "edit")] = _front(session.get(_key(game, "edit"), []), game.id)
    if via_pin:
        session[_key(game, "pin")] = _front(session.get(_key(game, "pin"), []), game.id)
    remember(game)


def editor_label(game_id: str) -> str:
    """How this browser got to edit the game, as the history records it."""
    return "PIN" if game_id in session.get("pin", []) else "edit link"


def remember(game: Guarded) -> None:
    """Put ``game`` (or the group) at the top of this browser's recent ones."""
    session[_key(game, "seen")] = _front(session.get(_key(game, "seen"), []), game.id)


def remembered(*, groups: bool = False) -> list[str]:
    """Ids of the games (or groups) this browser created or opened, newest first."""
    seen = session.get("group_seen" if groups else "seen", [])
    return [str(i) for i in seen] if isinstance(seen, list) else []


def editable() -> set[str]:
    """Ids of the games this browser may change."""
    ids = session.get("edit", [])
    return {str(i) for i in ids} if isinstance(ids, list) else set()


def set_pin(game: Guarded, pin: str) -> None:
    """Set (or replace) the PIN and forget earlier wrong guesses."""
    game.pin_hash = generate_password_hash(pin)
    game.pin_failures = 0


def try_pin(game: Guarded, pin: str) -> bool:
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
