"""Hand errors that name every problem at once, each with where it is.

``where`` is a dotted path of the JSON API's hand input (``knocker.cards``,
``defender.layoffs``, ``upcard``, ``knocker_deadwood`` …) so a form or an API client
can put each message next to the field it is about.

>>> error = HandError([Problem("defender.cards", "the defender must hold 10 cards, not 9")])
>>> str(error)
'defender.cards: the defender must hold 10 cards, not 9'

The engine's messages are ``Message`` strings: ``Problem.step`` is the structured form
a page words in the player's language (``None`` for a plain string).
"""

from __future__ import annotations

from dataclasses import dataclass

from .explain import Step, step_of


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a hand's input."""

    where: str
    message: str

    @property
    def step(self) -> Step | None:
        """The message as a template and its values, for the web layer to translate."""
        return step_of(self.message)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class HandError(ValueError):
    """A hand that cannot be scored as entered; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))
