"""Settling one two-player gin hand, with an explanation (rule cards /rules/classic#knock
to #undercut, /rules/oklahoma#upcard).

``settle_gin_hand`` scores a hand from both players' cards: declared melds and layoffs
are checked and scored as declared; omitted ones are chosen as /rules/classic#layoffs says.
``score_quick_hand`` scores typed totals (the score sheet's quick mode). Both check
everything first and raise ``HandError`` listing every problem.

>>> from scorekeeper.scoring.rules import PRESETS
>>> result = settle_gin_hand(
...     PRESETS["classic"],
...     "KS KH KD 5S 6S 7S 9C TC JC JD",
...     "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
... )
>>> result.outcome.value, result.winner.value, result.points
('undercut', 'defender', 11)
>>> print(result.explanation[-1])
Deadwood 9 ≤ 10: undercut, 1 + 10 = 11.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .arrange import Arrangement, all_best_arrangements, cards_by_rank, mask_of, points_of
from .cards import Card, CardError, CardsText, Rank, Suit, check_distinct, read_cards
from .errors import HandError, Problem
from .explain import N_, Message, Step
from .layoffs import DefenderPlay, Layoff, check_layoffs, defender_best
from .melds import Meld, MeldError
from .outcome import HandScore, Outcome, Side
from .rules import OklahomaAce, Rules

LayoffInput = Layoff | tuple[CardsText | Card, int] | Mapping[str, object]
"""A declared layoff: a ``Layoff``, a (card, meld index) pair, or ``{"card", "meld"}``."""

MAX_DEADWOOD = 100  # ten cards can never hold more; larger typed totals are typos


def _needs_upcard() -> Message:
    return Message(N_("Oklahoma gin needs the upcard: it sets the knock limit"))


@dataclass(frozen=True)
class KnockerResult:
    """The knocker's layout: melds, deadwood, and the card they threw if they held 11."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    discard: Card | None = None


@dataclass(frozen=True)
class DefenderResult:
    """The defender's layout: their own melds, their layoffs, and what is left."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int


@dataclass(frozen=True)
class HandResult:
    """A settled hand: who won what, both layouts, and the steps that explain it."""

    outcome: Outcome
    winner: Side | None
    points: int
    knock_limit: int
    doubled: bool
    knocker: KnockerResult
    defender: DefenderResult
    explanation: tuple[Step, ...]

    def score(self, knocker_seat: int, defender_seat: int) -> HandScore:
        """The hand as a score sheet records it, with the winner as a seat number."""
        seat = {Side.KNOCKER: knocker_seat, Side.DEFENDER: defender_seat}
        winner = seat[self.winner] if self.winner is not None else None
        return HandScore(self.outcome, winner, self.points, self.doubled)


# --- the knock limit and the final score ------------------------------------------------


def knock_limit(rules: Rules, upcard: Card | None) -> tuple[int, list[Step]]:
    """The hand's knock limit; in Oklahoma gin the upcard sets it (/rules/oklahoma#upcard)."""
    if not rules.oklahoma or upcard is None:
        return rules.knock_limit, []
    if upcard.rank == Rank.ACE and rules.oklahoma_ace is OklahomaAce.GIN_ONLY:
        return 0, [
            Step(
                N_("Oklahoma: the upcard {card} is an ace, so only gin may go down."),
                {"card": upcard},
            )
        ]
    limit = upcard.gin_value
    return limit, [
        Step(
            N_("Oklahoma: the upcard {card} sets the knock limit to {limit}."),
            {"card": upcard, "limit": limit},
        )
    ]


def limit_message(rules: Rules, limit: int, upcard: Card | None, deadwood: int) -> Message:
    """Why a knock with ``deadwood`` is refused, showing the limit and where it came from."""
    if rules.oklahoma and upcard is not None:
        if limit == 0:
            return Message(
                N_("the upcard {card} is an ace: only gin may go down, this hand has {deadwood}"),
                card=upcard,
                deadwood=deadwood,
            )
        return Message(
            N_("a knock needs {limit} or less (the upcard is {card}), this hand has {deadwood}"),
            limit=limit,
            card=upcard,
            deadwood=deadwood,
        )
    return Message(
        N_("a knock needs {limit} or less, this hand has {deadwood}"),
        limit=limit,
        deadwood=deadwood,
    )


