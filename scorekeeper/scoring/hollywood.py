"""Hollywood gin: ordinary two-player hands scored into three games at once
(/rules/hollywood#columns).

A won hand's points go into every open column where the winner already has a score,
plus the first open column where they have none yet: the 1st win goes to game 1, the
2nd to games 1–2, the 3rd onward to all three. "Has a score" means they have won a hand
entered in that column (so a 0-point win, possible with custom bonuses, counts).
Each column closes when a player reaches the target and settles its own game, box
and shutout bonuses from its own hands (``game.settle_game``). With
``rules.hollywood_fourth`` a 4th column opens after the hand that closes column 1.
The match ends when every column is closed; later hands are flagged ``after_end``
and listed in ``ignored``, as in ``game.play_gin_game``.

With ``rules.deals`` the match also ends after that many hands (every hand entered
counts, a dead hand too): each column still open then closes as a game of a fixed
number of deals does (``game.settle_game``): the player ahead in it wins that game,
level totals draw it (its ``winner`` is ``None``). A column not opened yet stays so.

>>> from scorekeeper.scoring.outcome import Outcome
>>> from scorekeeper.scoring.rules import PRESETS
>>> hands = [HandScore(Outcome.KNOCK, 0, 20), HandScore(Outcome.KNOCK, 0, 30)]
>>> match = play_hollywood(PRESETS["russian"], ["Ann", "Bob"], 0, hands)
>>> [row.columns for row in match.rows], [c.totals for c in match.columns]
([(1,), (1, 2)], [(50, 0), (30, 0), (0, 0)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scorekeeper.scoring.explain import N_, Message
from scorekeeper.scoring.game import (
    GameError,
    Row,
    Settlement,
    check_hand,
    check_seat,
    deal_after,
    deals_left,
    hand_points,
    leader,
    needs,
    out_of_deals,
    settle_game,
)
from scorekeeper.scoring.outcome import HandScore
from scorekeeper.scoring.rules import Rules


@dataclass(frozen=True)
class Column:
    """One game column: its own rows (numbered as on the sheet), totals and boxes."""

    number: int  # 1-based
    opened_after: int | None  # the hand after which it opened: 0 = from the start, None = not yet
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    closed: bool
    winner: int | None  # None while open, and for a drawn game (level when the deals ran out)
    needs: tuple[int, ...]
    settlement: Settlement | None


@dataclass(frozen=True)
class HollywoodRow:
    """One hand of the match and the columns it was entered in."""

    number: int
    dealer: int
    hand: HandScore
    columns: tuple[int, ...]  # column numbers the points went into
    closes: tuple[int, ...]  # columns this hand closed
    after_end: bool = False


@dataclass(frozen=True)
class HollywoodGame:
    """The whole Hollywood sheet."""

    players: tuple[str, ...]
    rules: Rules
    rows: tuple[HollywoodRow, ...]
    columns: tuple[Column, ...]
    next_dealer: int
    finished: bool
    ignored: tuple[int, ...]

    @property
    def deals_left(self) -> int | None:
        """Hands still to play in a match of a fixed number of deals (``None``: no such
        number); 0 once the match is over."""
        return deals_left(self.rules, len(self.rows) - len(self.ignored), self.finished)


@dataclass
class _Column:
    number: int
    opened_after: int | None
    rows: list[Row] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    closed: bool = False

    @property
    def open(self) -> bool:
        return self.opened_after is not None and not self.closed

    def enter(self, rules: Rules, number: int, dealer: int, hand: HandScore, seat: int) -> None:
        points = hand_points(hand, 2)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.boxes[seat] += 1
        if self.totals[seat] >= rules.target:
            self.winner, self.closed = seat, True
        ends = self.closed
        self.rows.append(Row(number, dealer, hand, points, tuple(self.totals), seat, ends))

    def close_at_last_deal(self) -> None:
        """The deals ran out with this column open: the player ahead wins it (level: a
        drawn game)."""
        self.winner, self.closed = leader(self.totals), True

    def freeze(self, rules: Rules, players: Sequence[str]) -> Column:
        settlement = None
        if self.closed:
            settlement = settle_game(rules, players, self.totals, self.boxes, self.winner)
        return Column(
            number=self.number,
            opened_after=self.opened_after,
            rows=tuple(self.rows),
            totals=tuple(self.totals),
            boxes=tuple(self.boxes),
            closed=self.closed,
            winner=self.winner,
            needs=needs(rules, self.totals),
            settlement=settlement,
        )


def play_hollywood(
    rules: Rules, players: Sequence[str], first_dealer: int, hands: Sequence[HandScore]
) -> HollywoodGame:
    """Replay ``hands`` (``winner`` = seat 0 or 1) into the Hollywood columns."""
    problems = check_seat(first_dealer, 2, "dealer")
    if len(players) != 2:
        problems.append(("players", Message(N_("Hollywood gin has exactly two players"))))
    for index, hand in enumerate(hands):
        problems += check_hand(hand, range(2), f"hands[{index}]")
    if problems:
        raise GameError(problems)

    columns = [_Column(1, 0), _Column(2, 0), _Column(3, 0)]
    if rules.hollywood_fourth:
        columns.append(_Column(4, None))
    dealer, rows = first_dealer, []
    over = False
    for number, hand in enumerate(hands, start=1):
        if over:
            rows.append(HollywoodRow(number, dealer, hand, (), (), after_end=True))
            continue
        into: list[_Column] = []
        if hand.won and hand.winner is not None:
            into = _columns_for(columns, hand.winner)
            for column in into:
                column.enter(rules, number, dealer, hand, hand.winner)
        closed = [column for column in into if column.closed]
        last = out_of_deals(rules, number)
        if 1 in (column.number for column in closed) and rules.hollywood_fourth and not last:
            columns[3].opened_after = number
        if last:
            closed += [column for column in columns if column.open]
            for column in columns:
                if column.open:
                    column.close_at_last_deal()
        over = last or all(column.closed for column in columns)
        closes = tuple(sorted(column.number for column in closed))
        rows.append(HollywoodRow(number, dealer, hand, tuple(c.number for c in into), closes))
        dealer = deal_after(rules, dealer, hand)

    return HollywoodGame(
        players=tuple(players),
        rules=rules,
        rows=tuple(rows),
        columns=tuple(column.freeze(rules, players) for column in columns),
        next_dealer=dealer,
        finished=over,
        ignored=tuple(row.number for row in rows if row.after_end),
    )


def _columns_for(columns: list[_Column], seat: int) -> list[_Column]:
    """Every open column where ``seat`` has a score, plus the first where they have none."""
    open_columns = [column for column in columns if column.open]
    into = [column for column in open_columns if column.boxes[seat] > 0]
    fresh = next((column for column in open_columns if column.boxes[seat] == 0), None)
    if fresh is not None:
        into.append(fresh)
    return sorted(into, key=lambda column: column.number)
