"""What players entered, and nothing the engine could disagree with.

A game stores its frozen rules and its players; a hand stores its inputs (typed
totals or cards); every change is kept in the game's history. Scores are never
stored: they are derived by replaying the hands through ``scoring/``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any, Protocol

from sqlalchemy import JSON, Date, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import Base


def now_utc() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def new_token(nbytes: int = 16) -> str:
    """An unguessable URL-safe token."""
    return secrets.token_urlsafe(nbytes)


class Game(Base):
    """A game: its players, frozen rules, and hands. Reached by an unguessable id."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_token)
    edit_secret: Mapped[str] = mapped_column(String(64), default=lambda: new_token(24))
    pin_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    pin_failures: Mapped[int] = mapped_column(Integer, default=0)
    variant: Mapped[str] = mapped_column(String(20))
    players: Mapped[list[str]] = mapped_column(JSON)
    # The players' short forms for narrow columns, as the game's editor wrote them; None:
    # the ones the app makes (``names.shown_short_names``).
    short_names: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Variant-specific starting state: the first dealer, three-hand's first roles…
    setup: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Bumped by every change to the hands; a form carries the version it was drawn
    # from, so a phone that missed another phone's change is told instead of
    # silently saving over it.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)
    # Moved by every change to the game's row (``onupdate``).
    updated_at: Mapped[datetime] = mapped_column(default=now_utc, onupdate=now_utc)
    # The group of regular players the game counts for (no database foreign key: adding
    # one to an existing SQLite table means rebuilding it; the app keeps it tidy).
    group_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    # Stake per point as exact decimal text ("0.01") and its currency (scoring/stakes.py).
    stake: Mapped[str | None] = mapped_column(String(20), default=None)
    currency: Mapped[str | None] = mapped_column(String(3), default=None)

    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game", order_by="Change.id", cascade="all, delete-orphan"
    )


class HandData(Protocol):
    """What a replay reads of a hand."""

    @property
    def number(self) -> int: ...

    @property
    def inputs(self) -> dict[str, Any]: ...


class GameData(Protocol):
    """What the variants read of a game to replay, check and answer it (a ``Game``)."""

    @property
    def id(self) -> str: ...
    @property
    def edit_secret(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def players(self) -> list[str]: ...
    @property
    def short_names(self) -> list[str] | None: ...
    @property
    def rules(self) -> dict[str, Any]: ...
    @property
    def setup(self) -> dict[str, Any]: ...
    @property
    def version(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def stake(self) -> str | None: ...
    @property
    def currency(self) -> str | None: ...
    @property
    def hands(self) -> Sequence[HandData]: ...


class Hand(Base):
    """One hand (or deal) as the players entered it."""

    __tablename__ = "hands"
    # Also the index for a game's hands (it leads with game_id): no other is needed.
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # 1-based position on the sheet
    inputs: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)
    updated_at: Mapped[datetime] = mapped_column(default=now_utc)

    game: Mapped[Game] = relationship(back_populates="hands")


class Change(Base):
    """One entry of a game's history: what changed, when, old and new values."""

    __tablename__ = "changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=now_utc)
    action: Mapped[str] = mapped_column(String(20))  # add, edit, delete, undo, create
    hand_number: Mapped[int | None] = mapped_column(Integer, default=None)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    by: Mapped[str] = mapped_column(String(20), default="")  # edit link, PIN, API

    game: Mapped[Game] = relationship(back_populates="changes")


class Submission(Base):
    """A used idempotency key: the same key twice creates one hand."""

    __tablename__ = "submissions"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    hand_number: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)


