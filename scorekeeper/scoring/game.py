"""A two-player game of gin replayed into a score sheet (/rules/classic#target to #dealer).

Nothing here is stored: ``play_gin_game`` replays the hands in order and derives the
rows, running totals, boxes, whose deal is next, what each player still needs and, at
game end, the settlement. Oklahoma games use it too (their hand points already
include the spade doubling; boxes never double).

With ``rules.deals`` set the game is also cut short after that many deals (every hand
entered counts, a dead hand too: tournament play against the clock) when nobody has
reached the target by then. The player ahead on hand points wins and the game settles
as at the target; level totals are a drawn game (``winner`` is ``None``), settled
without any bonus (``settle_game``).

Hands entered after the hand that ended the game stay on the sheet as rows flagged
``after_end``: they score nothing, give no box, move no deal, and their numbers are
listed in ``ignored`` so the caller can offer to delete them (a corrected hand may end
a game earlier than it used to).

``settle_game`` is the one place the end-of-game bonuses are computed; Hollywood
columns, three-hand and partnership games call it too.

>>> from scorekeeper.scoring.rules import PRESETS
>>> game = play_gin_game(PRESETS["russian"], ["Ann", "Bob"], 0, [HandScore(Outcome.GIN, 1, 37)])
>>> game.totals, game.needs, game.next_dealer, game.finished
((0, 37), (100, 63), 1, False)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from scorekeeper.scoring.errors import ProblemsError
from scorekeeper.scoring.explain import N_, Message, Step
from scorekeeper.scoring.outcome import HandScore, Outcome
from scorekeeper.scoring.rules import NextDealer, Rules, Shutout


class GameError(ProblemsError):
    """Hands that cannot be scored; ``problems`` lists every (where, message) at once."""


@dataclass(frozen=True)
class Row:
    """One hand on the sheet: ``points`` and ``totals`` are per seat."""

    number: int  # 1-based hand number
    dealer: int
    hand: HandScore
    points: tuple[int, ...]  # what this row adds; all 0 when ``after_end``
    totals: tuple[int, ...]  # running hand points after this row
    box: int | None  # the seat that gets a box line under this hand
    ends_game: bool = False
    after_end: bool = False  # entered after the game ended: listed, never counted


@dataclass(frozen=True)
class SettlementLine:
    """One end-of-game bonus: who gets it, in words, and how much."""

    seat: int
    step: Step
    amount: int


@dataclass(frozen=True)
class Settlement:
    """The end of a game (/rules/classic#game-bonus): bonus lines in the rule's order,
    finals, margin.

    ``finals[seat]`` is that seat's hand points plus its lines; ``margin`` is the
    winner's final less the best other final (with two players, winner − loser).
    ``winner`` is ``None`` for a drawn game (level after the last of a fixed number of
    deals, /rules/classic#deals): no lines, the finals are the level totals, margin 0.
    """

    winner: int | None
    shutout: bool
    lines: tuple[SettlementLine, ...]
    finals: tuple[int, ...]
    margin: int
    explanation: tuple[Step, ...]


@dataclass(frozen=True)
class GinGame:
    """A two-player game sheet, derived from its hands."""

    players: tuple[str, ...]
    rules: Rules
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    boxes: tuple[int, ...]
    next_dealer: int
    finished: bool
    winner: int | None  # None while the game goes on, and for a drawn game
    needs: tuple[int, ...]  # points still needed to reach the target, never below 0
    ignored: tuple[int, ...]  # numbers of the rows entered after the game ended
    settlement: Settlement | None

    @property
    def deals_left(self) -> int | None:
        """Deals still to play in a game of a fixed number of deals (``None``: no such
        number); 0 once the game is over."""
        return deals_left(self.rules, len(self.rows) - len(self.ignored), self.finished)


def play_gin_game(
    rules: Rules, players: Sequence[str], first_dealer: int, hands: Sequence[HandScore]
) -> GinGame:
    """Replay ``hands`` (``winner`` = seat 0 or 1) from ``first_dealer``'s deal."""
    problems = check_seat(first_dealer, 2, "dealer") if len(players) == 2 else []
    if len(players) != 2:
        problems.append(("players", Message(N_("a gin game has exactly two players"))))
    for index, hand in enumerate(hands):
        problems += check_hand(hand, range(2), f"hands[{index}]")
    if problems:
        raise GameError(problems)

    totals, boxes, dealer = [0, 0], [0, 0], first_dealer
    rows: list[Row] = []
    winner: int | None = None
    over = False
    for number, hand in enumerate(hands, start=1):
        if over:
            rows.append(Row(number, dealer, hand, (0, 0), tuple(totals), None, after_end=True))
            continue
        points = hand_points(hand, 2)
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        box = hand.winner if hand.won else None
        if box is not None:
            boxes[box] += 1
            if totals[box] >= rules.target:
                winner, over = box, True
        if not over and out_of_deals(rules, number):
            winner, over = leader(totals), True
        rows.append(Row(number, dealer, hand, points, tuple(totals), box, over))
        dealer = deal_after(rules, dealer, hand)

    return GinGame(
        players=tuple(players),
        rules=rules,
        rows=tuple(rows),
        totals=tuple(totals),
        boxes=tuple(boxes),
        next_dealer=dealer,
        finished=over,
        winner=winner,
        needs=needs(rules, totals),
        ignored=tuple(row.number for row in rows if row.after_end),
        settlement=settle_game(rules, players, totals, boxes, winner) if over else None,
    )


def out_of_deals(rules: Rules, played: int) -> bool:
    """Whether ``played`` deals end a game of a fixed number of deals (/rules/classic#deals)."""
    return rules.deals is not None and played >= rules.deals


def deals_left(rules: Rules, played: int, finished: bool) -> int | None:
    """Deals still to play when ``rules.deals`` is set (0 once the game is over)."""
    if rules.deals is None:
        return None
    return 0 if finished else max(rules.deals - played, 0)


def leader(totals: Sequence[int]) -> int | None:
    """The seat ahead of every other on ``totals``; ``None`` when the lead is shared (a
    drawn game at the end of a fixed number of deals).

    >>> leader([40, 35]), leader([40, 40]), leader([10, 25, 25])
    (0, None, None)
    """
    top = max(totals)
    ahead = [seat for seat, total in enumerate(totals) if total == top]
    return ahead[0] if len(ahead) == 1 else None


def check_seat(seat: int, seats: int, where: str) -> list[tuple[str, str]]:
    """A problem if ``seat`` is not one of ``range(seats)``."""
    if 0 <= seat < seats:
        return []
    return [(where, Message(N_("must be a seat from 0 to {last}"), last=seats - 1))]


def check_hand(hand: HandScore, winners: Collection[int], where: str) -> list[tuple[str, str]]:
    """Every problem with one entered hand; ``winners`` are the seats that may win it."""
    problems: list[tuple[str, str]] = []
    if hand.points < 0:
        problems.append((f"{where}.points", Message(N_("a hand never scores below 0"))))
    if hand.outcome in (Outcome.DEAD, Outcome.TIE):
        dead = hand.outcome is Outcome.DEAD
        if hand.winner is not None:
            no_winner = N_("a dead hand has no winner") if dead else N_("a tie hand has no winner")
            problems.append((f"{where}.winner", Message(no_winner)))
        if hand.points != 0:
            nothing = N_("a dead hand scores 0") if dead else N_("a tie hand scores 0")
            problems.append((f"{where}.points", Message(nothing)))
    elif hand.winner not in winners:
        choices = ", ".join(str(w) for w in winners)
        message = Message(
            N_("a {outcome} is won by one of {choices}"), outcome=str(hand.outcome), choices=choices
        )
        problems.append((f"{where}.winner", message))
    return problems


def hand_points(hand: HandScore, seats: int) -> tuple[int, ...]:
    """What one hand adds to each seat: its points to the winner, 0 to everybody else."""
    return tuple(hand.points if hand.won and seat == hand.winner else 0 for seat in range(seats))


def deal_after(rules: Rules, dealer: int, hand: HandScore) -> int:
    """Who deals after ``hand`` in a two-player game (/rules/classic#dealer).

    A dead hand keeps the dealer. A tie (nobody won) keeps the dealer too under ``winner``
    and ``loser``, since there is no winner or loser to pass the deal to.
    """
    if hand.outcome is Outcome.DEAD:
        return dealer
    if rules.next_dealer is NextDealer.ALTERNATE:
        return 1 - dealer
    if not hand.won or hand.winner is None:
        return dealer
    return hand.winner if rules.next_dealer is NextDealer.WINNER else 1 - hand.winner


def needs(rules: Rules, totals: Sequence[int]) -> tuple[int, ...]:
    """Points each seat still needs to reach the target."""
    return tuple(max(0, rules.target - total) for total in totals)


def settle_game(
    rules: Rules,
    names: Sequence[str],
    totals: Sequence[int],
    boxes: Sequence[int],
    winner: int | None,
    *,
    teams: bool = False,
) -> Settlement:
    """The end of a game, in the order of /rules/classic#game-bonus.

    1. the winner adds the game bonus; 2. a shutout (no other player won a hand)
    doubles the winner's points with the game bonus (``double``), also their box
    bonuses (``double_all``), or adds ``shutout_bonus`` (``flat``); 3. everybody adds
    box bonus × boxes.

    >>> from scorekeeper.scoring.rules import PRESETS
    >>> s = settle_game(PRESETS["russian"], ["A", "B"], [103, 75], [3, 2], 0)
    >>> s.finals, s.margin, str(s.explanation[1])
    ((278, 125), 153, 'A: 103 + 100 game bonus + 3 × 25 boxes = 278')

    With ``teams`` the ``names`` are teams of two, and the sentences whose words agree
    with their subject are the teams' own (``_ABOUT_A_TEAM``).

    A winner short of the target won at the end of a fixed number of deals, ahead on
    points (/rules/classic#deals): they settle as at the target. ``winner`` ``None`` is
    a drawn game, level after the last deal: nobody adds a bonus, the finals are the
    level totals.

    >>> s = settle_game(PRESETS["russian"].replace(deals=6), ["A", "B"], [40, 40], [2, 1], None)
    >>> s.lines, s.finals, s.margin
    ((), (40, 40), 0)
    """
    if winner is None:
        return _drawn(rules, totals)
    others = [seat for seat in range(len(totals)) if seat != winner]
    shutout = rules.shutout is not Shutout.NONE and all(boxes[seat] == 0 for seat in others)
    kind = rules.shutout if shutout else Shutout.NONE
    lines = tuple(
        line for line in _bonus_lines(rules, names, totals, boxes, winner, kind) if line.amount
    )
    finals = tuple(
        total + sum(line.amount for line in lines if line.seat == seat)
        for seat, total in enumerate(totals)
    )
    runner_up = max(others, key=lambda seat: finals[seat])
    margin = finals[winner] - finals[runner_up]
    explanation = (
        _end_step(rules, names, totals, winner),
        *(
            Step(N_("{name} won no hand: shutout."), {"name": names[seat]})
            for seat in others
            if shutout
        ),
        *(
            _final_step(
                rules,
                kind,
                names[seat],
                totals[seat],
                boxes[seat],
                finals[seat],
                winner=seat == winner,
            )
            for seat in [winner, *others]
        ),
        Step(
            N_("{name} wins by {margin} ({final} − {other})."),
            {
                "name": names[winner],
                "margin": margin,
                "final": finals[winner],
                "other": finals[runner_up],
            },
        ),
    )
    if teams:
        lines = tuple(SettlementLine(line.seat, _about_a_team(line.step), line.amount)
                      for line in lines)
        explanation = tuple(_about_a_team(step) for step in explanation)
    return Settlement(winner, shutout, lines, finals, margin, explanation)


def _end_step(rules: Rules, names: Sequence[str], totals: Sequence[int], winner: int) -> Step:
    """Why the game ended: the winner reached the target, or the deals ran out with
    the winner ahead."""
    if totals[winner] >= rules.target or rules.deals is None:
        return Step(
            N_("{name} reached {points} of {target} first."),
            {"name": names[winner], "points": totals[winner], "target": rules.target},
        )
    other = max(total for seat, total in enumerate(totals) if seat != winner)
    return Step(
        N_("Deal {deals} was the last: {name} is ahead, {points} to {other}, and wins the "
           "game."),
        {"deals": rules.deals, "name": names[winner], "points": totals[winner], "other": other},
    )


def _drawn(rules: Rules, totals: Sequence[int]) -> Settlement:
    """A drawn game: level after the last of a fixed number of deals; no bonus for
    anybody, the finals are the totals (/rules/classic#deals)."""
    level = Step(
        N_("Deal {deals} was the last and the scores are level at {points}: a drawn game, "
           "without bonuses."),
        {"deals": rules.deals, "points": max(totals)},
    )
    return Settlement(None, False, (), tuple(totals), 0, (level,))


# The sentences about a team of two (partnership gin: "Ann & Cid") where a word agrees
# with the subject: separate msgids, so that a language says "win" of a team where it
# says "wins" of a player (Russian: «Ann & Cid выигрывают», not «выигрывает»; the
# team's boxes are «коробки команды», not «коробки игрока»).
_ABOUT_A_TEAM = {
    "{name} wins by {margin} ({final} − {other}).":
        # TRANSLATORS: {name} is a team of two players ("Ann & Cid"): a plural subject.
        N_("{name} win by {margin} ({final} − {other})."),
    "Shutout: {name}'s {points} points are doubled: +{points}":
        # TRANSLATORS: {name} is a team of two players ("Ann & Cid").
        N_("Shutout: team {name}'s {points} points are doubled: +{points}"),
    "{name}'s boxes, doubled for the shutout: {boxes} × {bonus} × 2 = +{amount}":
        # TRANSLATORS: {name} is a team of two players ("Ann & Cid").
        N_("Team {name}'s boxes, doubled for the shutout: {boxes} × {bonus} × 2 = +{amount}"),
    "{name}'s boxes: {boxes} × {bonus} = +{amount}":
        # TRANSLATORS: {name} is a team of two players ("Ann & Cid").
        N_("Team {name}'s boxes: {boxes} × {bonus} = +{amount}"),
    "Deal {deals} was the last: {name} is ahead, {points} to {other}, and wins the game.":
        # TRANSLATORS: {name} is a team of two players ("Ann & Cid"): a plural subject.
        N_("Deal {deals} was the last: {name} are ahead, {points} to {other}, and win the "
           "game."),
}


def _about_a_team(step: Step) -> Step:
    return Step(_ABOUT_A_TEAM.get(step.template, step.template), step.params)


def _bonus_lines(
    rules: Rules,
    names: Sequence[str],
    totals: Sequence[int],
    boxes: Sequence[int],
    winner: int,
    kind: Shutout,
) -> list[SettlementLine]:
    """Every bonus line in the order of /rules/classic#game-bonus, zero amounts included."""
    name = names[winner]
    base = totals[winner] + rules.game_bonus
    lines = [
        SettlementLine(
            winner,
            Step(N_("Game bonus to {name}: +{bonus}"), {"name": name, "bonus": rules.game_bonus}),
            rules.game_bonus,
        )
    ]
    if kind in (Shutout.DOUBLE, Shutout.DOUBLE_ALL):
        doubled = N_("Shutout: {name}'s {points} points are doubled: +{points}")
        lines.append(SettlementLine(winner, Step(doubled, {"name": name, "points": base}), base))
    elif kind is Shutout.FLAT:
        flat = Step(
            N_("Shutout bonus to {name}: +{bonus}"), {"name": name, "bonus": rules.shutout_bonus}
        )
        lines.append(SettlementLine(winner, flat, rules.shutout_bonus))
    for seat in [winner, *(seat for seat in range(len(totals)) if seat != winner)]:
        twice = seat == winner and kind is Shutout.DOUBLE_ALL
        amount = boxes[seat] * rules.box_bonus * (2 if twice else 1)
        params = {
            "name": names[seat],
            "boxes": boxes[seat],
            "bonus": rules.box_bonus,
            "amount": amount,
        }
        template = (
            N_("{name}'s boxes, doubled for the shutout: {boxes} × {bonus} × 2 = +{amount}")
            if twice
            else N_("{name}'s boxes: {boxes} × {bonus} = +{amount}")
        )
        lines.append(SettlementLine(seat, Step(template, params), amount))
    return lines


_WINNER_FINALS = {
    (Shutout.DOUBLE, True, True): N_(
        "{name}: ({points} + {game_bonus} game bonus) × 2 + {boxes} × {box_bonus} boxes = {final}"
    ),
    (Shutout.DOUBLE_ALL, True, True): N_(
        "{name}: ({points} + {game_bonus} game bonus + {boxes} × {box_bonus} boxes) × 2 = {final}"
    ),
    (Shutout.FLAT, True, True): N_(
        "{name}: {points} + {game_bonus} game bonus + {shutout_bonus} shutout bonus"
        " + {boxes} × {box_bonus} boxes = {final}"
    ),
    (Shutout.NONE, True, True): N_(
        "{name}: {points} + {game_bonus} game bonus + {boxes} × {box_bonus} boxes = {final}"
    ),
    (Shutout.NONE, True, False): N_("{name}: {points} + {game_bonus} game bonus = {final}"),
    (Shutout.NONE, False, True): N_("{name}: {points} + {boxes} × {box_bonus} boxes = {final}"),
    (Shutout.NONE, False, False): N_("{name}: {final}"),
}


def _final_step(
    rules: Rules, kind: Shutout, name: str, points: int, boxes: int, final: int, *, winner: bool
) -> Step:
    """The arithmetic of one final total, as a player would check it on paper."""
    params = {
        "name": name,
        "points": points,
        "game_bonus": rules.game_bonus,
        "boxes": boxes,
        "box_bonus": rules.box_bonus,
        "shutout_bonus": rules.shutout_bonus,
        "final": final,
    }
    if not winner:
        key = (Shutout.NONE, False, rules.box_bonus > 0)
    elif kind is Shutout.NONE:
        key = (kind, rules.game_bonus > 0, rules.box_bonus > 0)
    else:  # every term is shown under a shutout, so the doubling reads plainly
        key = (kind, True, True)
    return Step(_WINNER_FINALS[key], params)
