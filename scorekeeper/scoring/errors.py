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

from collections.abc import Iterable
from typing import NamedTuple

from .explain import Step, step_of


class Problem(NamedTuple):
    """One thing wrong with an input: where it is, and what (a ``Message`` or text)."""

    where: str
    message: str

    @property
    def step(self) -> Step | None:
        """The message as a template and its values, for the web layer to translate."""
        return step_of(self.message)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class ProblemsError(ValueError):
    """Input that cannot be used; ``problems`` lists every ``Problem`` at once.

    Each kind of input has its own subclass (``HandError``, ``GameError``,
    ``RulesError``, ``RemiError``), so a caller can tell them apart."""

    def __init__(self, problems: Iterable[tuple[str, str]]) -> None:
        self.problems = [Problem(where, message) for where, message in problems]
        super().__init__("; ".join(str(problem) for problem in self.problems))

    @property
    def steps(self) -> list[tuple[str, Step | None]]:
        """(where, the message as a template and its values; ``None`` for a plain string)."""
        return [(problem.where, problem.step) for problem in self.problems]


class HandError(ProblemsError):
    """A hand that cannot be scored as entered; ``problems`` lists every reason."""
