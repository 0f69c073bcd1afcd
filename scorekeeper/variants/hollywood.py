"""Hollywood gin (/rules/hollywood#columns): ordinary two-player hands, three game columns
on one sheet.

Hands are entered exactly as in two-player gin (the quick and card forms, the API
bodies and the checks are ``GinVariant``'s); only the sheet differs. The engine
(``scoring.hollywood``) decides which columns a hand goes into and settles each
column; this module lays its answer out for the page, the PDF and the API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..charts.race import Race, race_of
from ..hands.inputs import ScoredHand
from ..jsonbody import explanation_json
from ..models import Game, GameData
from ..scoring import Rules
from ..scoring.game import Row
from ..scoring.hollywood import Column, HollywoodGame, HollywoodRow, play_hollywood
from . import answers
from .base import Sheet, sheet_as
from .gin import GinVariant, settlement_json


@dataclass(frozen=True)
class HollywoodSheet:
    """A Hollywood match as its sheet shows it: the hands and the engine's columns."""

    rules: Rules
    players: tuple[str, ...]
    hands: tuple[ScoredHand, ...]
    game: HollywoodGame
    _cells: dict[tuple[int, int], Row] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for column in self.game.columns:
            for row in column.rows:
                self._cells[(column.number, row.number)] = row

    @property
    def finished(self) -> bool:
        """Whether every column is closed."""
        return self.game.finished

    def ended_before(self, number: int) -> bool:
        """Whether hand ``number`` was entered after the game ended."""
        return number in self.game.ignored

    def cell(self, column: int, hand: int) -> Row | None:
        """Column ``column``'s row for hand ``hand``, ``None`` if the hand didn't go in."""
        return self._cells.get((column, hand))

    def state(self, column: Column, hand: int) -> str:
        """How a column stood when hand ``hand`` was played: ``in`` (the hand went into
        it), ``open``, ``waiting`` (not opened yet) or ``closed``."""
        if (column.number, hand) in self._cells:
            return "in"
        if column.opened_after is None or hand <= column.opened_after:
            return "waiting"
        if column.closed and column.rows and hand > column.rows[-1].number:
            return "closed"
        return "open"

    @property
    def match_finals(self) -> tuple[int, ...]:
        """Each player's finals added up over the closed columns."""
        finals = [0] * len(self.players)
        for column in self.game.columns:
            if column.settlement is not None:
                for seat, value in enumerate(column.settlement.finals):
                    finals[seat] += value
        return tuple(finals)

    @property
    def match_leader(self) -> int | None:
        """The player ahead over the closed columns (``None`` when level)."""
        finals = self.match_finals
        if finals[0] == finals[1]:
            return None
        return 0 if finals[0] > finals[1] else 1


def hollywood_sheet(
    game: GameData, rules: Rules, hands: Sequence[ScoredHand]
) -> HollywoodSheet:
    """A Hollywood match's scored hands played into its columns."""
    played = play_hollywood(
        rules, game.players, int(game.setup.get("dealer", 0)), [h.score for h in hands]
    )
    return HollywoodSheet(rules, tuple(game.players), tuple(hands), played)


class HollywoodVariant(GinVariant):
    """Hollywood gin: gin hands, scored into three games at once."""

    name: ClassVar[str] = "hollywood"
    label: ClassVar[Any] = _l("Hollywood gin (three games at once)")
    short_label: ClassVar[Any] = _l("Hollywood gin")
    presets: ClassVar[tuple[str, ...]] = ("russian", "classic", "pagat", "modern", "oklahoma")
    default_preset: ClassVar[str] = "russian"
    sheet_template = "games/hollywood/sheet.html"
    hand_template = "games/hollywood/hand.html"
    # Print: the classic three-column sheet; rendered with ``game``, ``sheet``, ``paper``,
    # ``appendix`` (the sheet) and ``rules``, ``preset_name``, ``players``, ``rows``,
    # ``paper`` (the blank pad), like the gin ones.
    pdf_template: ClassVar[str] = "pdf/hollywood/sheet.html"
    pad_template: ClassVar[str] = "pdf/hollywood/pad.html"

    def rematch_setup(self, game: Game, sheet: Sheet) -> dict[str, Any]:
        """The player behind over the whole match deals first."""
        replayed = sheet_as(sheet, HollywoodSheet)
        leader = replayed.match_leader if replayed.finished else None
        if leader is None:
            return dict(game.setup)
        return {"dealer": 1 - leader}

    def sheet_from(
        self, game: GameData, rules: Rules, scored: Sequence[ScoredHand]
    ) -> HollywoodSheet:
        """The hands played into the columns."""
        return hollywood_sheet(game, rules, scored)

    def scored_hands(self, sheet: Sheet) -> tuple[ScoredHand, ...]:
        """The match's hands, scored."""
        return sheet_as(sheet, HollywoodSheet).hands

    def races(self, sheet: Sheet) -> tuple[Race, ...]:
        """One small race per opened column, each to its own target, over the hands that
        went into it (numbered as on the sheet)."""
        replayed = sheet_as(sheet, HollywoodSheet)
        return tuple(
            race_of(
                replayed.players,
                [(r.number, r.totals, (r.box,)) for r in column.rows],
                target=replayed.rules.target,
                title=_("Game %(number)s", number=column.number),
            )
            for column in replayed.game.columns
            if column.opened_after is not None
        )

    def sheet_json(self, game: GameData, sheet: Sheet, *, hands: bool = True) -> answers.SheetJson:
        """Hands with the columns they went into, every column, the match; ``hands=False``
        leaves out the per-hand lists (the answer to adding a hand)."""
        replayed = sheet_as(sheet, HollywoodSheet)
        played: HollywoodGame = replayed.game
        document: answers.HollywoodGame = {
            "columns": [_column_json(column, hands=hands) for column in played.columns],
            "next_dealer": played.next_dealer,
            "finished": played.finished,
            "ignored": list(played.ignored),
            "match": {"finals": list(replayed.match_finals), "leader": replayed.match_leader},
        }
        if not hands:
            return document
        rows = [_hand_json(scored, row)
                for scored, row in zip(replayed.hands, played.rows, strict=True)]
        return {"hands": rows, **document}


def _hand_json(scored: ScoredHand, row: HollywoodRow) -> answers.HollywoodHand:
    return {
        "number": row.number,
        "inputs": dict(scored.inputs),
        "dealer": row.dealer,
        "outcome": row.hand.outcome.value,
        "winner": row.hand.winner,
        "points": row.hand.points,
        "doubled": row.hand.doubled,
        "columns": list(row.columns),
        "closes": list(row.closes),
        "after_end": row.after_end,
        "explanation": explanation_json(scored.result.explanation),
    }


def _column_json(column: Column, *, hands: bool = True) -> answers.HollywoodColumn:
    head: answers.ColumnHead = {
        "number": column.number,
        "open": column.opened_after is not None and not column.closed,
        "opened_after": column.opened_after,
        "closed": column.closed,
        "winner": column.winner,
        "totals": list(column.totals),
        "boxes": list(column.boxes),
        "needs": list(column.needs),
    }
    rows: list[answers.ColumnHand] = [
        {"hand": row.number, "points": list(row.points), "totals": list(row.totals),
         "box": row.box}
        for row in column.rows
    ]
    document: answers.HollywoodColumn = {**head, "hands": rows,
                                         "settlement": settlement_json(column.settlement)}
    if not hands:
        del document["hands"]
    return document
