"""A Remi game replayed deal by deal: running totals, dealers, the end (/rules/remi).

Totals may go negative. The next dealer is the player with the lowest running total;
among tied players, the one nearest the previous dealer's left (seat ``i``'s left is
``i + 1``), the previous dealer coming last. With ``rules.deals`` set the game
is that many deals; otherwise it ends after the deal in which somebody reaches
``rules.target``. The highest total wins; players tied for it share the win.

>>> from scorekeeper.scoring.rules import PRESETS
>>> game = play_remi_game(PRESETS["remi"].replace(deals=2), ["Ann", "Bob", "Cy"], 0,
...                       [RemiDeal((200, -10, 15)), RemiDeal((-30, 85, 20), went_out=1)])
>>> game.totals, [row.dealer for row in game.rows], game.winners, game.finished
((170, 75, 35), [0, 1], (0,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .explain import N_, Message, Step
from .remi_combinations import RemiError
from .rules import Rules

Problems = list[tuple[str, str]]


def two_to_four(count: int) -> Message:
    """Remi's player count, refused."""
    return Message(N_("Remi is for 2 to 4 players, not {count}"), count=count)


def needs_name() -> Message:
    """A player without a name, refused."""
    return Message(N_("every player needs a name"))


def named_twice(name: str) -> Message:
    """Two players with one name, refused."""
    return Message(N_("two players are named {name}"), name=name)


@dataclass(frozen=True)
class RemiDeal:
    """One deal as the sheet records it: each seat's deal score, and who went out."""

    scores: Sequence[int]
    went_out: int | None = None  # a seat; None: the stock ran out


@dataclass(frozen=True)
class RemiRow:
    """A line of the score sheet. ``number`` counts from 1."""

    number: int
    dealer: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    went_out: int | None
    explanation: tuple[Step, ...]


@dataclass(frozen=True)
class RemiGame:
    """The sheet so far. ``next_dealer`` is ``None`` once the game is over."""

    players: tuple[str, ...]
    rows: tuple[RemiRow, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]  # seats; more than one when tied for the highest total
    next_dealer: int | None
    explanation: tuple[Step, ...]


def next_remi_dealer(totals: Sequence[int], previous_dealer: int) -> int:
    """The seat with the lowest total; a tie goes to the tied seat nearest the dealer's left.

    >>> next_remi_dealer([-20, 40, -20, 10], previous_dealer=1)
    2
    >>> next_remi_dealer([-20, 40, -20, 10], previous_dealer=3)
    0
    """
    lowest = min(totals)
    seats = len(totals)
    leftwards = [(previous_dealer + step) % seats for step in range(1, seats + 1)]
    return next(seat for seat in leftwards if totals[seat] == lowest)


def _check_setup(players: Sequence[str], first_dealer: int) -> Problems:
    problems: Problems = []
    if not 2 <= len(players) <= 4:
        problems.append(("players", two_to_four(len(players))))
    names = [name.strip() for name in players]
    for seat, name in enumerate(names):
        if not name:
            problems.append((f"players.{seat}", needs_name()))
        elif name in names[:seat]:
            problems.append((f"players.{seat}", named_twice(name)))
    if not 0 <= first_dealer < len(players):
        message = Message(N_("the first dealer must be one of the players"))
        problems.append(("first_dealer", message))
    return problems


def _check_deal(number: int, deal: RemiDeal, seats: int) -> Problems:
    where = f"deals.{number}"
    if len(deal.scores) != seats:
        message = Message(N_("{count} scores are needed, one per player"), count=seats)
        return [(f"{where}.scores", message)]
    problems: Problems = []
    for seat, score in enumerate(deal.scores):
        if isinstance(score, bool) or not isinstance(score, int):
            problems.append((f"{where}.scores.{seat}", Message(N_("a score is a whole number"))))
        elif score % 5:
            message = Message(N_("Remi scores are multiples of 5"))
            problems.append((f"{where}.scores.{seat}", message))
    if deal.went_out is not None and not 0 <= deal.went_out < seats:
        message = Message(N_("who went out must be one of the players"))
        problems.append((f"{where}.went_out", message))
    return problems


