"""A hand (or deal) as it is stored in ``Hand.inputs``: one type per shape, and the one
place each shape is built.

Every kind of game stores one of these; the sheet, the PDF and the API replay them
through the engine.

- a gin hand (two-player gin, Oklahoma, Hollywood): ``QuickGinHand`` by its totals,
  ``DeadHand`` when nobody went out, or ``CardsGinHand`` card by card; ``upcard`` is
  Oklahoma's upcard (``"7S"``), ``None`` in the other kinds;
- three-hand gin: a gin hand whose ``knocker`` is a role (0 the box, 1 the captain);
- partnership gin: a ``PartnershipDeal``, the gin hands of its two tables, each
  ``knocker`` 0 or 1 within its table's pair;
- Indonesian Remi: a ``RemiQuickDeal`` (each player's plus and minus) or a
  ``RemiCardDeal`` (each player's table and hand).

Hands stored by an older version, or imported, may hold other values; the readers
check what they read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast


class QuickGinHand(TypedDict):
    """A gin hand entered by its totals: the outcome (``knock``, ``gin``, ``big_gin``),
    the seat that went out and both deadwood counts."""

    mode: Literal["quick"]
    outcome: str
    knocker: int
    knocker_deadwood: int
    defender_deadwood: int
    upcard: str | None


class DeadHand(TypedDict):
    """A gin hand nobody went out of (the stock ran out)."""

    mode: Literal["quick"]
    outcome: Literal["dead"]
    knocker: None
    knocker_deadwood: None
    defender_deadwood: None
    upcard: str | None


class StoredLayoff(TypedDict):
    """A defender's card laid off on the knocker's meld (0-based)."""

    card: str
    meld: int


class CardsGinHand(TypedDict):
    """A gin hand entered card by card (canonical cards, ``7S``); melds and layoffs
    ``None`` when left for the engine to find."""

    mode: Literal["cards"]
    knocker: int
    knocker_cards: list[str]
    knocker_melds: list[list[str]] | None
    defender_cards: list[str]
    defender_melds: list[list[str]] | None
    layoffs: list[StoredLayoff] | None
    upcard: str | None


GinHand = QuickGinHand | DeadHand | CardsGinHand
# Three-hand gin stores gin hands, the knocker a role (0 the box, 1 the captain).
ThreeHandHand = GinHand


class PartnershipDeal(TypedDict):
    """A partnership deal: seat 0's table, then seat 2's."""

    mode: Literal["deal"]
    tables: list[GinHand]


class RemiQuickEntry(TypedDict):
    """One player's totals in a Remi deal; only the player who went out has a discard."""

    plus: int
    minus: int
    discard_value: int | None


class RemiQuickDeal(TypedDict):
    """A Remi deal by every player's plus and minus, in seat order."""

    mode: Literal["quick"]
    went_out: int | None
    players: list[RemiQuickEntry]


class RemiCardEntry(TypedDict):
    """One player's cards in a Remi deal: the combinations on the table, the hand."""

    table: list[list[str]]
    hand: list[str]
    final_discard: str | None


class RemiCardDeal(TypedDict):
    """A Remi deal by every player's cards, in seat order."""

    mode: Literal["cards"]
    went_out: int | None
    players: list[RemiCardEntry]


RemiDeal = RemiQuickDeal | RemiCardDeal
StoredHand = GinHand | PartnershipDeal | RemiDeal


def stored_hand(inputs: Mapping[str, Any]) -> StoredHand:
    """A hand's inputs as its JSON column (``Hand.inputs``) or a history entry hands them
    over: the stored hand they were written as (the readers check what they read)."""
    return cast(StoredHand, inputs)


def gin_hand(inputs: StoredHand | Mapping[str, Any]) -> GinHand:
    """A stored hand of a gin game (two-player, Oklahoma, Hollywood, three-hand), or a
    partnership deal's table: a gin hand, as nothing else is stored there."""
    return cast(GinHand, inputs)


def remi_deal(inputs: StoredHand | Mapping[str, Any]) -> RemiDeal:
    """A stored hand of a Remi game: a deal, as nothing else is stored there."""
    return cast(RemiDeal, inputs)


def quick_hand(
    outcome: str,
    knocker: int,
    knocker_deadwood: int,
    defender_deadwood: int,
    upcard: str | None,
) -> QuickGinHand | DeadHand:
    """A hand entered quick, as it is stored: the outcome, the seat that went out and
    both deadwood counts; a dead hand has neither (``dead_hand``)."""
    if outcome == "dead":
        return dead_hand(upcard)
    return {
        "mode": "quick",
        "outcome": outcome,
        "knocker": knocker,
        "knocker_deadwood": knocker_deadwood,
        "defender_deadwood": defender_deadwood,
        "upcard": upcard,
    }


def dead_hand(upcard: str | None = None) -> DeadHand:
    """A dead hand (nobody went out), as it is stored."""
    return {
        "mode": "quick",
        "outcome": "dead",
        "knocker": None,
        "knocker_deadwood": None,
        "defender_deadwood": None,
        "upcard": upcard,
    }


def cards_hand(
    knocker: int,
    knocker_cards: list[str],
    knocker_melds: list[list[str]] | None,
    defender_cards: list[str],
    defender_melds: list[list[str]] | None,
    layoffs: list[StoredLayoff] | None,
    upcard: str | None,
) -> CardsGinHand:
    """A hand entered card by card, as it is stored (cards in canonical text)."""
    return {
        "mode": "cards",
        "knocker": knocker,
        "knocker_cards": knocker_cards,
        "knocker_melds": knocker_melds,
        "defender_cards": defender_cards,
        "defender_melds": defender_melds,
        "layoffs": layoffs,
        "upcard": upcard,
    }


def partnership_deal(tables: list[GinHand]) -> PartnershipDeal:
    """A partnership deal as it is stored: its two tables' hands."""
    return {"mode": "deal", "tables": tables}


def remi_quick_deal(went_out: int | None, players: list[RemiQuickEntry]) -> RemiQuickDeal:
    """A Remi deal entered by totals, as it is stored."""
    return {"mode": "quick", "went_out": went_out, "players": players}


def remi_card_deal(went_out: int | None, players: list[RemiCardEntry]) -> RemiCardDeal:
    """A Remi deal entered card by card, as it is stored."""
    return {"mode": "cards", "went_out": went_out, "players": players}
