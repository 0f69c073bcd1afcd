"""A club night as stored: create one, make its rounds and their games, confirm,
correct, forfeit and reopen a table's result, and read each table's state.

Nothing here pairs or ranks: ``pairing.py`` says who meets whom and in what order the
entrants stand, from the results kept here. Nothing here scores either: a table's
result is what ``scoring/`` made of its game (the game's record, ``record_of``).

Every change locks the night's row first (``lock_night``: ``SELECT … FOR UPDATE`` on
PostgreSQL; SQLite's write lock is taken at BEGIN), so two organisers pressing "next
round" together make one round: the second finds the round made (and the unique
(night, round number) key refuses a second row whatever happens). A result is
confirmed by one ``UPDATE … WHERE confirmed_at IS NULL``: confirmed twice, it counts
once. The caller commits.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, selectinload

from .. import limits
from ..models import Game, Night, NightChange, NightRound, NightTable, now_utc
from ..scoring import pairing
from ..variants import VARIANTS
from ..variants.base import sheet_as
from ..variants.hollywood import HollywoodSheet
from ..variants.partnership import PartnershipSheet
from ..variants.replay import GinSheet
from . import games as game_service
from .summaries import record_of

# The kinds of game a night is played at: two players at a table, or two teams of two.
NIGHT_VARIANTS = ("gin", "oklahoma", "hollywood", "partnership")
TEAM_VARIANTS = ("partnership",)
FORMATS = tuple(pairing.FORMATS)
TIE_BREAKS = tuple(pairing.TIE_BREAKS)
TEAM_JOIN = " & "
MOST_ENTRANTS = 400


class NotReady(Exception):
    """A table of the current round is not confirmed yet: no next round."""


class NoRoundLeft(Exception):
    """The night has played every round its format has (or the organiser set)."""


class NotPaired(Exception):
    """The next round cannot be paired yet: fewer than two entrants are free, or (a
    round robin) those still to meet are at tables carried over."""


class NotFinished(Exception):
    """The table's game is not over: there is no result to confirm."""


def team_name(team: Sequence[str]) -> str:
    """A partnership entrant's name: its two players."""
    return TEAM_JOIN.join(team)


def create_night(
    db: Session,
    *,
    variant: str,
    rules: dict[str, Any],
    format: str,
    players: Sequence[str],
    teams: Sequence[Sequence[str]] | None = None,
    rounds: int | None = None,
    deals: int | None = None,
    order: Sequence[str] | None = None,
    name: str = "",
    group_id: str | None = None,
    stake: tuple[str | None, str | None] = (None, None),
    by: str = "organiser",
) -> Night:
    """Store a new night (not yet committed); ``players`` are its entrants (a
    partnership night's: its teams' names, with ``teams`` their players)."""
    night = Night(
        name=name,
        variant=variant,
        rules=rules,
        format=format,
        rounds=rounds,
        deals=deals,
        players=list(players),
        teams=[list(team) for team in teams] if teams is not None else None,
        order=list(order or TIE_BREAKS),
        away=[],
        group_id=group_id,
    )
    night.stake, night.currency = stake
    db.add(night)
    db.flush()
    _record(db, night, "create", after={"players": list(players), "format": format}, by=by)
    return night


