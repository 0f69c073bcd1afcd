"""Whether a hand entered repeats another: the same hand typed twice (two phones at the
table, or one pressing Save again) is the slip a score sheet most often meets.

A hand repeats another when it says the same about the deal, per kind of game:

- a gin hand (two-player, Oklahoma, Hollywood, three-hand) by its totals: the same
  outcome, the same player (or role) out, the same deadwood on both sides and (Oklahoma)
  the same upcard; a dead hand repeats a dead hand;
- a gin hand by its cards: the same player out holding the same cards against the same
  cards (in any order; melds and layoffs as the engine or the player arranged them);
- a partnership deal: both tables repeat;
- a Remi deal: the same player out and every player's plus and minus (by totals), or
  every player's table and hand (by cards), the same.

A hand by its totals never repeats one by its cards: the two say different things.

>>> knock = {"mode": "quick", "outcome": "knock", "knocker": 0, "knocker_deadwood": 3,
...         "defender_deadwood": 12, "upcard": None}
>>> same_hand(knock, dict(knock))
True
>>> same_hand(knock, {**knock, "defender_deadwood": 13})
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

GIN_TOTALS = ("outcome", "knocker", "knocker_deadwood", "defender_deadwood", "upcard")


def same_hand(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Whether two stored hands (``hands.stored``) say the same about the deal."""
    if first.get("mode") != second.get("mode"):
        return False
    if first.get("mode") == "deal":  # partnership: its two tables
        tables, others = first.get("tables"), second.get("tables")
        return (isinstance(tables, list) and isinstance(others, list)
                and len(tables) == len(others)
                and all(same_hand(a, b) for a, b in zip(tables, others, strict=True)))
    if "players" in first or "players" in second:  # Remi
        return _same_deal(first, second)
    if first.get("mode") == "cards":
        return (first.get("knocker") == second.get("knocker")
                and first.get("upcard") == second.get("upcard")
                and _cards(first.get("knocker_cards")) == _cards(second.get("knocker_cards"))
                and _cards(first.get("defender_cards")) == _cards(second.get("defender_cards")))
    return all(first.get(key) == second.get(key) for key in GIN_TOTALS)


def _same_deal(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    players, others = first.get("players"), second.get("players")
    if first.get("went_out") != second.get("went_out"):
        return False
    if not isinstance(players, list) or not isinstance(others, list):
        return False
    if len(players) != len(others):
        return False
    if first.get("mode") == "cards":
        return all(_same_cards_entry(a, b) for a, b in zip(players, others, strict=True))
    return players == others


def _same_cards_entry(first: Any, second: Any) -> bool:
    """One Remi player's cards: the same combinations on the table and the same hand."""
    if not isinstance(first, Mapping) or not isinstance(second, Mapping):
        return False
    tables = [sorted(_cards(c)) for c in first.get("table") or []]
    others = [sorted(_cards(c)) for c in second.get("table") or []]
    return (sorted(tables) == sorted(others)
            and _cards(first.get("hand")) == _cards(second.get("hand"))
            and first.get("final_discard") == second.get("final_discard"))


def _cards(cards: object) -> list[str]:
    """Cards as a sorted list (stored in canonical notation), whatever order they came in."""
    return sorted(str(c) for c in cards) if isinstance(cards, list) else []
