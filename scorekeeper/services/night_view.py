"""A night as its pages, prints and API show it: every round's tables with their state,
running scores and results, and the standings. Read-only; no Flask request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from ..models import Night, NightChange, NightTable, Ruling
from ..names import short_forms
from . import nights as service
from .rulings import kept_about


@dataclass(frozen=True)
class TableView:
    """One table as shown: its entrants, players in their seats, game, state, running
    scores (hands played), result (the confirmed one, else the game's own) and the
    rulings kept about its game's hands, and the organiser's correction of its result
    (``None``: the result is the game's own)."""

    table: NightTable
    players: list[str]
    state: str
    hands: int
    scores: tuple[int, int] | None
    result: dict[str, Any] | None
    rulings: list[Ruling] = field(default_factory=list)
    correction: NightChange | None = None

    @property
    def number(self) -> int:
        return self.table.number

    def winner_name(self) -> str | None:
        winner = (self.result or {}).get("winner")
        return self.table.a if winner == "a" else self.table.b if winner == "b" else None


@dataclass(frozen=True)
class RoundView:
    number: int
    tables: list[TableView]
    byes: list[str]

    @property
    def done(self) -> bool:
        return all(t.state == service.CONFIRMED for t in self.tables)


@dataclass(frozen=True)
class NightView:
    rounds: list[RoundView]
    standings: list[Any]
    planned: int | None
    current: int
    # Tables of earlier rounds still playing (carried over).
    carried: list[TableView]
    # Each entrant's short form, as a game's sheet names its players (a team's: its
    # players' short forms), for the narrow columns of a phone's page.
    short: dict[str, str] = field(default_factory=dict)

    @property
    def latest(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def waiting(self) -> list[TableView]:
        """The latest round's tables not confirmed yet."""
        latest = self.latest
        return [t for t in latest.tables if t.state != service.CONFIRMED] if latest else []

    @property
    def over(self) -> bool:
        """Every planned round is made and every table confirmed."""
        return (
            self.planned is not None
            and self.current >= self.planned
            and not self.waiting
            and not self.carried
        )

    def counts(self) -> dict[str, int]:
        """How many of the latest round's tables are in each state."""
        found = {s: 0 for s in (service.MISSING, service.PLAYING, service.FINISHED,
                                service.CONFIRMED)}
        for table in self.latest.tables if self.latest else []:
            found[table.state] += 1
        return found


def night_view(db: Session, night: Night, *, rounds: str = "all") -> NightView:
    """The night as shown. ``rounds="live"``: only what the board shows is replayed (the
    latest round and the tables carried over); earlier rounds' tables are confirmed
    and shown from their kept results; the board links no game, so no ruling either
    (``rulings`` are read for ``rounds="all"``: the organiser's page, the API)."""
    current = service.current_round(night)
    live = [t for t in night.tables if t.round == current or t.confirmed_at is None]
    replay = night.tables if rounds == "all" else live
    progress = service.progresses(db, night, [t for t in replay if t.confirmed_at is None])
    rulings = kept_about(db, (t.game_id for t in night.tables)) if rounds == "all" else {}
    fixed = service.corrections(night)
    views: dict[int, list[TableView]] = {}
    for table in night.tables:
        p = progress.get(table.id)
        state = service.state_of(table, p)
        result = table.result if table.confirmed_at is not None else (p.result if p else None)
        if table.confirmed_at is not None and table.result is not None:
            scores: tuple[int, int] | None = (int(table.result.get("points_a") or 0),
                                              int(table.result.get("points_b") or 0))
        else:
            scores = p.scores if p else None
        views.setdefault(table.round, []).append(
            TableView(table, service.game_players(night, table.a, table.b), state,
                      p.hands if p else 0, scores, result,
                      rulings.get(table.game_id or "", []), fixed.get((table.round, table.number)))
        )
    shown_rounds = [RoundView(r.number, sorted(views.get(r.number, []), key=lambda t: t.number),
                              list(r.byes))
                    for r in night.round_rows]
    carried = [t for r in shown_rounds if r.number != current for t in r.tables
               if t.state != service.CONFIRMED]
    return NightView(
        rounds=shown_rounds,
        standings=service.standings(night),
        planned=service.planned_rounds(night),
        current=current,
        carried=carried,
        short=entrant_short_forms(night),
    )


def entrant_short_forms(night: Night) -> dict[str, str]:
    """Each entrant's short form (``names.short_forms``; a team's: its two players')."""
    if night.teams is None:
        return dict(zip(night.players, short_forms(night.players), strict=True))
    members = [player for team in night.teams for player in team]
    short = dict(zip(members, short_forms(members), strict=True))
    return {service.team_name(team): service.team_name([short[p] for p in team])
            for team in night.teams}
