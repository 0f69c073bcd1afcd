"""Indonesian Remi combinations and the best arrangement of a hand (/rules/remi).

A *sequence* is 3+ consecutive numerals (2–10) of one suit, or exactly J-Q-K of one
suit; numerals and pictures never mix and aces are never in a sequence. A *set* is 3
or 4 cards of one rank. With ``sets_need_sequence`` a player's sets count only if they
has a sequence somewhere (on the table or in hand).

>>> from scorekeeper.scoring.cards import parse_cards
>>> combination_from_cards(parse_cards("5C 3C 4C")).cards
(Card.parse('3C'), Card.parse('4C'), Card.parse('5C'))
>>> combination_problem(parse_cards("QS KS AS"))
'aces are never in a sequence (Q♠ K♠ A♠)'
>>> arrange_remi(parse_cards("QC JD JC 6C 5C 4C 3C")).points
-10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations as subsets

from .cards import Card, Rank, Suit
from .errors import ProblemsError
from .explain import N_, Message
from .rules import Rules


class RemiError(ProblemsError):
    """Remi input that cannot be scored; ``problems`` lists every (where, message) at once."""


class CombinationError(ValueError):
    """Cards that form no combination; ``message`` (a ``Message``) says why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(message)


class CombinationKind(StrEnum):
    """The two kinds of Remi combination."""

    SEQUENCE = "sequence"
    SET = "set"


@dataclass(frozen=True)
class Combination:
    """A valid sequence or set; sequences in rank order, sets in suit order (♠♥♦♣)."""

    kind: CombinationKind
    cards: tuple[Card, ...]
    on_table: bool = False

    @property
    def value(self) -> int:
        """The Remi value of its cards."""
        return remi_points(self.cards)

    @property
    def symbols(self) -> str:
        """The display form, e.g. ``7♠ 8♠ 9♠``."""
        return " ".join(card.symbols for card in self.cards)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def remi_points(cards: Iterable[Card]) -> int:
    """The total Remi value of some cards (2–10 are 5, pictures 10, ace 15)."""
    return sum(card.remi_value for card in cards)


def _is_picture(card: Card) -> bool:
    return card.rank >= Rank.JACK


def _sequence_problem(ordered: Sequence[Card], shown: tuple[Card, ...]) -> Message | None:
    if any(card.rank == Rank.ACE for card in ordered):
        return Message(N_("aces are never in a sequence ({cards})"), cards=shown)
    pictures = [card for card in ordered if _is_picture(card)]
    if pictures and len(pictures) < len(ordered):
        return Message(
            N_(
                "numerals and pictures never mix in a sequence; 10 and J are not adjacent ({cards})"
            ),
            cards=shown,
        )
    ranks = {card.rank for card in ordered}
    missing = [r for r in range(ordered[0].rank, ordered[-1].rank + 1) if r not in ranks]
    if missing:
        gaps = ", ".join(Rank(r).label for r in missing)
        return Message(N_("{cards} is not a sequence: {ranks} missing"), cards=shown, ranks=gaps)
    return None


def combination_problem(cards: Sequence[Card]) -> Message | None:
    """Why these (distinct) cards are not a valid combination, or ``None`` if they are."""
    shown = tuple(cards)  # as declared, so the player recognises it
    if not cards:
        return Message(N_("a combination needs at least 3 cards; this one has {count}"), count=0)
    if len(cards) < 3:
        return Message(
            N_("a combination needs at least 3 cards; {cards} has {count}"),
            cards=shown,
            count=len(cards),
        )
    if len({card.rank for card in cards}) == 1:
        return None
    if len({card.suit for card in cards}) > 1:
        return Message(
            N_("{cards} is neither a set (ranks differ) nor a sequence (suits differ)"),
            cards=shown,
        )
    return _sequence_problem(sorted(cards, key=lambda card: card.rank), shown)


def combination_from_cards(cards: Sequence[Card], *, on_table: bool = False) -> Combination:
    """The combination these cards form; ``CombinationError`` (a ``ValueError``) if none."""
    problem = combination_problem(cards)
    if problem is not None:
        raise CombinationError(problem)
    if len({card.rank for card in cards}) == 1:
        return Combination(CombinationKind.SET, tuple(sorted(cards, key=_suit_order)), on_table)
    ordered = tuple(sorted(cards, key=lambda card: card.rank))
    return Combination(CombinationKind.SEQUENCE, ordered, on_table)


def _suit_order(card: Card) -> int:
    return card.index


@dataclass(frozen=True)
class RemiArrangement:
    """One player's cards arranged: counted combinations, minus cards, and the score.

    ``combinations`` and ``unmatched`` together hold every card once. ``void_sets``
    are sets that do not count for want of a sequence; their cards are in ``unmatched``.
    ``points`` is ``plus - minus`` without any closing bonus.
    """

    combinations: tuple[Combination, ...]
    unmatched: tuple[Card, ...]
    void_sets: tuple[Combination, ...] = ()

    @property
    def plus(self) -> int:
        """The value of the cards in counted combinations."""
        return sum(combination.value for combination in self.combinations)

    @property
    def minus(self) -> int:
        """The value of every other card."""
        return remi_points(self.unmatched)

    @property
    def points(self) -> int:
        """Plus minus minus."""
        return self.plus - self.minus

    @property
    def has_sequence(self) -> bool:
        """Whether a counted sequence is among the combinations."""
        return any(c.kind == CombinationKind.SEQUENCE for c in self.combinations)