def _final_score(
    rules: Rules, knocker: int, defender: int, *, big_gin: bool, upcard: Card | None
) -> tuple[Outcome, Side | None, int, bool, list[Step]]:
    """Outcome, winner, points and doubling by /rules/classic#gin to #tie and
    /rules/oklahoma#upcard."""
    params = {"knocker": knocker, "defender": defender}
    outcome: Outcome
    winner: Side | None = Side.KNOCKER
    if big_gin and rules.big_gin_bonus is not None:
        outcome, points = Outcome.BIG_GIN, defender + rules.big_gin_bonus
        step = Step(
            N_("Big gin: {defender} + big gin bonus {bonus} = {points}."),
            {**params, "bonus": rules.big_gin_bonus, "points": points},
        )
    elif knocker == 0:
        # Gin is never undercut, even when the defender has no deadwood either.
        outcome, points = Outcome.GIN, defender + rules.gin_bonus
        step = Step(
            N_("Gin: {defender} + gin bonus {bonus} = {points}."),
            {**params, "bonus": rules.gin_bonus, "points": points},
        )
    elif knocker < defender:
        outcome, points = Outcome.KNOCK, defender - knocker
        step = Step(
            N_(
                "Deadwood {knocker} < {defender}: the knocker scores "
                "{defender} − {knocker} = {points}."
            ),
            {**params, "points": points},
        )
    elif defender < knocker or rules.tie_is_undercut:
        outcome, winner = Outcome.UNDERCUT, Side.DEFENDER
        diff = knocker - defender
        points = diff + rules.undercut_bonus
        step = Step(
            N_("Deadwood {defender} ≤ {knocker}: undercut, {diff} + {bonus} = {points}."),
            {**params, "diff": diff, "bonus": rules.undercut_bonus, "points": points},
        )
    else:
        outcome, winner, points = Outcome.TIE, None, 0
        step = Step(N_("Deadwood {defender} = {knocker}: a tie, nobody scores."), params)
    steps = [step]
    doubled = rules.oklahoma and rules.spade_doubles and upcard is not None
    doubled = doubled and upcard is not None and upcard.suit is Suit.SPADES
    if doubled:
        steps.append(
            Step(
                N_("Spade upcard: everything in this hand is doubled, {points} × 2 = {total}."),
                {"points": points, "total": points * 2},
            )
        )
        points *= 2
    return outcome, winner, points, doubled, steps


# --- reading the inputs -----------------------------------------------------------------


def _read_cards(value: CardsText, where: str, problems: list[Problem]) -> tuple[list[Card], bool]:
    """The cards that could be read, and whether every token was a card."""
    cards, bad = read_cards(value)
    problems.extend(Problem(where, message) for message in bad)
    return cards, not bad


def _read_card(value: object, where: str, problems: list[Problem]) -> Card | None:
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        problems.append(Problem(where, Message(N_("{text} is not a card"), text=repr(value))))
        return None
    cards, read = _read_cards(value, where, problems)
    if read and len(cards) != 1:
        problems.append(Problem(where, Message(N_("give one card, not {count}"), count=len(cards))))
        return None
    return cards[0] if read else None


def _read_melds(
    value: Sequence[CardsText], held: Sequence[Card], where: str, not_held: str
) -> tuple[list[Meld], list[Problem]]:
    """Declared melds, checked: each a meld, of cards ``owner`` holds, no card in two."""
    problems: list[Problem] = []
    melds: list[Meld] = []
    used: set[Card] = set()
    for entry in value:
        try:
            meld = Meld.of(entry)
        except CardError as exc:
            problems.extend(Problem(where, message) for message in exc.problems)
            continue
        except MeldError as exc:
            problems.append(Problem(where, exc.message))
            continue
        for card in meld.cards:
            if card not in held:
                problems.append(Problem(where, Message(not_held, card=card)))
            elif card in used:
                problems.append(Problem(where, Message(N_("{card} is in two melds"), card=card)))
        used.update(meld.cards)
        melds.append(meld)
    return melds, problems


