"""Indonesian Remi: settling one deal, card by card or from typed totals (/rules/remi).

Every player scores + the value of their cards in valid combinations (on the table or
still in hand) and − the value of every other card; the player who went out adds
10 × the value of their final discard. Without an arrangement the engine finds the best
one; declared table combinations are checked, then the hand is arranged around them.

>>> from scorekeeper.scoring.rules import PRESETS
>>> result = settle_remi_deal(PRESETS["remi"], [
...     RemiPlayerInput("Ann", hand="2H 3H 4H 5H KC KD KS", went_out=True, final_discard="AD"),
...     RemiPlayerInput("Bob", hand="QC JD JC 6C 5C 4C 3C"),
... ])
>>> [(p.name, p.points) for p in result.players]
[('Ann', 200), ('Bob', -10)]
>>> score_remi_quick(plus=35, minus=20).points
15
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, CardError, CardsText, parse_cards
from .explain import N_, Message, Step, joined
from .remi_combinations import (
    Combination,
    CombinationError,
    CombinationKind,
    RemiArrangement,
    RemiError,
    arrange_remi,
    combination_from_cards,
)
from .remi_game import (
    RemiDeal,
    RemiGame,
    RemiRow,
    named_twice,
    needs_name,
    next_remi_dealer,
    play_remi_game,
    two_to_four,
)
from .rules import Rules

__all__ = [
    "DEALT",
    "MAX_PLAYER_CARDS",
    "Combination",
    "CombinationKind",
    "RemiArrangement",
    "RemiDeal",
    "RemiError",
    "RemiGame",
    "RemiPlayerInput",
    "RemiPlayerResult",
    "RemiQuickScore",
    "RemiResult",
    "RemiRow",
    "arrange_remi",
    "next_remi_dealer",
    "play_remi_game",
    "score_remi_quick",
    "settle_remi_deal",
]

# 7 are dealt and every turn ends with a discard, so nobody ends a deal with fewer (the
# player who went out: 7 besides their final discard). Taking the 2nd or 3rd discard brings
# the cards above it along, so a hand can grow past 7; the maximum only bounds
# nonsense input.
DEALT = 7
MAX_PLAYER_CARDS = 16
CLOSING_MULTIPLIER = 10


@dataclass(frozen=True)
class RemiPlayerInput:
    """What one player shows at the end of a deal. Cards may be strings in any notation."""

    name: str
    table: Sequence[CardsText] = ()  # the combinations they put down, each a group of cards
    hand: CardsText = ()  # the cards still in their hand, arranged by the engine
    went_out: bool = False
    final_discard: Card | str | None = None  # only for the player who went out


@dataclass(frozen=True)
class RemiPlayerResult:
    """One player's deal: counted combinations, minus cards, and the points."""

    name: str
    combinations: tuple[Combination, ...]
    unmatched: tuple[Card, ...]
    points: int
    explanation: tuple[Step, ...]
    plus: int = 0
    minus: int = 0
    closing_bonus: int = 0
    went_out: bool = False
    final_discard: Card | None = None
    void_sets: tuple[Combination, ...] = ()  # sets that did not count: no sequence


@dataclass(frozen=True)
class RemiResult:
    """A settled deal. ``went_out`` is the seat who went out, ``None`` if the stock ran out."""

    players: tuple[RemiPlayerResult, ...]
    explanation: tuple[Step, ...]
    went_out: int | None = None

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's points, in seat order."""
        return tuple(player.points for player in self.players)


@dataclass(frozen=True)
class _Shown:
    """One player's cards, parsed."""

    name: str
    table: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    went_out: bool
    final_discard: Card | None

    def located(self, seat: int) -> list[tuple[str, Card]]:
        """Every card with the path where it was entered."""
        found = [(f"players.{seat}.table.{j}", c) for j, g in enumerate(self.table) for c in g]
        found += [(f"players.{seat}.hand", card) for card in self.hand]
        if self.final_discard is not None:
            found.append((f"players.{seat}.final_discard", self.final_discard))
        return found