class Group(Base):
    """Regular players who play again and again; reached, edited and guarded like a game."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_token)
    edit_secret: Mapped[str] = mapped_column(String(64), default=lambda: new_token(24))
    pin_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    pin_failures: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(60))
    players: Mapped[list[str]] = mapped_column(JSON)  # the roster
    # The default stake of the group's games, exact decimal text, and its currency.
    stake: Mapped[str | None] = mapped_column(String(20), default=None)
    currency: Mapped[str | None] = mapped_column(String(3), default=None)
    # The kinds of game (``Variant.name``) the group's ratings count; ``None``: every kind.
    rating_kinds: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)
    # Bumped by every change to the payments, as a game's by every change to its hands:
    # a form carries the version it was drawn from, so a second click or another
    # phone's change first is told instead of recorded twice.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    payments: Mapped[list[Payment]] = relationship(
        back_populates="group",
        order_by="(Payment.paid_on, Payment.id)",
        cascade="all, delete-orphan",
    )
    changes: Mapped[list[GroupChange]] = relationship(
        back_populates="group", order_by="GroupChange.id", cascade="all, delete-orphan"
    )


class Payment(Base):
    """Money that changed hands to settle up: it moves the group's balances."""

    __tablename__ = "payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), index=True
    )
    payer: Mapped[str] = mapped_column(String(40))
    payee: Mapped[str] = mapped_column(String(40))
    amount: Mapped[str] = mapped_column(String(24))  # exact decimal text
    currency: Mapped[str | None] = mapped_column(String(3), default=None)
    paid_on: Mapped[date] = mapped_column(Date)
    recorded_at: Mapped[datetime] = mapped_column(default=now_utc)

    group: Mapped[Group] = relationship(back_populates="payments")


class GroupChange(Base):
    """One entry of a group's history of payments: recorded, corrected, deleted, restored
    or settled up, with the payment as it was (``before``) and as it became (``after``),
    each ``{"from", "to", "amount", "currency", "date"}`` (a settling up's ``after`` is
    ``{"payments": [...]}``). A deleted payment lives on in its entry and comes back
    from there."""

    __tablename__ = "group_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=now_utc)
    action: Mapped[str] = mapped_column(String(20))  # record, edit, delete, restore, settle
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    by: Mapped[str] = mapped_column(String(20), default="")  # edit link, PIN, API

    group: Mapped[Group] = relationship(back_populates="changes")


class GameSummary(Base):
    """A game's figures for group standings, as ``services.summaries`` derived them by replaying it;
    valid only for the game's ``version`` and the engine ``stamp`` (a hash of the code
    that scores), so a change to the game or to the rules engine makes it stale."""

    __tablename__ = "game_summaries"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    stamp: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class Ruling(Base):
    """A settled dispute kept as it was decided: the hands as entered, the rules and the
    verdict (what the engine said then, never scored again), with the stamp of the
    scoring code that said it. Reached by an unguessable id; never changed."""

    __tablename__ = "rulings"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_token)
    kind: Mapped[str] = mapped_column(String(10))  # gin or remi
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # the settings, ``Rules.to_dict()``
    hands: Mapped[dict[str, Any]] = mapped_column(JSON)  # a /gin/settle or /remi/settle body
    verdict: Mapped[dict[str, Any]] = mapped_column(JSON)  # the result and its explanation
    stamp: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=now_utc)
    # The game and hand (its number) the ruling was kept about, when the checker was
    # opened from that game's hand; ``None`` from the plain checker. No database foreign
    # key: a ruling outlives its game.
    game_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    hand: Mapped[int | None] = mapped_column(Integer, default=None)


class Import(Base):
    """What one import made: its games, groups and nights by id, in the file's order,
    for the page (and the file) of their edit and organiser links. Reached by an
    unguessable id that only the importing browser's session holds; never changed."""

    __tablename__ = "imports"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_token(24))
    games: Mapped[list[str]] = mapped_column(JSON)
    groups: Mapped[list[str]] = mapped_column(JSON)
    # ``None``: an import made before nights were exported.
    nights: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)


