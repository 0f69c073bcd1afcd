"""Worked deals shared by the page and API tests: RULES.md §8's single hands, its Remi
deal, and a partnership game of five deals."""

from typing import Any

# RULES.md §8 single hands: (knocker's cards, defender's cards, outcome, winner,
# classic points, russian points). The hands are built so K and D are the table's.
EXAMPLES = {
    "1 knock 5 vs 9": (
        "2S 3S 4S 7H 7D 7C 9D TD JD 5C", "KH KS KC 4H 5H 6H AD 2H 3C 3D",
        "knock", "knocker", 4, 4,
    ),
    "2 gin vs 12": (
        "2S 3S 4S 7H 7D 7C 9D TD JD QD", "KH KS KC 4H 5H 6H AD 2H 3C 6C",
        "gin", "knocker", 32, 37,
    ),
    "3 knock 8 vs 5": (
        "2S 3S 4S 7H 7D 7C 9D TD JD 8C", "KH KS KC 4H 5H 6H QS QH QC 5D",
        "undercut", "defender", 13, 28,
    ),
    "4 knock 6 vs 6": (
        "2S 3S 4S 7H 7D 7C 9D TD JD 6C", "KH KS KC 4H 5H 6H QS QH QC 6D",
        "undercut", "defender", 10, 25,
    ),
    "5 gin vs 0": (
        "2S 3S 4S 7H 7D 7C 9D TD JD QD", "KH KS KC QS QH QC 3H 4H 5H 6H",
        "gin", "knocker", 20, 25,
    ),
    "6 knock 1, a 4 laid off, 4 kept": (
        "5S 6S 7S 9H 9D 9C TD JD QD AC", "4S KH KS KC QS QH QC AD AH 2C",
        "knock", "knocker", 3, 3,
    ),
    "7 the layoff example": (
        "KS KH KD 5S 6S 7S 9C TC JC JD", "8S 9S 7C 8C 2S 2H 2D 2C AC 8D",
        "undercut", "defender", 11, 26,
    ),
}
EXAMPLE_7 = EXAMPLES["7 the layoff example"]

# RULES.md §8's Remi deal; Bob holds seed 002's hand (−10).
SECTION_8: dict[str, Any] = {
    "went_out": 0,
    "final_discard": "AD",
    "players": [
        {"table": [], "hand": "2H 3H 4H 5H KC KD KS"},
        {"table": [], "hand": "QC JD JC 6C 5C 4C 3C"},
        {"table": ["7S 8S 9S"], "hand": "9D 9C 9H AS"},
        {"table": [], "hand": "QS QH QD 2S 6H 8D AH"},
    ],
}

# A partnership game (preset ``partnership``, Ann & Cid v Bob & Dan) of five deals, worked
# out deal by deal in tests/test_variant_partnership.py's docstring: per table, (outcome,
# knocker within the pair, knocker deadwood, defender deadwood).
TableHand = tuple[str, int | None, int | None, int | None]
PARTNERSHIP_DEALS: list[tuple[TableHand, TableHand]] = [
    (("knock", 0, 3, 13), ("gin", 0, None, 20)),
    (("knock", 0, 2, 22), ("knock", 1, 5, 35)),
    (("dead", None, None, None), ("knock", 1, 4, 14)),
    (("knock", 0, 6, 6), ("knock", 0, 1, 26)),
    (("gin", 0, None, 30), ("knock", 0, 1, 16)),
]

# RULES.md §8 example 7: the defender lays off four cards and undercuts.
KNOCKER = "KS KH KD 5S 6S 7S 9C TC JC JD"
DEFENDER = "8S 9S 7C 8C 2S 2H 2D 2C AC 8D"
HAND = {"rules": "russian", "knocker": {"cards": KNOCKER}, "defender": {"cards": DEFENDER}}