Problems = list[tuple[str, str]]


def _only_out_discards() -> Message:
    return Message(N_("only the player who went out has a final discard"))


def _parse(where: str, text: CardsText, problems: Problems) -> tuple[Card, ...]:
    try:
        return tuple(parse_cards(text))
    except CardError as exc:
        problems.extend((where, message) for message in exc.problems)
        return ()


def _parse_discard(where: str, raw: Card | str | None, problems: Problems) -> Card | None:
    if raw is None or isinstance(raw, Card):
        return raw
    cards = _parse(where, raw, problems)
    if len(cards) > 1:
        problems.append((where, Message(N_("the final discard is one card"))))
    return cards[0] if cards else None


def _parse_player(seat: int, player: RemiPlayerInput, problems: Problems) -> _Shown:
    where = f"players.{seat}"
    if isinstance(player.table, str):
        problems.append((f"{where}.table", Message(N_("the table is a list of combinations"))))
        table: tuple[tuple[Card, ...], ...] = ()
    else:
        table = tuple(_parse(f"{where}.table.{j}", g, problems) for j, g in enumerate(player.table))
    hand = _parse(f"{where}.hand", player.hand, problems)
    discard = _parse_discard(f"{where}.final_discard", player.final_discard, problems)
    return _Shown(player.name.strip(), table, hand, player.went_out, discard)


def _check_player(seat: int, shown: _Shown, problems: Problems) -> None:
    where = f"players.{seat}"
    if not shown.name:
        problems.append((f"{where}.name", needs_name()))
    count = len(shown.located(seat))
    if count == 0 and shown.name:
        problems.append((where, Message(N_("{player} has no cards"), player=shown.name)))
    elif count == 0:
        problems.append((where, Message(N_("this player has no cards"))))
    elif count > MAX_PLAYER_CARDS:
        problems.append(
            (where, Message(N_("{count} cards is too many for one player"), count=count))
        )
    else:
        _check_count(where, shown, problems)
    if shown.went_out and shown.final_discard is None:
        message = Message(N_("{player} went out: name the final discard"), player=shown.name)
        problems.append((f"{where}.final_discard", message))
    if not shown.went_out and shown.final_discard is not None:
        problems.append((f"{where}.final_discard", _only_out_discards()))
    for j, group in enumerate(shown.table):
        if group and len(set(group)) == len(group):
            try:
                combination_from_cards(group)
            except CombinationError as exc:
                problems.append((f"{where}.table.{j}", exc.message))


def _check_count(where: str, shown: _Shown, problems: Problems) -> None:
    """Fewer than the 7 dealt cards (besides the final discard) cannot be right."""
    held = len(shown.hand) + sum(len(group) for group in shown.table)
    if held >= DEALT:
        return
    if shown.went_out:
        message = Message(
            N_(
                "{player} went out, so they hold at least 7 cards besides the final discard (table "
                "and hand); cards entered: {count}"
            ),
            player=shown.name,
            count=held,
        )
    else:
        message = Message(
            N_(
                "{player} holds at least 7 cards at the end of a deal (table and hand); "
                "cards entered: {count}"
            ),
            player=shown.name,
            count=held,
        )
    problems.append((f"{where}.hand", message))


def _check_deal(shown: Sequence[_Shown], problems: Problems) -> None:
    if not 2 <= len(shown) <= 4:
        problems.append(("players", two_to_four(len(shown))))
    names = [player.name for player in shown]
    for seat, name in enumerate(names):
        if name and name in names[:seat]:
            problems.append((f"players.{seat}.name", named_twice(name)))
    out = [player.name for player in shown if player.went_out]
    if len(out) > 1:
        message = Message(
            N_("only one player can go out; {players} are marked"), players=joined(out)
        )
        problems.append(("players", message))
    first_holder: dict[Card, int] = {}
    for seat, player in enumerate(shown):
        mine: set[Card] = set()
        for where, card in player.located(seat):
            if card in mine:
                message = Message(
                    N_("{card} is entered twice for {player}"), card=card, player=player.name
                )
                problems.append((where, message))
            elif card in first_holder:
                other = shown[first_holder[card]].name
                message = Message(
                    N_("{card} is held by {name} and {player}"),
                    card=card,
                    name=other,
                    player=player.name,
                )
                problems.append((where, message))
            mine.add(card)
        for card in mine:
            first_holder.setdefault(card, seat)


