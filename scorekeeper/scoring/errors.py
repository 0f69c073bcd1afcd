"""Hand errors that name every problem at once, each with where it is.

``where`` is a dotted path of the JSON API's hand input (``knocker.cards``,
``defender.layoffs``, ``upcard``, ``knocker_deadwood`` …) so a form or an API client
can put each message next to the field it is about.

>>> error = HandError([Problem("defender.cards", "the defender must hold 10 cards, not 9")])
>>> str(error)
'defender.cards: the defender must hold 10 cards, not 9'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a hand's input."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class HandError(ValueError):
    """A hand that cannot be scored as entered; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))