def _read_layoffs(value: Sequence[LayoffInput], problems: list[Problem]) -> list[Layoff]:
    where = "defender.layoffs"
    layoffs: list[Layoff] = []
    for item in value:
        if isinstance(item, Layoff):
            layoffs.append(item)
            continue
        if isinstance(item, Mapping):
            raw_card, raw_meld = item.get("card"), item.get("meld")
        else:
            raw_card, raw_meld = item
        card = _read_card(raw_card, where, problems)
        if isinstance(raw_meld, bool) or not isinstance(raw_meld, int) or raw_meld < 0:
            message = Message(N_("{text} is not a meld number (0, 1, 2…)"), text=repr(raw_meld))
            problems.append(Problem(where, message))
        elif card is not None:
            layoffs.append(Layoff(card, raw_meld))
    return layoffs


def _count_problem(side: str, cards: Sequence[Card]) -> Problem | None:
    if side == "knocker" and len(cards) not in (10, 11):
        return Problem(
            "knocker.cards",
            Message(
                N_("the knocker must hold 10 cards (11 before the discard), not {count}"),
                count=len(cards),
            ),
        )
    if side == "defender" and len(cards) != 10:
        return Problem(
            "defender.cards",
            Message(N_("the defender must hold 10 cards, not {count}"), count=len(cards)),
        )
    return None


# --- the two layouts --------------------------------------------------------------------


def _declared_knocker(
    rules: Rules, cards: Sequence[Card], melds: list[Meld]
) -> tuple[Arrangement | None, list[Problem]]:
    """The knocker's layout as declared: unmelded cards are deadwood.

    Holding 11, they throw their highest unmelded card; all 11 melded is big gin, if played.
    """
    rest = mask_of(cards) & ~mask_of([c for meld in melds for c in meld.cards])
    if len(cards) == 11 and not rest:
        if rules.big_gin_bonus is None:
            message = Message(
                N_(
                    "all 11 cards are melded but big gin is not played: enter the knocker's 10 "
                    "cards after the discard"
                )
            )
            return None, [Problem("knocker.melds", message)]
        return Arrangement(tuple(melds), (), 0), []
    discard = None
    if len(cards) == 11:
        discard = cards_by_rank(rest)[-1]  # the highest rank is also the highest value
        rest ^= 1 << discard.index
    return Arrangement(tuple(melds), cards_by_rank(rest), points_of(rest), discard), []


@dataclass(frozen=True)
class _DefenderInput:
    cards: list[Card]
    melds: list[Meld] | None  # None: not declared
    layoffs: list[Layoff] | None

    @property
    def declared(self) -> bool:
        return self.melds is not None or self.layoffs is not None


def _defender_play(
    knocker: Arrangement, defender: _DefenderInput
) -> tuple[DefenderPlay, list[Problem]]:
    """The defender's layout against one knocker layout, and what is wrong with it."""
    gin = knocker.deadwood_points == 0
    if not defender.declared:
        return defender_best(() if gin else knocker.melds, defender.cards), []
    melds = defender.melds or []
    layoffs = defender.layoffs or []
    where = "defender.layoffs"
    if gin and layoffs:
        problems = [Problem(where, Message(N_("nothing may be laid off against gin")))]
    else:
        # Cards not held, or melded too, are reported once by ``_layoff_problems``.
        melded = {card for meld in melds for card in meld.cards}
        held = [lo for lo in layoffs if lo.card in defender.cards and lo.card not in melded]
        problems = [Problem(where, m) for m in check_layoffs(knocker.melds, held)]
    placed = mask_of([c for meld in melds for c in meld.cards] + [lo.card for lo in layoffs])
    rest = mask_of(defender.cards) & ~placed
    play = DefenderPlay(tuple(melds), tuple(layoffs), cards_by_rank(rest), points_of(rest))
    return play, problems


