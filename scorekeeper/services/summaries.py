"""A game's record for a group's standings and money, and the summaries that keep it.

Nothing here scores: every figure is counted from what ``scoring/`` made of the stored
hands (the variant's sheet). A group page needs hundreds of games, so each game's
record is stored as its summary (``GameSummary``, the table ``game_summaries``) with
the game's version and the stamp of the scoring code it was counted by
(``scoring_stamp``). Every change to a game's hands (a new hand, a correction, a
deletion, an undo) bumps its version, and any change to the code that scores changes
the stamp: a summary that does not match both is counted again from the hands and
stored in its place. The database is the one place a summary is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ..hands.inputs import ScoredHand
from ..models import Game, GameData, GameSummary
from ..scoring import Outcome, least_deadwood
from ..scoring import stakes as money
from ..scoring.game import Settlement
from ..scoring.stakes import Payment
from ..scoring.three_hand import Role
from ..variants import VARIANTS, Sheet
from ..variants.base import sheet_as
from ..variants.hollywood import HollywoodSheet
from ..variants.partnership import PartnershipSheet
from ..variants.remi import RemiSheet, ScoredDeal
from ..variants.replay import GinSheet
from ..variants.three_hand import ThreeHandSheet
from .scoring_stamp import SCORING_STAMP


@dataclass(frozen=True)
class GameRecord:
    """One game's part in the standings: per player the counted figures (a Counter of
    names like ``gins``, ``hands_won``), and, once it is over, finals and winners."""

    game_id: str
    variant: str
    created_at: datetime
    players: tuple[str, ...]
    finished: bool
    figures: dict[str, Counter[str]]
    biggest: dict[str, int]  # the biggest single hand (or deal) each player won
    finals: dict[str, int] = field(default_factory=dict)  # a partner has their team's final
    winners: frozenset[str] = frozenset()
    # Each player's result against each opponent (finals compared), for head-to-head.
    against: tuple[tuple[str, str, int, int], ...] = ()
    teams: tuple[tuple[str, str], ...] = ()
    # What scoring/stakes.py settles on: "two", "columns", "teams" or "everyone", and finals.
    money_rule: str = "two"
    money_finals: tuple[Any, ...] = ()

    margins: dict[str, int] = field(default_factory=dict)

    def margin(self, name: str) -> int:
        """The player's final less the best other final (their partner's aside); negative
        when behind."""
        return self.margins.get(name, 0)


def _margins(finals: dict[str, int], teams: tuple[tuple[str, str], ...]) -> dict[str, int]:
    partners = {(a, b) for a, b in teams} | {(b, a) for a, b in teams}
    margins = {}
    for name, final in finals.items():
        others = [f for n, f in finals.items() if n != name and (n, name) not in partners]
        margins[name] = final - max(others) if others else 0
    return margins


def records_for(
    db: Session, games: Sequence[Game]
) -> tuple[list[GameRecord], list[GameSummary]]:
    """The records of ``games``, in order, read from their stored summaries; where a
    summary is missing or stale (another version of the game, another stamp), counted
    from the replayed hands. Also the summaries so counted, for ``store_summaries``
    (``db`` may be a reader's: nothing is put in it)."""
    rows = {
        row.game_id: row
        for row in db.scalars(
            select(GameSummary).where(GameSummary.game_id.in_([game.id for game in games]))
        )
    }
    stale = [game.id for game in games if not _current(rows.get(game.id), game)]
    if stale:  # one query for the rules, setup and hands of every game to replay
        db.scalars(select(Game).where(Game.id.in_(stale)).options(selectinload(Game.hands))).all()
    records, fresh = [], []
    for game in games:
        row = rows.get(game.id)
        if row is not None and _current(row, game):
            records.append(_from_json(game, row.data))
            continue
        record = record_of(game)
        records.append(record)
        fresh.append(GameSummary(game_id=game.id, version=game.version, stamp=SCORING_STAMP,
                                 data=_to_json(record)))
    return records, fresh


def store_summaries(db: Session, fresh: Sequence[GameSummary]) -> None:
    """Put summaries counted afresh into ``db`` (a writer's session; the caller
    commits), each in place of the one stored for its game."""
    stored = {
        row.game_id: row
        for row in db.scalars(
            select(GameSummary).where(GameSummary.game_id.in_([s.game_id for s in fresh]))
        )
    }
    for summary in fresh:
        row = stored.get(summary.game_id)
        if row is None:
            db.add(summary)
        else:
            row.version, row.stamp, row.data = summary.version, summary.stamp, summary.data


def _current(row: GameSummary | None, game: Game) -> bool:
    """Whether ``row`` summarises ``game`` as it is now, counted by this scoring code."""
    return row is not None and row.version == game.version and row.stamp == SCORING_STAMP


def _to_json(record: GameRecord) -> dict[str, Any]:
    return {
        "finished": record.finished,
        "figures": {name: dict(counts) for name, counts in record.figures.items()},
        "biggest": record.biggest,
        "finals": record.finals,
        "winners": sorted(record.winners),
        "against": [list(item) for item in record.against],
        "teams": [list(team) for team in record.teams],
        "money_rule": record.money_rule,
        "money_finals": [
            list(item) if isinstance(item, tuple) else item for item in record.money_finals
        ],
        "margins": record.margins,
    }


def _from_json(game: Game, data: dict[str, Any]) -> GameRecord:
    return GameRecord(
        game_id=game.id,
        variant=game.variant,
        created_at=game.created_at,
        players=tuple(game.players),
        finished=bool(data["finished"]),
        figures={name: Counter(counts) for name, counts in data["figures"].items()},
        biggest=dict(data["biggest"]),
        finals=dict(data["finals"]),
        winners=frozenset(data["winners"]),
        against=tuple(tuple(item) for item in data["against"]),
        teams=tuple(tuple(team) for team in data["teams"]),
        money_rule=data["money_rule"],
        money_finals=tuple(
            tuple(item) if isinstance(item, list) else item for item in data["money_finals"]
        ),
        margins=dict(data["margins"]),
    )


def payments_of(game: GameData, record: GameRecord | None = None) -> list[Payment]:
    """Who pays whom for a finished game with a stake (scoring/stakes.py); [] otherwise.
    ``record`` is the game's, when the caller has it; else the game is replayed."""
    record = record or record_of(game)
    if not game.stake or not record.finished:
        return []
    try:
        amount = money.parse_stake(game.stake)
    except money.StakeError:
        return []
    return _settle(record, amount, game.currency)


def _settle(record: GameRecord, amount: Decimal, currency: str | None) -> list[Payment]:
    names, finals = list(record.players), record.money_finals
    if record.money_rule == "columns":
        return money.columns(names, finals, amount, currency)
    if record.money_rule == "teams":
        return money.teams(names, finals, amount, currency)
    if record.money_rule == "everyone":
        return money.everyone(names, finals, amount, currency)
    return money.two_player(names, finals, amount, currency)


# --- building a record ----------------------------------------------------------------


def record_of(game: GameData, sheet: Sheet | None = None) -> GameRecord:
    """The game's record, counted from its replayed sheet (``sheet``, when the caller
    has it; else the game is replayed here)."""
    if sheet is None:
        sheet = VARIANTS[game.variant].sheet(game)
    builder = {
        "gin": _two_player,
        "oklahoma": _two_player,
        "hollywood": _hollywood,
        "three_hand": _three_hand,
        "partnership": _partnership,
        "remi": _remi,
    }[game.variant]
    names = tuple(game.players)
    figures: dict[str, Counter[str]] = {name: Counter() for name in names}
    biggest: dict[str, int] = {}
    extra = builder(sheet, names, figures, biggest)
    extra["margins"] = _margins(extra.get("finals", {}), extra.get("teams", ()))
    return GameRecord(
        game_id=game.id,
        variant=game.variant,
        created_at=game.created_at,
        players=names,
        finished=bool(sheet.finished),
        figures=figures,
        biggest=biggest,
        **extra,
    )


def _won(figures: dict[str, Counter[str]], biggest: dict[str, int], name: str, points: int) -> None:
    figures[name]["hands_won"] += 1
    figures[name]["won_points"] += points
    biggest[name] = max(biggest.get(name, points), points)


def _gin_hand(
    figures: dict[str, Counter[str]],
    biggest: dict[str, int],
    hand: ScoredHand,
    knocker: str | None,
    defender: str | None,
    winner: str | None,
) -> None:
    """Count one played gin hand between ``knocker`` and ``defender``."""
    score = hand.score
    for name in (knocker, defender):
        if name is not None:
            figures[name]["hands"] += 1
            if score.outcome is Outcome.DEAD:
                figures[name]["dead_hands"] += 1
    if score.outcome is Outcome.DEAD or knocker is None or defender is None:
        return
    if winner is not None and score.won:
        _won(figures, biggest, winner, score.points)
    if score.outcome is Outcome.GIN:
        figures[knocker]["gins"] += 1
    elif score.outcome is Outcome.BIG_GIN:
        figures[knocker]["big_gins"] += 1
    else:
        figures[knocker]["knocks"] += 1
    if score.outcome is Outcome.UNDERCUT:
        figures[defender]["undercuts_made"] += 1
        figures[knocker]["undercuts_suffered"] += 1
    if hand.cards_mode:
        result = hand.result
        if score.outcome not in (Outcome.GIN, Outcome.BIG_GIN):
            figures[knocker]["knock_deadwood"] += result.knocker.deadwood_points
            figures[knocker]["card_knocks"] += 1
            if _gin_held(result.knocker):
                figures[knocker]["gin_missed"] += 1
        for name, side in ((knocker, result.knocker), (defender, result.defender)):
            for meld in side.melds:  # each meld laid, by its cards: "meld 7S 7H 7D"
                figures[name][f"{MELD}{meld}"] += 1
        figures[knocker]["caught"] += result.defender.deadwood_points
        figures[knocker]["card_knocker_hands"] += 1
        figures[defender]["laid_off"] += len(result.defender.layoffs)
        figures[defender]["card_defences"] += 1


MELD = "meld "  # the prefix of a laid meld's count among a player's figures


def _gin_held(knocker: Any) -> bool:
    """Whether the ten cards a knocker kept (their melds and deadwood as laid) could all
    have been melded: a gin they knocked with instead of laying it down."""
    kept = [card for meld in knocker.melds for card in meld.cards] + list(knocker.deadwood)
    return knocker.deadwood_points > 0 and least_deadwood(kept) == 0


def _settled(
    figures: dict[str, Counter[str]], settlement: Settlement | None, sides: Sequence[Sequence[str]]
) -> None:
    """Shutouts given and suffered, from a settlement between ``sides`` (seats' players)."""
    if settlement is None or not settlement.shutout:
        return
    for seat, names in enumerate(sides):
        for name in names:
            figures[name][
                "shutouts_given" if seat == settlement.winner else "shutouts_suffered"
            ] += 1


def _pairs(finals: dict[str, int], pairs: Sequence[tuple[str, str]]) -> tuple[Any, ...]:
    return tuple((a, b, finals[a], finals[b]) for a, b in pairs)


def _all_pairs(names: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def _two_player(
    sheet: Sheet, names: tuple[str, ...], figures: dict[str, Counter[str]], biggest: dict[str, int]
) -> dict[str, Any]:
    replayed = sheet_as(sheet, GinSheet)
    played = replayed.game
    for row, hand in zip(played.rows, replayed.hands, strict=True):
        if row.after_end:
            continue
        knocker = hand.knocker
        k = names[knocker] if knocker is not None else None
        d = names[1 - knocker] if knocker is not None else None
        won = row.hand.winner if row.hand.won else None
        winner = names[won] if won is not None else None
        _gin_hand(figures, biggest, hand, k, d, winner)
        if knocker is None:  # a dead hand still counts as played by both
            figures[names[0]]["hands"] += 1
            figures[names[1]]["hands"] += 1
            figures[names[0]]["dead_hands"] += 1
            figures[names[1]]["dead_hands"] += 1
    for seat, name in enumerate(names):
        figures[name]["boxes"] += played.boxes[seat]
    return _individual(figures, names, played.settlement, "two")


def _individual(
    figures: dict[str, Counter[str]], names: tuple[str, ...], s: Settlement | None, money_rule: str
) -> dict[str, Any]:
    """A finished game of players who each play for themselves (``s``: its settlement,
    ``None`` while it goes on: then it counts for nothing but its hands). A drawn game
    (level after a fixed number of deals) has no winner."""
    if s is None:
        return {}
    _settled(figures, s, [[n] for n in names])
    finals = dict(zip(names, s.finals, strict=True))
    return {
        "finals": finals,
        "winners": frozenset() if s.winner is None else frozenset({names[s.winner]}),
        "against": _pairs(finals, _all_pairs(names)),
        "money_rule": money_rule,
        "money_finals": tuple(s.finals),
    }


def _hollywood(
    sheet: Sheet, names: tuple[str, ...], figures: dict[str, Counter[str]], biggest: dict[str, int]
) -> dict[str, Any]:
    replayed = sheet_as(sheet, HollywoodSheet)
    played = replayed.game
    for row, hand in zip(played.rows, replayed.hands, strict=True):
        if row.after_end:
            continue
        knocker = hand.knocker
        if knocker is None:
            for name in names:
                figures[name]["hands"] += 1
                figures[name]["dead_hands"] += 1
            continue
        won = row.hand.winner if row.hand.won else None
        winner = names[won] if won is not None else None
        _gin_hand(figures, biggest, hand, names[knocker], names[1 - knocker], winner)
    for column in played.columns:
        for seat, name in enumerate(names):
            figures[name]["boxes"] += column.boxes[seat]
        _settled(figures, column.settlement, [[n] for n in names])
    if not played.finished:
        return {}
    finals = dict(zip(names, replayed.match_finals, strict=True))
    leader = replayed.match_leader
    return {
        "finals": finals,
        "winners": frozenset() if leader is None else frozenset({names[leader]}),
        "against": _pairs(finals, _all_pairs(names)),
        "money_rule": "columns",
        "money_finals": tuple(
            tuple(c.settlement.finals) for c in played.columns if c.settlement is not None
        ),
    }


def _three_hand(
    sheet: Sheet, names: tuple[str, ...], figures: dict[str, Counter[str]], biggest: dict[str, int]
) -> dict[str, Any]:
    replayed = sheet_as(sheet, ThreeHandSheet)
    played = replayed.game
    for row, hand in zip(played.rows, replayed.hands, strict=True):
        if row.after_end:
            continue
        roles = row.roles
        role = hand.knocker
        if role is None:
            for seat in (roles.box, roles.captain):
                figures[names[seat]]["hands"] += 1
                figures[names[seat]]["dead_hands"] += 1
            continue
        knocker = roles.seat(Role(role))
        defender = roles.captain if knocker == roles.box else roles.box
        winner = names[row.winner] if row.winner is not None else None
        _gin_hand(figures, biggest, hand, names[knocker], names[defender], winner)
        if row.winner is not None:
            where = "won_in_box" if row.winner == roles.box else "won_as_captain"
            figures[names[row.winner]][where] += 1
    for seat, name in enumerate(names):
        figures[name]["boxes"] += played.boxes[seat]
    return _individual(figures, names, played.settlement, "everyone")


def _partnership(
    sheet: Sheet, names: tuple[str, ...], figures: dict[str, Counter[str]], biggest: dict[str, int]
) -> dict[str, Any]:
    replayed = sheet_as(sheet, PartnershipSheet)
    played = replayed.game
    teams = ((names[0], names[2]), (names[1], names[3]))
    for deal, tables in zip(played.deals, replayed.deals, strict=True):
        if deal.after_end:
            continue
        for pair, hand in zip(deal.pairing, tables, strict=True):
            knocker = hand.knocker
            if knocker is None:
                for seat in pair:
                    figures[names[seat]]["hands"] += 1
                    figures[names[seat]]["dead_hands"] += 1
                continue
            defender = pair[1] if knocker == pair[0] else pair[0]
            winner = (
                names[hand.score.winner]
                if hand.score.won and hand.score.winner is not None
                else None
            )
            _gin_hand(figures, biggest, hand, names[knocker], names[defender], winner)
    for team, members in enumerate(teams):
        for name in members:
            figures[name]["boxes"] += played.boxes[team]
    s = played.settlement
    if s is None:
        return {}
    _settled(figures, s, teams)
    finals = {name: s.finals[team] for team, members in enumerate(teams) for name in members}
    return {
        "finals": finals,
        "winners": frozenset() if s.winner is None else frozenset(teams[s.winner]),
        "against": _pairs(finals, [(a, b) for a in teams[0] for b in teams[1]]),
        "teams": teams,
        "money_rule": "teams",
        "money_finals": tuple(s.finals),
    }


def _remi(
    sheet: Sheet, names: tuple[str, ...], figures: dict[str, Counter[str]], biggest: dict[str, int]
) -> dict[str, Any]:
    replayed = sheet_as(sheet, RemiSheet)
    played = replayed.game
    for row, deal in zip(played.rows, replayed.deals, strict=False):
        top = max(row.scores)
        for seat, name in enumerate(names):
            score = row.scores[seat]
            figures[name]["hands"] += 1
            figures[name]["remi_deals"] += 1
            figures[name]["deal_points"] += score
            if score == top and score > 0:
                _won(figures, biggest, name, score)
            if row.went_out == seat:
                figures[name]["went_out"] += 1
            bonus = _closing_bonus(deal, seat)
            if bonus:
                figures[name]["closing_bonuses"] += 1
                figures[name]["closing_points"] += bonus
    if not played.finished:
        return {}
    finals = dict(zip(names, played.totals, strict=True))
    return {
        "finals": finals,
        "winners": frozenset(names[seat] for seat in played.winners),
        "against": _pairs(finals, _all_pairs(names)),
        "money_rule": "everyone",
        "money_finals": tuple(played.totals),
    }


def _closing_bonus(deal: ScoredDeal, seat: int) -> int:
    if deal.result is not None:
        return int(deal.result.players[seat].closing_bonus)
    if deal.quick is not None:
        return int(deal.quick[seat].closing_bonus)
    return 0