def _arrange(shown: _Shown, rules: Rules) -> RemiArrangement:
    table = [combination_from_cards(group, on_table=True) for group in shown.table if group]
    return arrange_remi(shown.hand, rules, table)


def _check_went_out(
    seat: int, shown: _Shown, arranged: RemiArrangement, problems: Problems
) -> None:
    if shown.went_out and arranged.unmatched:
        message = Message(
            N_(
                "{player} went out, so every card but the final discard must be in a "
                "combination that counts; {cards} cannot be"
            ),
            player=shown.name,
            cards=arranged.unmatched,
        )
        problems.append((f"players.{seat}.hand", message))


_COMBINATION_TEMPLATES = {
    (True, CombinationKind.SEQUENCE): N_("{player}: {cards} on the table is a sequence, +{value}."),
    (True, CombinationKind.SET): N_("{player}: {cards} on the table is a set, +{value}."),
    (False, CombinationKind.SEQUENCE): N_("{player}: {cards} in hand is a sequence, +{value}."),
    (False, CombinationKind.SET): N_("{player}: {cards} in hand is a set, +{value}."),
}


def _combination_step(name: str, combination: Combination) -> Step:
    template = _COMBINATION_TEMPLATES[combination.on_table, combination.kind]
    return Step(template, {"player": name, "cards": combination.cards, "value": combination.value})


def _total_steps(shown: _Shown, arranged: RemiArrangement, bonus: int) -> list[Step]:
    totals = {"player": shown.name, "plus": arranged.plus, "minus": arranged.minus}
    if shown.final_discard is None:
        return [
            Step(
                N_("{player} scores {plus} − {minus} = {points}."),
                {**totals, "points": arranged.points},
            ),
        ]
    closing = {
        "player": shown.name,
        "card": shown.final_discard,
        "multiplier": CLOSING_MULTIPLIER,
        "value": shown.final_discard.remi_value,
        "bonus": bonus,
    }
    return [
        Step(
            N_("{player} went out discarding {card}: {multiplier} × {value} = +{bonus}."), closing
        ),
        Step(
            N_("{player} scores {plus} − {minus} + {bonus} = {points}."),
            {**totals, "bonus": bonus, "points": arranged.points + bonus},
        ),
    ]


def _player_steps(shown: _Shown, arranged: RemiArrangement, bonus: int) -> list[Step]:
    name = shown.name
    steps = [_combination_step(name, combination) for combination in arranged.combinations]
    steps += [
        Step(
            N_("{player} has no sequence, so the set {cards} does not count."),
            {"player": name, "cards": void.cards},
        )
        for void in arranged.void_sets
    ]
    if arranged.unmatched:
        steps.append(
            Step(
                N_("{player}: {cards} in no combination, −{value}."),
                {"player": name, "cards": arranged.unmatched, "value": arranged.minus},
            )
        )
    return steps + _total_steps(shown, arranged, bonus)


def _player_result(shown: _Shown, arranged: RemiArrangement) -> RemiPlayerResult:
    discard = shown.final_discard
    bonus = CLOSING_MULTIPLIER * discard.remi_value if discard is not None else 0
    return RemiPlayerResult(
        name=shown.name,
        combinations=arranged.combinations,
        unmatched=arranged.unmatched,
        points=arranged.points + bonus,
        explanation=tuple(_player_steps(shown, arranged, bonus)),
        plus=arranged.plus,
        minus=arranged.minus,
        closing_bonus=bonus,
        went_out=shown.went_out,
        final_discard=discard,
        void_sets=arranged.void_sets,
    )


