"""A group's games, hands, payments and ratings, and a game's hands, as CSV files a
spreadsheet opens.

Each file is UTF-8 with a byte order mark, so Excel reads Persian and Russian names
as they are; rows end in CRLF as RFC 4180 has them. Every number is written as the
app counted it (money as its exact decimal text), never rounded. Column names are
in English, as the JSON backup and the API name their fields: a spreadsheet formula
or a script reads them in every language.

A hand's row comes from the game's replayed sheet (``Variant.sheet_json``, the same
figures ``GET /api/v1/games/<id>`` gives): nothing here scores. Hands played after the
game ended count for nothing and are left out. Up to four seats get their own
columns (``player 1``, ``points 1``, ``total 1``…), so that every figure is a number
in a cell of its own:

- two-player gin, Oklahoma, Hollywood: the winner's points, 0 for the other; Hollywood's
  totals are those of the first column the hand counted in;
- three-hand gin: each seat's points and totals;
- partnership: one row per table (``table`` 1 or 2), each partner with his team's
  points at that table and the team's totals after the deal;
- Remi: one row per deal, each seat's score and total; ``knocker`` names who went out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from flask import Response
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ..hands.inputs import score_hand
from ..hands.stored import GinHand, QuickGinHand
from ..models import Game, Group
from ..scoring import HandError
from ..variants import VARIANTS
from ..variants.replay import game_rules
from .ratings import Rating
from .summaries import GameRecord

SEATS = 4  # the most players a game has (partnership, Remi)

BOM = "\ufeff"


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """The rows under ``header`` as a CSV file: UTF-8 with a BOM, CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if cell is None else cell for cell in row])
    return (BOM + out.getvalue()).encode("utf-8")


