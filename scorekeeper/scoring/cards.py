"""Cards and their notations.

A card's canonical text is rank then suit, ``T`` for ten: ``TD``, ``7H``, ``AS``.
Input is lenient (``10♦``, ``q♠``, ``7h, 8h``); output is always canonical, and the
display form uses suit symbols.

>>> parse_cards("10♦ q♠, 7h")
[Card.parse('TD'), Card.parse('QS'), Card.parse('7H')]
>>> Card.parse("td").symbols
'10♦'
>>> check_distinct({"knocker.cards": parse_cards("7H 8H"), "defender.cards": parse_cards("7H")})
[('defender.cards', '7♥ is in both hands')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from .explain import N_, Message, Step, step_of


class CardError(ValueError):
    """Text that is not a list of cards; ``problems`` has one message per bad token.

    The messages are ``Message`` strings; ``steps`` are their structured forms.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))

    @property
    def steps(self) -> list[Step | None]:
        """Each problem as a template and its values (``None`` for a plain string)."""
        return [step_of(problem) for problem in self.problems]


class Suit(StrEnum):
    """The four suits; the value is the canonical letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit symbol shown to players (♠♥♦♣)."""
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(IntEnum):
    """Ranks, ace low: the value is the rank's position (ACE=1 … KING=13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def char(self) -> str:
        """The one-character canonical form: ``A``, ``2``…``9``, ``T``, ``J``, ``Q``, ``K``."""
        return "A23456789TJQK"[self - 1]

    @property
    def label(self) -> str:
        """The form printed on a card: ``10`` rather than ``T``."""
        return "10" if self == Rank.TEN else self.char


# Suit order in ``Card.index``: spades first. Index = suit position * 13 + rank - 1, so
# the cards of one suit are 13 adjacent bits in ascending rank: runs become bit windows.
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_POS = {suit: pos for pos, suit in enumerate(_SUIT_ORDER)}

_RANK_TOKENS: dict[str, Rank] = {r.char: r for r in Rank} | {"10": Rank.TEN}
_SUIT_TOKENS: dict[str, Suit] = {s.value: s for s in Suit} | {s.symbol: s for s in Suit}
# Text-presentation (white) suit symbols and the variation selector some keyboards add.
_SUIT_TOKENS |= {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_SEPARATORS = re.compile(r"[\s,;]+")
_TOKEN = re.compile(r"^(10|[2-9atjqk])([shdc♠♥♦♣♤♡♢♧])$")


@dataclass(frozen=True, order=True)
class Card:
    """One playing card. Ordered by rank, then suit letter."""

    rank: Rank
    suit: Suit
    # A stable number 0..51, suit-major (spades, hearts, diamonds, clubs), ace low: bit
    # ``index`` of a hand's mask. Stored rather than computed: the solver reads it a lot.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", _SUIT_POS[self.suit] * 13 + self.rank - 1)

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from any notation (``TD``, ``10♦``, ``td``, ``q♠``)."""
        token = text.strip().replace("\ufe0f", "").replace("\ufe0e", "").lower()
        match = _TOKEN.match(token)
        if match is None:
            raise CardError([Message(N_("{text} is not a card"), text=repr(text.strip()))])
        return cls(_RANK_TOKENS[match.group(1).upper()], _SUIT_TOKENS[match.group(2).upper()])

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this ``index`` (0..51)."""
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is out of range 0..51")
        return DECK[index]

    @property
    def symbols(self) -> str:
        """The display form, e.g. ``10♦``."""
        return self.rank.label + self.suit.symbol

    @property
    def gin_value(self) -> int:
        """Deadwood value in gin: ace 1, pips at face value, pictures 10."""
        return min(int(self.rank), 10)

    @property
    def remi_value(self) -> int:
        """Card value in Remi (/rules/remi): 2–10 are 5, pictures 10, ace 15."""
        if self.rank == Rank.ACE:
            return 15
        return 10 if self.rank >= Rank.JACK else 5

    def __str__(self) -> str:
        return self.rank.char + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_JUST_CARDS = {Card}
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in _SUIT_ORDER for rank in Rank)


CardsText = str | Iterable[str | Card]
"""What ``parse_cards`` accepts: a string, or strings and ``Card`` objects mixed."""


def _tokens(text: CardsText) -> list[str | Card]:
    pieces: list[object] = [text] if isinstance(text, str) else list(text)
    tokens: list[str | Card] = []
    for piece in pieces:
        if isinstance(piece, Card):
            tokens.append(piece)
        elif isinstance(piece, str):
            tokens.extend(t for t in _SEPARATORS.split(piece) if t)
        else:
            tokens.append(repr(piece))  # JSON numbers and the like: reported as not a card
    return tokens


def parse_cards(text: CardsText) -> list[Card]:
    """Cards from one string or a list of strings, each holding one or more cards.

    Every bad token is reported at once in ``CardError.problems``.

    >>> parse_cards(["7h 8h", "9H"])
    [Card.parse('7H'), Card.parse('8H'), Card.parse('9H')]
    >>> try:
    ...     parse_cards("7h 1x zz")
    ... except CardError as exc:
    ...     print(exc.problems)
    ["'1x' is not a card", "'zz' is not a card"]
    """
    if not isinstance(text, str):
        given = list(text)
        if set(map(type, given)) <= _JUST_CARDS:
            return given  # type: ignore[return-value]  # all cards: the solver's hot path
        text = given
    cards, problems = read_cards(text)
    if problems:
        raise CardError(problems)
    return cards


def read_cards(text: CardsText) -> tuple[list[Card], list[str]]:
    """The good cards of ``text`` and a message for each bad token (a lenient parse).

    Validation uses it to go on checking the cards it could read.
    """
    cards: list[Card] = []
    problems: list[str] = []
    for token in _tokens(text):
        if isinstance(token, Card):
            cards.append(token)
            continue
        try:
            cards.append(Card.parse(token))
        except CardError as exc:
            problems.extend(exc.problems)
    return cards, problems


def find_duplicates(cards: Iterable[Card]) -> list[Card]:
    """Cards that occur more than once, each listed once, in order of first repeat."""
    seen: set[Card] = set()
    repeated: list[Card] = []
    for card in cards:
        if card in seen and card not in repeated:
            repeated.append(card)
        seen.add(card)
    return repeated


# How ``check_distinct`` words a card repeated in one group; other groups are named by
# their keys.
_TWICE_IN = {
    "knocker.cards": N_("{card} is entered twice in the knocker's hand"),
    "defender.cards": N_("{card} is entered twice in the defender's hand"),
}


def _twice(card: Card, where: str) -> Message:
    template = _TWICE_IN.get(where)
    if template is None:
        return Message(N_("{card} is entered twice in {group}"), card=card, group=where)
    return Message(template, card=card)


def _in_both(card: Card, first: str, second: str) -> Message:
    if first.endswith(".cards") and second.endswith(".cards"):
        return Message(N_("{card} is in both hands"), card=card)
    return Message(N_("{card} is in {first} and {second}"), card=card, first=first, second=second)


def check_distinct(groups: Mapping[str, Sequence[Card]]) -> list[tuple[str, str]]:
    """(where, message) for every card entered twice, within a group or across groups.

    A card repeated across groups is reported at the later group. Two hands
    (``*.cards`` keys) are "both hands"; otherwise the groups are named.

    >>> check_distinct({"knocker.cards": parse_cards("7H 7H 8H")})
    [('knocker.cards', "7♥ is entered twice in the knocker's hand")]
    """
    found: list[tuple[str, str]] = []
    owner: dict[Card, str] = {}
    for where, cards in groups.items():
        for card in find_duplicates(cards):
            found.append((where, _twice(card, where)))
        for card in dict.fromkeys(cards):
            first = owner.get(card)
            if first is None:
                owner[card] = where
            else:
                found.append((where, _in_both(card, first, where)))
    return found
