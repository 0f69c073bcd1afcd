"""A group's standings, head-to-head and balances, added up from its games' records.

Only finished games count (a game still being played has no result yet). Every
figure comes from the games' records (``summaries``: counted from the replayed
sheets) and the recorded payments; nothing here is stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from ..models import Payment as PaymentRow
from ..scoring.stakes import Payment, balances, round_money, settle_up
from .summaries import GameRecord


@dataclass
class Standing:
    """One player's figures over the counted games."""

    name: str
    games: int = 0
    wins: int = 0
    finals: int = 0
    margins: int = 0
    longest_streak: int = 0
    biggest_hand: int | None = None
    counts: Counter[str] = field(default_factory=Counter)
    by_kind: Counter[str] = field(default_factory=Counter)

    def __getattr__(self, name: str) -> int:
        # Every counted figure reads as an attribute (``standing.gins``), 0 when none.
        counts = self.__dict__.get("counts")
        if counts is None:
            raise AttributeError(name)
        return int(counts[name])

    @property
    def win_rate(self) -> float | None:
        """Games won out of games played, ``None`` before the first game."""
        return self.wins / self.games if self.games else None

    def average(self, total: str, count: str) -> float | None:
        """``counts[total] / counts[count]``, ``None`` when nothing was counted."""
        return self.counts[total] / self.counts[count] if self.counts[count] else None


@dataclass
class Pair:
    """Two players' games against each other: wins each way and the net margin."""

    first: str
    second: str
    games: int = 0
    first_wins: int = 0
    second_wins: int = 0
    net: int = 0  # the first player's finals less the second's, over these games


@dataclass(frozen=True)
class Standings:
    """Everything a group page shows of its results."""

    players: tuple[Standing, ...]
    teams: tuple[Standing, ...]
    pairs: tuple[Pair, ...]
    records: tuple[GameRecord, ...]  # counted (finished) games, oldest first


def standings(roster: Sequence[str], records: Iterable[GameRecord]) -> Standings:
    """Add up finished games' records for every player of ``roster`` (and anybody else
    who played in them)."""
    done = sorted((r for r in records if r.finished), key=lambda r: (r.created_at, r.game_id))
    table: dict[str, Standing] = {name: Standing(name) for name in roster}
    teams: dict[str, Standing] = {}
    pairs: dict[tuple[str, str], Pair] = {}
    streak: Counter[str] = Counter()
    for record in done:
        for name in record.players:
            row = table.setdefault(name, Standing(name))
            _add(row, record, name)
            if name in record.winners:
                streak[name] += 1
                row.longest_streak = max(row.longest_streak, streak[name])
            else:
                streak[name] = 0
        for team in record.teams:
            label = " & ".join(sorted(team))
            row = teams.setdefault(label, Standing(label))
            row.games += 1
            row.wins += 1 if team[0] in record.winners else 0
            row.finals += record.finals[team[0]]
            row.margins += record.margin(team[0])
        for a, b, fa, fb in record.against:
            first, second, f1, f2 = (a, b, fa, fb) if a <= b else (b, a, fb, fa)
            pair = pairs.setdefault((first, second), Pair(first, second))
            pair.games += 1
            pair.first_wins += f1 > f2
            pair.second_wins += f2 > f1
            pair.net += f1 - f2
    ordered = sorted(table.values(), key=lambda s: (-s.wins, -s.margins, s.name))
    return Standings(
        tuple(ordered),
        tuple(sorted(teams.values(), key=lambda s: (-s.wins, -s.margins, s.name))),
        tuple(sorted(pairs.values(), key=lambda p: (p.first, p.second))),
        tuple(done),
    )


def running_margins(standings: Standings) -> dict[str, list[int]]:
    """Per player who played (most games first), 0 and then the sum of their margins
    after each counted game; a game they sat out leaves their line flat."""
    played = sorted((s for s in standings.players if s.games), key=lambda s: (-s.games, s.name))
    lines = {s.name: [0] for s in played}
    for record in standings.records:
        for name, line in lines.items():
            line.append(line[-1] + (record.margin(name) if name in record.finals else 0))
    return lines


def _add(row: Standing, record: GameRecord, name: str) -> None:
    row.games += 1
    row.by_kind[record.variant] += 1
    row.wins += 1 if name in record.winners else 0
    row.finals += record.finals[name]
    row.margins += record.margin(name)
    row.counts.update(record.figures[name])
    big = record.biggest.get(name)
    if big is not None:
        row.biggest_hand = big if row.biggest_hand is None else max(row.biggest_hand, big)


def group_balances(
    roster: Sequence[str],
    game_payments: Iterable[Payment],
    paid: Iterable[PaymentRow],
    currency: str | None,
) -> dict[str, Decimal]:
    """Each player's balance: what the games owe them, less what they owe, with recorded
    payments moving it (a payer's debt shrinks by what they paid)."""
    owed = balances(game_payments, roster)
    for row in paid:
        amount = Decimal(row.amount)
        owed[row.payer] = owed.get(row.payer, Decimal(0)) + amount
        owed[row.payee] = owed.get(row.payee, Decimal(0)) - amount
    return {name: round_money(value, currency) for name, value in owed.items()}


def settle_group(owed: dict[str, Decimal]) -> list[Payment]:
    """The fewest payments that square the group; [] when they do not add up (a payment
    recorded in another currency), rather than a wrong list."""
    if sum(owed.values(), Decimal(0)) != 0:
        return []
    return settle_up(owed)
