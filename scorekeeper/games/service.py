"""Changing a game's hands without ever losing or doubling one.

Every change locks the game row (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's
write lock is taken at BEGIN), checks the form's idempotency token and the sheet
version it was drawn from, then bumps the version. The caller commits (and answers an
``IntegrityError`` on a used token by looking it up with ``duplicate_of``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session, joinedload, object_session, selectinload

from ..models import Change, Game, Hand, Submission, now_utc


class Conflict(Exception):
    """The game changed since the form was drawn; nothing was saved."""


class GameOver(Exception):
    """The game has ended; no new hands (corrections still work)."""


def lock_game(db: Session, game_id: str) -> Game | None:
    """The game with its hands, locked against other writers until the transaction ends."""
    statement = _lock_statement(db.get_bind().dialect.name == "sqlite")
    return db.scalars(statement, {"game_id": game_id}).unique().first()


@cache
def _lock_statement(joined: bool) -> Select[Game]:
    # Built once per kind (a hand's request is short enough for building it to show).
    # On PostgreSQL the hands are read by a second statement, after the lock is held:
    # (read committed) a join in the locking statement would see the hands as they
    # were before the wait, missing one another phone just saved. SQLite's write lock
    # is taken at BEGIN, before anything is read: one statement with a join will do.
    return (
        select(Game)
        .where(Game.id == bindparam("game_id"))
        .options(joinedload(Game.hands) if joined else selectinload(Game.hands))
        .with_for_update(of=Game)
    )


def duplicate_of(db: Session, game: Game, token: str | None) -> Submission | None:
    """The earlier submission with this token, if the same form was sent twice."""
    if not token:
        return None
    return db.get(Submission, (game.id, token))


def check_version(game: Game, version: int | None) -> None:
    """Refuse a form drawn from an older sheet than the one stored."""
    if version is not None and version != game.version:
        raise Conflict


def add_hand(
    db: Session,
    game: Game,
    inputs: Mapping[str, Any],
    *,
    token: str | None,
    version: int | None,
    by: str,
    finished: Callable[[Game], bool],
) -> tuple[int, bool]:
    """Append a hand: its number, and whether it is new (``False``: the same token was
    sent before, and the number is the hand that first request added).

    A token is looked up only when the checks refuse the hand (a resent form is older
    than the sheet its first sending changed); otherwise a used token makes the commit
    fail on the submissions' key (``IntegrityError``), which the callers answer by
    looking it up then: a retry is rare, and a hand saves a query.
    """
    try:
        check_version(game, version)
        if finished(game):
            raise GameOver
    except (Conflict, GameOver):
        earlier = duplicate_of(db, game, token)
        if earlier is not None and earlier.hand_number is not None:
            return earlier.hand_number, False
        raise
    number = len(game.hands) + 1
    game.hands.append(Hand(number=number, inputs=dict(inputs)))
    if token:
        db.add(Submission(game_id=game.id, key=token, hand_number=number))
    _record(game, "add", number, None, dict(inputs), by)
    return number, True


def edit_hand(
    db: Session, game: Game, number: int, inputs: Mapping[str, Any], *, version: int | None, by: str
) -> None:
    """Replace a hand's inputs; everything after it is recomputed on the next replay."""
    check_version(game, version)
    hand = _hand(game, number)
    before = dict(hand.inputs)
    hand.inputs = dict(inputs)
    hand.updated_at = now_utc()
    _record(game, "edit", number, before, dict(inputs), by)


def delete_hand(
    db: Session, game: Game, number: int, *, version: int | None, by: str, action: str = "delete"
) -> None:
    """Remove a hand and close the gap in the numbering."""
    check_version(game, version)
    hand = _hand(game, number)
    before = dict(hand.inputs)
    game.hands.remove(hand)
    db.flush()  # the row is gone before the numbers after it move down
    for later in game.hands:
        if later.number > number:
            later.number -= 1
            db.flush()
    _record(game, action, number, before, None, by)


def record_event(game: Game, action: str, by: str, after: dict[str, Any] | None = None) -> None:
    """Note a change that is not a hand's (creation, PIN) in the history."""
    game.changes.append(Change(action=action, after=after, by=by))


def _hand(game: Game, number: int) -> Hand:
    for hand in game.hands:
        if hand.number == number:
            return hand
    raise LookupError(number)


def _record(
    game: Game,
    action: str,
    number: int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    by: str,
) -> None:
    # Set through the backref so that a long history is not loaded just to append to it
    # (appending to ``game.changes`` would load every earlier change first).
    change = Change(game=game, action=action, hand_number=number, before=before, after=after, by=by)
    session = object_session(game)
    if session is not None:
        session.add(change)
    game.version += 1
    game.updated_at = now_utc()
