"""The best way to lay out a gin hand: melds that leave the least deadwood.

Cards are bits of a 52-bit mask (``Card.index``: 13 bits per suit, ace low), so a run
is a window of adjacent bits and "these cards are still free" is one ``&``. The search
always decides the lowest free card first: it is deadwood, or it is the lowest card of
a meld made of free cards. Each partition is therefore reached exactly once, and the
results of sub-masks are memoised. For 11 cards one card may be discarded instead of
counted, which is the exact best discard in the same search.

>>> arrangement = best_arrangement("5S 6S 7S 8S KH KD KC 2D 3C 9H")
>>> [m.symbols for m in arrangement.melds], arrangement.deadwood_points
(['5♠6♠7♠8♠', 'K♥K♦K♣'], 14)
>>> eleven = best_arrangement("5S 6S 7S 8S KH KD KC 2D 3C 9H 4S")
>>> str(eleven.discard), eleven.deadwood_points
('9H', 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import attrgetter

from .cards import DECK, Card, CardError, CardsText, find_duplicates, parse_cards
from .explain import N_, Message
from .melds import Meld, MeldKind
from .rules import Rules

_ROW = 0x1FFF  # one suit's 13 bits
_VALUE = {1 << card.index: card.gin_value for card in DECK}
_CARD = {1 << card.index: card for card in DECK}
_BITS = [1 << index for index in range(52)]


@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood of a hand; for 11 cards, after ``discard`` (``None``: big gin)."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    discard: Card | None = None

    @property
    def gin(self) -> bool:
        """No deadwood."""
        return self.deadwood_points == 0

    @property
    def big_gin(self) -> bool:
        """All 11 cards melded, nothing discarded."""
        return self.discard is None and sum(len(m) for m in self.melds) == 11 and self.gin

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card the arrangement places (the discard excluded)."""
        return tuple(card for meld in self.melds for card in meld.cards) + self.deadwood