def _is_over(rules: Rules, totals: Sequence[int], played: int) -> bool:
    if rules.deals is not None:
        return played >= rules.deals
    return max(totals) >= rules.target


def _dealer_step(names: Sequence[str], totals: Sequence[int], dealer: int, nxt: int) -> Step:
    tied = [names[seat] for seat, total in enumerate(totals) if total == totals[nxt]]
    if len(tied) == 1:
        return Step(
            N_("{player} has the lowest total, {total}, and deals next."),
            {"player": names[nxt], "total": totals[nxt]},
        )
    return Step(
        N_(
            "{players} tie for the lowest total, {total}; {player} sits nearest the left of "
            "{dealer} and deals next."
        ),
        {
            "players": ", ".join(tied),
            "total": totals[nxt],
            "player": names[nxt],
            "dealer": names[dealer],
        },
    )


def _end_steps(rules: Rules, names: Sequence[str], totals: Sequence[int]) -> list[Step]:
    if rules.deals is not None:
        steps = [Step(N_("All {deals} deals are played."), {"deals": rules.deals})]
    else:
        reached = [names[seat] for seat, total in enumerate(totals) if total >= rules.target]
        steps = [
            Step(
                N_("{players} reached the target of {target}."),
                {"players": ", ".join(reached), "target": rules.target},
            )
        ]
    winners = [names[seat] for seat in _winners(totals)]
    if len(winners) == 1:
        steps.append(
            Step(N_("{player} wins with {total}."), {"player": winners[0], "total": max(totals)})
        )
    else:
        steps.append(
            Step(
                N_("{players} share the win with {total}."),
                {"players": ", ".join(winners), "total": max(totals)},
            )
        )
    return steps


def _winners(totals: Sequence[int]) -> tuple[int, ...]:
    return tuple(seat for seat, total in enumerate(totals) if total == max(totals))


def _row(
    number: int, dealer: int, deal: RemiDeal, totals: tuple[int, ...], steps: list[Step]
) -> RemiRow:
    return RemiRow(number, dealer, tuple(deal.scores), totals, deal.went_out, tuple(steps))


def play_remi_game(
    rules: Rules, players: Sequence[str], first_dealer: int, deals: Sequence[RemiDeal]
) -> RemiGame:
    """Replay the deals in order; ``RemiError`` lists every problem, including deals
    entered after the game was over."""
    seats = len(players)
    problems = _check_setup(players, first_dealer)
    for number, deal in enumerate(deals):
        problems += _check_deal(number, deal, seats)
    if problems:
        raise RemiError(problems)
    names = [name.strip() for name in players]
    totals = (0,) * seats
    dealer: int | None = first_dealer
    rows: list[RemiRow] = []
    end: list[Step] = []
    for number, deal in enumerate(deals):
        if dealer is None:
            message = Message(N_("the game ended after deal {number}"), number=len(rows))
            problems.append((f"deals.{number}", message))
            continue
        totals = tuple(t + s for t, s in zip(totals, deal.scores, strict=True))
        if _is_over(rules, totals, number + 1):
            end = _end_steps(rules, names, totals)
            rows.append(_row(number + 1, dealer, deal, totals, end))
            dealer = None
        else:
            nxt = next_remi_dealer(totals, dealer)
            step = _dealer_step(names, totals, dealer, nxt)
            rows.append(_row(number + 1, dealer, deal, totals, [step]))
            dealer = nxt
    if problems:
        raise RemiError(problems)
    finished = dealer is None
    return RemiGame(
        players=tuple(names),
        rows=tuple(rows),
        totals=totals,
        finished=finished,
        winners=_winners(totals) if finished else (),
        next_dealer=dealer,
        explanation=tuple(step for row in rows for step in row.explanation),
    )