def _layoff_problems(defender: _DefenderInput) -> list[Problem]:
    """Layoff cards the defender does not hold, or also melded (whatever the knocker has)."""
    problems: list[Problem] = []
    melded = {card for meld in defender.melds or [] for card in meld.cards}
    for layoff in defender.layoffs or []:
        if layoff.card not in defender.cards:
            message = Message(N_("{card} is not in the defender's hand"), card=layoff.card)
            problems.append(Problem("defender.layoffs", message))
        elif layoff.card in melded:
            message = Message(N_("{card} is both in a meld and laid off"), card=layoff.card)
            problems.append(Problem("defender.layoffs", message))
    return problems


def _choose(
    candidates: list[Arrangement], defender: _DefenderInput
) -> tuple[Arrangement, DefenderPlay, list[Problem]]:
    """The knocker layout leaving the defender the most deadwood (valid layoffs first)."""
    best: tuple[Arrangement, DefenderPlay, list[Problem]] | None = None
    best_key = (False, -1)
    for knocker in candidates:
        play, problems = _defender_play(knocker, defender)
        key = (not problems, play.deadwood_points)
        if best is None or key > best_key:
            best, best_key = (knocker, play, problems), key
    assert best is not None  # there is always at least one layout
    return best


# --- settling -----------------------------------------------------------------------------


def settle_gin_hand(
    rules: Rules,
    knocker_cards: CardsText,
    defender_cards: CardsText,
    *,
    knocker_melds: Sequence[CardsText] | None = None,
    defender_melds: Sequence[CardsText] | None = None,
    layoffs: Sequence[LayoffInput] | None = None,
    upcard: Card | str | None = None,
) -> HandResult:
    """Score a gin hand from both players' cards (rule cards /rules/classic#knock to
    #undercut, /rules/oklahoma#upcard).

    The knocker holds 10 cards after the discard, or 11 (then big gin when all meld and
    big gin is played, otherwise their best discard). The defender holds 10. Declared
    melds are scored as declared, the rest being deadwood. For the defender, declaring
    melds or layoffs (either) means the rest of their cards are deadwood. Omitted, the
    knocker gets their least-deadwood layout that leaves the defender the most, and the
    defender their lowest deadwood from their own melds and layoffs together.
    Raises ``HandError`` listing every problem.
    """
    problems: list[Problem] = []
    knocker, knocker_read = _read_cards(knocker_cards, "knocker.cards", problems)
    defender, defender_read = _read_cards(defender_cards, "defender.cards", problems)
    up = None if upcard is None else _read_card(upcard, "upcard", problems)
    declared_layoffs = None if layoffs is None else _read_layoffs(layoffs, problems)
    sound = {"knocker": knocker_read, "defender": defender_read}  # safe to arrange
    for side, cards in (("knocker", knocker), ("defender", defender)):
        count = _count_problem(side, cards) if sound[side] else None
        if count is not None:
            problems.append(count)
            sound[side] = False
    # The upcard is not checked against the hands: it is the first discard, seen by both
    # players, and either may have taken it.
    for where, message in check_distinct({"knocker.cards": knocker, "defender.cards": defender}):
        problems.append(Problem(where, message))
        sound[where.split(".")[0]] = False
    if rules.oklahoma and upcard is None:
        problems.append(Problem("upcard", _needs_upcard()))

    knocker_declared: list[Meld] | None = None
    if knocker_melds is not None:
        knocker_declared, found = _read_melds(
            knocker_melds, knocker, "knocker.melds", N_("{card} is not in the knocker's hand")
        )
        problems.extend(found)
        sound["knocker"] = sound["knocker"] and not found  # bad melds: no layout to check
    defender_declared: list[Meld] | None = None
    if defender_melds is not None:
        # Bad defender melds still leave their layoffs worth checking against the knocker.
        defender_declared, found = _read_melds(
            defender_melds, defender, "defender.melds", N_("{card} is not in the defender's hand")
        )
        problems.extend(found)
    candidates: list[Arrangement] = []
    if sound["knocker"]:
        if knocker_declared is not None:
            declared, found = _declared_knocker(rules, knocker, knocker_declared)
            problems.extend(found)
            candidates = [declared] if declared is not None else []
        else:
            candidates = all_best_arrangements(knocker, rules)
    limit, steps = knock_limit(rules, up)
    if candidates and candidates[0].deadwood_points > limit:
        # Every candidate has the same deadwood: the check needs no defender.
        message = limit_message(rules, limit, up, candidates[0].deadwood_points)
        problems.append(Problem("knocker", message))
    defender_input = None
    if sound["defender"]:
        defender_input = _DefenderInput(defender, defender_declared, declared_layoffs)
        problems.extend(_layoff_problems(defender_input))
    if not candidates or defender_input is None:
        unread = Message(N_("the hand cannot be read"))
        raise HandError(problems or [Problem("knocker.cards", unread)])
    layout, play, found = _choose(candidates, defender_input)
    problems.extend(found)
    if problems:
        raise HandError(problems)

    big_gin = layout.big_gin and rules.big_gin_bonus is not None
    steps += _knocker_steps(layout, big_gin, auto=knocker_declared is None, ways=len(candidates))
    steps += _defender_steps(layout, play)
    outcome, winner, points, doubled, score_steps = _final_score(
        rules, layout.deadwood_points, play.deadwood_points, big_gin=big_gin, upcard=up
    )
    return HandResult(
        outcome=outcome,
        winner=winner,
        points=points,
        knock_limit=limit,
        doubled=doubled,
        knocker=KnockerResult(
            layout.melds, layout.deadwood, layout.deadwood_points, layout.discard
        ),
        defender=DefenderResult(play.melds, play.layoffs, play.deadwood, play.deadwood_points),
        explanation=tuple(steps + score_steps),
    )


