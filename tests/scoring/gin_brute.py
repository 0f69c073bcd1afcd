"""Brute-force gin references for the property tests: slow, obvious, independent.

Nothing here uses the engine's bitmasks or meld lists: melds are found by trying every
subset of cards, layoffs by laying cards one at a time in every order.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from scorekeeper.scoring import Card


def value(card: Card) -> int:
    return min(int(card.rank), 10)


def is_set(cards: Sequence[Card]) -> bool:
    return len(cards) in (3, 4) and len({c.rank for c in cards}) == 1


def is_run(cards: Sequence[Card]) -> bool:
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(int(c.rank) for c in cards)  # ace is 1: low only, no wrapping
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(cards: Sequence[Card]) -> bool:
    return is_set(cards) or is_run(cards)


def all_melds(cards: Sequence[Card]) -> list[frozenset[Card]]:
    return [
        frozenset(combo)
        for size in range(3, len(cards) + 1)
        for combo in combinations(cards, size)
        if is_meld(combo)
    ]


def min_deadwood(cards: Sequence[Card]) -> int:
    """Least deadwood over every set of pairwise disjoint melds."""
    return _least(frozenset(cards), tuple(all_melds(cards)))


def _least(cards: frozenset[Card], melds: tuple[frozenset[Card], ...]) -> int:
    total = sum(value(c) for c in cards)
    best = total

    def walk(start: int, used: frozenset[Card], melded: int) -> None:
        nonlocal best
        best = min(best, total - melded)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], melded + sum(value(c) for c in melds[i]))

    walk(0, frozenset(), 0)
    return best


def min_deadwood_after_discard(cards: Sequence[Card]) -> int:
    """Least deadwood of the 10 cards left after the best of 11 discards."""
    melds = all_melds(cards)
    return min(_least(frozenset(cards) - {d}, tuple(m for m in melds if d not in m)) for d in cards)


def fits(meld: frozenset[Card], card: Card) -> bool:
    """Whether ``card`` can be laid off on ``meld`` as it stands now."""
    return is_meld([*meld, card]) and card not in meld


def can_lay_all(knocker: Sequence[frozenset[Card]], layoffs: Sequence[tuple[Card, int]]) -> bool:
    """Whether some order lays every (card, meld index) off, one card at a time."""

    @cache
    def reach(melds: tuple[frozenset[Card], ...], left: frozenset[tuple[Card, int]]) -> bool:
        if not left:
            return True
        for card, index in left:
            if 0 <= index < len(melds) and fits(melds[index], card):
                grown = (*melds[:index], melds[index] | {card}, *melds[index + 1 :])
                if reach(grown, left - {(card, index)}):
                    return True
        return False

    return reach(tuple(knocker), frozenset(layoffs))


def most_laid_off(knocker: Sequence[frozenset[Card]], cards: frozenset[Card]) -> int:
    """The most value the defender can lay off from ``cards``, laying one card at a time."""
    best = 0
    seen: set[tuple[frozenset[Card], ...]] = set()

    def grow(melds: tuple[frozenset[Card], ...], laid: int) -> None:
        nonlocal best
        if melds in seen:
            return
        seen.add(melds)
        best = max(best, laid)
        placed = frozenset().union(*melds)
        for card in cards - placed:
            for i, meld in enumerate(melds):
                if fits(meld, card):
                    grow((*melds[:i], meld | {card}, *melds[i + 1 :]), laid + value(card))

    grow(tuple(knocker), 0)
    return best


def defender_min_deadwood(knocker: Sequence[frozenset[Card]], cards: Sequence[Card]) -> int:
    """The defender's least deadwood over every choice of own melds, then layoffs."""
    melds = all_melds(cards)
    total = sum(value(c) for c in cards)
    best = total

    def walk(start: int, used: frozenset[Card], melded: int) -> None:
        nonlocal best
        rest = frozenset(cards) - used
        best = min(best, total - melded - most_laid_off(knocker, rest))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], melded + sum(value(c) for c in melds[i]))

    walk(0, frozenset(), 0)
    return best
