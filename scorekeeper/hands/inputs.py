"""A gin hand as stored, and scoring it.

The web forms and the JSON API both turn what a player entered into a stored hand
(``hands/stored.py``: quick, dead or card by card, each built in one place there); the
sheet, the PDF and the API scores all come from replaying them through the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypedDict, cast

from ..scoring import (
    Card,
    HandError,
    HandResult,
    HandScore,
    Layoff,
    Outcome,
    Problem,
    Rules,
    parse_cards,
    score_quick_hand,
    settle_gin_hand,
)
from .stored import DeadHand, GinHand, QuickGinHand

QUICK_OUTCOMES = (Outcome.KNOCK, Outcome.GIN, Outcome.BIG_GIN, Outcome.DEAD)


class SettleArgs(TypedDict):
    """The arguments of ``settle_gin_hand`` but the rules: a hand's cards, read."""

    knocker_cards: list[Card]
    defender_cards: list[Card]
    knocker_melds: list[list[Card]] | None
    defender_melds: list[list[Card]] | None
    layoffs: list[Layoff] | None
    upcard: Card | None


@dataclass(frozen=True)
class ScoredHand:
    """A stored hand with what the engine made of it."""

    inputs: GinHand
    result: HandResult
    score: HandScore

    @property
    def knocker(self) -> int | None:
        """The seat that went out, ``None`` for a dead hand."""
        seat = self.inputs.get("knocker")
        return seat if isinstance(seat, int) else None

    @property
    def cards_mode(self) -> bool:
        """Whether the hand was entered card by card."""
        return self.inputs.get("mode") == "cards"


def score_hand(
    rules: Rules, inputs: GinHand, seats: Sequence[int] = (0, 1)
) -> ScoredHand:
    """Score stored (or about to be stored) inputs; raises ``HandError`` when they're wrong.

    ``seats`` are the two seats playing this hand (partnership and three-hand gin pass
    their own pairings); ``inputs["knocker"]`` is one of them.

    Every page replays a game's hands, so results are remembered by content: the same
    rules and inputs always score the same (a pure function), so nothing needs
    invalidating when a hand is edited — its new inputs are simply a new key.
    """
    return _score_by_content(rules, content_key(inputs), tuple(seats))


Key = str | tuple[tuple[str, object], ...]


FLAT = frozenset({int, str, type(None)})  # exactly these: a bool is not an int here


def content_key(inputs: Mapping[str, object]) -> Key:
    """A hashable key equal only for equal inputs (of equal types: ``True`` is not ``1``).

    A quick hand's inputs are flat (names to whole numbers, strings, ``None``): their
    items as a tuple, several times cheaper to build than JSON. Those three types never
    compare equal to one another, so the items alone tell equal inputs apart (a bool,
    a float or an enum is not flat: JSON). Cards come in lists: JSON, its names sorted.
    Every page and every saved hand replays its game, so the key of each of its hands
    is built in loops the interpreter runs in C. The items keep the order the inputs
    came in, which is the order they were stored in: the same inputs in another order
    are another key, scored once more, never scored wrongly.

    >>> content_key({"knocker": 1, "mode": "quick"})
    (('knocker', 1), ('mode', 'quick'))
    >>> content_key({"knocker": True}) == content_key({"knocker": 1})
    False
    >>> content_key({"knocker": 1.0}) == content_key({"knocker": 1})
    False
    >>> content_key({"cards": ["7H"]})
    '{"cards":["7H"]}'
    """
    if FLAT.issuperset(map(type, inputs.values())):
        return tuple(inputs.items())
    return json.dumps(inputs, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=8192)
def _score_by_content(rules: Rules, key: Key, seats: tuple[int, ...]) -> ScoredHand:
    # The stored hand the key was made of, as it was.
    inputs = cast(GinHand, json.loads(key) if isinstance(key, str) else dict(key))
    return _score(rules, inputs, seats)


def _score(rules: Rules, inputs: GinHand, seats: Sequence[int]) -> ScoredHand:
    if inputs.get("mode") not in ("quick", "cards"):
        raise HandError([Problem("mode", "a hand is entered quick or with cards")])
    upcard = _card(inputs.get("upcard"))
    knocker = inputs.get("knocker")
    if inputs.get("mode") == "cards":
        result = settle_gin_hand(
            rules,
            _cards(inputs.get("knocker_cards")),
            _cards(inputs.get("defender_cards")),
            knocker_melds=_melds(inputs.get("knocker_melds")),
            defender_melds=_melds(inputs.get("defender_melds")),
            layoffs=_layoffs(inputs.get("layoffs")),
            upcard=upcard,
        )
    else:
        quick = cast(QuickGinHand | DeadHand, inputs)  # its mode is "quick"
        result = score_quick_hand(
            rules,
            Outcome(quick.get("outcome", "knock")),
            int(quick.get("knocker_deadwood") or 0),
            int(quick.get("defender_deadwood") or 0),
            upcard=upcard,
        )
    if result.outcome is Outcome.DEAD or not isinstance(knocker, int) or knocker not in seats:
        score = HandScore(Outcome.DEAD, None, 0)
    else:
        defender = next(s for s in seats if s != knocker)
        score = result.score(knocker, defender)
    return ScoredHand(inputs, result, score)


def canonical_cards(cards: Sequence[Card]) -> list[str]:
    """Cards in the canonical text form stored and returned by the API."""
    return [str(c) for c in cards]


def _card(text: object) -> Card | None:
    if not text:
        return None
    return parse_cards(str(text))[0]


def _cards(value: object) -> list[Card]:
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, list):
        return parse_cards([str(v) for v in value])
    return []


def _melds(value: object) -> list[list[Card]] | None:
    if not isinstance(value, list):
        return None
    return [_cards(meld) for meld in value]


def _layoffs(value: object) -> list[Layoff] | None:
    if not isinstance(value, list):
        return None
    return [Layoff(parse_cards(str(item["card"]))[0], int(item["meld"])) for item in value]