def lock_night(db: Session, night_id: str) -> Night | None:
    """The night, locked against other writers until the transaction ends."""
    statement = (
        select(Night)
        .where(Night.id == night_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return db.scalars(statement).first()


def table_by_game(db: Session, game_id: str) -> NightTable | None:
    """The night's table a game is played at, if it is one."""
    return db.scalars(select(NightTable).where(NightTable.game_id == game_id)).first()


def current_round(night: Night) -> int:
    """The number of the latest round (0 before the first)."""
    return max((r.number for r in night.round_rows), default=0)


# A round robin's rounds left, by the field it was worked out for: a changed field's
# are found by pairing the rest of the night, once per round made and field.
_ROUNDS_LEFT: dict[tuple[str, int, tuple[str, ...], tuple[str, ...]], int] = {}
_ROUNDS_LEFT_MOST = 1000


def planned_rounds(night: Night) -> int | None:
    """How many rounds the night has: the organiser's number, else the format's. A
    round robin's are the rounds made and those still to come if the field stays as
    it is (``pairing.rounds_left``), at most the organiser's number."""
    if night.format != "round_robin":
        if night.rounds:
            return night.rounds
        return pairing.rounds_needed(night.format, len(night.players))
    made = current_round(night)
    away = tuple(sorted(set(night.away) & set(night.players)))
    key = (night.id, made, tuple(night.players), away)
    left = _ROUNDS_LEFT.get(key)
    if left is None:
        left = pairing.rounds_left(night.players, played_rounds(night), away)
        if len(_ROUNDS_LEFT) > _ROUNDS_LEFT_MOST:
            _ROUNDS_LEFT.clear()
        _ROUNDS_LEFT[key] = left
    total = made + left
    return min(night.rounds, total) if night.rounds else total


def busy(night: Night) -> set[str]:
    """The entrants at a table whose result does not count yet (of any round)."""
    return {name for t in night.tables if t.confirmed_at is None for name in (t.a, t.b)}


def left_out(night: Night) -> set[str]:
    """Who the next round does not seat: the entrants at a table still playing, and
    those away (sitting out: no bye, no forfeit unless the organiser records one)."""
    return busy(night) | (set(night.away) & set(night.players))


# --- results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Where a table's game stands: hands played, each side's running score, and the
    result once the game is over (``None`` while it goes on)."""

    hands: int
    scores: tuple[int, int]
    result: dict[str, Any] | None


def game_players(night: Night, a: str, b: str) -> list[str]:
    """The players of a table's game, in their seats: two, or (partnership) the teams'
    players alternating (seats 0 and 2 are partners)."""
    if night.teams is None:
        return [a, b]
    teams = dict(zip(night.players, night.teams, strict=True))
    first, second = teams[a], teams[b]
    return [first[0], second[0], first[1], second[1]]


def progress_of(game: Game) -> Progress:
    """The table's game replayed: its hands, running scores and (once over) result.
    Nothing is scored here: the totals are the sheet's, the result the game's record
    (a night of a fixed number of deals plays them as the game's own rule, ``deals``)."""
    sheet = VARIANTS[game.variant].sheet(game)
    if isinstance(sheet, HollywoodSheet):
        scores = tuple(sheet.match_finals)
    elif isinstance(sheet, GinSheet):
        scores = tuple(sheet.game.totals)
    else:
        scores = tuple(sheet_as(sheet, PartnershipSheet).game.totals)
    result = None
    if sheet.finished:
        record = record_of(game, sheet)
        a, b = game.players[0], game.players[1]
        winners = record.winners
        given = record.figures[a]["shutouts_given"] + record.figures[b]["shutouts_given"]
        result = {
            "points_a": int(record.finals.get(a, 0)),
            "points_b": int(record.finals.get(b, 0)),
            "winner": "a" if a in winners else "b" if b in winners else None,
            "shutout": bool(given),
            "forfeit": None,
        }
    return Progress(len(game.hands), (int(scores[0]), int(scores[1])), result)


# A table's progress for each (game, version) this process has replayed: a board
# drawn again after one table saved replays that table's game only.
_PROGRESS: dict[str, tuple[int, Progress]] = {}
_PROGRESS_MOST = 4000


def progresses(db: Session, night: Night, tables: Iterable[NightTable]) -> dict[int, Progress]:
    """Each table's progress by its id, replaying only the games that changed since
    this process last replayed them (their versions read in one query)."""
    wanted = {t.game_id: t for t in tables if t.game_id is not None}
    if not wanted:
        return {}
    versions = dict(db.execute(select(Game.id, Game.version).where(Game.id.in_(wanted))).all())
    stale = [gid for gid, v in versions.items() if _PROGRESS.get(gid, (None,))[0] != v]
    if stale:
        games = db.scalars(
            select(Game).where(Game.id.in_(stale)).options(selectinload(Game.hands))
        ).all()
        if len(_PROGRESS) > _PROGRESS_MOST:
            _PROGRESS.clear()
        for game in games:
            _PROGRESS[game.id] = (game.version, progress_of(game))
    found = {}
    for gid, table in wanted.items():
        kept = _PROGRESS.get(gid)
        if kept is not None:
            found[table.id] = kept[1]
    return found


PLAYING, MISSING, FINISHED, CONFIRMED = "playing", "missing", "finished", "confirmed"


def state_of(table: NightTable, progress: Progress | None) -> str:
    """``confirmed`` (its result counts), ``finished`` (over, waiting for the other
    player's confirmation), ``playing`` (hands entered) or ``missing`` (nothing yet)."""
    if table.confirmed_at is not None:
        return CONFIRMED
    if progress is None or progress.hands == 0:
        return MISSING
    return FINISHED if progress.result is not None else PLAYING


# --- rounds -----------------------------------------------------------------------------


def results_of(night: Night) -> list[pairing.Result]:
    """Every confirmed table's result, as the pairing engine reads them."""
    found = []
    for table in night.tables:
        if table.confirmed_at is None or table.result is None:
            continue
        r = table.result
        winner = r.get("winner")
        forfeit = r.get("forfeit")
        found.append(
            pairing.Result(
                round=table.round,
                table=table.number,
                a=table.a,
                b=table.b,
                points_a=int(r.get("points_a") or 0),
                points_b=int(r.get("points_b") or 0),
                winner=table.a if winner == "a" else table.b if winner == "b" else None,
                shutout=bool(r.get("shutout")),
                forfeit=forfeit in ("a", "b"),
            )
        )
    return found


def played_rounds(night: Night) -> list[pairing.Round]:
    """The rounds made so far, as the pairing engine reads them."""
    by_round: dict[int, list[pairing.Table]] = {}
    for table in night.tables:
        by_round.setdefault(table.round, []).append(pairing.Table(table.number, table.a, table.b))
    return [
        pairing.Round(r.number, tuple(sorted(by_round.get(r.number, []), key=lambda t: t.number)),
                      tuple(r.byes))
        for r in sorted(night.round_rows, key=lambda r: r.number)
    ]


def standings(night: Night) -> list[Any]:
    """The night's standings from its confirmed results, in the night's tie-break order."""
    return list(
        pairing.standings(night.players, results_of(night), played_rounds(night), night.order)
    )


def unconfirmed(night: Night, round_number: int | None = None) -> list[NightTable]:
    """The tables of a round (by default the latest) whose result does not count yet."""
    number = current_round(night) if round_number is None else round_number
    return [t for t in night.tables if t.round == number and t.confirmed_at is None]


def table_rules(night: Night) -> dict[str, Any]:
    """The rules of a table's game: the night's, with its fixed number of deals (if
    any) as the game's own ``deals`` rule."""
    rules = dict(night.rules)
    if night.deals:
        rules["deals"] = night.deals
    return rules


def make_round(
    db: Session, night: Night, *, carry: bool = False, by: str = "organiser"
) -> NightRound:
    """Pair the next round and start each table's game. ``night`` is locked
    (``lock_night``). Refused with ``NotReady`` while a table of the current round is not
    confirmed (``carry``: those tables play on and count once confirmed; their
    entrants are left out of this round, not given a bye, and king of the hill keeps
    their place: their result moves them in the round after it is confirmed),
    ``NoRoundLeft`` when the night is over (a round robin: no two entrants present
    have still to meet), ``NotPaired`` when fewer than two entrants are free or the
    only pairs still to meet wait for a table carried over.

    A round robin whose field changed (a late arrival, an entrant away, entrants at a
    table carried over) is paired among those present without a rematch
    (``pairing.round_robin_next``)."""
    waiting = unconfirmed(night)
    if waiting and not carry:
        raise NotReady
    planned = planned_rounds(night)
    number = current_round(night) + 1
    if planned is not None and number > planned:
        raise NoRoundLeft
    rounds = played_rounds(night)
    out = left_out(night)
    try:
        made = pairing.next_round(night.format, night.players, rounds, results_of(night), out)
    except pairing.NightError as exc:
        raise NotPaired(str(exc)) from None
    if made is None:
        if busy(night):  # those still to meet are at tables still playing
            raise NotPaired("the entrants still to meet are at tables still playing")
        raise NoRoundLeft
    for table in waiting:
        table.carried = True
    row = NightRound(night_id=night.id, number=number, byes=list(made.byes))
    db.add(row)
    night.round_rows.append(row)
    variant = VARIANTS[night.variant]
    for pair in made.tables:
        players = game_players(night, pair.a, pair.b)
        dealer = secrets.randbelow(len(players))
        game = Game(
            variant=night.variant,
            players=players,
            rules=table_rules(night),
            setup=variant.setup(players, dealer, None),
            group_id=night.group_id,
        )
        game.stake, game.currency = night.stake, night.currency
        game_service.record_event(
            game, "create", by, {"players": players, "rules": game.rules}
        )
        db.add(game)
        db.flush()
        table = NightTable(
            night_id=night.id, round=number, number=pair.number, a=pair.a, b=pair.b,
            game_id=game.id,
        )
        night.tables.append(table)
    night.version += 1
    _record(
        db, night, "round", round=number,
        after={"tables": [[t.number, t.a, t.b] for t in made.tables], "byes": list(made.byes),
               "carried": [t.number for t in waiting]},
        by=by,
    )
    db.flush()
    return row


# --- results at the tables ----------------------------------------------------------------


def confirm(db: Session, night: Night, table: NightTable, game: Game, *, by: str) -> bool:
    """Confirm a finished table's result: ``True`` if this confirmation counted it,
    ``False`` if it was confirmed already (twice counts once). ``NotFinished`` while the
    game goes on. The result is kept as the game says it now.

    The night is locked first, then its table is changed, in the order every change
    of a night takes them (``correct``, ``forfeit``, ``reopen``, a new round: the night
    locked by their view): a correction at the same moment is waited for, never
    deadlocked on, and once it is in, this confirmation sees the table confirmed
    already. The game is locked after the night, as a save locks it: a hand saved at
    the same moment is in the result confirmed, or it waits and is refused
    (``games.Settled``)."""
    lock_night(db, night.id)
    game = game_service.lock_game(db, game.id) or game
    db.refresh(table)
    if table.confirmed_at is not None:
        return False
    result = progress_of(game).result
    if result is None:
        raise NotFinished
    done = db.execute(
        update(NightTable)
        .where(NightTable.id == table.id, NightTable.confirmed_at.is_(None))
        .values(confirmed_at=now_utc(), confirmed_by=by[:20], result=result)
        .execution_options(synchronize_session=False)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        return False
    db.execute(update(Night).where(Night.id == night.id).values(version=Night.version + 1))
    _record(db, night, "confirm", round=table.round, table=table.number, after=result, by=by)
    db.flush()
    db.refresh(table)
    return True


def correct(
    db: Session, night: Night, table: NightTable, result: dict[str, Any], *, reason: str, by: str
) -> None:
    """The organiser sets a table's result (locked ``night``): kept with the result it
    replaces and the reason in the night's history; the table counts from now."""
    before = dict(table.result) if table.result is not None else None
    table.result = dict(result)
    if table.confirmed_at is None:
        table.confirmed_at = now_utc()
    table.confirmed_by = by[:20]
    night.version += 1
    _record(db, night, "correct", round=table.round, table=table.number, before=before,
            after=dict(result), reason=reason, by=by)


def forfeit(
    db: Session, night: Night, table: NightTable, side: str, *, reason: str, by: str
) -> None:
    """``side`` (``"a"`` or ``"b"``) forfeits the table: the other wins it, no points."""
    other = "b" if side == "a" else "a"
    result = {"points_a": 0, "points_b": 0, "winner": other, "shutout": False, "forfeit": side}
    before = dict(table.result) if table.result is not None else None
    table.result = result
    table.confirmed_at = table.confirmed_at or now_utc()
    table.confirmed_by = by[:20]
    night.version += 1
    _record(db, night, "forfeit", round=table.round, table=table.number, before=before,
            after=result, reason=reason, by=by)


class NotConfirmed(Exception):
    """The table's result is not confirmed: there is nothing to reopen."""


def reopen(db: Session, night: Night, table: NightTable, *, reason: str, by: str) -> None:
    """The organiser reopens a confirmed table (locked ``night``): its result counts no
    more, its game takes changes again, and it is confirmed again as any table is. The
    result it had and the reason are kept in the night's history."""
    if table.confirmed_at is None:
        raise NotConfirmed
    before = dict(table.result) if table.result is not None else None
    table.result = None
    table.confirmed_at = None
    table.confirmed_by = ""
    night.version += 1
    _record(db, night, "reopen", round=table.round, table=table.number, before=before,
            reason=reason, by=by)


def set_away(db: Session, night: Night, entrant: str, away: bool, *, by: str) -> None:
    """Leave an entrant out of the coming rounds (late, or gone) or take them back."""
    kept = [p for p in night.away if p != entrant]
    night.away = [*kept, entrant] if away else kept
    night.version += 1
    _record(db, night, "away" if away else "back", after={"player": entrant}, by=by)


def add_entrant(
    db: Session, night: Night, entrant: str, team: Sequence[str] | None = None, *, by: str
) -> None:
    """A late arrival joins the night (a partnership night's: a team): paired from the
    next round on."""
    night.players = [*night.players, entrant]
    if night.teams is not None and team is not None:
        night.teams = [*night.teams, list(team)]
    night.version += 1
    _record(db, night, "arrive", after={"player": entrant}, by=by)


# --- live ----------------------------------------------------------------------------------


def corrections(night: Night) -> dict[tuple[int, int], NightChange]:
    """The organiser's latest correction of each table's result, by (round, table): the
    result before and after it, and its reason. A table reopened since has none: its
    result is the one confirmed after it."""
    found: dict[tuple[int, int], NightChange] = {}
    for c in night.changes:
        if c.round is None or c.table is None:
            continue
        if c.action == "correct":
            found[(c.round, c.table)] = c
        elif c.action == "reopen":
            found.pop((c.round, c.table), None)
    return found


def live_version(db: Session, night_id: str) -> str | None:
    """The night's live version: its own and the sum of its games' versions (each only
    grows), so any save at any table, and any change to the night, moves it."""
    own = db.scalar(select(Night.version).where(Night.id == night_id))
    if own is None:
        return None
    games = db.scalar(
        select(func.coalesce(func.sum(Game.version), 0))
        .select_from(NightTable)
        .join(Game, Game.id == NightTable.game_id)
        .where(NightTable.night_id == night_id)
    )
    return f"{own}.{int(games or 0)}"


class NightFull(Exception):
    """The night's history holds ``limits.MOST_CHANGES`` entries, as many as a game's
    may: it takes no more changes, so that its export still imports."""


def _record(
    db: Session,
    night: Night,
    action: str,
    *,
    round: int | None = None,
    table: int | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
    by: str = "",
) -> None:
    held = db.scalar(select(func.count()).select_from(NightChange)
                     .where(NightChange.night_id == night.id))
    if (held or 0) >= limits.MOST_CHANGES:
        raise NightFull
    db.add(NightChange(night_id=night.id, action=action, round=round, table=table,
                       before=before, after=after, reason=reason[:200], by=by[:20]))
