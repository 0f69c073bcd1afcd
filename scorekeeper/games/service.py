"""Changing a game's hands without ever losing or doubling one.

Every change locks the game row (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's
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

import json
from collections.abc import Callable, Mapping
from dataclasses import fields
from datetime import datetime
from functools import cache
from operator import itemgetter
from typing import Any

from flask import current_app
from sqlalchemy import (
    ColumnElement,
    Connection,
    Select,
    String,
    Text,
    Update,
    bindparam,
    cast,
    func,
    insert,
    literal,
    literal_column,
    select,
    update,
)
from sqlalchemy.orm import Session, joinedload, object_session, selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql.dml import UpdateBase

from .. import sharedrows
from ..db import Alone, Prepared
from ..models import Change, Game, GameData, GameRow, Hand, HandRow, Submission, now_utc
from ..sharedrows import SharedRows


class Conflict(Exception):
    """The game changed since the form was drawn; nothing was saved."""


class GameOver(Exception):
    """The game has ended; no new hands (corrections still work)."""


class NotRestorable(Exception):
    """A history entry that cannot be restored; ``reason`` says why.

    ``not_found``: no undo or delete entry of this game; ``restored``: it was restored
    already; ``moved``: the hand's old place is past the end of the sheet now.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


RESTORABLE = ("undo", "delete")


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


def lock_row(db: Session, game_id: str) -> GameRow | None:
    """The game and its hands as plain rows, locked like ``lock_game``.

    Saving a hand reads what it needs this way: two statements and no ORM objects,
    several times cheaper than loading a ``Game`` with its ``Hand`` objects (a hand's
    request is dominated by it otherwise). The hands are read after the lock is held.
    """
    return read_row(db.connection(), game_id)


def read_row(
    connection: Connection | Alone, game_id: str, *, lock: bool = True, hands: bool = True
) -> GameRow | None:
    """The game and its hands as plain rows, read through ``connection`` in the
    transaction it is in: locked when it is the writer's (``lock_row``), a snapshot
    when it is a reader's (begun by the caller, so that both reads see one state).
    ``lock=False`` reads without ``FOR UPDATE``, for a page that only shows the game
    (a printed sheet). ``hands=False`` reads the game's row alone (``hands`` stays
    empty): a hand saved from the game's kept tally needs no other."""
    game_query, hands_query = _row_statements(lock)
    params = {"game_id": game_id}
    rows = game_query.rows(connection, params)
    if not rows:
        return None
    game = GameRow(*rows[0])
    if hands:
        game.hands = hand_rows(hands_query.rows(connection, params)[0][0])
    return game


def hand_rows(stored: str | None) -> list[HandRow]:
    """A game's hands from their stored JSON texts as ``_row_statements`` joins them
    (``[number,inputs]`` pairs with commas between, in no particular order; ``None``
    for no hands), in hand order.

    One JSON document for the whole game is decoded in one call: a row and a decoding
    per hand made reading a 40-hand game cost 122 µs, this 56.

    >>> hand_rows('[2,{"mode":"quick"}],[1,{"knocker":0}]')
    [HandRow(number=1, inputs={'knocker': 0}), HandRow(number=2, inputs={'mode': 'quick'})]
    >>> hand_rows(None)
    []
    """
    if stored is None:
        return []
    pairs = json.loads(f"[{stored}]")
    pairs.sort(key=itemgetter(0))
    return [HandRow(number, inputs) for number, inputs in pairs]


