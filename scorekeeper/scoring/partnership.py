"""Partnership gin: two teams of two, scored deal by deal (/rules/partnership#teams).

Seats 0 & 2 are team 0, seats 1 & 3 team 1. Each deal is two separate two-player
hands; partners stay and opponents alternate: odd deals 0 v 1 and 2 v 3, even deals
0 v 3 and 2 v 1 (``pairing``). A deal is entered as two ``HandScore`` (``winner`` =
seat): first seat 0's table, then seat 2's.

The team result of a deal is the net of its two hands (both won → the sum; one each
→ the larger minus the smaller; a dead hand or a tie counts 0). The team with a
positive net scores it and gets the deal's box; a level deal scores nothing. The
target, game bonus, box bonus and shutout (a team that won no deal) come from the
rules the caller passes (/rules/partnership: target 125) and settle like a two-player game
(``game.settle_game``). With ``rules.deals`` the game also ends after that many deals
(a level deal counts): the team ahead wins, level totals are a drawn game (``winner``
``None``). Which player deals at each table is left to the table.

>>> from scorekeeper.scoring.outcome import Outcome
>>> from scorekeeper.scoring.rules import PRESETS
>>> deal = (HandScore(Outcome.KNOCK, 0, 20), HandScore(Outcome.GIN, 3, 30))
>>> game = play_partnership(PRESETS["russian"], ["Ann", "Bob", "Cid", "Dan"], [deal])
>>> game.deals[0].points, str(game.deals[0].explanation), pairing(2)
((0, 10), 'Bob & Dan won by 10: 30 − 20', ((0, 3), (2, 1)))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.scoring.explain import N_, Message, Step
from scorekeeper.scoring.game import (
    GameError,
    Settlement,
    check_hand,
    deals_left,
    leader,
    needs,
    out_of_deals,
    settle_game,
)
from scorekeeper.scoring.outcome import HandScore
from scorekeeper.scoring.rules import Rules

Pairing = tuple[tuple[int, int], tuple[int, int]]
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))


def team_of(seat: int) -> int:
    """The team (0 or 1) of a seat."""
    return seat % 2


def pairing(deal: int) -> Pairing:
    """Who plays whom in deal number ``deal`` (1-based): seat 0's table, then seat 2's."""
    return ((0, 1), (2, 3)) if deal % 2 == 1 else ((0, 3), (2, 1))


@dataclass(frozen=True)
class Deal:
    """One deal: its two tables, the team points of each hand, and the net result."""

    number: int
    pairing: Pairing
    hands: tuple[HandScore, HandScore]
    hand_points: tuple[tuple[int, int], tuple[int, int]]  # per table, per team
    points: tuple[int, int]  # per team: the net, to the team that won the deal
    totals: tuple[int, int]
    box: int | None  # the team with a positive net
    explanation: Step
    ends_game: bool = False
    after_end: bool = False


@dataclass(frozen=True)
class PartnershipGame:
    """The partnership sheet, per team."""

    players: tuple[str, ...]
    rules: Rules
    team_names: tuple[str, str]
    deals: tuple[Deal, ...]
    totals: tuple[int, int]
    boxes: tuple[int, int]
    next_pairing: Pairing
    finished: bool
    winner: int | None  # a team; None while the game goes on, and for a drawn game
    needs: tuple[int, ...]
    ignored: tuple[int, ...]
    settlement: Settlement | None

    @property
    def deals_left(self) -> int | None:
        """Deals still to play in a game of a fixed number of deals (``None``: no such
        number); 0 once the game is over."""
        return deals_left(self.rules, len(self.deals) - len(self.ignored), self.finished)


def play_partnership(
    rules: Rules, players: Sequence[str], deals: Sequence[tuple[HandScore, HandScore]]
) -> PartnershipGame:
    """Replay ``deals`` (two hands each, ``winner`` = seat) into the team sheet."""
    problems: list[tuple[str, str]] = []
    if len(players) != 4:
        problems.append(("players", Message(N_("partnership gin has four players"))))
    for index, hands in enumerate(deals):
        for table, (hand, seats) in enumerate(zip(hands, pairing(index + 1), strict=True)):
            problems += check_hand(hand, seats, f"deals[{index}][{table}]")
    if problems:
        raise GameError(problems)

    names = (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
    totals, boxes, rows = [0, 0], [0, 0], []
    winner: int | None = None
    over = False
    for number, hands in enumerate(deals, start=1):
        per_table = (_team_points(hands[0]), _team_points(hands[1]))
        if over:
            level = Step(N_("Entered after the game ended."), {})
            rows.append(
                Deal(
                    number,
                    pairing(number),
                    hands,
                    per_table,
                    (0, 0),
                    _pair(totals),
                    None,
                    level,
                    after_end=True,
                )
            )
            continue
        net = sum(p[0] for p in per_table) - sum(p[1] for p in per_table)
        box = None if net == 0 else (0 if net > 0 else 1)
        points = (max(net, 0), max(-net, 0))
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        if box is not None:
            boxes[box] += 1
            if totals[box] >= rules.target:
                winner, over = box, True
        if not over and out_of_deals(rules, number):
            winner, over = leader(totals), True
        step = _explain(names, hands, per_table, box, abs(net))
        rows.append(
            Deal(
                number,
                pairing(number),
                hands,
                per_table,
                points,
                _pair(totals),
                box,
                step,
                ends_game=over,
            )
        )

    return PartnershipGame(
        players=tuple(players),
        rules=rules,
        team_names=names,
        deals=tuple(rows),
        totals=_pair(totals),
        boxes=_pair(boxes),
        next_pairing=pairing(len(deals) + 1),
        finished=over,
        winner=winner,
        needs=needs(rules, totals),
        ignored=tuple(row.number for row in rows if row.after_end),
        settlement=settle_game(rules, names, totals, boxes, winner, teams=True) if over else None,
    )


def _pair(values: Sequence[int]) -> tuple[int, int]:
    return (values[0], values[1])


def _team_points(hand: HandScore) -> tuple[int, int]:
    """One hand's points to the winner's team; a dead hand or a tie counts 0."""
    if not hand.won or hand.winner is None:
        return (0, 0)
    return (hand.points, 0) if team_of(hand.winner) == 0 else (0, hand.points)


def _explain(
    names: tuple[str, str],
    hands: tuple[HandScore, HandScore],
    per_table: tuple[tuple[int, int], tuple[int, int]],
    box: int | None,
    net: int,
) -> Step:
    """The deal's net in the words of /rules/partnership#teams."""
    if box is None:
        return Step(N_("Level deal: no points, no box."), {})
    won_by = [team_of(h.winner) if h.won and h.winner is not None else None for h in hands]
    ours = [table[box] for table in per_table]
    theirs = [table[1 - box] for table in per_table]
    if won_by == [box, box]:
        return Step(
            N_("{team} won both hands: {first} + {second} = {net}"),
            {"team": names[box], "first": ours[0], "second": ours[1], "net": net},
        )
    if None in won_by:
        return Step(
            N_("{team} won one hand, the other scored nothing: {net}"),
            {"team": names[box], "net": net},
        )
    return Step(
        N_("{team} won by {net}: {larger} − {smaller}"),
        {"team": names[box], "net": net, "larger": sum(ours), "smaller": sum(theirs)},
    )
