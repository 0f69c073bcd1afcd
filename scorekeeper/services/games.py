"""Changing a game's hands without ever losing or doubling one.

A change is worked out first on the game as read without a lock (``read_for_change``:
its replay, kept per version, and the form's checks), then the game is locked again
(``lock_again``) for the write alone, and the version the change was worked out from is
checked under the lock: the write lock is never held while a game replays. Every change
locks the game row (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's
write lock is taken at BEGIN), checks the form's idempotency token and the sheet
version it was drawn from, then bumps the version. The caller commits (and answers an
``IntegrityError`` on a used token by looking it up with ``duplicate_of``).

Nothing a player entered is lost: an undone or deleted hand's inputs stay in its
history entry (``before``), and ``restore_hand`` puts the hand back from there. The
``restore`` entry names the entry it takes back by its position in the history
(``before = {"restores": i}``, 0-based; positions survive an export and import, ids
do not), so each undo or delete is restored at most once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any

from flask import abort, current_app
from sqlalchemy import func, inspect, select
from sqlalchemy.orm import Session, joinedload, object_session, selectinload

from .. import limits
from ..db import begin_reading, begin_writing, get_session
from ..hands.repeat import same_hand
from ..hands.stored import StoredHand, stored_hand
from ..models import Change, Game, GameData, Hand, NightTable, Submission, now_utc
from ..variants import Variant, variant_for
from . import access


class Conflict(Exception):
    """The game changed since the form was drawn; nothing was saved."""


class GameOver(Exception):
    """The game has ended; no new hands (corrections still work)."""


class Full(GameOver):
    """The game holds ``limits.MOST_HANDS`` hands, or its history ``limits.MOST_CHANGES``
    entries: nothing more is saved in it, so its export imports again."""


def hand_count(game: Game) -> int:
    """How many hands ``game`` holds: counted by the database while its hands are not
    loaded (a save to a long game reads none of them)."""
    db = object_session(game)
    if db is None or _hands_read(game):
        return len(game.hands)
    return db.scalar(select(func.count()).where(Hand.game_id == game.id)) or 0


def _hands_read(game: Game) -> bool:
    """Whether ``game``'s hands are in memory: read, or a new game's own."""
    state = inspect(game)
    return not state.persistent or "hands" in state.dict


def check_room(game: Game, *, new_hand: bool = False) -> None:
    """Raise ``Full`` when ``game`` can take no more changes (or, ``new_hand``, hands)."""
    if new_hand and hand_count(game) >= limits.MOST_HANDS:
        raise Full
    db = object_session(game)
    if db is None:  # a game being created: its history is empty
        return
    count = db.scalar(select(func.count()).where(Change.game_id == game.id)) or 0
    if count >= limits.MOST_CHANGES:
        raise Full


class Settled(Exception):
    """The game is a club night's table whose result is confirmed: its hands change no
    more (no new one, no correction, delete, undo or restore) until the night's
    organiser reopens the table."""


def settled(db: Session, game: GameData) -> bool:
    """Whether ``game`` is a club night's table whose result is confirmed. The table's
    row is read as it is now: under the game's lock, a confirmation is either in (the
    confirmation locks the game before it counts) or waits for this change."""
    confirmed = db.scalar(select(NightTable.confirmed_at).where(NightTable.game_id == game.id))
    return confirmed is not None


def check_open(db: Session, game: GameData) -> None:
    """Raise ``Settled`` when ``game``'s result is confirmed at a club night's table."""
    if settled(db, game):
        raise Settled


class NotRestorable(Exception):
    """A history entry that cannot be restored; ``reason`` says why.

    ``not_found``: no undo or delete entry of this game; ``restored``: it was restored
    already; ``moved``: the hand's old place is past the end of the sheet now.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


RESTORABLE = ("undo", "delete")