@cache
def _row_statements(lock: bool) -> tuple[Prepared, Prepared]:
    # GameRow's own fields, in its order (a row is unpacked into it), but its hands.
    columns = [getattr(Game, f.name) for f in fields(GameRow) if f.name != "hands"]
    game = select(*columns).where(Game.id == bindparam("game_id"))
    if lock:
        game = game.with_for_update()  # SQLite: nothing (its write lock is taken at BEGIN)
    # The hands as one text, "[number,inputs]" joined by commas, for ``hand_rows``: the
    # inputs column holds JSON text as written (PostgreSQL's json type keeps it as it
    # is; SQLite stores it as text), never NULL, so no hand drops out of the join.
    # The constants are written into the SQL: a separator given as a str is a value
    # rendered anew at each execution, which ``Prepared`` refuses; SQLAlchemy takes any
    # SQL expression there (the separator is one of the function's arguments).
    pair = _text("[") + cast(Hand.number, Text) + _text(",") + cast(Hand.inputs, Text) + _text("]")
    joined = func.aggregate_strings(pair, _text(","))  # type: ignore[arg-type]
    hands = select(joined).where(Hand.game_id == bindparam("game_id"))
    return Prepared(game), Prepared(hands)


def _text(constant: str) -> ColumnElement[str]:
    """A one-character SQL text constant, written into the statement."""
    assert len(constant) == 1 and constant != "'"
    return literal_column(f"'{constant}'", Text)


def duplicate_of(db: Session, game: GameData, token: str | None) -> Submission | None:
    """The earlier submission with this token, if the same form was sent twice."""
    if not token:
        return None
    return db.get(Submission, (game.id, token))


def check_version(game: GameData, version: int | None) -> None:
    """Refuse a form drawn from an older sheet than the one stored."""
    if version is not None and version != game.version:
        raise Conflict


