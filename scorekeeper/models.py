"""What players entered, and nothing the engine could disagree with.

A game stores its frozen rules and its players; a hand stores its inputs (typed
totals or cards); every change is kept in the game's history. Scores are never
stored: they are derived by replaying the hands through ``scoring/``.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
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
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Variant-specific starting state: the first dealer, three-hand's first roles…
    setup: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Bumped by every change to the hands; a form carries the version it was drawn
    # from, so a phone that missed another phone's change is told instead of
    # silently saving over it.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)
    updated_at: Mapped[datetime] = mapped_column(default=now_utc)

    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game", order_by="Change.id", cascade="all, delete-orphan"
    )


class Hand(Base):
    """One hand (or deal) as the players entered it."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
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