class Repeated(Exception):
    """The hand repeats hand ``number``, saved a moment ago (``check_repeat``): nothing
    was saved; it is saved when the player confirms it."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


class WouldMove(Exception):
    """Restoring puts the hand back at ``number``, where hands ``number``…``last`` are
    now: they would move down one. Nothing was restored; it is when confirmed."""

    def __init__(self, number: int, last: int) -> None:
        super().__init__(number, last)
        self.number = number
        self.last = last


def lock_game(db: Session, game_id: str, *, hands: bool = True) -> Game | None:
    """The game with its hands (``hands=False``: without, for adding one), locked
    against other writers until the transaction ends.

    On PostgreSQL the hands are read by a second statement, after the lock is held: a
    join in the locking statement would see the hands as they were before the wait
    (read committed), missing one another phone just saved. SQLite's write lock is
    taken at BEGIN, before anything is read: one statement with a join will do."""
    joined = db.get_bind().dialect.name == "sqlite"
    statement = (
        select(Game)
        .where(Game.id == game_id)
        .with_for_update(of=Game)
        .execution_options(populate_existing=True)
    )
    if hands:
        statement = statement.options(
            joinedload(Game.hands) if joined else selectinload(Game.hands)
        )
    return db.scalars(statement).unique().first()


def duplicate_of(db: Session, game: GameData, token: str | None) -> Submission | None:
    """The earlier submission with this token, if the same form was sent twice."""
    if not token:
        return None
    return db.get(Submission, (game.id, token))


def check_repeat(db: Session, game: Game, inputs: StoredHand, token: str | None) -> None:
    """Raise ``Repeated`` when ``inputs`` repeat the game's last hand and it was saved
    less than the ``REPEAT_WINDOW`` setting ago (a minute: no real deal is played,
    scored and entered again so soon; ``hands.repeat`` says what repeats, per kind). A
    form sent again with the token that saved that hand is not asked about: ``add_hand``
    answers it with the hand it saved. A check before the save, made on the game locked
    for it (``lock_again``): it changes nothing, and reads only the last hand when the
    game's hands were not read (``hands=False``). A settled game is refused (``Settled``)
    before it is asked about, unless the token saved a hand before it was."""
    if settled(db, game):
        if duplicate_of(db, game, token) is None:
            raise Settled
        return
    window: timedelta = current_app.config["REPEAT_WINDOW"]
    if not window:
        return
    last = _last_hand(db, game)
    if last is None:
        return
    saved = last.updated_at if last.updated_at.tzinfo else last.updated_at.replace(tzinfo=UTC)
    if now_utc() - saved >= window or not same_hand(last.inputs, inputs):
        return
    if duplicate_of(db, game, token) is not None:
        return
    raise Repeated(last.number)


def _last_hand(db: Session, game: Game) -> Hand | None:
    """The game's last hand, from its hands when they were read, else from the database."""
    if _hands_read(game):
        return max(game.hands, key=lambda hand: hand.number, default=None)
    query = select(Hand).where(Hand.game_id == game.id).order_by(Hand.number.desc()).limit(1)
    return db.scalars(query).first()


def check_version(game: GameData, version: int | None) -> None:
    """Refuse a form drawn from an older sheet than the one stored."""
    if version is not None and version != game.version:
        raise Conflict


def add_hand(
    db: Session,
    game: Game,
    inputs: StoredHand,
    *,
    token: str | None,
    version: int | None,
    by: str,
    finished: Callable[[Game], bool],
) -> tuple[int, bool]:
    """Append a hand to ``game`` (read with ``lock_game``): its number, and whether it
    is new (``False``: the same token was sent before, and the number is the hand that
    first request added).

    A token is looked up only when the checks refuse the hand (a resent form is older
    than the sheet its first sending changed); otherwise a used token makes the flush
    or the commit fail on the submissions' key (``IntegrityError``), which the callers
    answer by looking it up then (``duplicate_of``)."""
    try:
        check_open(db, game)
        check_version(game, version)
        if finished(game):
            raise GameOver
        check_room(game, new_hand=True)
    except (Settled, Conflict, GameOver):
        earlier = duplicate_of(db, game, token)
        if earlier is not None and earlier.hand_number is not None:
            return earlier.hand_number, False
        raise
    number = hand_count(game) + 1
    if _hands_read(game):
        game.hands.append(Hand(number=number, inputs=dict(inputs)))
    else:  # the hands were not read: the new one is added beside them
        db.add(Hand(game_id=game.id, number=number, inputs=dict(inputs)))
    if token:
        db.add(Submission(game_id=game.id, key=token, hand_number=number))
    _record(game, "add", number, None, dict(inputs), by)
    return number, True


def edit_hand(
    db: Session, game: Game, number: int, inputs: StoredHand, *, version: int | None, by: str
) -> None:
    """Replace a hand's inputs; everything after it is recomputed on the next replay."""
    check_open(db, game)
    check_version(game, version)
    check_room(game)
    hand = _hand(game, number)
    before = dict(hand.inputs)
    hand.inputs = dict(inputs)
    hand.updated_at = now_utc()
    _record(game, "edit", number, before, dict(inputs), by)


def delete_hand(
    db: Session, game: Game, number: int, *, version: int | None, by: str, action: str = "delete"
) -> None:
    """Remove a hand and close the gap in the numbering."""
    check_open(db, game)
    check_version(game, version)
    check_room(game)
    hand = _hand(game, number)
    before = dict(hand.inputs)
    game.hands.remove(hand)
    db.flush()  # the row is gone before the numbers after it move down
    for later in game.hands:
        if later.number > number:
            later.number -= 1
            db.flush()
    _record(game, action, number, before, None, by)


def last_change(db: Session, game: Game) -> Change | None:
    """The game's latest history entry (without loading the whole history)."""
    query = select(Change).where(Change.game_id == game.id).order_by(Change.id.desc()).limit(1)
    return db.scalars(query).first()