def add_hand(
    db: Session,
    game: GameData,
    inputs: Mapping[str, Any],
    *,
    token: str | None,
    version: int | None,
    by: str,
    finished: Callable[[GameData], bool],
    unlocked: bool = False,
    tally: dict[str, Any] | None = None,
) -> tuple[int, bool]:
    """Append a hand: its number, and whether it is new (``False``: the same token was
    sent before, and the number is the hand that first request added).

    ``tally``: what the game keeps as its tally with the hand (``Variant.kept_tally``,
    for the version this saving makes); without one the kept tally is cleared, and the
    next hand saved through the API replays the game once.

    ``unlocked``: ``game`` was read without the lock (``read_row`` through a reader):
    the version is then bumped only if it is still the one read, first, and anything
    else raises ``Conflict`` with nothing written; the caller reads the game again
    under the lock and tries once more.

    A token is looked up only when the checks refuse the hand (a resent form is older
    than the sheet its first sending changed); otherwise a used token makes saving it
    fail on the submissions' key (``IntegrityError``), which the callers answer by
    looking it up then: a retry is rare, and a hand saves a query.

    The hand, its key, its history entry and the game's new version are written by
    prepared statements (``_write_statements``: one on PostgreSQL) run on the DBAPI
    cursor (``db.Prepared``), not the ORM's unit of work, which cost a hand's request
    more than everything else together; ``game`` is brought up to date in memory.
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
    stored = dict(inputs)
    db.flush()  # the statements go through the session's connection, after its changes
    write_new_hand(db.connection(), game, number, stored, token=token, by=by,
                   unlocked=unlocked, tally=tally)
    if isinstance(game, GameRow):
        game.hands.append(HandRow(number, stored))
    else:  # an ORM game: its collections are read again when next needed
        assert isinstance(game, Game)
        set_committed_value(game, "version", game.version + 1)
        db.expire(game, ["hands", "changes", "updated_at", "tally"])
    return number, True


def write_new_hand(
    connection: Connection | Alone,
    game: GameData,
    number: int,
    inputs: dict[str, Any],
    *,
    token: str | None,
    by: str,
    unlocked: bool = False,
    tally: dict[str, Any] | None = None,
) -> None:
    """Write hand ``number`` with its key, its history entry, the game's new version
    and ``tally`` (``add_hand``), through ``connection`` in the transaction it is in,
    which holds the game locked (or ``unlocked``: see ``add_hand``). A ``GameRow`` is
    brought up to date with what was written (its version, ``updated_at`` and tally;
    not its hands). A used token raises ``IntegrityError``.

    On PostgreSQL a save ``unlocked`` goes through only if the game's version and its
    ``updated_at`` are still ``game``'s: ``game`` may be the row kept in ``sharedrows``
    rather than one just read, and every change to a game's row moves its
    ``updated_at`` (``models.Game``), the few that leave the version alone too."""
    now = now_utc()
    params = {"game_id": game.id, "number": number, "inputs": inputs, "key": token, "by": by,
              "now": now, "read": game.version, "read_at": game.updated_at, "tally": tally}
    statements = _write_statements(connection.dialect.name, bool(token), unlocked)
    for i, statement in enumerate(statements):
        written = statement.execute(connection, params)
        if unlocked and i == 0 and written != 1:
            raise Conflict  # another phone changed the game since it was read
    if isinstance(game, GameRow):
        game.version += 1
        game.updated_at, game.tally = now, tally


def kept_row(game_id: str) -> GameRow | None:
    """The game's row as the last hand saved from it left it, kept in the memory the
    server's processes share (``sharedrows``), or ``None``. Only a guess: a save from
    it must be the checked write (``write_new_hand`` with ``unlocked``)."""
    entry = shared_rows().get(game_id)
    if entry is None or entry[-1] != _KEPT_LAYOUT:  # kept by a worker of another release
        return None
    del entry[-1]
    for i in _KEPT_TIMES:
        entry[i] = datetime.fromisoformat(entry[i])
    return GameRow(*entry)


def keep_row(game: GameRow) -> None:
    """Keep ``game``'s row (not its hands) for the next hand (``kept_row``); call it
    once the row is saved as it stands."""
    entry = [getattr(game, name) for name in _KEPT_FIELDS]
    for i in _KEPT_TIMES:
        entry[i] = entry[i].isoformat()
    entry.append(_KEPT_LAYOUT)
    shared_rows().put(game.id, entry)


def shared_rows() -> SharedRows:
    """The app's store of kept rows: the one the server's processes share when it made
    one (``sharedrows.share``, gunicorn's master), else the app's own."""
    rows: SharedRows | None = current_app.extensions.get(_ROWS)
    if rows is None:
        rows = current_app.extensions.setdefault(_ROWS, sharedrows.shared() or SharedRows())
    return rows


_ROWS = "scorekeeper.rows"
# A kept row is its fields in GameRow's order but its hands (the last, left to their
# default), its times as ISO text, then the names of those fields: workers started
# after an upgrade (gunicorn's HUP) share the memory with the ones before, and take a
# row kept by a GameRow of other fields for none.
_KEPT_FIELDS = tuple(f.name for f in fields(GameRow) if f.name != "hands")
_KEPT_TIMES = tuple(i for i, f in enumerate(fields(GameRow)) if f.type == "datetime")
_KEPT_LAYOUT = " ".join(_KEPT_FIELDS)


# What each row of a new hand takes, column by column: the name of one of
# ``write_new_hand``'s parameters, or a value of its own. ``game_id`` is the game's id
# (on PostgreSQL's checked save, the one the version's update returns).
_NEW_HAND_ROWS: tuple[tuple[type[Any], dict[str, str | ColumnElement[Any]]], ...] = (
    (Hand, {"game_id": "game_id", "number": "number", "inputs": "inputs",
            "created_at": "now", "updated_at": "now"}),
    (Submission, {"game_id": "game_id", "key": "key", "hand_number": "number",
                  "created_at": "now"}),
    (Change, {"game_id": "game_id", "at": "now", "action": literal("add", String),
              "hand_number": "number", "after": "inputs", "by": "by"}),
)


def _new_hand_values(model: type[Any], values: dict[str, str | ColumnElement[Any]],
                     game_id: ColumnElement[Any] | None = None) -> list[ColumnElement[Any]]:
    """The values of one row of ``_NEW_HAND_ROWS``, each labelled with its column and
    typed as it (so that JSON and times are written as the column keeps them)."""
    table = model.__table__
    return [
        (game_id if game_id is not None and name == "game_id"
         else value if isinstance(value, ColumnElement)
         else bindparam(value, type_=table.c[name].type)).label(name)
        for name, value in values.items()
    ]


@cache
def _write_statements(dialect: str, keyed: bool, unlocked: bool) -> tuple[Prepared, ...]:
    """The statements that store a new hand, all taking the same parameters: on
    PostgreSQL one statement (the inserts as data-modifying ``WITH`` parts of the
    version's update: one round trip instead of four), elsewhere one per table. A save
    of a game read without the lock bumps the version first, checked: on PostgreSQL
    the inserts then take the game's id from the update's ``RETURNING`` (``_checked``),
    so they write nothing when it changed nothing, and the one statement is safe
    outside a transaction (``add_from_tally`` runs it on its own, in autocommit)."""
    rows = [(model, values) for model, values in _NEW_HAND_ROWS
            if keyed or model is not Submission]
    bump = (
        update(Game)
        .where(Game.id == bindparam("game_id"))
        .values(version=Game.version + 1, updated_at=bindparam("now"),
                tally=bindparam("tally", type_=Game.__table__.c.tally.type))
    )
    if unlocked and dialect == "postgresql":
        return (Prepared(_checked(bump, rows)),)
    inserts = [insert(model).values({c.name: c.element for c in _new_hand_values(model, values)})
               for model, values in rows]
    if unlocked:  # the version first, only if it is still the one read
        statements: tuple[UpdateBase, ...] = (bump.where(Game.version == bindparam("read")),
                                              *inserts)
    elif dialect == "postgresql":
        for i, part in enumerate(inserts):
            bump = bump.add_cte(part.cte(f"new_{i}"))
        statements = (bump,)
    else:
        statements = (*inserts, bump)
    return tuple(Prepared(statement) for statement in statements)


def _checked(bump: Update, rows: list[tuple[type[Any], dict[str, Any]]]) -> UpdateBase:
    """PostgreSQL: the version's update, only if it and ``updated_at`` are still the
    ones read, with the inserts fed by the row it returns, as one statement whose count
    is 1 when it saved the hand and 0 when the game had changed (and then nothing is
    written).

    Each part of a ``WITH`` runs once and to the end whether the statement reads it
    or not; the last insert is the statement itself, so that its count tells."""
    checked = (
        bump.where(Game.version == bindparam("read"), Game.updated_at == bindparam(
            "read_at", type_=Game.__table__.c.updated_at.type))
        .returning(Game.id).cte("bump")
    )
    *others, last = [
        insert(model).from_select(
            list(values), select(*_new_hand_values(model, values, checked.c.id))
            .select_from(checked))
        for model, values in rows
    ]
    for i, part in enumerate(others):
        last = last.add_cte(part.cte(f"new_{i}"))
    return last


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


def last_change(db: Session, game: Game) -> Change | None:
    """The game's latest history entry (without loading the whole history)."""
    query = select(Change).where(Change.game_id == game.id).order_by(Change.id.desc()).limit(1)
    return db.scalars(query).first()


def position_of(db: Session, change: Change) -> int:
    """The 0-based position of ``change`` in its game's history."""
    query = select(func.count()).where(Change.game_id == change.game_id, Change.id < change.id)
    return int(db.scalar(query) or 0)


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


def restore_hand(
    db: Session,
    game: Game,
    change_id: int,
    *,
    version: int | None,
    by: str,
    finished: Callable[[Game], bool],
) -> tuple[int, Mapping[str, Any]]:
    """Put an undone or deleted hand back, exactly as it was entered: an undone hand as
    the last hand again, a deleted one at its old number (the hands from there on move
    down one). Returns its number and inputs; the caller replays the game to check it
    still fits, and commits."""
    check_version(game, version)
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
    for later in sorted(game.hands, key=lambda hand: hand.number, reverse=True):
        if later.number >= number:
            later.number += 1
            db.flush()  # one at a time, from the end: the numbers stay unique
    inputs = dict(source.before)
    game.hands.insert(number - 1, Hand(number=number, inputs=inputs))
    _record(game, "restore", number, {"restores": position}, dict(inputs), by)
    return number, inputs


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
