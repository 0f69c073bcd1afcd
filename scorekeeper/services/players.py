"""One player across a group (their page and its JSON), and the group's last night.

Every figure is added up from the games' records (``summaries``, counted from the
replayed hands), the standings, the ratings and the games' payments: nothing here
scores and nothing is stored. What each figure counts is written beside it on the
player's page.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from ..scoring import Meld
from .groups import GroupView
from .ratings import START, Rating
from .standings import Pair, Standing
from .summaries import MELD, GameRecord

NIGHT = timedelta(hours=12)  # games this close before the latest one played with it


@dataclass(frozen=True)
class PlayerView:
    """What a player's page and ``GET /api/v1/groups/<id>/players/<name>`` show."""

    standing: Standing
    rating: Rating
    # (game id, date, win rate after it) over their counted games, oldest first.
    win_rates: tuple[tuple[str, datetime, float], ...]
    pairs: tuple[Pair, ...]  # head-to-head against each opponent
    won_money: Decimal  # what the games paid them, in the balances' currency
    lost_money: Decimal  # what they paid for games
    # The melds they laid most (the cards as the sheet writes them, "7♠7♥7♦"; times).
    melds: tuple[tuple[str, int], ...]
    records: tuple[GameRecord, ...]  # their games, newest first


def player_view(shown: GroupView, name: str) -> PlayerView | None:
    """The player's figures over the games the view's filter keeps (their rating over all
    the group's rated games); ``None`` for a name that played no game and is not on
    the roster."""
    standing = next((s for s in shown.standings.players if s.name == name), None)
    if standing is None:
        return None
    rates: list[tuple[str, datetime, float]] = []
    games = wins = 0
    for record in shown.standings.records:
        if name in record.players:
            games += 1
            wins += name in record.winners
            rates.append((record.game_id, record.created_at, wins / games))
    won = lost = Decimal(0)
    counted = {r.game_id for r in shown.standings.records}
    for game, _record in shown.games:
        if game.id not in counted or (game.currency and game.currency != shown.currency):
            continue
        for payment in shown.game_payments.get(game.id, []):
            won += payment.amount if payment.payee == name else 0
            lost += payment.amount if payment.payer == name else 0
    melds = Counter({key[len(MELD):]: n for key, n in standing.counts.items()
                     if key.startswith(MELD)})
    return PlayerView(
        standing=standing,
        rating=shown.ratings.get(name) or Rating(name),
        win_rates=tuple(rates),
        pairs=tuple(p for p in shown.standings.pairs if name in (p.first, p.second)),
        won_money=won,
        lost_money=lost,
        melds=tuple((Meld.of(cards).symbols, n) for cards, n in
                    sorted(melds.items(), key=lambda item: (-item[1], item[0]))[:5]),
        records=tuple(r for _g, r in shown.games if name in r.players),
    )


@dataclass(frozen=True)
class NightRow:
    """One player's part in the last night."""

    name: str
    games: int
    wins: int
    margins: int
    rating_change: float | None  # the rating after the night less before it


@dataclass(frozen=True)
class Night:
    """The group's latest finished games: those played within 12 hours before the
    last one (a night at the table, whatever the time zone)."""

    last: datetime
    records: tuple[GameRecord, ...]
    rows: tuple[NightRow, ...]  # most wins first


def last_night(shown: GroupView) -> Night | None:
    """The last night's games and each player's wins, margins and rating change;
    ``None`` before the group's first finished game."""
    done = sorted((r for _g, r in shown.games if r.finished and r.finals),
                  key=lambda r: (r.created_at, r.game_id))
    if not done:
        return None
    last = done[-1].created_at
    night = [r for r in done if r.created_at >= last - NIGHT]
    ids = {r.game_id for r in night}
    rows: dict[str, list[int]] = {}
    for record in night:
        for name in record.players:
            row = rows.setdefault(name, [0, 0, 0])
            row[0] += 1
            row[1] += name in record.winners
            row[2] += record.margin(name)
    return Night(
        last=last,
        records=tuple(night),
        rows=tuple(sorted(
            (NightRow(name, g, w, m, _change(shown.ratings.get(name), ids))
             for name, (g, w, m) in rows.items()),
            key=lambda row: (-row.wins, -row.margins, row.name),
        )),
    )


def _change(rating: Rating | None, night: set[str]) -> float | None:
    """How much the night's rated games moved the rating; ``None`` when none was rated."""
    if rating is None:
        return None
    before, after, seen = START, None, False
    for game_id, value in rating.history:
        if game_id in night:
            seen = True
            after = value
        elif not seen:
            before = value
    return None if after is None else after - before
