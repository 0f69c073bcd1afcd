"""What one hand produced, in the words of a score sheet."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property


class Outcome(StrEnum):
    """How a hand ended."""

    KNOCK = "knock"  # the knocker had less deadwood and scores the difference
    UNDERCUT = "undercut"  # the defender had as little or less and scores
    GIN = "gin"
    BIG_GIN = "big_gin"
    TIE = "tie"  # only with tie_is_undercut off: nobody scores
    DEAD = "dead"  # the stock ran out; nobody scores, same dealer


class Side(StrEnum):
    """The two sides of a settled hand."""

    KNOCKER = "knocker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class HandScore:
    """A hand as the sheet records it: how it ended, which seat won, and the points.

    ``winner`` is a seat number (an index into the game's players, or a role index in
    three-hand gin); ``None`` for a dead hand or a tie. ``doubled`` marks an Oklahoma
    spade hand.
    """

    outcome: Outcome
    winner: int | None
    points: int
    doubled: bool = False

    @cached_property  # asked several times a hand at every replay of a game
    def won(self) -> bool:
        """Whether the hand gives a box to somebody."""
        return self.winner is not None and self.outcome not in (Outcome.DEAD, Outcome.TIE)
