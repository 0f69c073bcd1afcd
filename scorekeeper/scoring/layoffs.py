"""Layoffs: the defender's cards added to the knocker's melds (/rules/classic#layoffs).

Only onto the knocker's melds: the 4th card of a set, or cards extending a run at
either end, chaining outwards (8♠ then 9♠ onto 5♠6♠7♠). A declared group of layoffs
is valid when some order applies them all, which for a run means the run and its
layoffs make one unbroken run.

The defender's best play picks their own melds and their layoffs *together*: a card they
could meld may be worth more laid off (the worked example on /rules/classic#layoffs).

>>> from scorekeeper.scoring import Meld, parse_cards
>>> knocker = [Meld.of("KS KH KD"), Meld.of("5S 6S 7S")]
>>> play = defender_best(knocker, parse_cards("8S 9S 2S 2H 2D 2C AC 8D KC 4H"))
>>> [str(layoff) for layoff in play.layoffs], play.deadwood_points
(['K♣ on meld 0', '8♠ on meld 1', '9♠ on meld 1'], 13)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .arrange import Cover, cards_by_rank, mask_of, meld_from_mask, meld_masks, points_of
from .cards import Card, Rank, Suit
from .explain import N_, Message
from .melds import Meld, MeldKind


@dataclass(frozen=True, order=True)
class Layoff:
    """The defender lays ``card`` off on the knocker's meld number ``meld`` (from 0)."""

    card: Card
    meld: int

    def __str__(self) -> str:
        return f"{self.card.symbols} on meld {self.meld}"


@dataclass(frozen=True)
class DefenderPlay:
    """What the defender lays out: their own melds, their layoffs, the rest is deadwood."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int


def _fits_set(meld: Meld, card: Card) -> bool:
    return len(meld) == 3 and card.rank == meld.low.rank and card not in meld.cards


def _extensions(meld: Meld, held: int) -> list[tuple[int, list[Card]]]:
    """Every group of held cards that can go onto ``meld`` at once, in laying order.

    For a run: each chain below it and each chain above it (a chain starts next to the
    run); both sides may be used together, as two groups.
    """
    if meld.kind is MeldKind.SET:
        fourth = [Card(meld.low.rank, suit) for suit in Suit]
        return [(1 << c.index, [c]) for c in fourth if held >> c.index & 1 and _fits_set(meld, c)]
    groups: list[tuple[int, list[Card]]] = []
    for step, start in ((-1, meld.low.rank - 1), (1, meld.high.rank + 1)):
        chain: list[Card] = []
        mask = 0
        rank = start
        while Rank.ACE <= rank <= Rank.KING:
            card = Card(Rank(rank), meld.low.suit)
            if not held >> card.index & 1:
                break
            chain.append(card)
            mask |= 1 << card.index
            groups.append((mask, list(chain)))
            rank += step
    return groups


def check_layoffs(knocker_melds: Sequence[Meld], layoffs: Sequence[Layoff]) -> list[str]:
    """A message for every declared layoff that does not fit, in any order of laying.

    >>> from scorekeeper.scoring import Meld
    >>> check_layoffs([Meld.of("5S 6S 7S")], [Layoff(Card.parse("9S"), 0)])
    ['9♠ does not fit on 5♠6♠7♠']
    >>> check_layoffs([Meld.of("5S 6S 7S")], [Layoff(Card.parse(c), 0) for c in ("9S", "8S")])
    []
    """
    problems: list[str] = []
    by_meld: dict[int, list[Card]] = {}
    seen: set[Card] = set()
    checked: list[Layoff] = []
    for layoff in layoffs:
        if layoff.card in seen:
            problems.append(Message(N_("{card} is laid off twice"), card=layoff.card))
            continue
        seen.add(layoff.card)
        if not 0 <= layoff.meld < len(knocker_melds):
            problems.append(
                Message(
                    N_(
                        "{card} cannot be laid off on meld {meld}: "
                        "the knocker has {melds} melds, numbered from 0"
                    ),
                    card=layoff.card,
                    meld=layoff.meld,
                    melds=len(knocker_melds),
                )
            )
            continue
        by_meld.setdefault(layoff.meld, []).append(layoff.card)
        checked.append(layoff)
    fitting = {card for i, cards in by_meld.items() for card in _fitting(knocker_melds[i], cards)}
    for layoff in checked:  # in the order they were declared
        if layoff.card not in fitting:
            meld = knocker_melds[layoff.meld]
            problems.append(
                Message(N_("{card} does not fit on {meld}"), card=layoff.card, meld=meld)
            )
    return problems


def _fitting(meld: Meld, cards: list[Card]) -> set[Card]:
    """The declared cards that fit ``meld`` when laid in the best order."""
    if meld.kind is MeldKind.SET:
        return {card for card in cards if _fits_set(meld, card)}
    held = mask_of(cards)
    return {card for _, chain in _extensions(meld, held) for card in chain}


def defender_best(
    knocker_melds: Sequence[Meld], cards: Sequence[Card], *, own_melds: bool = True
) -> DefenderPlay:
    """The defender's lowest deadwood using their own melds and layoffs together.

    ``knocker_melds`` empty (as against gin, where nothing may be laid off) leaves only
    their own melds; ``own_melds=False`` leaves only layoffs (their melds were declared).
    Ties keep the first play found, which melds before it lays off.
    """
    hand = mask_of(cards)
    groups: dict[int, list[Layoff] | None] = {}  # mask -> its layoffs, or None: own meld
    if own_melds:
        groups.update((mask, None) for mask in meld_masks(hand))
    for index, meld in enumerate(knocker_melds):
        for mask, chain in _extensions(meld, hand):
            # A chain that is also their own meld scores the same either way: keep the meld.
            groups.setdefault(mask, [Layoff(card, index) for card in chain])
    cover = Cover(hand, list(groups))
    chosen, dead = cover.walk(cover.live)
    dead |= cover.loose
    melds: list[Meld] = []
    layoffs: list[Layoff] = []
    for mask in chosen:
        placed = groups[mask]
        if placed is None:
            melds.append(meld_from_mask(mask))
        else:
            layoffs.extend(placed)
    melds.sort(key=lambda m: (m.low.rank, m.low.index))
    layoffs.sort(key=lambda layoff: layoff.meld)  # stable: each chain stays in laying order
    return DefenderPlay(tuple(melds), tuple(layoffs), cards_by_rank(dead), points_of(dead))
