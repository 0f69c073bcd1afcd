"""Three-hand gin: box against a captain, the third player sitting out (/rules/three_hand#roles).

Each entered ``HandScore`` names its winner by **role**, not seat: ``Role.BOX`` (0) or
``Role.CAPTAIN`` (1); the sitter never scores. After a hand the roles move:

- box wins → box stays, captain and sitter swap;
- box loses → box sits out, captain moves into the box, sitter becomes captain;
- dead hand, or a tie nobody won (``tie_is_undercut`` off) → same roles.

The box deals every hand. Points go to the individual who won; the first to reach
the target wins. Game, box and shutout bonuses follow ``game.settle_game`` with three
players (they are 0 unless the rules set them); a shutout means neither other player
won a hand. Hands after the end are flagged ``after_end``, as in ``game.py``. With
``rules.deals`` the game also ends after that many hands, as in ``game.py``: the
player ahead wins; a lead shared at the top is a drawn game (``winner`` ``None``).

>>> from scorekeeper.scoring.outcome import Outcome
>>> from scorekeeper.scoring.rules import Rules
>>> game = play_three_hand(Rules(), ["X", "Y", "Z"], 0, 1, [HandScore(Outcome.KNOCK, 1, 16)])
>>> game.totals, game.roles
((0, 16, 0), Roles(box=1, captain=2, out=0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from scorekeeper.scoring.explain import N_, Message
from scorekeeper.scoring.game import (
    GameError,
    Settlement,
    check_hand,
    check_seat,
    deals_left,
    leader,
    needs,
    out_of_deals,
    settle_game,
)
from scorekeeper.scoring.outcome import HandScore
from scorekeeper.scoring.rules import Rules


class Role(IntEnum):
    """A player's part in one hand; ``HandScore.winner`` holds BOX or CAPTAIN."""

    BOX = 0
    CAPTAIN = 1
    OUT = 2


@dataclass(frozen=True)
class Roles:
    """Which seat has which role for one hand."""

    box: int
    captain: int
    out: int

    def seat(self, role: Role) -> int:
        """The seat playing ``role``."""
        return (self.box, self.captain, self.out)[role]

    def after(self, hand: HandScore) -> Roles:
        """The roles for the next hand (/rules/three_hand#roles)."""
        if not hand.won:
            return self
        if hand.winner == Role.BOX:
            return Roles(self.box, self.out, self.captain)
        return Roles(self.captain, self.out, self.box)


@dataclass(frozen=True)
class ThreeHandRow:
    """One hand: the roles it was played with, the winning seat, points per seat."""

    number: int
    roles: Roles  # the box is the dealer
    hand: HandScore
    winner: int | None  # the seat that won, if any
    points: tuple[int, ...]
    totals: tuple[int, ...]
    next_roles: Roles
    ends_game: bool = False
    after_end: bool = False


@dataclass(frozen=True)
class ThreeHandGame:
    """A three-hand sheet; ``roles`` are those of the next hand (its box deals)."""

    players: tuple[str, ...]
    rules: Rules
    rows: tuple[ThreeHandRow, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]  # hands won per seat (box lines, not the box role)
    roles: Roles
    next_dealer: int
    finished: bool
    winner: int | None  # None while the game goes on, and for a drawn game
    needs: tuple[int, ...]
    ignored: tuple[int, ...]
    settlement: Settlement | None

    @property
    def deals_left(self) -> int | None:
        """Hands still to play in a game of a fixed number of deals (``None``: no such
        number); 0 once the game is over."""
        return deals_left(self.rules, len(self.rows) - len(self.ignored), self.finished)


def play_three_hand(
    rules: Rules,
    players: Sequence[str],
    first_box: int,
    first_captain: int,
    hands: Sequence[HandScore],
) -> ThreeHandGame:
    """Replay ``hands`` (``winner`` = a ``Role``) from the roles of the draw."""
    problems = check_seat(first_box, 3, "box") + check_seat(first_captain, 3, "captain")
    if first_box == first_captain:
        problems.append(("captain", Message(N_("the captain cannot also be in the box"))))
    if len(players) != 3:
        problems.append(("players", Message(N_("three-hand gin has exactly three players"))))
    for index, hand in enumerate(hands):
        problems += check_hand(hand, (Role.BOX, Role.CAPTAIN), f"hands[{index}]")
    if problems:
        raise GameError(problems)

    roles = Roles(first_box, first_captain, 3 - first_box - first_captain)
    totals, boxes, rows = [0, 0, 0], [0, 0, 0], []
    winner: int | None = None
    over = False
    for number, hand in enumerate(hands, start=1):
        if over:
            zero = (0, 0, 0)
            rows.append(
                ThreeHandRow(number, roles, hand, None, zero, tuple(totals), roles, after_end=True)
            )
            continue
        seat = roles.seat(Role(hand.winner)) if hand.won and hand.winner is not None else None
        points = tuple(hand.points if s == seat else 0 for s in range(3))
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        if seat is not None:
            boxes[seat] += 1
            if totals[seat] >= rules.target:
                winner, over = seat, True
        if not over and out_of_deals(rules, number):
            winner, over = leader(totals), True
        after = roles.after(hand)
        rows.append(
            ThreeHandRow(
                number,
                roles,
                hand,
                seat,
                points,
                tuple(totals),
                after,
                ends_game=over,
            )
        )
        roles = after

    return ThreeHandGame(
        players=tuple(players),
        rules=rules,
        rows=tuple(rows),
        totals=tuple(totals),
        boxes=tuple(boxes),
        roles=roles,
        next_dealer=roles.box,
        finished=over,
        winner=winner,
        needs=needs(rules, totals),
        ignored=tuple(row.number for row in rows if row.after_end),
        settlement=settle_game(rules, players, totals, boxes, winner) if over else None,
    )
