"""Who may change a game: whoever holds its edit secret (link) or its PIN.

No accounts: the browser's signed session remembers the games it may edit and the
games it has seen (the home page lists only those). A group of regular players is
guarded the same way, remembered under its own keys.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from flask import abort, current_app, session
from werkzeug.security import check_password_hash, generate_password_hash

from ..models import Game, GameData, Group

Guarded = Game | Group
REMEMBERED = 30
PIN_ATTEMPTS = 10  # then the PIN stops working and only the edit link opens the game
# A PIN is 4 to 6 digits: what keeps it from being guessed is the lockout above, not
# the hash (from a stolen database a million PINs fall at any cost a phone could wait
# for). scrypt with 2 MiB costs a guess about 5 ms of a core, where werkzeug's default
# (32 MiB) took 0.1 s and its memory. PINs hashed another way still verify:
# ``check_password_hash`` reads the method and its cost from the stored hash.
PIN_HASH = "scrypt:2048:8:1"


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


def grant_while_room(items: Sequence[Guarded]) -> list[Guarded]:
    """Let this browser edit the first of ``items`` (games, or groups) while it has room
    for them (``REMEMBERED``): never at the cost of a right it already holds, the way
    ``grant_edit`` pushes out the oldest. The first ends on top; returns those granted."""
    if not items:
        return []
    held = session.get(_key(items[0], "edit"), [])
    held = held if isinstance(held, list) else []
    new = [item for item in items if item.id not in held]
    granted = new[:max(REMEMBERED - len(held), 0)]
    for item in reversed(granted):
        grant_edit(item)
    return [item for item in items if item.id in held or item in granted]


def editor_label(game_id: str, *, group: bool = False) -> str:
    """How this browser got to edit the game (or the group), as the history records it."""
    return "PIN" if game_id in session.get("group_pin" if group else "pin", []) else "edit link"


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
    game.pin_hash = generate_password_hash(pin, method=PIN_HASH)
    game.pin_failures = 0


@dataclass(frozen=True)
class PinCheck:
    """A PIN checked against the hash read before any lock was taken: that hash, and
    whether the PIN matched it."""

    pin_hash: str | None
    right: bool


def check_pin(model: type[Guarded], item_id: str, pin: str) -> PinCheck:
    """Check ``pin`` against the game's (or group's) hash, read through a session of
    the reader's: the hash is worked out while no write transaction is open, so on
    SQLite a guess never holds the write lock another phone's save is waiting for."""
    with current_app.extensions["scorekeeper.read_db"]() as db:
        item = db.get(model, item_id)
        if item is None:
            abort(404)
        pin_hash, failures = item.pin_hash, item.pin_failures
    right = (
        pin_hash is not None
        and failures < PIN_ATTEMPTS
        and check_password_hash(pin_hash, pin)
    )
    return PinCheck(pin_hash, right)


def record_pin(item: Guarded, check: PinCheck) -> bool:
    """Whether ``check`` opens ``item``, which the caller has locked; a wrong guess is
    counted. The count is read again under the lock, so guesses checked at the same
    moment still stop at ``PIN_ATTEMPTS`` (a right one coming after them opens
    nothing); a PIN changed since the check neither opens nor counts."""
    if (
        item.pin_hash is None
        or item.pin_hash != check.pin_hash
        or item.pin_failures >= PIN_ATTEMPTS
    ):
        return False
    if check.right:
        item.pin_failures = 0
        return True
    item.pin_failures += 1
    return False


def try_pin(game: Guarded, pin: str) -> bool:
    """Check a PIN on a game already locked; wrong guesses count, and enough of them
    switch the PIN off (the pages use ``check_pin`` and ``record_pin``)."""
    right = game.pin_hash is not None and check_password_hash(game.pin_hash, pin)
    return record_pin(game, PinCheck(game.pin_hash, right))


def _front(ids: object, game_id: str) -> list[str]:
    kept = [str(i) for i in ids if i != game_id] if isinstance(ids, list) else []
    return [game_id, *kept][:REMEMBERED]