class Night(Base):
    """A club night: several tables at once, rounds of pairings, one board. Reached by an
    unguessable id; run by whoever holds its organiser's secret (``organiser_secret``).

    ``players`` are the night's entrants in the order they were entered (a partnership
    night's entrants are its teams, each named by ``teams``); every table of a round is
    an ordinary game (``NightTable.game_id``)."""

    __tablename__ = "nights"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_token)
    organiser_secret: Mapped[str] = mapped_column(String(64), default=lambda: new_token(24))
    pin_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    pin_failures: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(60), default="")
    variant: Mapped[str] = mapped_column(String(20))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(20))  # round_robin, swiss, king_of_the_hill
    rounds: Mapped[int | None] = mapped_column(Integer, default=None)  # None: the format's
    deals: Mapped[int | None] = mapped_column(Integer, default=None)  # None: to the target
    players: Mapped[list[str]] = mapped_column(JSON)
    teams: Mapped[list[list[str]] | None] = mapped_column(JSON, default=None)
    order: Mapped[list[str]] = mapped_column(JSON)  # the standings' tie-breaks, in order
    # Entrants not paired in the next round (late, or gone home); they count again once
    # they are taken off.
    away: Mapped[list[str]] = mapped_column(JSON, default=list)
    group_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    stake: Mapped[str | None] = mapped_column(String(20), default=None)
    currency: Mapped[str | None] = mapped_column(String(3), default=None)
    # Bumped by every change to the night itself (a round, a confirmation, a
    # correction): the board's and the organiser page's live version is this and the
    # versions of the night's games.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)

    round_rows: Mapped[list[NightRound]] = relationship(
        back_populates="night", order_by="NightRound.number", cascade="all, delete-orphan"
    )
    tables: Mapped[list[NightTable]] = relationship(
        back_populates="night",
        order_by="(NightTable.round, NightTable.number)",
        cascade="all, delete-orphan",
    )
    changes: Mapped[list[NightChange]] = relationship(
        back_populates="night", order_by="NightChange.id", cascade="all, delete-orphan"
    )


class NightRound(Base):
    """One round of a night: its number and who sat out (``byes``). One row per number:
    two organisers pressing "next round" together make one round."""

    __tablename__ = "night_rounds"
    __table_args__ = (UniqueConstraint("night_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    byes: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)

    night: Mapped[Night] = relationship(back_populates="round_rows")


class NightTable(Base):
    """One table of a round: its two entrants (``a`` sits first), its game, and its
    result once confirmed (``result``: ``{"points_a", "points_b", "winner", "shutout",
    "forfeit"}``, ``winner`` and ``forfeit`` being ``"a"``, ``"b"`` or ``None``), kept as
    it was confirmed, forfeited or corrected."""

    __tablename__ = "night_tables"
    __table_args__ = (UniqueConstraint("night_id", "round", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    a: Mapped[str] = mapped_column(String(100))
    b: Mapped[str] = mapped_column(String(100))
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), default=None, index=True
    )
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    confirmed_at: Mapped[datetime | None] = mapped_column(default=None)
    confirmed_by: Mapped[str] = mapped_column(String(20), default="")
    # Left playing when the next round was made: it counts once it is confirmed.
    carried: Mapped[bool] = mapped_column(default=False)

    night: Mapped[Night] = relationship(back_populates="tables")


class NightChange(Base):
    """One entry of a night's history: a round made, a result confirmed, corrected (with
    the organiser's reason) or forfeited, a player late or arrived."""

    __tablename__ = "night_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[str] = mapped_column(
        ForeignKey("nights.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=now_utc)
    action: Mapped[str] = mapped_column(String(20))
    round: Mapped[int | None] = mapped_column(Integer, default=None)
    table: Mapped[int | None] = mapped_column(Integer, default=None)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    reason: Mapped[str] = mapped_column(String(200), default="")
    by: Mapped[str] = mapped_column(String(20), default="")

    night: Mapped[Night] = relationship(back_populates="changes")