def csv_response(body: bytes, filename: str) -> Response:
    """A CSV file for the browser to save as ``filename``."""
    response = Response(body, content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def when(moment: datetime) -> str:
    """A moment as the files write it: ``2026-12-07 04:49`` in UTC."""
    return moment.strftime("%Y-%m-%d %H:%M")


def _seats(*names: str) -> list[str]:
    return [f"{name} {seat}" for seat in range(1, SEATS + 1) for name in names]


# --- games -------------------------------------------------------------------------------

GAMES_HEADER = (
    "date (UTC)", "game", "kind", "finished", "winners", "stake", "currency",
    *_seats("player", "final"),
)


def games_csv(games: Sequence[tuple[Game, GameRecord]]) -> bytes:
    """One row per game, oldest first: who played, who won, each player's final."""
    rows = []
    for game, record in sorted(games, key=lambda item: (item[0].created_at, item[0].id)):
        seats: list[object] = []
        for name in record.players:
            seats += [name, record.finals.get(name) if record.finished else None]
        rows.append([
            when(game.created_at), game.id, game.variant, "yes" if record.finished else "no",
            " & ".join(sorted(record.winners)), game.stake, game.currency if game.stake else None,
            *_pad(seats, 2),
        ])
    return csv_bytes(GAMES_HEADER, rows)


def _pad(cells: list[object], width: int) -> list[object]:
    return cells + [None] * (SEATS * width - len(cells))


# --- hands -------------------------------------------------------------------------------

HANDS_HEADER = (
    "date (UTC)", "game", "kind", "hand", "table", "outcome", "knocker",
    "knocker deadwood", "defender deadwood", "winner", *_seats("player", "points", "total"),
)


def hands_csv(games: Sequence[Game]) -> bytes:
    """One row per hand (a partnership deal's two tables: a row each) of ``games``,
    oldest game first, each game's hands in order."""
    rows: list[list[object]] = []
    for game in sorted(games, key=lambda g: (g.created_at, g.id)):
        rows += hand_rows(game)
    return csv_bytes(HANDS_HEADER, rows)


def hand_rows(game: Game) -> list[list[object]]:
    """The rows of one game's hands (``HANDS_HEADER``)."""
    variant = VARIANTS[game.variant]
    data = variant.sheet_json(game, variant.sheet(game))
    names = list(game.players)
    head = [when(game.created_at), game.id, game.variant]
    rows: list[list[object]] = []
    for hand in data["hands"]:
        if hand.get("after_end"):
            continue
        for row in _hand(game, data, hand, names):
            rows.append([*head, hand["number"], *row])
    return rows


def _hand(
    game: Game, data: Mapping[str, Any], hand: Mapping[str, Any], names: list[str]
) -> list[list[object]]:
    """The cells after the hand's number: table, outcome, knocker, deadwood both ways,
    winner, then each seat's player, points and total."""
    kind = game.variant
    if kind == "remi":
        out = hand.get("went_out")
        return [[None, "went_out" if out is not None else "", _name(names, out), None, None,
                 None, *_seat_cells(names, hand["scores"], hand["totals"])]]
    if kind == "partnership":
        teams = data["teams"]
        team_of = {seat: t for t, members in enumerate(teams) for seat in members}
        rows = []
        for number, (table, inputs) in enumerate(
            zip(hand["tables"], hand["inputs"]["tables"], strict=True), start=1
        ):
            mine = [table["team_points"][team_of[seat]] for seat in range(len(names))]
            after = [hand["totals"][team_of[seat]] for seat in range(len(names))]
            rows.append([number, table["outcome"], _name(names, inputs.get("knocker")),
                         *_deadwood(game, inputs), _name(names, table["winner"]),
                         *_seat_cells(names, mine, after)])
        return rows
    inputs = hand["inputs"]
    winner = hand["winner"]
    totals: Sequence[object] | None
    if kind == "three_hand":
        knocker, points, totals = hand.get("knocker_seat"), hand["points"], hand["totals"]
    else:
        knocker = inputs.get("knocker")
        points = [hand["points"] if seat == winner else 0 for seat in range(len(names))]
        totals = hand["totals"] if kind != "hollywood" else _column_totals(data, hand)
    if hand["outcome"] == "dead":
        knocker = None
    return [[None, hand["outcome"], _name(names, knocker), *_deadwood(game, inputs),
             _name(names, winner), *_seat_cells(names, points, totals)]]


def _column_totals(data: Mapping[str, Any], hand: Mapping[str, Any]) -> list[int] | None:
    """A Hollywood hand's totals in the first column it counted in."""
    for column in data["columns"]:
        for entry in column["hands"]:
            if entry["hand"] == hand["number"]:
                return list(entry["totals"])
    return None


def _deadwood(game: Game, inputs: GinHand) -> tuple[int | None, int | None]:
    """The knocker's and the defender's deadwood, as the engine counted it (a hand
    entered with cards has its deadwood counted from them); none for a dead hand."""
    knocker = inputs.get("knocker")
    if inputs.get("outcome") == "dead" or knocker is None:
        return None, None
    if inputs.get("mode") != "cards":
        quick = cast(QuickGinHand, inputs)
        return quick.get("knocker_deadwood"), quick.get("defender_deadwood")
    try:
        result = score_hand(game_rules(game), inputs, (int(knocker), -1)).result
    except (HandError, KeyError, TypeError, ValueError):
        return None, None
    return result.knocker.deadwood_points, result.defender.deadwood_points


def _name(names: list[str], seat: object) -> str | None:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else None


def _seat_cells(
    names: list[str], points: Sequence[object], totals: Sequence[object] | None
) -> list[object]:
    cells: list[object] = []
    for seat, name in enumerate(names):
        cells += [name, points[seat], totals[seat] if totals is not None else None]
    return _pad(cells, 3)


# --- payments ----------------------------------------------------------------------------

PAYMENTS_HEADER = ("date", "from", "to", "amount", "currency", "recorded (UTC)")


def payments_csv(group: Group) -> bytes:
    """The payments recorded in the group, by the date paid."""
    rows = [
        [p.paid_on.isoformat(), p.payer, p.payee, p.amount, p.currency, when(p.recorded_at)]
        for p in sorted(group.payments, key=lambda p: (p.paid_on, p.id))
    ]
    return csv_bytes(PAYMENTS_HEADER, rows)


def games_with_hands(db: Session, group: Group) -> list[Game]:
    """The group's games with their hands, in one query for the hands."""
    query = select(Game).where(Game.group_id == group.id).options(selectinload(Game.hands))
    return list(db.scalars(query).all())


# --- ratings -----------------------------------------------------------------------------

RATINGS_HEADER = ("player", "rating", "mu", "sigma", "rated games", "provisional", "best rating")


def ratings_csv(ratings: Mapping[str, Rating]) -> bytes:
    """Each player's rating (μ − 3σ), μ and σ to four places, highest rating first."""
    rows = [
        [r.name, f"{r.value:.4f}", f"{r.mu:.4f}", f"{r.sigma:.4f}", r.games,
         "yes" if r.provisional else "no", f"{r.best:.4f}"]
        for r in sorted(ratings.values(), key=lambda r: (-r.value, r.name))
    ]
    return csv_bytes(RATINGS_HEADER, rows)
