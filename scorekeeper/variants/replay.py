"""A game's sheet: its stored hands replayed through the engine.

Nothing here decides a score; it only feeds the stored inputs to ``scoring/`` in
order and keeps each hand's result beside the game state, for the page, the PDF
and the API alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..hands.inputs import ScoredHand, score_hand
from ..hands.stored import gin_hand
from ..models import GameData
from ..scoring import Rules
from ..scoring.game import GinGame, play_gin_game


@dataclass(frozen=True)
class GinSheet:
    """A two-player gin (or Oklahoma) game as its sheet shows it."""

    rules: Rules
    players: tuple[str, ...]
    hands: tuple[ScoredHand, ...]
    game: GinGame

    @property
    def finished(self) -> bool:
        """Whether somebody reached the target."""
        return self.game.finished

    def ended_before(self, number: int) -> bool:
        """Whether hand ``number`` was entered after the game ended."""
        return number in self.game.ignored


def game_rules(game: GameData) -> Rules:
    """The game's frozen rules."""
    return Rules.from_dict(game.rules)


def gin_hand_scored(rules: Rules, inputs: Mapping[str, Any]) -> ScoredHand:
    """One stored gin hand through the engine."""
    return score_hand(rules, gin_hand(inputs))


def gin_sheet(game: GameData, rules: Rules, hands: Sequence[ScoredHand]) -> GinSheet:
    """A two-player game's sheet, its hands scored (``gin_hand_scored``), in order."""
    played = play_gin_game(
        rules, game.players, int(game.setup.get("dealer", 0)), [h.score for h in hands]
    )
    return GinSheet(rules, tuple(game.players), tuple(hands), played)