# --- the search -------------------------------------------------------------------------
# Cards are hand positions; a candidate combination is a bit mask of positions. Every
# card scores +value in a counted combination and -value otherwise, so the best
# arrangement covers the most value; ties prefer more cards in combinations.

_Score = tuple[int, int]  # (value covered, cards covered)
_Found = tuple[_Score, tuple[int, ...]]  # and the masks of the combinations used


def _runs(positions: Sequence[tuple[int, int]]) -> list[int]:
    """Masks of every window of 3+ consecutive ranks among (rank, position) pairs."""
    ordered = sorted(positions)
    found: list[int] = []
    for start in range(len(ordered)):
        mask = 1 << ordered[start][1]
        for length in range(1, len(ordered) - start):
            rank, position = ordered[start + length]
            if rank != ordered[start][0] + length:
                break
            mask |= 1 << position
            if length >= 2:
                found.append(mask)
    return found


def _candidates(cards: Sequence[Card]) -> list[tuple[int, bool]]:
    """Every valid combination within ``cards`` as (mask, is_sequence)."""
    numerals: dict[Suit, list[tuple[int, int]]] = {}
    pictures: dict[Suit, list[tuple[int, int]]] = {}
    same_rank: dict[Rank, list[int]] = {}
    for position, card in enumerate(cards):
        same_rank.setdefault(card.rank, []).append(position)
        if card.rank != Rank.ACE:
            group = pictures if _is_picture(card) else numerals
            group.setdefault(card.suit, []).append((card.rank, position))
    found = [(mask, True) for run in numerals.values() for mask in _runs(run)]
    found += [(mask, True) for run in pictures.values() for mask in _runs(run)]
    for positions in same_rank.values():
        for size in (3, 4):
            found += [(sum(1 << i for i in chosen), False) for chosen in subsets(positions, size)]
    return found


def _search(cards: Sequence[Card], need_sequence: bool) -> _Found | None:
    """The best disjoint combinations; with ``need_sequence`` at least one is a sequence."""
    candidates = _candidates(cards)
    values = [card.remi_value for card in cards]

    @cache
    def best(mask: int, need: bool) -> _Found | None:
        if mask == 0:
            return None if need else ((0, 0), ())
        low = mask & -mask
        options: list[_Found] = []
        rest = best(mask & ~low, need)  # the lowest card stays unmatched
        if rest is not None:
            options.append(rest)
        for combo, is_sequence in candidates:
            if combo & low and combo & mask == combo:
                found = best(mask & ~combo, need and not is_sequence)
                if found is not None:
                    (value, count), masks = found
                    gain = sum(v for i, v in enumerate(values) if combo >> i & 1)
                    options.append(((value + gain, count + combo.bit_count()), (combo, *masks)))
        return max(options, key=lambda option: option[0], default=None)

    return best((1 << len(cards)) - 1, need_sequence)


def _arranged(cards: Sequence[Card], masks: Iterable[int]) -> tuple[list[Combination], list[Card]]:
    used = 0
    combos: list[Combination] = []
    for mask in masks:
        used |= mask
        combos.append(combination_from_cards([c for i, c in enumerate(cards) if mask >> i & 1]))
    combos.sort(key=lambda c: c.kind != CombinationKind.SEQUENCE)  # sequences first
    return combos, [c for i, c in enumerate(cards) if not used >> i & 1]


def arrange_remi(
    hand: Sequence[Card], rules: Rules | None = None, table: Sequence[Combination] = ()
) -> RemiArrangement:
    """The arrangement of ``hand`` that scores best beside the declared ``table`` combinations.

    Exact: every arrangement is considered. With ``sets_need_sequence`` the search also
    tries forming a sequence that costs a set, when that sequence makes other sets count.
    """
    strict = rules.sets_need_sequence if rules is not None else True
    table_sequence = any(c.kind == CombinationKind.SEQUENCE for c in table)
    if not strict or table_sequence:
        found = _search(hand, need_sequence=False)
        assert found is not None  # leaving every card unmatched is always possible
        combos, unmatched = _arranged(hand, found[1])
        return RemiArrangement((*table, *combos), tuple(unmatched))
    return _best_strict_without_table_sequence(hand, table)


def _best_strict_without_table_sequence(
    hand: Sequence[Card], table: Sequence[Combination]
) -> RemiArrangement:
    # Either a sequence is formed in hand and every set counts, or no set counts at all.
    with_sequence = _search(hand, need_sequence=True)
    if with_sequence is not None:  # a sequence covers value, and nothing counts without one
        combos, unmatched = _arranged(hand, with_sequence[1])
        return RemiArrangement((*table, *combos), tuple(unmatched))
    would_be = _search(hand, need_sequence=False)
    assert would_be is not None
    void_in_hand, _ = _arranged(hand, would_be[1])
    table_cards = [card for combo in table for card in combo.cards]
    return RemiArrangement((), (*table_cards, *hand), (*table, *void_in_hand))