# --- masks -----------------------------------------------------------------------------


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of some cards (a card given twice counts once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, ascending by index (suit, then rank)."""
    return (
        _ROW_CARDS[0][mask & _ROW]
        + _ROW_CARDS[1][(mask >> 13) & _ROW]
        + _ROW_CARDS[2][(mask >> 26) & _ROW]
        + _ROW_CARDS[3][(mask >> 39) & _ROW]
    )


def points_of(mask: int) -> int:
    """Deadwood value of the cards of a mask."""
    return (
        _ROW_POINTS[mask & _ROW]
        + _ROW_POINTS[(mask >> 13) & _ROW]
        + _ROW_POINTS[(mask >> 26) & _ROW]
        + _ROW_POINTS[(mask >> 39) & _ROW]
    )


def _row_runs(row: int) -> tuple[int, ...]:
    """Every run (window of 3+ adjacent bits) inside one suit's 13-bit row."""
    runs: list[int] = []
    start = 0
    while start < 13:
        if not row >> start & 1:
            start += 1
            continue
        end = start
        while end < 13 and row >> end & 1:
            end += 1
        for lo in range(start, end - 2):  # every window of the maximal run [start, end)
            # Longest first: the search keeps the first of equal layouts, so a long run
            # is laid as one meld rather than as pieces.
            for hi in range(end, lo + 2, -1):
                runs.append(((1 << (hi - lo)) - 1) << lo)
        start = end
    return tuple(runs)


# Tables over all 8192 rows of one suit (~0.1 s at import): a hand's runs, cards and
# points are then four look-ups each instead of a loop over its cards.
_ROWS = range(1 << 13)
_ROW_RUNS = tuple(_row_runs(row) for row in _ROWS)
_ROW_POINTS = tuple(sum(min(r + 1, 10) for r in range(13) if row >> r & 1) for row in _ROWS)
_ROW_CARDS = tuple(
    tuple(tuple(DECK[13 * s + r] for r in range(13) if row >> r & 1) for row in _ROWS)
    for s in range(4)
)


# Reading order (rank, then suit) without sorting: spread each suit's row so that rank r
# of suit s lands on bit 4r + s, then cut that rank-major mask into four 13-bit chunks.
_SPREAD = tuple(sum(1 << (4 * r) for r in range(13) if row >> r & 1) for row in _ROWS)
_CHUNK_CARDS = tuple(
    tuple(
        tuple(
            DECK[13 * (j % 4) + j // 4]
            for j in range(13 * k, 13 * k + 13)
            if row >> (j - 13 * k) & 1
        )
        for row in _ROWS
    )
    for k in range(4)
)


def cards_by_rank(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in reading order: by rank, then suit (♠♥♦♣)."""
    spread = (
        _SPREAD[mask & _ROW]
        | _SPREAD[(mask >> 13) & _ROW] << 1
        | _SPREAD[(mask >> 26) & _ROW] << 2
        | _SPREAD[(mask >> 39) & _ROW] << 3
    )
    return (
        _CHUNK_CARDS[0][spread & _ROW]
        + _CHUNK_CARDS[1][(spread >> 13) & _ROW]
        + _CHUNK_CARDS[2][(spread >> 26) & _ROW]
        + _CHUNK_CARDS[3][(spread >> 39) & _ROW]
    )


def meld_masks(hand: int) -> list[int]:
    """Every meld (as a mask) made only of cards in ``hand``."""
    a = hand & _ROW
    b = (hand >> 13) & _ROW
    c = (hand >> 26) & _ROW
    d = (hand >> 39) & _ROW
    melds = list(_ROW_RUNS[a])
    # Most rows hold no run: test before building a shifted copy.
    if runs := _ROW_RUNS[b]:
        melds += [run << 13 for run in runs]
    if runs := _ROW_RUNS[c]:
        melds += [run << 26 for run in runs]
    if runs := _ROW_RUNS[d]:
        melds += [run << 39 for run in runs]
    three = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in 3 or 4 suits
    while three:
        low = three & -three
        three ^= low
        full = (low if a & low else 0) | (low << 13 if b & low else 0)
        full |= (low << 26 if c & low else 0) | (low << 39 if d & low else 0)
        melds.append(full)
        if a & b & c & d & low:  # four of a kind: also its four sets of three
            melds += [full ^ low, full ^ (low << 13), full ^ (low << 26), full ^ (low << 39)]
    return melds


def _disjoint(melds: list[int]) -> int:
    """The union of the melds if no two share a card, else 0."""
    union = 0
    for meld in melds:
        if union & meld:
            return 0
        union |= meld
    return union


# --- the search --------------------------------------------------------------------------


class Cover:
    """Least deadwood of a hand covered by disjoint groups (melds, or melds and layoffs).

    ``groups`` are masks inside ``hand``; a group may be used at most once. With
    ``discard`` one card may be thrown away instead of counted (11-card hands).
    """

    def __init__(self, hand: int, groups: Sequence[int]) -> None:
        by_low: dict[int, list[int]] = {}
        covered = 0
        for group in groups:
            by_low.setdefault(group & -group, []).append(group)
            covered |= group
        self.hand = hand
        self.by_low = by_low
        self.loose = hand & ~covered  # cards in no group: always deadwood (or the discard)
        self.live = hand & covered
        self._memo: dict[int, int] = {0: 0}
        self._memo_discard: dict[int, int] = {}  # never asked for 0: nothing to discard

    def least(self, mask: int) -> int:
        """Least deadwood of the cards of ``mask`` (a subset of the live cards)."""
        memo = self._memo
        found = memo.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        rest = mask ^ low
        best = _VALUE[low] + self.least(rest)
        for group in self.by_low.get(low, ()):
            if group & mask == group:
                value = self.least(mask ^ group)
                if value < best:
                    best = value
        memo[mask] = best
        return best

    def least_discarding(self, mask: int) -> int:
        """Least deadwood of ``mask`` when exactly one of its cards is discarded."""
        memo = self._memo_discard
        found = memo.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        rest = mask ^ low
        best = self.least(rest)  # discard this card
        if best:
            value = _VALUE[low] + self.least_discarding(rest)
            if value < best:
                best = value
            for group in self.by_low.get(low, ()):
                if group & mask == group and mask != group:
                    value = self.least_discarding(mask ^ group)
                    if value < best:
                        best = value
        memo[mask] = best
        return best

    def walk(self, mask: int) -> tuple[list[int], int]:
        """One best cover of ``mask``: its groups and its deadwood mask (first found)."""
        groups: list[int] = []
        dead = 0
        while mask:
            target = self.least(mask)
            low = mask & -mask
            if _VALUE[low] + self.least(mask ^ low) == target:
                dead |= low
                mask ^= low
                continue
            for group in self.by_low[low]:
                if group & mask == group and self.least(mask ^ group) == target:
                    groups.append(group)
                    mask ^= group
                    break
        return groups, dead

    def walk_discarding(self, mask: int) -> tuple[list[int], int, int]:
        """One best cover of ``mask`` with one discard: groups, deadwood mask, discard bit."""
        groups: list[int] = []
        dead = 0
        while True:
            target = self.least_discarding(mask)
            low = mask & -mask
            rest = mask ^ low
            if self.least(rest) == target:
                more, rest_dead = self.walk(rest)
                return groups + more, dead | rest_dead, low
            if _VALUE[low] + self.least_discarding(rest) == target:
                dead |= low
                mask = rest
                continue
            for group in self.by_low[low]:
                if group & mask == group and self.least_discarding(mask ^ group) == target:
                    groups.append(group)
                    mask ^= group
                    break

    def every(self, mask: int) -> Iterator[tuple[list[int], int]]:
        """Every best cover of ``mask`` (groups, deadwood mask), in a fixed order."""
        if not mask:
            yield [], 0
            return
        target = self.least(mask)
        low = mask & -mask
        if _VALUE[low] + self.least(mask ^ low) == target:
            for groups, dead in self.every(mask ^ low):
                yield groups, dead | low
        for group in self.by_low.get(low, ()):
            if group & mask == group and self.least(mask ^ group) == target:
                for groups, dead in self.every(mask ^ group):
                    yield [group, *groups], dead


# --- arrangements --------------------------------------------------------------------------

_MELDS: dict[int, Meld] = {}  # there are only 329 melds in a pack: build each once


def meld_from_mask(mask: int) -> Meld:
    """The ``Meld`` of a mask known to be a meld (no re-validation: this is the hot path)."""
    meld = _MELDS.get(mask)
    if meld is None:
        # ``cards_of`` gives index order, which is ``Meld.of``'s order for sets and runs.
        cards = cards_of(mask)
        kind = MeldKind.SET if cards[0].rank == cards[1].rank else MeldKind.RUN
        meld = _MELDS[mask] = Meld(cards, kind)
    return meld


_READING_ORDER = attrgetter("rank", "index")  # deadwood and melds read lowest rank first


def _arrangement(groups: Sequence[int], dead: int, discard: int = 0) -> Arrangement:
    melds = sorted(map(meld_from_mask, groups), key=_meld_order) if groups else ()
    return Arrangement(
        tuple(melds), cards_by_rank(dead), points_of(dead), _CARD[discard] if discard else None
    )


def _meld_order(meld: Meld) -> tuple[int, int]:
    return _READING_ORDER(meld.cards[0])


def _top_bit(mask: int) -> int:
    """The card a player throws first from ``mask``: the highest rank, then the last suit.

    Gin value never falls as rank rises, so this is also a card of the highest value.
    """
    rows = [(mask >> (13 * s)) & _ROW for s in range(4)]
    rank = 1 << ((rows[0] | rows[1] | rows[2] | rows[3]).bit_length() - 1)
    suit = next(s for s in (3, 2, 1, 0) if rows[s] & rank)
    return rank << (13 * suit)


def hand_mask(cards: CardsText) -> tuple[list[Card], int]:
    """Parse cards and build their mask; a card entered twice is a ``CardError``."""
    parsed = parse_cards(cards)
    # Adding is the fastest way to build the mask, and still exact: a repeated card
    # carries into another bit, so the mask then has fewer bits than there are cards.
    mask = sum([_BITS[card.index] for card in parsed])
    if mask.bit_count() != len(parsed):
        twice = find_duplicates(parsed)
        raise CardError([Message(N_("{card} is entered twice"), card=card) for card in twice])
    return parsed, mask


def _big_gin_allowed(rules: Rules | None) -> bool:
    return rules is None or rules.big_gin_bonus is not None


def best_arrangement(cards: CardsText, rules: Rules | None = None) -> Arrangement:
    """The minimum-deadwood arrangement; for 11 cards also the best discard.

    Eleven cards that all meld are big gin (no discard) when ``rules`` plays big gin
    or ``rules`` is ``None``. Ties are broken the same way every time.
    """
    parsed, hand = hand_mask(cards)
    melds = meld_masks(hand)
    eleven = len(parsed) == 11
    union = _disjoint(melds)
    if union or not melds:
        # No two melds overlap (so each has 3 cards): take them all. With 11 cards the
        # rest cannot be empty, and throwing its top card beats breaking a meld.
        dead = hand ^ union
        if not eleven:
            return _arrangement(melds, dead)
        top = _top_bit(dead)
        return _arrangement(melds, dead ^ top, top)
    cover = Cover(hand, melds)
    if eleven and _big_gin_allowed(rules) and not cover.loose and not cover.least(hand):
        return _arrangement(*cover.walk(hand))
    if eleven:
        return _arrangement(*_best_discard(cover))
    groups, dead = cover.walk(cover.live)
    return _arrangement(groups, dead | cover.loose)


def _best_discard(cover: Cover) -> tuple[list[int], int, int]:
    loose, live = cover.loose, cover.live
    if loose:
        # Throwing the top loose card beats throwing a live one unless the live part
        # can shed a card for more than that card's value; compare both.
        top = _top_bit(loose)
        keep = points_of(loose ^ top) + cover.least(live)
        if keep <= points_of(loose) + cover.least_discarding(live):
            groups, dead = cover.walk(live)
            return _prefer_high_discard(groups, dead | (loose ^ top), top)
        groups, dead, discard = cover.walk_discarding(live)
        return _prefer_high_discard(groups, dead | loose, discard)
    return _prefer_high_discard(*cover.walk_discarding(live))


def _prefer_high_discard(groups: list[int], dead: int, discard: int) -> tuple[list[int], int, int]:
    # Among deadwood cards worth as much as the discard, throw the highest: same score,
    # and it is what a player would do (a king rather than a ten).
    if not dead:
        return groups, dead, discard
    top = _top_bit(dead | discard)
    if _VALUE[top] != _VALUE[discard]:
        return groups, dead, discard
    return groups, (dead | discard) ^ top, top


def least_deadwood(cards: CardsText) -> int:
    """Minimum deadwood of any number of cards (no discard)."""
    _, hand = hand_mask(cards)
    cover = Cover(hand, meld_masks(hand))
    return points_of(cover.loose) + cover.least(cover.live)


def all_best_arrangements(cards: CardsText, rules: Rules | None = None) -> list[Arrangement]:
    """Every minimum-deadwood arrangement, in a fixed order (a run is never cut in pieces).

    For 11 cards: every big gin layout (when big gin is allowed, as in
    ``best_arrangement``), otherwise every layout after every best discard.
    """
    parsed, hand = hand_mask(cards)
    cover = Cover(hand, meld_masks(hand))
    if len(parsed) != 11:
        found = [_arrangement(g, d | cover.loose) for g, d in cover.every(cover.live)]
    elif _big_gin_allowed(rules) and not cover.loose and cover.least(cover.live) == 0:
        found = [_arrangement(g, d) for g, d in cover.every(cover.live)]
    else:
        found = []
        best = best_arrangement(parsed, rules).deadwood_points
        for card in sorted(parsed, key=_READING_ORDER, reverse=True):
            bit = 1 << card.index
            sub = Cover(hand ^ bit, meld_masks(hand ^ bit))
            if points_of(sub.loose) + sub.least(sub.live) == best:
                found.extend(_arrangement(g, d | sub.loose, bit) for g, d in sub.every(sub.live))
    return [layout for layout in found if not _split_run(layout.melds)]


def _split_run(melds: Sequence[Meld]) -> bool:
    """Whether two runs touch end to end: the same layout as their joined run.

    A run laid in pieces takes exactly the layoffs of the whole run, so it is never a
    different choice for the knocker, only a longer list.
    """
    ends = {(m.high.suit, m.high.rank + 1) for m in melds if m.kind is MeldKind.RUN}
    return any((m.low.suit, m.low.rank) in ends for m in melds if m.kind is MeldKind.RUN)
