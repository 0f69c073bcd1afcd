"""A group's games, standings and money, put together for its page and its JSON."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from flask import abort
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, load_only

from ..db import writer_session
from ..limits import ROSTER_MAX
from ..models import Game, GameSummary, Group
from ..money import currency_code
from ..names import NAME_MAX
from ..scoring.stakes import Payment, parse_stake
from .standings import Standings, group_balances, settle_group, standings
from .summaries import GameRecord, payments_of, records_for, store_summaries


@dataclass(frozen=True)
class GroupView:
    """What the group page and ``GET /api/v1/groups/<id>`` show."""

    group: Group
    games: tuple[tuple[Game, GameRecord], ...]  # every game of the group, newest first
    standings: Standings  # over the games the filter keeps
    balances: dict[str, Decimal]
    settle_up: tuple[Payment, ...]
    game_payments: dict[str, list[Payment]]  # by game id, each in its game's currency
    currency: str | None  # the balances' currency (``balance_currency``)
    left_out: tuple[str, ...]  # other currencies the group's games were played for
    fresh: tuple[GameSummary, ...]  # summaries counted for this view, to be stored


def load_group(db: Session, group_id: str) -> Group:
    """The group (404 if unknown)."""
    group = db.get(Group, group_id)
    if group is None:
        abort(404)
    return group


def lock_group(db: Session, group_id: str) -> Group:
    """The group, its row locked for a change (PostgreSQL; SQLite locks the database)."""
    group = db.scalars(select(Group).where(Group.id == group_id).with_for_update()).first()
    if group is None:
        abort(404)
    return group


def check_roster(names: Sequence[str]) -> str | None:
    """What is wrong with a roster, in English for the API (the pages word their own)."""
    if not names:
        return "a group needs at least one player"
    if len(names) > ROSTER_MAX:
        return f"a group has at most {ROSTER_MAX} players"
    if any(len(name) > NAME_MAX for name in names):
        return f"a name has at most {NAME_MAX} characters"
    if len(set(names)) != len(names):
        return "every player needs a different name"
    return None


def stake_texts(stake: object, currency: object) -> tuple[str | None, str | None]:
    """A stake and currency as stored (exact text), both ``None`` without a stake;
    ``StakeError`` says what is wrong."""
    if stake in (None, ""):
        return None, None
    return str(parse_stake(stake)), currency_code(currency)


def group_games(db: Session, group: Group) -> list[Game]:
    """The group's games, newest first."""
    # A game read from its stored summary needs none of its rules, setup or hands; a
    # game that must be replayed loads them when it is (``summaries.records_for``).
    lean = load_only(
        Game.id,
        Game.version,
        Game.variant,
        Game.players,
        Game.created_at,
        Game.group_id,
        Game.stake,
        Game.currency,
    )
    query = select(Game).options(lean).where(Game.group_id == group.id)
    return list(db.scalars(query.order_by(Game.created_at.desc(), Game.id)).all())


def view(db: Session, group: Group, *, kind: str = "", days: int | None = None) -> GroupView:
    """Standings over the games of ``kind`` (all kinds when blank) played in the last
    ``days`` (all time when ``None``); balances and settling up over every game.

    The summaries of games replayed for it are in ``fresh``: a page stores them
    (``keep_summaries``)."""
    listed = group_games(db, group)
    records, fresh = records_for(db, listed)
    games = list(zip(listed, records, strict=True))
    since = datetime.now(UTC) - timedelta(days=days) if days else None
    kept = [
        record
        for game, record in games
        if (not kind or game.variant == kind)
        and (since is None or _aware(game.created_at) >= since)
    ]
    currency = balance_currency(group, listed)
    owed_by_game = {game.id: payments_of(game, record) for game, record in games}
    owed = group_balances(
        group.players,
        (p for game in listed if _counts(game.currency, currency) for p in owed_by_game[game.id]),
        (row for row in group.payments if _counts(row.currency, currency)),
        currency,
    )
    left_out = {game.currency for game in listed if game.stake and game.currency} - {currency}
    return GroupView(
        group=group,
        games=tuple(games),
        standings=standings(group.players, kept),
        balances=owed,
        settle_up=tuple(settle_group(owed)),
        game_payments=owed_by_game,
        currency=currency,
        left_out=tuple(sorted(left_out)),
        fresh=tuple(fresh),
    )


def balance_currency(group: Group, games: Sequence[Game]) -> str | None:
    """The one currency a group's balances add up (scoring/stakes.py): the group's own, else
    that of its first game played for a stake (``games`` newest first, as
    ``group_games`` lists them). Games and payments in another currency are left out
    of the balances: 2.50 EUR and 100 IRR do not add up to anything."""
    if group.currency:
        return group.currency
    staked = [game.currency for game in reversed(games) if game.stake and game.currency]
    return staked[0] if staked else None


def _counts(currency: str | None, balances_in: str | None) -> bool:
    """Whether an amount in ``currency`` moves balances kept in ``balances_in``."""
    return currency is None or balances_in is None or currency == balances_in


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def keep_summaries(shown: GroupView) -> None:
    """Store the summaries a view counted afresh, through a session of the writer's own
    (a page reads through the reader). Another process may have stored the same ones
    first, which is just as good."""
    if not shown.fresh:
        return
    with writer_session() as db:
        store_summaries(db, shown.fresh)
        try:
            db.commit()
        except IntegrityError:
            db.rollback()
