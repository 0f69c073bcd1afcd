"""Gin melds (/rules/classic#melds): sets of 3–4 of a rank, runs of 3+ in one suit, ace low.

>>> Meld.of("7S 5S 6S").symbols
'5♠6♠7♠'
>>> is_meld("QS KS AS")
False
>>> try:
...     Meld.of("5S 6S 8S")
... except MeldError as exc:
...     print(exc)
5♠ 6♠ 8♠ is not a run: 7♠ is missing
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, CardsText, Rank, parse_cards
from .explain import N_, Message


class MeldError(ValueError):
    """Cards that do not form a meld; the message (a ``Message``) says why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(message)


class MeldKind(StrEnum):
    """A set (same rank) or a run (same suit, consecutive ranks)."""

    SET = "set"
    RUN = "run"


def _by_index(card: Card) -> int:
    # Suit-major index: a run comes out by rank, a set in the display order ♠♥♦♣.
    return card.index


def _spaced(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(cards)  # shown as "5♠ 6♠ 8♠", cards apart


@dataclass(frozen=True)
class Meld:
    """A legal meld. Runs are sorted by rank; sets by suit in ♠♥♦♣ order."""

    cards: tuple[Card, ...]
    kind: MeldKind

    @classmethod
    def of(cls, cards: CardsText) -> Meld:
        """The meld these cards form, or ``MeldError`` with the reason they do not.

        ``cards`` may be ``Card`` objects or text (``CardError`` for a bad token).
        """
        given = tuple(parse_cards(cards))
        spaced = _spaced(given)  # messages quote the cards as entered
        ordered = tuple(sorted(given, key=_by_index))
        if len(set(ordered)) != len(ordered):
            raise MeldError(
                Message(N_("{cards} is not a meld: a card is entered twice"), cards=spaced)
            )
        if len(ordered) < 3:
            raise MeldError(
                Message(N_("{cards} is not a meld: a meld needs at least 3 cards"), cards=spaced)
            )
        if len({card.rank for card in ordered}) == 1:
            return cls(ordered, MeldKind.SET)  # one pack: at most 4 of a rank
        return cls(_check_run(ordered, spaced), MeldKind.RUN)

    @property
    def symbols(self) -> str:
        """Display form: the cards without spaces, so a list of melds reads ``5♠6♠7♠ K♠K♥K♦``."""
        return "".join(card.symbols for card in self.cards)

    @property
    def points(self) -> int:
        """The gin value of the meld's cards."""
        return sum(card.gin_value for card in self.cards)

    @property
    def low(self) -> Card:
        """The lowest card (of a run: its bottom end)."""
        return self.cards[0]

    @property
    def high(self) -> Card:
        """The highest card (of a run: its top end)."""
        return self.cards[-1]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    def __len__(self) -> int:
        return len(self.cards)


def _check_run(ordered: tuple[Card, ...], spaced: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of a run in rank order, or ``MeldError`` saying what is wrong."""
    suits = {card.suit for card in ordered}
    if len(suits) > 1:
        if len({card.rank for card in ordered}) < len(ordered):
            return _fail(N_("{cards} is not a meld: a set needs 3 or 4 cards of one rank"), spaced)
        return _fail(N_("{cards} is not a run: a run needs cards of one suit"), spaced)
    suit = ordered[0].suit
    ranks = [card.rank for card in ordered]
    missing = [Card(Rank(r), suit) for r in range(ranks[0], ranks[-1] + 1) if Rank(r) not in ranks]
    if missing and ranks[0] == Rank.ACE and ranks[-1] == Rank.KING:
        # Q-K-A and K-A-2 try to go round the corner; only A…K in full holds both ends.
        return _fail(N_("{cards} is not a run: ace is low only"), spaced)
    if len(missing) == 1:
        return _fail(N_("{cards} is not a run: {missing} is missing"), spaced, missing)
    if missing:
        return _fail(N_("{cards} is not a run: {missing} are missing"), spaced, missing)
    return ordered


def _fail(
    template: str, spaced: tuple[Card, ...], missing: Iterable[Card] = ()
) -> tuple[Card, ...]:
    params = {"cards": spaced, "missing": tuple(missing)} if missing else {"cards": spaced}
    raise MeldError(Message(template, **params))


def is_meld(cards: CardsText) -> bool:
    """Whether the cards form a set or a run."""
    try:
        Meld.of(cards)
    except MeldError:
        return False
    return True
