"""Who may change a game: whoever holds its edit secret (link) or its PIN.

No accounts: the browser's signed session remembers the games it may edit and the
games it has seen (the home page lists only those). A group of regular players is
guarded the same way, remembered under its own keys. The session cookie outlives the
browser (``security.SessionCookies``): a phone closing its browser keeps its rights.

The edit link is the game's own: whoever opened it may hand it on (the share page) and
set the PIN. A PIN lets one phone enter hands and nothing more: it never shows the edit
link, and the right it gave ends when the PIN is changed or removed. The session keeps,
for each game opened with a PIN, a digest of the PIN's hash (``pin_tag``): a right whose
digest is not the game's current one opens nothing.

A page of a game or a group drawn for a browser that may change it is sent
``Cache-Control: private, no-store`` (``init_app``): neither the browser's cache nor one
on the way keeps what an editor saw. (The service worker keeps an editor's sheet on the
phone all the same, to type hands offline: it holds no edit secret.)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from flask import Flask, Response, abort, current_app, request, session
from werkzeug.security import check_password_hash, generate_password_hash

from ..models import Game, GameData, Group

Guarded = Game | Group
REMEMBERED = 30
NOT_STORED = "private, no-store"
PIN_ATTEMPTS = 10  # then the PIN stops working and only the edit link opens the game
# A PIN is 4 to 6 digits: what keeps it from being guessed is the lockout above, not
# the hash (from a stolen database a million PINs fall at any cost a phone could wait
# for). scrypt with 2 MiB costs a guess about 5 ms of a core, where werkzeug's default
# (32 MiB) took 0.1 s and its memory. PINs hashed another way still verify:
# ``check_password_hash`` reads the method and its cost from the stored hash.
PIN_HASH = "scrypt:2048:8:1"


def _key(what: Guarded, name: str) -> str:
    """The session entry ``name`` (edit, pins, seen) of games, or of groups."""
    return f"group_{name}" if isinstance(what, Group) else name


def pin_tag(pin_hash: str | None) -> str | None:
    """What the session keeps of the PIN a right came from: a digest of its hash (the
    hash's salt stays on the server, so the cookie tells nothing about the PIN)."""
    if pin_hash is None:
        return None
    return hashlib.sha256(pin_hash.encode()).hexdigest()[:16]


def _ids(name: str) -> list[str]:
    held = session.get(name, [])
    return [str(i) for i in held] if isinstance(held, list) else []


def _pins(name: str) -> dict[str, str]:
    held = session.get(name, {})
    return {str(k): str(v) for k, v in held.items()} if isinstance(held, dict) else {}


def holds_link(game: Guarded) -> bool:
    """Whether this browser opened the edit link of ``game`` (or the group): it may hand
    the link on and set the PIN. (Browsers from before PINs were told apart listed a
    PIN's game under ``pin`` too: that right is a PIN's, no longer recognised.)"""
    return game.id in _ids(_key(game, "edit")) and game.id not in _ids(_key(game, "pin"))


def can_edit(game: Guarded) -> bool:
    """Whether this browser may change ``game`` (or the group): by its edit link, or by
    the PIN the game has now."""
    if holds_link(game):
        return True
    tag = _pins(_key(game, "pins")).get(game.id)
    return tag is not None and tag == pin_tag(game.pin_hash)


def drawn_for_editor() -> bool:
    """Whether this request is for a page of a game (``game_id``) or a group
    (``group_id``) that this browser may change (or could: a PIN's right is not checked
    against the game here, so a page is kept from caches the moment it might be)."""
    values = request.view_args or {}
    game_id, group_id = values.get("game_id"), values.get("group_id")
    if game_id is None and group_id is None:  # the session stays unread
        return False
    return any(
        isinstance(item, str) and (item in _ids(name) or item in _pins(f"{prefix}pins"))
        for item, name, prefix in ((game_id, "edit", ""), (group_id, "group_edit", "group_"))
    )


def init_app(app: Flask) -> None:
    """Every page of a game or a group this browser may change is kept nowhere:
    ``private, no-store``. An answer whose view says itself how it is cached keeps
    that (a PDF, the share page: ``no-store``; the live sheet's version probe:
    ``private, no-cache``; the watch link's QR code, the same for everyone)."""

    @app.after_request
    def _editor_pages_not_stored(response: Response) -> Response:
        if "Cache-Control" not in response.headers and drawn_for_editor():
            response.headers["Cache-Control"] = NOT_STORED
        return response


def require_edit(game: Guarded) -> None:
    """Refuse (403) a change from a browser that only watches."""
    if not can_edit(game):
        abort(403)


def secret_matches(game: Guarded | GameData, secret: str | None) -> bool:
    """Constant-time check of an edit secret."""
    return bool(secret) and hmac.compare_digest(str(secret).encode(), game.edit_secret.encode())


def grant_edit(game: Guarded, *, via_pin: bool = False) -> None:
    """Remember that this browser may edit ``game``: by its edit link, or (``via_pin``)
    by the PIN it has now, until that PIN changes."""
    if via_pin:
        tag = pin_tag(game.pin_hash)
        if tag is not None:
            pins = _pins(_key(game, "pins"))
            pins.pop(game.id, None)
            session[_key(game, "pins")] = dict([(game.id, tag), *pins.items()][:REMEMBERED])
    else:
        session[_key(game, "edit")] = _front(_ids(_key(game, "edit")), game.id)
        if game.id in _ids(_key(game, "pin")):
            session[_key(game, "pin")] = [i for i in _ids(_key(game, "pin")) if i != game.id]
    remember(game)


def require_link(game: Guarded) -> None:
    """Refuse (403) what only the edit link's holder may do (show the link, set the PIN)."""
    if not holds_link(game):
        abort(403)


def grant_while_room(items: Sequence[Guarded]) -> list[Guarded]:
    """Let this browser edit the first of ``items`` (games, or groups) while it has room
    for them (``REMEMBERED``): never at the cost of a right it already holds, the way
    ``grant_edit`` pushes out the oldest. The first ends on top; returns those granted."""
    if not items:
        return []
    held = _ids(_key(items[0], "edit"))
    new = [item for item in items if item.id not in held]
    granted = new[:max(REMEMBERED - len(held), 0)]
    for item in reversed(granted):
        grant_edit(item)
    return [item for item in items if item.id in held or item in granted]


def editor_label(game_id: str, *, group: bool = False) -> str:
    """How this browser got to edit the game (or the group), as the history records it."""
    prefix = "group_" if group else ""
    link = game_id in _ids(f"{prefix}edit") and game_id not in _ids(f"{prefix}pin")
    return "edit link" if link or game_id not in _pins(f"{prefix}pins") else "PIN"


def note_created(kind: str, item_id: str) -> None:
    """Remember for one page that this browser has just made ``item_id`` (a ``game``, a
    ``group`` or a ``night``): that page says this phone keeps it, with its link."""
    session["created"] = f"{kind}:{item_id}"


def just_created(kind: str, item_id: str) -> bool:
    """Whether this browser has just made ``item_id`` and its page has not said so yet
    (it says so once: asking again answers ``False``)."""
    if session.get("created") != f"{kind}:{item_id}":
        return False
    session.pop("created")
    return True


def remember(game: Guarded) -> None:
    """Put ``game`` (or the group) at the top of this browser's recent ones."""
    session[_key(game, "seen")] = _front(session.get(_key(game, "seen"), []), game.id)


def remembered(*, groups: bool = False) -> list[str]:
    """Ids of the games (or groups) this browser created or opened, newest first."""
    seen = session.get("group_seen" if groups else "seen", [])
    return [str(i) for i in seen] if isinstance(seen, list) else []


def editable() -> set[str]:
    """Ids of the games this browser may change (a PIN's right as it was given: whether
    the game still has that PIN is checked by ``can_edit``)."""
    return set(_ids("edit")) - set(_ids("pin")) | set(_pins("pins"))


def set_pin(game: Guarded, pin: str) -> None:
    """Set (or replace) the PIN and forget earlier wrong guesses; the phones the old
    PIN let in edit no longer (``can_edit``)."""
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