def _deal_step(shown: Sequence[_Shown]) -> Step:
    out = [player.name for player in shown if player.went_out]
    if out:
        return Step(N_("{player} went out."), {"player": out[0]})
    return Step(N_("The stock ran out: nobody went out, so nobody gets the closing bonus."))


def settle_remi_deal(rules: Rules, players: Sequence[RemiPlayerInput]) -> RemiResult:
    """Score every player of one deal; ``RemiError`` lists every problem in the input."""
    problems: Problems = []
    shown = [_parse_player(seat, player, problems) for seat, player in enumerate(players)]
    for seat, player in enumerate(shown):
        _check_player(seat, player, problems)
    _check_deal(shown, problems)
    if problems:
        raise RemiError(problems)
    arranged = [_arrange(player, rules) for player in shown]
    for seat, (player, arrangement) in enumerate(zip(shown, arranged, strict=True)):
        _check_went_out(seat, player, arrangement, problems)
    if problems:
        raise RemiError(problems)
    results = tuple(_player_result(p, a) for p, a in zip(shown, arranged, strict=True))
    steps = [_deal_step(shown), *(step for result in results for step in result.explanation)]
    out = next((seat for seat, player in enumerate(shown) if player.went_out), None)
    return RemiResult(results, tuple(steps), out)


# --- quick mode: the player typed their plus and minus totals ----------------------------

CLOSING_VALUES = (5, 10, 15)


@dataclass(frozen=True)
class RemiQuickScore:
    """A deal score from typed totals: plus − minus, and the closing bonus."""

    points: int
    plus: int
    minus: int
    closing_bonus: int
    explanation: tuple[Step, ...]


def _total_problems(plus: int, minus: int) -> Problems:
    problems: Problems = []
    for where, total in (("plus", plus), ("minus", minus)):
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            problems.append((where, Message(N_("must be a whole number, 0 or more"))))
        elif total % 5:
            message = Message(N_("cards are worth 5, 10 or 15, so this is a multiple of 5"))
            problems.append((where, message))
        elif where == "plus" and 0 < total < 15:
            message = Message(N_("a combination has 3 or more cards, so plus is 0 or 15+"))
            problems.append((where, message))
    return problems


def _closing_problems(went_out: bool, plus: int, minus: int, discard_value: int | None) -> Problems:
    if not went_out:
        if discard_value is None:
            return []
        return [("discard_value", _only_out_discards())]
    problems: Problems = []
    if discard_value not in CLOSING_VALUES:
        message = Message(N_("the final discard is worth 5, 10 or 15"))
        problems.append(("discard_value", message))
    # One mistake, one message: a minus typed as plus would break both rules.
    if minus != 0:
        message = Message(N_("a player who went out has every card in a combination"))
        problems.append(("minus", message))
    elif plus == 0:
        message = Message(N_("a player who went out has at least one combination"))
        problems.append(("plus", message))
    return problems


def score_remi_quick(
    plus: int, minus: int, went_out: bool = False, discard_value: int | None = None
) -> RemiQuickScore:
    """One player's deal score from typed totals: plus − minus, + 10 × discard if they went out.

    >>> score_remi_quick(plus=50, minus=0, went_out=True, discard_value=15).points
    200
    """
    problems = _total_problems(plus, minus) + _closing_problems(
        went_out, plus, minus, discard_value
    )
    if problems:
        raise RemiError(problems)
    bonus = CLOSING_MULTIPLIER * discard_value if went_out and discard_value else 0
    points = plus - minus + bonus
    steps = [
        Step(
            N_("{plus} − {minus} = {points}."),
            {"plus": plus, "minus": minus, "points": plus - minus},
        )
    ]
    if bonus:
        steps.append(
            Step(
                N_("Went out: {multiplier} × {value} = +{bonus}, {points} in all."),
                {
                    "multiplier": CLOSING_MULTIPLIER,
                    "value": discard_value,
                    "bonus": bonus,
                    "points": points,
                },
            )
        )
    return RemiQuickScore(points, plus, minus, bonus, tuple(steps))
