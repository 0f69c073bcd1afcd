"""A game's sheet: its stored hands replayed through the engine.

Nothing here decides a score; it only feeds the stored inputs to ``scoring/`` in
order and keeps each hand's result beside the game state, for the page, the PDF
and the API alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .hands import ScoredHand, score_hand
from .models import GameData
from .scoring import Rules
from .scoring.game import GinGame, Tally, play_gin_game, resume_gin_game
from .stamp import STAMP


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


def game_rules(game: GameData) -> Rules:
    """The game's frozen rules (read once per distinct set: ``Rules`` is immutable).

    Kept by the settings as stored, each with its type (``True`` and ``1`` are equal
    and hash alike, but are not the same setting), in their stored order: the same
    settings in another order are only another entry. A value that cannot be a key
    (a list) is read anew each time."""
    items = tuple((name, type(value), value) for name, value in game.rules.items())
    try:
        return _rules(items)
    except TypeError:  # unhashable
        return Rules.from_dict(game.rules)


@lru_cache(maxsize=256)
def _rules(items: tuple[tuple[str, type, Any], ...]) -> Rules:
    return Rules.from_dict({name: value for name, _type, value in items})


def gin_sheet(game: GameData) -> GinSheet:
    """Replay a two-player game's hands."""
    rules = game_rules(game)
    hands = tuple(score_hand(rules, hand.inputs) for hand in game.hands)
    played = play_gin_game(
        rules, game.players, int(game.setup.get("dealer", 0)), [h.score for h in hands]
    )
    return GinSheet(rules, tuple(game.players), hands, played)


def resume_gin_sheet(game: GameData, tally: Tally, inputs: Mapping[str, Any]) -> GinSheet:
    """The game with ``inputs`` as its next hand, gone on from ``tally`` (the game as
    it stood after its stored hands): its ``hands`` and rows are the new hand's only,
    everything else is the whole game's."""
    rules = game_rules(game)
    hand = score_hand(rules, inputs)
    played = resume_gin_game(rules, game.players, tally, [hand.score])
    return GinSheet(rules, tuple(game.players), (hand,), played)


def tally_json(tally: Tally, version: int) -> dict[str, Any]:
    """A tally as the game keeps it (``Game.tally``), valid for the game at ``version``
    and for this engine (``stamp.STAMP``) only.

    >>> tally_json(Tally(3, (40, 12), (2, 1), 0, None), 3)["totals"]
    [40, 12]
    """
    return {"version": version, "stamp": STAMP[:16], "hands": tally.hands,
            "totals": list(tally.totals), "boxes": list(tally.boxes),
            "dealer": tally.dealer, "winner": tally.winner}


def stored_tally(game: GameData) -> Tally | None:
    """The game's kept tally, if it was worked out for the game as it is now (its
    version) by this engine; else ``None``: the game must be replayed.

    >>> from types import SimpleNamespace
    >>> kept = tally_json(Tally(3, (40, 12), (2, 1), 0, None), 3)
    >>> stored_tally(SimpleNamespace(tally=kept, version=3))
    Tally(hands=3, totals=(40, 12), boxes=(2, 1), dealer=0, winner=None)
    >>> stored_tally(SimpleNamespace(tally=kept, version=4)) is None  # changed since
    True
    """
    kept = game.tally
    if not kept or kept.get("version") != game.version or kept.get("stamp") != STAMP[:16]:
        return None
    try:
        return Tally(int(kept["hands"]), tuple(map(int, kept["totals"])),
                     tuple(map(int, kept["boxes"])), int(kept["dealer"]),
                     None if kept["winner"] is None else int(kept["winner"]))
    except (KeyError, TypeError, ValueError):  # not one this code wrote: replay instead
        return None