def restored_positions(changes: list[Change]) -> set[int]:
    """Positions of the history entries a later ``restore`` took back."""
    found = set()
    for change in changes:
        if change.action == "restore" and isinstance(change.before, dict):
            position = change.before.get("restores")
            if isinstance(position, int):
                found.add(position)
    return found


def restorable(changes: list[Change]) -> set[int]:
    """Ids of the undo and delete entries that can still be restored."""
    taken = restored_positions(changes)
    return {
        change.id
        for position, change in enumerate(changes)
        if change.action in RESTORABLE and change.before is not None and position not in taken
    }


@dataclass(frozen=True)
class Restoring:
    """What restoring a history entry puts back: the hand's number and inputs, and the
    entry's position in the history."""

    number: int
    inputs: StoredHand
    position: int


def restoring(
    game: Game, change_id: int, *, finished: Callable[[Game], bool], moving: bool = False
) -> Restoring:
    """What restoring entry ``change_id`` of ``game`` would put back, changing nothing:
    an undone hand as the last hand again, a deleted one at its old number. Raises
    ``NotRestorable``, (a new last hand of a game that is over) ``GameOver``, or (a
    deleted hand whose place other hands hold now) ``WouldMove`` unless ``moving`` says
    the player agreed to move them down one. A settled game restores nothing
    (``Settled``), whatever the entry."""
    db = object_session(game)
    if db is not None:
        check_open(db, game)
    changes = list(game.changes)
    position = next((i for i, c in enumerate(changes) if c.id == change_id), None)
    if position is None or changes[position].id not in restorable(changes):
        gone = position is None or changes[position].action not in RESTORABLE
        raise NotRestorable("not_found" if gone else "restored")
    source = changes[position]
    assert source.before is not None and source.hand_number is not None
    count = len(game.hands)
    number = count + 1 if source.action == "undo" else source.hand_number
    if number > count + 1:
        raise NotRestorable("moved")
    if number == count + 1 and finished(game):
        raise GameOver
    if number <= count and not moving:
        raise WouldMove(number, count)
    return Restoring(number, stored_hand(dict(source.before)), position)


def restore_hand(
    db: Session,
    game: Game,
    change_id: int,
    *,
    version: int | None,
    by: str,
    finished: Callable[[Game], bool],
    moving: bool = False,
) -> tuple[int, StoredHand]:
    """Put an undone or deleted hand back, exactly as it was entered (``restoring``; the
    hands from its number on move down one: ``WouldMove`` unless ``moving`` says the
    player agreed). Returns its number and inputs; the caller has replayed the game with
    it (``Variant.sheet_with``) to check it still fits, and commits."""
    check_open(db, game)
    check_version(game, version)
    check_room(game, new_hand=True)
    plan = restoring(game, change_id, finished=finished, moving=moving)
    number, inputs, position = plan.number, plan.inputs, plan.position
    for later in sorted(game.hands, key=lambda hand: hand.number, reverse=True):
        if later.number >= number:
            later.number += 1
            db.flush()  # one at a time, from the end: the numbers stay unique
    game.hands.insert(number - 1, Hand(number=number, inputs=inputs))
    _record(game, "restore", number, {"restores": position}, dict(inputs), by)
    return number, inputs


def record_event(game: Game, action: str, by: str, after: dict[str, Any] | None = None) -> None:
    """Note a change that is not a hand's (creation, PIN) in the history."""
    check_room(game)
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


def load(game_id: str) -> tuple[Game, Variant]:
    """The game (404 if unknown) and its variant."""
    game = get_session().get(Game, game_id)
    if game is None:
        abort(404)
    return game, variant_for(game)


def read_for_change(game_id: str, *, editing: bool = True) -> tuple[Game, Variant]:
    """The game as stored (404 if unknown), read for a change without taking any lock
    (on SQLite through the reader's connections); ``editing`` refuses browsers that only
    watch. Replay it and check the form on it, then ``lock_again`` for the write."""
    begin_reading()
    game, variant = load(game_id)
    if editing:
        access.require_edit(game)
    return game, variant


def lock_again(game: GameData, *, hands: bool = True) -> Game:
    """The game ``read_for_change`` read, locked for the write in the writer's session
    (404 if it was deleted meanwhile), with its hands or (``hands=False``, adding one)
    without. Its version may have moved on since: the change's ``version`` check, under
    the lock, tells."""
    again = lock_game(begin_writing(), game.id, hands=hands)
    if again is None:
        abort(404)
    return again


def locked(game_id: str, *, editing: bool = True) -> tuple[Game, Variant]:
    """The game locked for a change; ``editing`` refuses browsers that only watch."""
    game = lock_game(get_session(), game_id)
    if game is None:
        abort(404)
    if editing:
        access.require_edit(game)
    return game, variant_for(game)
