"""The rules engine: cards, melds, arrangements, layoffs and settling gin hands.

Pure standard-library Python; the web views, the JSON API and the PDF sheets all ask
this package and nothing else computes a score.

>>> best_arrangement("AS 2S 3S 7H 7D 7C KD QC 9H 5C").deadwood_points
34
>>> settle_gin_hand(PRESETS["classic"], "AS 2S 3S 7H 7D 7C 4D 4C 4H 5C",
...                 "KD QC JH 9S 9H 2C 3C 8D TD 6H").points
72
"""

from .arrange import Arrangement, all_best_arrangements, best_arrangement, least_deadwood
from .cards import DECK, Card, CardError, Rank, Suit, check_distinct, find_duplicates, parse_cards
from .errors import HandError, Problem
from .explain import N_, Step
from .layoffs import DefenderPlay, Layoff, check_layoffs, defender_best
from .melds import Meld, MeldError, MeldKind, is_meld
from .outcome import HandScore, Outcome, Side
from .rules import PRESETS, Rules, RulesError, rules_from_spec
from .settle import (
    DefenderResult,
    HandResult,
    KnockerResult,
    score_quick_hand,
    settle_gin_hand,
)

__all__ = [
    "DECK",
    "N_",
    "PRESETS",
    "Arrangement",
    "Card",
    "CardError",
    "DefenderPlay",
    "DefenderResult",
    "HandError",
    "HandResult",
    "HandScore",
    "KnockerResult",
    "Layoff",
    "Meld",
    "MeldError",
    "MeldKind",
    "Outcome",
    "Problem",
    "Rank",
    "Rules",
    "RulesError",
    "Side",
    "Step",
    "Suit",
    "all_best_arrangements",
    "best_arrangement",
    "check_distinct",
    "check_layoffs",
    "defender_best",
    "find_duplicates",
    "is_meld",
    "least_deadwood",
    "parse_cards",
    "rules_from_spec",
    "score_quick_hand",
    "settle_gin_hand",
]