def _knocker_steps(layout: Arrangement, big_gin: bool, *, auto: bool, ways: int) -> list[Step]:
    if big_gin:
        return [
            Step(
                N_("Big gin: all 11 of the knocker's cards meld: {melds}."), {"melds": layout.melds}
            )
        ]
    steps: list[Step] = []
    if layout.discard is not None:
        template = (
            N_("The knocker held 11 cards; discarding {card} leaves the least deadwood.")
            if auto
            else N_("The knocker held 11 cards and discards {card}.")
        )
        steps.append(Step(template, {"card": layout.discard}))
    params = {"melds": layout.melds, "cards": layout.deadwood, "points": layout.deadwood_points}
    if not layout.melds:
        steps.append(Step(N_("Knocker has no melds; deadwood {cards} = {points}."), params))
    elif layout.deadwood:
        steps.append(Step(N_("Knocker melds {melds}; deadwood {cards} = {points}."), params))
    else:
        steps.append(Step(N_("Knocker melds {melds}; no deadwood: gin."), params))
    if auto and ways > 1:
        steps.append(
            Step(
                N_(
                    "The knocker's cards can be laid out {count} ways with this "
                    "deadwood; this one leaves the defender the most."
                ),
                {"count": ways},
            )
        )
    return steps


def _defender_steps(layout: Arrangement, play: DefenderPlay) -> list[Step]:
    steps: list[Step] = []
    if layout.deadwood_points == 0:
        steps.append(Step(N_("No layoffs against gin.")))
    by_meld: dict[int, list[Card]] = {}
    for layoff in play.layoffs:
        by_meld.setdefault(layoff.meld, []).append(layoff.card)
    for index, cards in by_meld.items():
        steps.append(
            Step(
                N_("Defender lays off {cards} on {meld}."),
                {"cards": tuple(cards), "meld": layout.melds[index]},
            )
        )
    if play.melds:
        steps.append(Step(N_("Defender melds {melds}."), {"melds": play.melds}))
    if play.deadwood:
        steps.append(
            Step(
                N_("Defender's deadwood {cards} = {points}."),
                {"cards": play.deadwood, "points": play.deadwood_points},
            )
        )
    else:
        steps.append(Step(N_("Defender has no deadwood.")))
    return steps


# --- quick mode ------------------------------------------------------------------------

QUICK_OUTCOMES = (Outcome.KNOCK, Outcome.GIN, Outcome.BIG_GIN, Outcome.DEAD)


def score_quick_hand(
    rules: Rules,
    outcome: Outcome | str,
    knocker_deadwood: int | None,
    defender_deadwood: int | None,
    upcard: Card | str | None = None,
) -> HandResult:
    """Score typed totals: how the hand ended and both deadwood counts.

    ``outcome`` is knock, gin, big_gin or dead; an undercut or a tie follows from the
    numbers. A knock with no deadwood *is* gin (/rules/classic#knock) and is scored as gin,
    saying so. A dead hand ignores the numbers. Raises ``HandError`` with every problem.

    >>> from scorekeeper.scoring.rules import PRESETS
    >>> score_quick_hand(PRESETS["russian"], "knock", 8, 5).points
    28
    """
    problems: list[Problem] = []
    kind = _read_outcome(outcome, rules, problems)
    if kind is Outcome.DEAD:
        if problems:
            raise HandError(problems)
        step = Step(N_("Dead hand: nobody scores and the same dealer deals again."))
        none = KnockerResult((), (), 0)
        return HandResult(
            Outcome.DEAD,
            None,
            0,
            rules.knock_limit,
            False,
            none,
            DefenderResult((), (), (), 0),
            (step,),
        )
    knocker = _read_total(knocker_deadwood, "knocker_deadwood", problems)
    defender = _read_total(defender_deadwood, "defender_deadwood", problems)
    up = None if upcard is None else _read_card(upcard, "upcard", problems)
    if rules.oklahoma and upcard is None:
        problems.append(Problem("upcard", _needs_upcard()))
    limit, steps = knock_limit(rules, up)
    if kind in (Outcome.GIN, Outcome.BIG_GIN) and knocker:
        problems.append(
            Problem(
                "knocker_deadwood",
                Message(N_("gin means the knocker has no deadwood, not {points}"), points=knocker),
            )
        )
    elif kind is Outcome.KNOCK and knocker is not None and knocker > limit:
        problems.append(Problem("knocker_deadwood", limit_message(rules, limit, up, knocker)))
    if problems or kind is None or knocker is None or defender is None:
        raise HandError(problems)
    if kind is Outcome.KNOCK and knocker == 0:
        steps.append(Step(N_("A knock with no deadwood is gin.")))
    steps.append(
        Step(
            N_("Knocker's deadwood {knocker}, defender's {defender}."),
            {"knocker": knocker, "defender": defender},
        )
    )
    result, winner, points, doubled, score_steps = _final_score(
        rules, knocker, defender, big_gin=kind is Outcome.BIG_GIN, upcard=up
    )
    return HandResult(
        outcome=result,
        winner=winner,
        points=points,
        knock_limit=limit,
        doubled=doubled,
        knocker=KnockerResult((), (), knocker),
        defender=DefenderResult((), (), (), defender),
        explanation=tuple(steps + score_steps),
    )


def _read_outcome(value: Outcome | str, rules: Rules, problems: list[Problem]) -> Outcome | None:
    try:
        kind = Outcome(value)
    except ValueError:
        kind = None
    if kind not in QUICK_OUTCOMES:
        problems.append(
            Problem(
                "outcome",
                Message(
                    N_(
                        "the outcome must be knock, gin, big gin or dead "
                        "(an undercut or a tie follows from the deadwood)"
                    )
                ),
            )
        )
        return None
    if kind is Outcome.BIG_GIN and rules.big_gin_bonus is None:
        problems.append(Problem("outcome", Message(N_("big gin is not played under these rules"))))
        return None
    return kind


def _read_total(value: int | None, where: str, problems: list[Problem]) -> int | None:
    if value is None:
        value = 0  # a blank total on the sheet is nothing
    if isinstance(value, bool) or not isinstance(value, int):
        message = Message(N_("{text} is not a whole number"), text=repr(value))
        problems.append(Problem(where, message))
        return None
    if value < 0:
        message = Message(N_("deadwood cannot be negative ({points})"), points=value)
        problems.append(Problem(where, message))
        return None
    if value > MAX_DEADWOOD:
        message = Message(
            N_("ten cards hold at most {most} deadwood, not {points}"),
            most=MAX_DEADWOOD,
            points=value,
        )
        problems.append(Problem(where, message))
        return None
    return value
